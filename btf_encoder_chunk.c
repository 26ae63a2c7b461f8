// SPDX-License-Identifier: GPL-2.0-only
/*
 * A worker's chunks (see btf_encoder.h): each begun with a BTF of its own,
 * and once its CUs are encoded deduplicated on its own, the type IDs that
 * its function states and variables hold carried through the dedup, then
 * compacted to wait for the merge (btf_merge.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup.h"
#include "btf_encoder_priv.h"
#include "lib/btf_types.h"

int btf_encoder__begin_chunk(struct btf_encoder *e, uint32_t index)
{
	struct btf_chunk *c = calloc(1, sizeof(*c)), **slot = c ? darray__push(&e->chunks) : NULL;

	if (!slot) {
		free(c);
		return -ENOMEM;
	}
	*slot = c;
	c->index = index;
	/*
	 * Standalone even for split BTF: libbpf looks every string up in the
	 * base first, writing into the base's buffers as it does, so workers
	 * may not share one base.  The chunks meet it in the merge.
	 */
	c->btf = btf__new_empty();
	if (!c->btf)
		return -ENOMEM;
	/* Else libbpf guesses from a "long" the chunk may lack, or takes the host's. */
	btf__set_pointer_size(c->btf, e->in->ptr_size);
	c->first_id = btf__type_cnt(c->btf);
	e->chunk = c;
	e->btf = c->btf;
	e->cu.open = false;
	e->chunk_states.nr = 0;
	e->chunk_sightings.nr = 0;
	e->chunk_first_var = e->vars.nr;
	ptr_map__clear(&e->strs);
	return 0;
}

/*
 * Calls @fn on each type-ID field of the current chunk that lives outside
 * its BTF: the functions' prototypes and the variables' types.
 */
static int btf_encoder__visit_chunk_refs(struct btf_encoder *e, int (*fn)(uint32_t *, void *),
					 void *ctx)
{
	size_t i;
	uint32_t j;
	int err = 0;

	for (i = 0; i < e->chunk_states.nr && !err; i++) {
		struct btf_func_state *s = e->chunk_states.data[i];

		err = fn(&s->ret_type, ctx);
		for (j = 0; j < s->nr_params && !err; j++)
			err = fn(&s->params[j].type, ctx);
	}
	for (i = 0; i < e->chunk_sightings.nr && !err; i++) {
		struct func_sighting *s = e->chunk_sightings.data[i];
		struct func_sig_mode *d = &s->mode[SIG_DEFAULT], *t = &s->mode[SIG_TRUE];

		err = fn(&s->ret_type, ctx);
		for (j = 0; j < d->nr_params && !err; j++)
			err = fn(&d->params[j].type, ctx);
		for (j = 0; t->params != d->params && j < t->nr_params && !err; j++)
			err = fn(&t->params[j].type, ctx);
	}
	for (i = e->chunk_first_var; i < e->vars.nr && !err; i++)
		err = fn(&e->vars.data[i].type, ctx);
	return err;
}

/* Appends *@id to the encoder's list of IDs to carry through the chunk's dedup. */
static int carried__push(uint32_t *id, void *ctx)
{
	struct btf_encoder *e = ctx;
	uint32_t *slot = darray__push(&e->carried);

	if (!slot)
		return -ENOMEM;
	*slot = *id;
	return 0;
}

/* Takes back the next carried ID, in the order carried__push() listed them. */
static int carried__pop(uint32_t *id, void *ctx)
{
	struct btf_encoder *e = ctx;

	*id = e->carried.data[e->carried_next++];
	return 0;
}

/*
 * Replaces the chunk's BTF by a read-only copy of its raw bytes less the
 * carriers (btf_dedup__carry()), whose IDs were taken back: after dedup,
 * libbpf keeps the buffers sized for the types before it and the string
 * hash, several times the bytes that remain, for every chunk until the
 * merge, which then appends the chunk's types whole.
 */
static int btf_chunk__compact(struct btf_chunk *c)
{
	const struct btf_header *hdr;
	struct btf_header *copy_hdr;
	const char *types, *t;
	struct btf *copy;
	uint32_t size, i, types_len;
	char *buf;

	hdr = btf__raw_data(c->btf, &size);
	if (!hdr)
		return -ENOMEM;
	types = (const char *)hdr + hdr->hdr_len + hdr->type_off;
	for (i = 0, t = types; i < c->nr_types; i++)
		t += btf_type__size((const struct btf_type *)t);
	types_len = t - types;
	buf = malloc(sizeof(*copy_hdr) + types_len + hdr->str_len);
	if (!buf)
		return -ENOMEM;
	copy_hdr = (struct btf_header *)buf;
	*copy_hdr = (struct btf_header){ .magic = hdr->magic,
					 .version = hdr->version,
					 .hdr_len = sizeof(*copy_hdr),
					 .type_len = types_len,
					 .str_off = types_len,
					 .str_len = hdr->str_len };
	memcpy(buf + sizeof(*copy_hdr), types, types_len);
	memcpy(buf + sizeof(*copy_hdr) + types_len, (const char *)hdr + hdr->hdr_len + hdr->str_off,
	       hdr->str_len);
	copy = btf__new(buf, sizeof(*copy_hdr) + types_len + hdr->str_len);
	free(buf);
	if (!copy)
		return -errno;
	btf__free(c->btf);
	c->btf = copy;
	return 0;
}

