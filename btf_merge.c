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
#include <pthread.h>
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
#include "lib/str_set.h"
#include "lib/u32_sort.h"

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

/*
 * Whether a chunk's dedup resolved a declaration whose name more than one
 * struct or union, or more than one enum with values, of the deduplicated
 * BTF @raw bears (its raw bytes as our dedup writes them: each string once).
 */
static int btf_encoders__resolved_ambiguous(struct btf_encoder **encoders, unsigned int nr,
					    const void *raw, bool *ambiguous)
{
	const struct btf_header *hdr = raw;
	const char *types = (const char *)(hdr + 1) + hdr->type_off;
	const char *strs = (const char *)(hdr + 1) + hdr->str_off;
	uint32_t off, max = hdr->type_len / sizeof(struct btf_type) + 1, *names;
	struct str_set resolved = {};
	size_t n[2] = {}, i, j;
	unsigned int k;
	int err = 0;

	*ambiguous = false;
	names = malloc(2 * (size_t)max * sizeof(*names));
	if (!names)
		return -ENOMEM;
	/* The names of structs and unions from names[0], of enums from names[max]. */
	for (off = 0; off < hdr->type_len; off += btf_type__size((const void *)(types + off))) {
		const struct btf_type *t = (const struct btf_type *)(types + off);

		if (!t->name_off)
			continue;
		if (btf_is_composite(t))
			names[n[0]++] = t->name_off;
		else if (btf_is_any_enum(t) && btf_vlen(t))
			names[max + n[1]++] = t->name_off;
	}
	for (k = 0; k < nr && !err; k++)
		for (i = 0; i < encoders[k]->resolved_decls.nr && !err; i++)
			err = str_set__add(&resolved, encoders[k]->resolved_decls.data[i]) < 0 ?
				      -ENOMEM :
				      0;
	/* Each keeps the names it has more than once: is one of them resolved? */
	for (k = 0; k < 2 && !err && !*ambiguous; k++) {
		uint32_t *v = names + k * max;

		qsort(v, n[k], sizeof(*v), u32__cmp);
		for (i = j = 0; i + 1 < n[k] && !*ambiguous; i++) {
			const char *name = strs + v[i];
			size_t len = strlen(name);

			if (v[i] != v[i + 1] || (j && v[j - 1] == v[i]))
				continue;
			v[j++] = v[i];
			*ambiguous =
				str_set__find(&resolved, name, len, str_set__hash(name, len)) >= 0;
		}
	}
	str_set__free(&resolved);
	free(names);
	return err;
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
static int btf_encoders__save_input(const struct btf_encoder_conf *conf,
				    const struct btf_build *btf)
{
	uint32_t size;
	void *raw = btf_build__raw(btf, &size);
	FILE *f;
	int err;

	if (!raw)
		return -ENOMEM;
	f = fopen(conf->dedup_input, "we");
	err = f ? 0 : -errno;
	if (f)
		err = fwrite(raw, 1, size, f) == size ? 0 : -EIO;
	if (f && fclose(f) && !err)
		err = -errno;
	free(raw);
	return err;
}

/*
 * A libbpf BTF of no types whose strings are the base's, then @strs, @len
 * bytes: a string of split BTF at the offset its types name it by, for
 * btf__add_type() to read.  NULL, errno set, where libbpf failed.
 */
static struct btf *btf_encoders__split_strs(const struct btf_base *base, const char *strs,
					    uint32_t len)
{
	uint32_t base_len = btf_base__str_len(base);
	struct btf_header hdr = { .magic = BTF_MAGIC,
				  .version = BTF_VERSION,
				  .hdr_len = sizeof(hdr),
				  .str_len = base_len + len };
	char *raw = malloc(sizeof(hdr) + base_len + len);
	struct btf *btf;

	if (!raw) {
		errno = ENOMEM;
		return NULL;
	}
	memcpy(raw, &hdr, sizeof(hdr));
	memcpy(raw + sizeof(hdr), btf_base__str(base, 0), base_len);
	if (len)
		memcpy(raw + sizeof(hdr) + base_len, strs, len);
	errno = 0;
	/* libbpf copies it. */
	btf = btf__new(raw, sizeof(hdr) + base_len + len);
	free(raw);
	return btf;
}

/*
 * For distilled_base: the split BTF our dedup wrote (@raw, as
 * btf_dedup__split() writes it) as libbpf's split BTF on its reading of
 * the base, in *@out, for the distilling (btf_distill.h), which works on
 * libbpf's BTF.  libbpf 1.1 exports no btf__new_split(): the split
 * strings are added first, in order (each one the base lacks: libbpf puts
 * each where it lies, and keeps those no type kept names, as its dedup
 * does), then each type as it is, its IDs kept, its strings found where
 * they are.
 */
static int btf_encoders__libbpf_split(const struct btf_encoder_input *in, const void *raw,
				      struct btf **out)
{
	const struct btf_header *hdr = raw;
	const char *start = (const char *)raw + hdr->hdr_len, *types = start + hdr->type_off, *p;
	struct btf *base, *strs = NULL, *split = NULL;
	int err = btf_base__libbpf(in->conf->base, &base);

	if (!err &&
	    !(strs = btf_encoders__split_strs(in->conf->base, start + hdr->str_off, hdr->str_len)))
		err = -errno ?: -ENOMEM;
	if (!err && !(split = btf__new_empty_split(base)))
		err = -errno ?: -ENOMEM;
	for (p = start + hdr->str_off; !err && p < start + hdr->str_off + hdr->str_len;
	     p += strlen(p) + 1) {
		uint32_t at = btf_base__str_len(in->conf->base) + (p - start - hdr->str_off);
		int off = btf__add_str(split, p);

		/* Where the types name it, or libbpf found it elsewhere: ours and libbpf's disagree. */
		err = off < 0 ? off : (uint32_t)off == at ? 0 : -EPROTO;
	}
	for (p = types; !err && p < types + hdr->type_len; p += btf_type__size((const void *)p)) {
		int id = btf__add_type(split, strs, (const struct btf_type *)p);

		err = id < 0 ? id : 0;
	}
	btf__free(strs);
	if (err) {
		btf__free(split);
		return err;
	}
	btf__set_pointer_size(split, in->ptr_size);
	*out = split;
	return 0;
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
 * Whether the dedup of a vmlinux's merged BTF starts before the merge has
 * added its FUNCs and VARs, beside them (btf_dedup_bg__start()): where the
 * workers were several (so was the user's -j), the pointer rule has nothing
 * to do, and the merged BTF is not saved before its dedup.
 */
static bool btf_encoders__dedup_early(const struct btf_encoder_input *in, unsigned int nr_workers,
				      bool ptrs_unique)
{
	return nr_workers > 1 && ptrs_unique && !in->conf->base && !in->conf->dedup_input &&
	       (in->functions || in->symtab);
}

/*
 * The merged BTF @merged deduplicated into @out's raw bytes, but for
 * distilled_base, whose split BTF libbpf then reads, into a new *@btf: by
 * the dedup @bg started, unless NULL, its output written by @nr_threads.
 * @merged's memory goes: it is of no use after.
 */
static int btf_encoders__dedup(const struct btf_encoder_input *in, struct btf_build *merged,
			       bool ptrs_unique, struct btf_dedup_bg *bg, unsigned int nr_threads,
			       struct btf_encoded *out, struct btf **btf, uint32_t *nr_types)
{
	const struct btf_encoder_conf *conf = in->conf;
	int err = conf->dedup_input ? btf_encoders__save_input(conf, merged) : 0;
	struct btf_dedup_rules rules;

	if (bg) {
		err = btf_dedup_bg__finish(bg, merged, nr_threads, &out->raw, &out->raw_size,
					   nr_types);
	} else if (!err && conf->base) {
		rules = btf_encoders__dedup_rules(conf, true);
		err = btf_dedup__split(merged, conf->base, &rules, &out->raw, &out->raw_size,
				       nr_types);
		*nr_types += btf_base__type_cnt(conf->base) - 1;
		/* distilled_base distills libbpf's reading of it. */
		if (!err && btf_encoder_conf__has(conf, BTF_FEAT_DISTILLED_BASE)) {
			err = btf_encoders__libbpf_split(in, out->raw, btf);
			free(out->raw);
			out->raw = NULL;
		}
	} else if (!err) {
		/* The pointer rule would change nothing where the chunks' pointers are unique. */
		rules = btf_encoders__dedup_rules(conf, !ptrs_unique);
		err = btf_dedup__btf(merged, &rules, &out->raw, &out->raw_size, nr_types);
	}
	btf_build__free(merged);
	return err;
}

/* libbpf reading a vmlinux's raw BTF beside the writing of it (btf_encoded.check). */
struct btf_check {
	const void *raw;
	uint32_t size;
	int ptr_size;
	struct btf *btf;
	int err;
	pthread_t thread;
	bool joinable;
};

static void *btf_check__run(void *arg)
{
	struct btf_check *c = arg;

	errno = 0;
	c->btf = btf__new(c->raw, c->size);
	if (!c->btf)
		c->err = -errno ?: -ENOMEM;
	else
		btf__set_pointer_size(c->btf, c->ptr_size);
	return NULL;
}

/*
 * @out's raw bytes, the merged BTF deduplicated, to be libbpf's: read by
 * btf__new() in a thread, which the writing waits for before it replaces
 * a file (btf_encoded__check()); where no thread starts, here.
 */
static int btf_encoders__to_libbpf(const struct btf_encoder_input *in, struct btf_encoded *out)
{
	struct btf_check *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	*c = (struct btf_check){ .raw = out->raw, .size = out->raw_size, .ptr_size = in->ptr_size };
	c->joinable = !pthread_create(&c->thread, NULL, btf_check__run, c);
	if (!c->joinable)
		btf_check__run(c);
	out->check = c;
	return 0;
}

int btf_encoded__check(struct btf_encoded *enc)
{
	struct btf_check *c = enc->check;
	int err;

	if (!c)
		return 0;
	if (c->joinable)
		pthread_join(c->thread, NULL);
	enc->btf = c->btf;
	err = c->err;
	free(c);
	enc->check = NULL;
	return err;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, unsigned int nr_workers,
			struct btf_encoded *out)
{
	const struct btf_encoder_input *in = encoders[0]->in;
	const struct btf_encoder_conf *conf = in->conf;
	double t_start = clock__now(), t_chunks, t_funcs, choosing = 0;
	struct btf_chunk **chunks;
	struct btf_build *merged = NULL;
	struct btf_dedup_bg *bg = NULL;
	struct btf *btf = NULL;
	unsigned int nr_types, nr_out = 0, nr_choosing;
	size_t nr_chunks, i;
	bool ptrs_unique;
	int err;

	*out = (struct btf_encoded){};
	/*
	 * Every chunk has ended: the buffers the workers built them in go
	 * before the merge grows, but one that holds the chunks (one_build).
	 */
	for (i = 0; i < nr; i++) {
		if (!in->one_build)
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
	err = btf_sink__take(in->sink, chunks, nr_chunks, &merged);
	free(chunks);
	nr_types = merged ? btf_build__type_cnt(merged) - 1 : 0;
	t_chunks = clock__now();
	if (!err && btf_encoders__dedup_early(in, nr_workers, ptrs_unique)) {
		struct btf_dedup_rules rules = btf_encoders__dedup_rules(conf, false);

		err = btf_dedup_bg__start(merged, &rules, &bg);
	}
	/*
	 * The dedup's thread (started only with two workers or more) keeps a
	 * core of the workers': the choosing takes the others.  At -j2 on two
	 * cores, choosing on both held the dedup back by more than the second
	 * thread gained (corpus 6.1, six runs: the choosing and the dedup's
	 * finish 45.8 ms against 40.7).
	 */
	nr_choosing = bg ? nr_workers - 1 : nr_workers;
	if (!err && in->functions)
		err = btf_encoders__add_saved_funcs(in, merged, nr_choosing, &choosing);
	if (!err && in->symtab)
		err = btf_encoders__add_vars(encoders, nr, merged, out);
	t_funcs = clock__now();
	if (!err)
		err = btf_encoders__dedup(in, merged, ptrs_unique, bg, nr_workers, out, &btf,
					  &nr_out);
	else
		btf_dedup_bg__delete(bg);
	if (!err && !conf->base && !in->whole_dedup) {
		bool again;

		err = btf_encoders__resolved_ambiguous(encoders, nr, out->raw, &again);
		if (!err && again) {
			if (conf->verbose)
				fprintf(stderr,
					"btf_encoder: a chunk resolved a declaration of a name that several types bear: the chunks are encoded again, deduplicated once\n");
			free(out->raw);
			out->raw = NULL;
			return BTF_ENCODERS_AGAIN;
		}
	}
	/* A vmlinux's BTF is libbpf's from here (btf_encoder.h), read beside the writing. */
	if (!err && !conf->base)
		err = btf_encoders__to_libbpf(in, out);
	out->nr_types = nr_out;
	if (conf->verbose)
		fprintf(stderr,
			"btf_encoder: merge %.3f s (%zu chunks, %u types), functions and variables %.3f s (choosing %.3f s on %u threads), dedup %.3f s (%u types)\n",
			t_chunks - t_start, nr_chunks, nr_types, t_funcs - t_chunks, choosing,
			nr_choosing, clock__now() - t_funcs, nr_out);
	if (err) {
		free(out->raw);
		out->raw = NULL;
	}
	if (err || out->raw) {
		btf__free(btf);
		return err;
	}
	out->btf = btf;
	return 0;
}
