// SPDX-License-Identifier: GPL-2.0-only
/*
 * The merge, once every worker is done, in one thread: the chunks of all
 * encoders in order, concatenated (vmlinux) or appended to the module's
 * split BTF; the FUNCs (btf_encoders_funcs.c) and the VARs
 * (btf_encoders_vars.c) added; the whole deduplicated once; then whether a
 * chunk's own dedup may have made the result differ from upstream's
 * (BTF_ENCODERS_AGAIN).  btf_encoders__merge() at the bottom reads as the
 * steps go.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_base.h"
#include "btf_dedup.h"
#include "btf_encoder_priv.h"
#include "lib/btf_types.h"
#include "lib/clock.h"
static int chunk_ptr__cmp(const void *a, const void *b)
{
	const struct btf_chunk *x = *(struct btf_chunk **)a, *y = *(struct btf_chunk **)b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* All the chunks of all encoders, in order, in *@out (to free): 0 or -ENOMEM. */
static int btf_encoders__chunks(struct btf_encoder **encoders, unsigned int nr,
				struct btf_chunk ***out, size_t *nr_chunks)
{
	struct btf_chunk **chunks;
	size_t n = 0, i, j;

	for (i = 0; i < nr; i++)
		n += encoders[i]->chunks.nr;
	chunks = calloc(n ?: 1, sizeof(*chunks));
	if (!chunks)
		return -ENOMEM;
	for (i = 0, n = 0; i < nr; i++)
		for (j = 0; j < encoders[i]->chunks.nr; j++)
			chunks[n++] = encoders[i]->chunks.data[j];
	qsort(chunks, n, sizeof(*chunks), chunk_ptr__cmp);
	*out = chunks;
	*nr_chunks = n;
	return 0;
}

static int remap_to_merged(uint32_t *id, void *ctx)
{
	const struct btf_chunk *c = ctx;

	if (*id >= c->first_id + c->nr_types)
		return -EINVAL;
	*id = btf_chunk__merged_id(c, *id);
	return 0;
}

/*
 * A module's chunks appended with libbpf's btf__add_btf() to @btf (of its
 * own, or split BTF on libbpf's reading of the base), each chunk freed once
 * appended: the BTF grows as the chunks go, and needs no copy made
 * modifiable for the functions and variables (which btf__new() of the
 * bytes concatenated would).
 */
static int btf_chunks__add(struct btf *btf, struct btf_chunk **chunks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct btf_chunk *c = chunks[i];
		int first;

		if (c->first_id != 1 || c->nr_types != btf__type_cnt(c->btf) - 1)
			return -EPROTO;
		c->merged_id = btf__type_cnt(btf);
		/* libbpf 1.1 takes adding nothing for running out of memory. */
		first = c->nr_types ? btf__add_btf(btf, c->btf) : 0;
		if (first < 0)
			return first;
		btf__free(c->btf);
		c->btf = NULL;
	}
	return 0;
}

/*
 * Where the types of chunk @c (less the carriers) and its strings are, in
 * its raw BTF as Documentation/bpf/btf.rst lays it out: a compacted chunk's
 * btf__raw_data() is the buffer it was made from.
 */
struct chunk_bytes {
	const char *types, *strs;
	size_t types_len, strs_len;
};

static int btf_chunk__bytes(const struct btf_chunk *c, struct chunk_bytes *b)
{
	const struct btf_header *hdr;
	const char *t;
	uint32_t size, i;

	hdr = btf__raw_data(c->btf, &size);
	if (!hdr)
		return -ENOMEM;
	b->types = (const char *)hdr + hdr->hdr_len + hdr->type_off;
	b->strs = (const char *)hdr + hdr->hdr_len + hdr->str_off;
	b->strs_len = hdr->str_len;
	for (i = 0, t = b->types; i < c->nr_types; i++)
		t += btf_type__size((const struct btf_type *)t);
	b->types_len = t - b->types;
	return 0;
}

/*
 * Appends chunk @c's bytes at *@types and *@strs, moving the types' string
 * offsets by @strs_base and their IDs to the merged BTF's, and advances both.
 */
