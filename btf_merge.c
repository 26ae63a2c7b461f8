// SPDX-License-Identifier: GPL-2.0-only
/*
 * The merge: the chunks of all encoders appended in order to one BTF (a
 * module's, split BTF) while the workers run (struct btf_sink); then, once
 * every worker is done, in one thread: the FUNCs (btf_merge_funcs.c) and the VARs
 * (btf_merge_vars.c) added; the whole deduplicated once; then whether a
 * chunk's own dedup may have made the result differ from upstream's
 * (BTF_ENCODERS_AGAIN).  btf_encoders__merge() at the bottom reads as the
 * steps go.
 */
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
 * Whether v1.31's pointer rule (btf_dedup.h) would change nothing in the
 * merged BTF: when every chunk was deduplicated and has no two pointers to
 * one type.  A chunk's types refer only to each other, so pointers of two
 * chunks point to distinct IDs, and of the types the merge adds only a
 * kfunc's arena pointer is a pointer, to a TYPE_TAG of its own.
 */
static bool btf_chunks__ptrs_unique(struct btf_chunk **chunks, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!chunks[i]->ptrs_unique)
			return false;
	return true;
}

/* PAHOLE_DEDUP_INPUT: @btf's raw bytes, as they go into the last dedup (btf_encoder.h). */
static int btf_encoders__save_input(const struct btf_encoder_conf *conf, const struct btf *btf)
{
	const void *raw;
	__u32 size;
	FILE *f;
	int err;

	raw = btf__raw_data(btf, &size);
	if (!raw)
		return -ENOMEM;
	f = fopen(conf->dedup_input, "we");
	if (!f)
		return -errno;
	err = fwrite(raw, 1, size, f) == size ? 0 : -EIO;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* Which libbpf's rules the release's dedup follows (btf_dedup.h), with the pointer rule or not. */
static struct btf_dedup_rules btf_encoders__dedup_rules(const struct btf_encoder_conf *conf,
							bool ptr_rule)
{
	return (struct btf_dedup_rules){
		.typedef_graphs = btf_encoder_conf__follows(conf, BTF_RULE_DEDUP_TYPEDEF_GRAPHS),
		.identical_types = btf_encoder_conf__follows(conf, BTF_RULE_DEDUP_IDENTICAL_TYPES),
		/* Both releases' libbpf (1.1 with c8a28812 for v1.31). */
		.identical_ptrs = ptr_rule,
	};
}

/*
 * The merged BTF deduplicated: split BTF on the base into @out's raw bytes,
 * else into a new *@btf.
 */
static int btf_encoders__dedup(const struct btf_encoder_input *in, struct btf **btf,
			       bool ptrs_unique, struct btf_encoded *out, uint32_t *nr_types)
{
	const struct btf_encoder_conf *conf = in->conf;
	int err = conf->dedup_input ? btf_encoders__save_input(conf, *btf) : 0;
	struct btf_dedup_rules rules;
	struct btf *deduped;
	uint32_t size;
	void *raw;

	if (err)
		return err;
	if (conf->base && btf_sink__split_raw(in)) {
		rules = btf_encoders__dedup_rules(conf, true);
		err = btf_dedup__split(*btf, conf->base, &rules, &out->raw, &out->raw_size,
				       nr_types);
		*nr_types += btf_base__type_cnt(conf->base) - 1;
		return err;
	}
	if (conf->base) {
		err = btf_dedup__run(*btf, ptrs_unique);
		*nr_types = btf__type_cnt(*btf) - 1;
		return err;
	}
	/* The pointer rule would change nothing where the chunks' pointers are unique. */
	rules = btf_encoders__dedup_rules(conf, !ptrs_unique);
	err = btf_dedup__btf(*btf, &rules, &raw, &size, nr_types);
	if (err)
		return err;
	/* The merged BTF goes first: its types, strings and raw copy are the peak's. */
	btf__free(*btf);
	*btf = NULL;
	deduped = btf__new(raw, size);
	free(raw);
	if (!deduped)
		return -errno;
	btf__set_pointer_size(deduped, in->ptr_size);
	*btf = deduped;
	return 0;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf_encoded *out)
{
	const struct btf_encoder_input *in = encoders[0]->in;
	const struct btf_encoder_conf *conf = in->conf;
	double t_start = clock__now(), t_chunks, t_funcs, choosing = 0;
	struct btf_chunk **chunks;
	struct btf *btf = NULL;
	unsigned int nr_types, nr_out = 0;
	size_t nr_chunks, i;
	bool ptrs_unique;
	int err;

	*out = (struct btf_encoded){};
	/* Every chunk has ended: the buffers the workers built them in go before the merge grows. */
	for (i = 0; i < nr; i++) {
		btf_build__free(&encoders[i]->build);
		btf_dedup_mem__delete(encoders[i]->dedup);
		encoders[i]->dedup = NULL;
	}
	err = btf_encoders__chunks(encoders, nr, &chunks, &nr_chunks);
	if (err)
		return err;
	out->empty = true;
	for (i = 0; i < nr_chunks; i++)
		out->empty &= !chunks[i]->nr_types;
	ptrs_unique = btf_chunks__ptrs_unique(chunks, nr_chunks);
	err = btf_sink__take(in->sink, chunks, nr_chunks, &btf);
	free(chunks);
	nr_types = btf ? btf__type_cnt(btf) - 1 : 0;
	t_chunks = clock__now();
	if (!err && in->functions)
		err = btf_encoders__add_saved_funcs(in, btf, nr, &choosing);
	if (!err && in->symtab)
		err = btf_encoders__add_vars(encoders, nr, btf, out);
	t_funcs = clock__now();
	if (!err)
		err = btf_encoders__dedup(in, &btf, ptrs_unique, out, &nr_out);
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
			"btf_encoder: merge %.3f s (%zu chunks, %u types), functions and variables %.3f s (choosing %.3f s on %u threads), dedup %.3f s (%u types)\n",
			t_chunks - t_start, nr_chunks, nr_types, t_funcs - t_chunks, choosing, nr,
			clock__now() - t_funcs, nr_out);
	if (err || out->raw) {
		btf__free(btf);
		return err;
	}
	out->btf = btf;
	return 0;
}
