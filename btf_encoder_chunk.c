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
#include "lib/populate.h"
#include "lib/u32_sort.h"

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
	 * Standalone even for split BTF, built in the encoder's own buffers,
	 * those of its last chunk (unless the chunk took them over): the chunks
	 * meet the base in the merge.  With one_build, after the last chunk,
	 * whose strings it knows.
	 */
	if (e->in->one_build) {
		c->built = &e->build;
		c->shared = true;
	} else {
		btf_build__reset(&e->build);
		ptr_map__clear(&e->strs);
		off_map__clear(&e->debug_strs);
	}
	/* What libbpf's btf__resolve_size() would take a pointer's size for. */
	e->build.ptr_size = e->in->ptr_size;
	c->first_id = btf_build__type_cnt(&e->build);
	e->chunk = c;
	e->cu.open = false;
	e->chunk_states.nr = 0;
	e->chunk_sightings.nr = 0;
	e->chunk_first_var = e->vars.nr;
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
 * The chunk's BTF as the encoder built it, taken over, read-only, for the
 * merge to append whole: the encoder builds its next chunk in new buffers.
 */
static int btf_chunk__finish(struct btf_chunk *c, struct btf_build *b)
{
	c->built = malloc(sizeof(*c->built));
	if (!c->built)
		return -ENOMEM;
	*c->built = *b;
	*b = (struct btf_build){};
	/* Nothing is added to it now: the index of its strings goes. */
	str_set__drop_index(&c->built->strs);
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
 * unique, in *@names (to free): pointers into @btf's strings.  A chunk
 * before its dedup holds a declaration once per unit that makes it (200,000
 * in a vmlinux): their name offsets are made unique first, which equal
 * strings share (a btf_build keeps each string once), and only the distinct
 * names compared as strings.
 */
static int decl_names__get(const struct btf_build *btf, uint32_t first, const char ***names,
			   size_t *nr)
{
	uint32_t id, end = btf_build__type_cnt(btf), *slot;
	DARRAY(uint32_t) offs = {};
	const char **v;
	size_t n, i, j;

	for (id = first; id < end; id++) {
		const struct btf_type *t = btf_build__type_by_id(btf, id);

		if (!btf_type__is_decl(t))
			continue;
		slot = darray__push(&offs);
		if (!slot) {
			darray__free(&offs);
			return -ENOMEM;
		}
		*slot = t->name_off;
	}
	n = u32__sort_unique(offs.data, offs.nr);
	v = n ? malloc(n * sizeof(*v)) : NULL;
	if (n && !v) {
		darray__free(&offs);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		v[i] = btf_build__str(btf, offs.data[i]);
	darray__free(&offs);
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
 * The names of the declarations that the chunk's dedup resolved (see
 * btf_encoders__merge()), those that @before had and @after has no more,
 * noted in the encoder.
 */
static int btf_encoder__note_resolved(struct btf_encoder *e, const struct btf_build *before,
				      uint32_t first, const struct btf_build *after)
{
	const char **was = NULL, **is = NULL;
	size_t nr_was = 0, nr_is = 0, i;
	int err;

	err = decl_names__get(before, first, &was, &nr_was);
	err = err ?: decl_names__get(after, 1, &is, &nr_is);
	for (i = 0; i < nr_was && !err; i++) {
		const char **slot;

		if (nr_is && bsearch(&was[i], is, nr_is, sizeof(*is), str_ptr__cmp))
			continue;
		slot = darray__push(&e->resolved_decls);
		if (!slot || !(*slot = arena__strdup(&e->arena, was[i])))
			err = -ENOMEM;
	}
	free(was);
	free(is);
	return err;
}

/*
 * Deduplicates the chunk's types by libbpf 1.1's own rules (no pointer rule:
 * whatever they keep apart meets again in the final dedup, which takes
 * v1.31's, btf_dedup.h), carrying the IDs that its function states and
 * variables hold through the dedup; the chunk's BTF is then the read-only
 * result.
 */
static int btf_encoder__dedup_carried(struct btf_encoder *e, struct btf_chunk *c)
{
	static const struct btf_dedup_rules libbpf_1_1 = {};
	const void *raw = NULL;
	uint32_t size;
	int err;

	e->carried.nr = 0;
	e->carried_next = 0;
	err = btf_encoder__visit_chunk_refs(e, carried__push, e);
	if (!err && !e->dedup && !(e->dedup = btf_dedup_mem__new()))
		err = -ENOMEM;
	err = err   ?:
		      btf_dedup__whole(e->dedup, &e->build, &libbpf_1_1, e->carried.data,
				       e->carried.nr, &raw, &size, &c->nr_types);
	/* A copy of its exact size: the dedup's buffer serves the next chunk. */
	if (!err && !(c->built = calloc(1, sizeof(*c->built))))
		err = -ENOMEM;
	err = err ?: btf_build__load_raw(c->built, raw, size);
	/* The dedup rewrote the built types' IDs, never their kinds, counts nor names. */
	err = err ?: btf_encoder__note_resolved(e, &e->build, c->first_id, c->built);
	err = err ?: btf_encoder__visit_chunk_refs(e, carried__pop, e);
	if (err)
		return err;
	/*
	 * Checked here, in parallel, so that the final dedup can skip v1.31's
	 * pointer rule, which would then change nothing (btf_encoders__merge()).
	 */
	c->built->ptr_size = e->build.ptr_size;
	err = btf_dedup__ptrs_unique(c->built);
	c->ptrs_unique = err > 0;
	return err < 0 ? err : 0;
}

/* Whether @lo..@hi lies in @start..@end. */
static bool within(const unsigned char *lo, const unsigned char *hi, const unsigned char *start,
		   const unsigned char *end)
{
	return start && lo >= start && hi <= end;
}

/*
 * Drops the pages of the chunk's location lists, as the loader drops those
 * of its units (lists of one unit lie together, units in order): the
 * 35 MB of a vmlinux's .debug_loclists would otherwise all be held to the
 * end.  Only pages of the file's own mapping: they come back from it.
 */
static void btf_encoder__drop_lists(struct btf_encoder *e)
{
	const struct btf_encoder_input *in = e->in;
	const unsigned char *lo, *hi;

	dwarf_locs__take_span(&e->locs, &lo, &hi);
	if (lo && in->locs_file_mapped &&
	    (within(lo, hi, in->debug_loclists, in->debug_loclists_end) ||
	     within(lo, hi, in->debug_loc, in->debug_loc_end)))
		populate__drop(lo, hi);
}

#define SWAP(a, b)                        \
	do {                              \
		__typeof__(a) tmp_ = (a); \
		(a) = (b);                \
		(b) = tmp_;               \
	} while (0)

/*
 * What an encoder works in and keeps nothing of from one chunk to the next
 * (the CU's state and maps, the string caches, the location reader),
 * swapped between @a and @b, the memory of each mapped and warm.
 */
static void btf_encoder__swap_scratch(struct btf_encoder *a, struct btf_encoder *b)
{
	SWAP(a->cu, b->cu);
	SWAP(a->strs, b->strs);
	SWAP(a->debug_strs, b->debug_strs);
	SWAP(a->locs, b->locs);
}

int btf_encoder__new_part(const struct btf_encoder_input *in, struct btf_encoder *lender,
			  struct btf_encoder **out)
{
	int err = btf_encoder__new(in, out);

	/*
	 * A worker's encoder with a chunk begun works in all of it
	 * (PAHOLE_SPLIT_CHUNKS); one whose build holds its chunks keeps it.
	 */
	if (err || lender->chunk || in->one_build)
		return err;
	(*out)->lender = lender;
	btf_encoder__swap_scratch(*out, lender);
	/* The part's chunk takes the build's buffers: the lender's next part, or merge, has new ones. */
	SWAP((*out)->build, lender->build);
	return 0;
}

int btf_encoder__end_part(struct btf_encoder *part)
{
	int err = part->cu.open ? btf_encoder__finish_cu(part) : 0;

	btf_encoder__drop_lists(part);
	if (part->lender)
		btf_encoder__swap_scratch(part, part->lender);
	part->lender = NULL;
	return err;
}

/* Moves type ID *@id of a part's chunk (void stays) to where its types went, *@ctx further. */
static int part_id__shift(uint32_t *id, void *ctx)
{
	if (*id)
		*id += *(const uint32_t *)ctx;
	return 0;
}

/*
 * Moves what refers to @part's types, its chunk's function states and
 * sightings and its variables, into @e's current chunk @c, their IDs
 * already shifted: the states stay in @part's nodes, listed by @e to carry
 * their IDs through the chunk's dedup.  0 or -ENOMEM.
 */
static int btf_encoder__adopt_refs(struct btf_encoder *e, struct btf_chunk *c,
				   struct btf_encoder *part)
{
	size_t i;

	for (i = 0; i < part->chunk_states.nr; i++) {
		struct btf_func_state **slot = darray__push(&e->chunk_states);

		if (!slot)
			return -ENOMEM;
		*slot = part->chunk_states.data[i];
		(*slot)->chunk = c;
	}
	for (i = 0; i < part->chunk_sightings.nr; i++) {
		struct func_sighting **slot = darray__push(&e->chunk_sightings);

		if (!slot)
			return -ENOMEM;
		*slot = part->chunk_sightings.data[i];
		(*slot)->chunk = c;
	}
	for (i = part->chunk_first_var; i < part->vars.nr; i++) {
		struct btf_var_state *slot = darray__push(&e->vars);

		if (!slot)
			return -ENOMEM;
		*slot = part->vars.data[i];
		slot->chunk = c;
	}
	part->chunk_states.nr = 0;
	part->chunk_sightings.nr = 0;
	part->vars.nr = part->chunk_first_var;
	return 0;
}

int btf_encoder__take_part(struct btf_encoder *e, struct btf_encoder *part)
{
	struct btf_chunk *c = e->chunk, *pc = part->chunk;
	uint32_t shift;
	int first, err;

	/* A part is one chunk's, begun as a chunk of its own (its types from ID 1), and ended. */
	if (!c || !pc || part->chunks.nr != 1 || pc->first_id != 1 || pc->index != c->index ||
	    part->cu.open)
		return -EPROTO;
	first = btf_build__append(&e->build, &part->build, &e->part_strs);
	if (first < 0)
		return first;
	shift = first - pc->first_id;
	err = btf_encoder__visit_chunk_refs(part, part_id__shift, &shift);
	err = err ?: btf_encoder__adopt_refs(e, c, part);
	if (err)
		return err;
	/* Nothing points to the part's chunk now, and its types are @e's. */
	free(pc);
	part->chunks.nr = 0;
	part->chunk = NULL;
	btf_build__free(&part->build);
	return 0;
}

int btf_encoder__end_chunk(struct btf_encoder *e)
{
	struct btf_chunk *c = e->chunk;
	int err = 0;

	if (e->cu.open)
		err = btf_encoder__finish_cu(e);
	if (err)
		return err;
	btf_encoder__drop_lists(e);
	/*
	 * Split BTF is deduplicated once, against its base, as upstream does:
	 * a second pass can merge more than the first, and modules are small.
	 * So is all BTF when chunks must not be deduplicated on their own.
	 */
	if (e->in->conf->base || e->in->whole_dedup) {
		c->nr_types = btf_build__type_cnt(&e->build) - c->first_id;
		err = c->shared ? 0 : btf_chunk__finish(c, &e->build);
	} else {
		err = btf_encoder__dedup_carried(e, c);
	}
	err = err ?: btf_sink__put(e->in->sink, c);
	e->chunk = NULL;
	return err;
}