static int btf_chunk__copy(struct btf_chunk *c, char **types, char **strs, uint32_t strs_base)
{
	struct chunk_bytes b;
	char *t = *types;
	int err;

	err = btf_chunk__bytes(c, &b);
	if (err)
		return err;
	memcpy(*types, b.types, b.types_len);
	memcpy(*strs, b.strs, b.strs_len);
	*types += b.types_len;
	*strs += b.strs_len;
	for (; t < *types && !err; t += btf_type__size((struct btf_type *)t)) {
		btf_type__shift_strs((struct btf_type *)t, strs_base);
		err = btf_type__visit_ids((struct btf_type *)t, remap_to_merged, c);
	}
	return err;
}

/*
 * Concatenates the chunks into raw BTF: the types are copied as bytes with
 * their IDs and string offsets moved, the string tables follow one another
 * (dedup merges equal strings), and each chunk's BTF is freed once copied.
 */
static int btf_chunks__concat(struct btf_chunk **chunks, size_t n, struct btf **out)
{
	size_t types_len = 0, strs_len = 0, i;
	struct btf_header *hdr;
	struct btf *btf = NULL;
	char *buf = NULL, *p, *s;
	uint32_t next_id = 1;
	struct chunk_bytes b;
	int err = 0;

	for (i = 0; i < n && !err; i++) {
		err = btf_chunk__bytes(chunks[i], &b);
		types_len += b.types_len;
		strs_len += b.strs_len;
	}
	buf = err ? NULL : malloc(sizeof(*hdr) + types_len + strs_len);
	if (!buf) {
		err = err ?: -ENOMEM;
		goto out;
	}
	hdr = (struct btf_header *)buf;
	*hdr = (struct btf_header){ .magic = BTF_MAGIC,
				    .version = BTF_VERSION,
				    .hdr_len = sizeof(*hdr),
				    .type_len = types_len,
				    .str_off = types_len,
				    .str_len = strs_len };
	p = buf + sizeof(*hdr);
	s = p + types_len;
	for (i = 0; i < n && !err; i++) {
		chunks[i]->merged_id = next_id;
		next_id += chunks[i]->nr_types;
		err = btf_chunk__copy(chunks[i], &p, &s, s - (buf + sizeof(*hdr) + types_len));
		/* Everything from here on works on the merged BTF. */
		btf__free(chunks[i]->btf);
		chunks[i]->btf = NULL;
	}
	btf = err ? NULL : btf__new(buf, sizeof(*hdr) + types_len + strs_len);
	err = err ?: (btf ? 0 : -errno);
out:
	free(buf);
	*out = btf;
	return err;
}

static int u32__cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether a chunk's dedup resolved a declaration whose name more than one
 * struct or union, or more than one enum with values, of @btf bears.
 */
static int btf_encoders__resolved_ambiguous(struct btf_encoder **encoders, unsigned int nr,
					    struct btf *btf, bool *ambiguous)
{
	uint32_t id, end = btf__type_cnt(btf), *names;
	size_t n[2] = {}, i, j;
	unsigned int k;

