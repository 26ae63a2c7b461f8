// SPDX-License-Identifier: GPL-2.0-only
/*
 * Chunks (see btf_encoder.h): a chunk's BTF deduplicated on its own, with
 * the type IDs that its function states and variables hold carried through
 * the dedup; once all workers are done, the chunks of all encoders
 * concatenated in order, the functions and variables added, and the whole
 * deduplicated once more.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_base.h"
#include "btf_dedup.h"
#include "btf_encoder_priv.h"
#include "lib/btf_types.h"

int btf_encoder__begin_chunk(struct btf_encoder *e, uint32_t index)
{
	struct btf_chunk *c = calloc(1, sizeof(*c)), **slot = c ? darray_push(&e->chunks) : NULL;

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
	btf__set_pointer_size(c->btf, e->conf->ptr_size);
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
	uint32_t *slot = darray_push(&e->carried);

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
 * Replaces the chunk's BTF by a read-only copy of its raw bytes: after
 * dedup, libbpf keeps the buffers sized for the types before it and the
 * string hash, several times the bytes that remain, for every chunk until
 * the merge.
 */
static int btf_chunk__compact(struct btf_chunk *c)
{
	struct btf *copy;
	const void *raw;
	__u32 size;

	raw = btf__raw_data(c->btf, &size);
	if (!raw)
		return -ENOMEM;
	copy = btf__new(raw, size);
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
	if (err == -EPROTO && e->conf->verbose)
		fprintf(stderr,
			"btf_encoder: libbpf's dedup did not keep the carriers of type IDs last\n");
	err = err ?: decl_names__get(btf, first, &after, &nr_after);
	for (i = 0; i < nr_before && !err; i++) {
		const char **slot;

		if (nr_after && bsearch(&before[i], after, nr_after, sizeof(*after), str_ptr__cmp))
			continue;
		slot = darray_push(&e->resolved_decls);
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
	return err ?: btf_encoder__visit_chunk_refs(e, carried__pop, e);
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
	if (e->conf->base || e->conf->whole_dedup)
		c->nr_types = btf__type_cnt(c->btf) - c->first_id;
	else
		err = btf_encoder__dedup_carried(e, c);
	err = err ?: btf_chunk__compact(c);
	e->chunk = NULL;
	e->btf = NULL;
	return err;
}

/* ---- merging the chunks of all encoders in order ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int chunk_ptr__cmp(const void *a, const void *b)
{
	const struct btf_chunk *x = *(struct btf_chunk **)a, *y = *(struct btf_chunk **)b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* All the chunks of all encoders, in order; NULL on ENOMEM. */
static struct btf_chunk **btf_encoders__chunks(struct btf_encoder **encoders, unsigned int nr,
					       size_t *nr_chunks)
{
	struct btf_chunk **chunks;
	size_t n = 0, i, j;

	for (i = 0; i < nr; i++)
		n += encoders[i]->chunks.nr;
	chunks = calloc(n ?: 1, sizeof(*chunks));
	if (!chunks)
		return NULL;
	for (i = 0, n = 0; i < nr; i++)
		for (j = 0; j < encoders[i]->chunks.nr; j++)
			chunks[n++] = encoders[i]->chunks.data[j];
	qsort(chunks, n, sizeof(*chunks), chunk_ptr__cmp);
	*nr_chunks = n;
	return chunks;
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
		first = btf__add_btf(btf, c->btf);
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
static struct btf *btf_chunks__concat(struct btf_chunk **chunks, size_t n, int *errp)
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
	*errp = err;
	return err ? NULL : btf;
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
static bool btf_encoders__split_raw(const struct btf_encoder_conf *conf)
{
	return btf_base__native(conf->base) && conf->big_endian == (BYTE_ORDER == BIG_ENDIAN) &&
	       !btf_encoder_conf__has(conf, BTF_FEAT_DISTILLED_BASE);
}

/* The BTF a module's chunks go into: of its own, or split on libbpf's reading of the base. */
static struct btf *btf_encoders__split_btf(const struct btf_encoder_conf *conf)
{
	struct btf *base;

	if (btf_encoders__split_raw(conf))
		return btf__new_empty();
	base = btf_base__libbpf(conf->base);
	return base ? btf__new_empty_split(base) : NULL;
}

/* The merged BTF deduplicated: split BTF on the base into @out's raw bytes, else in place. */
static int btf_encoders__dedup(const struct btf_encoder_conf *conf, struct btf *btf,
			       struct btf_encoded *out, uint32_t *nr_types)
{
	int err;

	if (conf->base && btf_encoders__split_raw(conf)) {
		err = btf_dedup__split(btf, conf->base, &out->raw, &out->raw_size, nr_types);
		*nr_types += btf_base__type_cnt(conf->base) - 1;
		return err;
	}
	err = btf_dedup__run(btf);
	*nr_types = btf__type_cnt(btf) - 1;
	return err;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf_encoded *out)
{
	const struct btf_encoder_conf *conf = encoders[0]->conf;
	double t_start = now(), t_chunks, t_funcs;
	struct btf_chunk **chunks;
	struct btf *btf = NULL;
	unsigned int nr_types, nr_out = 0;
	size_t nr_chunks;
	int err;

	*out = (struct btf_encoded){};
	chunks = btf_encoders__chunks(encoders, nr, &nr_chunks);
	if (!chunks)
		return -ENOMEM;
	if (!conf->base) {
		btf = btf_chunks__concat(chunks, nr_chunks, &err);
	} else {
		btf = btf_encoders__split_btf(conf);
		err = btf ? btf_chunks__add(btf, chunks, nr_chunks) : -ENOMEM;
	}
	free(chunks);
	if (btf)
		btf__set_pointer_size(btf, conf->ptr_size); /* the variables' sizes */
	nr_types = btf ? btf__type_cnt(btf) - 1 : 0;
	t_chunks = now();
	if (!err && conf->functions)
		err = btf_encoders__add_saved_funcs(conf, btf);
	if (!err && conf->symtab)
		err = btf_encoders__add_vars(encoders, nr, btf);
	t_funcs = now();
	if (!err)
		err = btf_encoders__dedup(conf, btf, out, &nr_out);
	if (!err && !conf->base && !conf->whole_dedup) {
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
			now() - t_funcs, nr_out);
	if (err || out->raw) {
		btf__free(btf);
		return err;
	}
	out->btf = btf;
	return 0;
}