/* A declaration: a FWD, or an enum without values (libbpf's enum FWD). */
static bool btf_type__is_decl(const struct btf_type *t)
{
	return t->name_off && (btf_is_fwd(t) || (btf_is_any_enum(t) && !btf_vlen(t)));
}

static int str_ptr__cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The names of the declarations of @btf from type @first on, sorted and
 * unique, in *@names (to free): pointers into @btf's strings.
 */
static int decl_names__get(const struct btf *btf, uint32_t first, const char ***names, size_t *nr)
{
	uint32_t id, end = btf__type_cnt(btf);
	const char **v = NULL;
	size_t n = 0, cap = 0, i, j;

	for (id = first; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_type__is_decl(t))
			continue;
		if (n == cap) {
			const char **p = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!p) {
				free(v);
				return -ENOMEM;
			}
			v = p;
		}
		v[n++] = btf__name_by_offset(btf, t->name_off);
	}
	if (n)
		qsort(v, n, sizeof(*v), str_ptr__cmp);
	for (i = j = 0; i < n; i++)
		if (!j || strcmp(v[i], v[j - 1]))
			v[j++] = v[i];
	*names = v;
	*nr = j;
	return 0;
}

/*
 * Deduplicates the chunk's BTF, noting the names of the declarations that
 * the dedup resolved (see btf_encoders__merge()): those that it had before
 * and has no more.
 */
static int btf_encoder__dedup_chunk(struct btf_encoder *e, struct btf *btf, uint32_t first,
				    uint32_t *nr_types)
{
	const char **before = NULL, **after = NULL;
	size_t nr_before = 0, nr_after = 0, i;
	struct arena copies = {};
	int err;

	err = decl_names__get(btf, first, &before, &nr_before);
	/* The dedup rewrites the strings. */
	for (i = 0; i < nr_before && !err; i++)
		if (!(before[i] = arena__strdup(&copies, before[i])))
			err = -ENOMEM;
	/*
	 * libbpf's own dedup: a chunk's identical pointers are merged by it,
	 * and whatever they kept apart meets again in the final dedup, which
	 * takes v1.31's pointer rule (btf_dedup.h).
	 */
	err = err ?: btf_dedup__carry(btf, e->carried.data, e->carried.nr, nr_types);
	if (err == -EPROTO && e->in->conf->verbose)
		fprintf(stderr,
			"btf_encoder: libbpf's dedup did not keep the carriers of type IDs last\n");
	err = err ?: decl_names__get(btf, first, &after, &nr_after);
	for (i = 0; i < nr_before && !err; i++) {
		const char **slot;

		if (nr_after && bsearch(&before[i], after, nr_after, sizeof(*after), str_ptr__cmp))
			continue;
		slot = darray__push(&e->resolved_decls);
		if (!slot || !(*slot = arena__strdup(&e->arena, before[i])))
			err = -ENOMEM;
	}
	free(before);
	free(after);
	arena__free(&copies);
	return err;
}

/*
 * Deduplicates the chunk's types (btf_encoder__dedup_chunk()), carrying the
 * IDs that its function states and variables hold through the dedup.
 */
static int btf_encoder__dedup_carried(struct btf_encoder *e, struct btf_chunk *c)
{
	int err;

	e->carried.nr = 0;
	e->carried_next = 0;
	err = btf_encoder__visit_chunk_refs(e, carried__push, e);
	err = err ?: btf_encoder__dedup_chunk(e, c->btf, c->first_id, &c->nr_types);
	err = err ?: btf_encoder__visit_chunk_refs(e, carried__pop, e);
	/*
	 * Checked here, in parallel, so that the final dedup can skip v1.31's
	 * pointer rule, which would then change nothing (btf_encoders__merge()).
	 */
	if (!err) {
		int unique = btf_dedup__ptrs_unique(c->btf);

		err = unique < 0 ? unique : 0;
		c->ptrs_unique = unique > 0;
	}
	return err;
}

int btf_encoder__end_chunk(struct btf_encoder *e)
{
	struct btf_chunk *c = e->chunk;
	int err = 0;

	if (e->cu.open)
		err = btf_encoder__finish_cu(e);
	if (err)
		return err;
	/*
	 * Split BTF is deduplicated once, against its base, as upstream does:
	 * a second pass can merge more than the first, and modules are small.
	 * So is all BTF when chunks must not be deduplicated on their own.
	 */
	if (e->in->conf->base || e->in->whole_dedup)
		c->nr_types = btf__type_cnt(c->btf) - c->first_id;
	else
		err = btf_encoder__dedup_carried(e, c);
	err = err ?: btf_chunk__compact(c);
	err = err ?: btf_sink__put(e->in->sink, c);
	e->chunk = NULL;
	e->btf = NULL;
	return err;
}
