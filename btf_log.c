// SPDX-License-Identifier: GPL-2.0-only
/*
 * With -V, every type of the BTF written, one line each (and one per member,
 * value or variable), in upstream pahole's words (its btf_encoder__log_type()
 * and friends, read in upstream's btf_encoder.c; upstream's
 * tests/btf_verbose.sh greps them).  Upstream says them as it adds each
 * type, with the IDs before its dedup; we say them of the final BTF, with
 * its IDs.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_log.h"
#include "lib/btf_kinds.h"

/* A name as upstream prints it: "(anon)" for none. */
static const char *log_name(const struct btf *btf, uint32_t off)
{
	const char *s = off ? btf__name_by_offset(btf, off) : NULL;

	return s && *s ? s : "(anon)";
}

static void log_int(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	uint32_t v = *(const uint32_t *)(t + 1);
	const char *enc = "(none)";

	(void)btf;
	if (BTF_INT_ENCODING(v) & BTF_INT_SIGNED)
		enc = "SIGNED";
	else if (BTF_INT_ENCODING(v) & BTF_INT_CHAR)
		enc = "CHAR";
	else if (BTF_INT_ENCODING(v) & BTF_INT_BOOL)
		enc = "BOOL";
	fprintf(out, " size=%u nr_bits=%u encoding=%s\n", t->size, BTF_INT_BITS(v), enc);
}

static void log_float(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	fprintf(out, " size=%u nr_bits=%u\n", t->size, t->size * 8);
}

static void log_ref(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	fprintf(out, " type_id=%u\n", t->type);
}

static void log_fwd(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	fprintf(out, " %s\n", btf_kflag(t) ? "union" : "struct");
}

static void log_array(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_array *a = btf_array(t);

	(void)btf;
	fprintf(out, " type_id=%u index_type_id=%u nr_elems=%u\n", a->type, a->index_type,
		a->nelems);
}

static void log_composite(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	bool bitfields = false;
	int i;

	fprintf(out, " size=%u\n", t->size);
	for (i = 0; i < btf_vlen(t); i++, m++) {
		/* Upstream's form of bitfields from the first one on, as it adds them. */
		bitfields |= btf_kflag(t) && BTF_MEMBER_BITFIELD_SIZE(m->offset);
		if (bitfields)
			fprintf(out, "\t%s type_id=%u bitfield_size=%u bits_offset=%u\n",
				log_name(btf, m->name_off), m->type,
				BTF_MEMBER_BITFIELD_SIZE(m->offset),
				BTF_MEMBER_BIT_OFFSET(m->offset));
		else
			fprintf(out, "\t%s type_id=%u bits_offset=%u\n", log_name(btf, m->name_off),
				m->type,
				btf_kflag(t) ? BTF_MEMBER_BIT_OFFSET(m->offset) : m->offset);
	}
}

static void log_enum(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_enum *e = btf_enum(t);
	int i;

	fprintf(out, " size=%u\n", t->size);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		if (btf_kflag(t))
			fprintf(out, "\t%s val=%" PRId32 "\n", log_name(btf, e->name_off), e->val);
		else
			fprintf(out, "\t%s val=%" PRIu32 "\n", log_name(btf, e->name_off),
				(uint32_t)e->val);
	}
}

static void log_enum64(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_enum64 *e = btf_enum64(t);
	int i;

	fprintf(out, " size=%u\n", t->size);
	for (i = 0; i < btf_vlen(t); i++, e++) {
		uint64_t v = btf_enum64_value(e);

		if (btf_kflag(t))
			fprintf(out, "\t%s val=%" PRId64 "\n", log_name(btf, e->name_off),
				(int64_t)v);
		else
			fprintf(out, "\t%s val=%" PRIu64 "\n", log_name(btf, e->name_off), v);
	}
}

static void log_proto(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	int i, n = btf_vlen(t);

	fprintf(out, " return=%u args=(", t->type);
	if (!n)
		fprintf(out, "void");
	for (i = 0; i < n; i++, p++) {
		const char *name = p->name_off ? btf__name_by_offset(btf, p->name_off) : NULL;

		if (i)
			fprintf(out, ", ");
		if (!p->type && i == n - 1)
			fprintf(out, "vararg");
		else
			fprintf(out, "%u %s", p->type, name ?: "(null)");
	}
	fprintf(out, ")\n");
}

static void log_var(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	fprintf(out, " type=%u linkage=%u\n", t->type, btf_var(t)->linkage);
}

static void log_datasec(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	int i;

	(void)btf;
	fprintf(out, " size=%u vlen=%u\n", t->size, btf_vlen(t));
	for (i = 0; i < btf_vlen(t); i++, v++)
		fprintf(out, "\ttype=%u offset=%u size=%u\n", v->type, v->offset, v->size);
}

static void log_decl_tag(FILE *out, const struct btf *btf, const struct btf_type *t)
{
	(void)btf;
	fprintf(out, " type_id=%u component_idx=%d\n", t->type, btf_decl_tag(t)->component_idx);
}

typedef void (*log_fn)(FILE *out, const struct btf *btf, const struct btf_type *t);

/* The kinds' rows (lib/btf_kinds.h): their names, and how each is said ("none": not said). */
#define log_none NULL
static const struct {
	const char *name;
	log_fn log;
} kind_logs[NR_BTF_KINDS] = {
#define BTF_KIND_LOG(kind, name, extra, item, named, ids, log, ...) \
	[BTF_KIND_##kind] = { name, log_##log },
	BTF_KINDS(BTF_KIND_LOG)
#undef BTF_KIND_LOG
};
#undef log_none

void btf_log__types(const struct btf *btf, uint32_t first_id, FILE *out)
{
	uint32_t id, n = btf__type_cnt(btf);

	for (id = first_id; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		unsigned int kind = btf_kind(t);

		if (kind >= NR_BTF_KINDS || !kind_logs[kind].log)
			continue;
		fprintf(out, "[%u] %s %s", id, kind_logs[kind].name, log_name(btf, t->name_off));
		kind_logs[kind].log(out, btf, t);
	}
}