	*ambiguous = false;
	names = malloc(2 * (end ?: 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	/* The names of structs and unions from names[0], of enums from names[end]. */
	for (id = 1; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t->name_off)
			continue;
		if (btf_is_composite(t))
			names[n[0]++] = t->name_off;
		else if (btf_is_any_enum(t) && btf_vlen(t))
			names[end + n[1]++] = t->name_off;
	}
	/* Each keeps the names it has more than once. */
	for (k = 0; k < 2; k++) {
		uint32_t *v = names + k * end;

		qsort(v, n[k], sizeof(*v), u32__cmp);
		for (i = j = 0; i + 1 < n[k]; i++)
			if (v[i] == v[i + 1] && (!j || v[j - 1] != v[i]))
				v[j++] = v[i];
		n[k] = j;
	}
	for (k = 0; k < nr && !*ambiguous; k++) {
		for (i = 0; i < encoders[k]->resolved_decls.nr && !*ambiguous; i++) {
			int off = btf__find_str(btf, encoders[k]->resolved_decls.data[i]);
			uint32_t key = off;

			if (off <= 0)
				continue;
			*ambiguous = bsearch(&key, names, n[0], sizeof(*names), u32__cmp) ||
				     bsearch(&key, names + end, n[1], sizeof(*names), u32__cmp);
		}
	}
	free(names);
	return 0;
}

/*
 * Whether split BTF is deduplicated by btf_dedup__split(), on the base as
 * it is read: not when libbpf must see the base (one in the other byte
 * order, output in the other byte order, distilled_base, which works on
 * libbpf's split BTF).
 */
static bool btf_encoders__split_raw(const struct btf_encoder_input *in)
{
	const struct btf_encoder_conf *conf = in->conf;

	return btf_base__native(conf->base) && in->big_endian == (BYTE_ORDER == BIG_ENDIAN) &&
	       !btf_encoder_conf__has(conf, BTF_FEAT_DISTILLED_BASE);
}

/* The BTF a module's chunks go into: of its own, or split on libbpf's reading of the base. */
static int btf_encoders__split_btf(const struct btf_encoder_input *in, struct btf **out)
{
	struct btf *base;
	int err = 0;

	if (btf_encoders__split_raw(in)) {
		*out = btf__new_empty();
	} else {
		err = btf_base__libbpf(in->conf->base, &base);
		*out = err ? NULL : btf__new_empty_split(base);
	}
	return err ?: (*out ? 0 : -ENOMEM);
}

/* The merged BTF deduplicated: split BTF on the base into @out's raw bytes, else in place. */
static int btf_encoders__dedup(const struct btf_encoder_input *in, struct btf *btf,
			       struct btf_encoded *out, uint32_t *nr_types)
{
	const struct btf_encoder_conf *conf = in->conf;
	int err;

	if (conf->base && btf_encoders__split_raw(in)) {
		err = btf_dedup__split(btf, conf->base,
				       btf_encoder_conf__follows(conf,
								 BTF_RULE_DEDUP_TYPEDEF_GRAPHS),
				       &out->raw, &out->raw_size, nr_types);
		*nr_types += btf_base__type_cnt(conf->base) - 1;
		return err;
	}
	err = btf_dedup__run(btf);
	*nr_types = btf__type_cnt(btf) - 1;
	return err;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf_encoded *out)
{
	const struct btf_encoder_input *in = encoders[0]->in;
	const struct btf_encoder_conf *conf = in->conf;
	double t_start = clock__now(), t_chunks, t_funcs;
	struct btf_chunk **chunks;
	struct btf *btf = NULL;
	unsigned int nr_types, nr_out = 0;
	size_t nr_chunks, i;
	int err;

	*out = (struct btf_encoded){};
	err = btf_encoders__chunks(encoders, nr, &chunks, &nr_chunks);
	if (err)
		return err;
	out->empty = true;
	for (i = 0; i < nr_chunks; i++)
		out->empty &= !chunks[i]->nr_types;
	if (!conf->base)
		err = btf_chunks__concat(chunks, nr_chunks, &btf);
	else
		err = btf_encoders__split_btf(in, &btf) ?: btf_chunks__add(btf, chunks, nr_chunks);
	free(chunks);
	if (btf)
		btf__set_pointer_size(btf, in->ptr_size); /* the variables' sizes */
	nr_types = btf ? btf__type_cnt(btf) - 1 : 0;
	t_chunks = clock__now();
	if (!err && in->functions)
		err = btf_encoders__add_saved_funcs(in, btf);
	if (!err && in->symtab)
		err = btf_encoders__add_vars(encoders, nr, btf, out);
	t_funcs = clock__now();
	if (!err)
		err = btf_encoders__dedup(in, btf, out, &nr_out);
	if (!err && !conf->base && !in->whole_dedup) {
		bool again;

		err = btf_encoders__resolved_ambiguous(encoders, nr, btf, &again);
		if (!err && again) {
			if (conf->verbose)
				fprintf(stderr,
					"btf_encoder: a chunk resolved a declaration of a name that several types bear: the chunks are encoded again, deduplicated once\n");
			btf__free(btf);
			return BTF_ENCODERS_AGAIN;
		}
	}
	if (conf->verbose)
		fprintf(stderr,
			"btf_encoder: merge %.3f s (%zu chunks, %u types), functions and variables %.3f s, dedup %.3f s (%u types)\n",
			t_chunks - t_start, nr_chunks, nr_types, t_funcs - t_chunks,
			clock__now() - t_funcs, nr_out);
	if (err || out->raw) {
		btf__free(btf);
		return err;
	}
	out->btf = btf;
	return 0;
}
