// SPDX-License-Identifier: GPL-2.0-only
/*
 * Our dedup's input and output (btf_dedup_priv.h): a module's types loaded
 * over a base (btf_dedup__split()) or a BTF's own (btf_dedup__whole()),
 * their representatives found by btf_dedup_split.c, and the types kept
 * written out as raw BTF.
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup_priv.h"
#include "lib/btf_build.h"
#include "lib/btf_types.h"
#include "lib/grow.h"
#include "lib/par_for.h"
#include "lib/populate.h"
#include "lib/str_set.h"

/*
 * Room for @want elements of @size bytes at *@p, which holds *@cap, all to
 * be written anew: 0 or -ENOMEM.  What the room held is not kept, so not
 * copied as realloc() would, and new room is mapped at once (populate.h).
 */
static int dedup__room(void *p, uint32_t *cap, uint32_t want, size_t size)
{
	int fresh = grow__room(p, cap, want, size);

	if (fresh > 0)
		populate__write(*(void **)p, (size_t)want * size);
	return fresh < 0 ? fresh : 0;
}

/*
 * As dedup__room(), but 1 when the room is new and zeroed (calloc(): pages
 * the kernel has not handed over yet), 0 when it holds what was there.
 */
static int dedup__zroom(struct dedup_id **p, uint32_t *cap, uint32_t want)
{
	if (want <= *cap)
		return 0;
	if (!*p) {
		*p = populate__calloc(want, sizeof(**p));
		if (!*p)
			return -ENOMEM;
		*cap = want;
		return 1;
	}
	return dedup__room(p, cap, want, sizeof(**p));
}

struct strs_collect {
	const struct btf_build *built;
	struct str_set *all;
};

/* A module string, once among all it names, in the order met: the field says which. */
static int collect_str(uint32_t *off, void *ctx)
{
	const struct strs_collect *c = ctx;
	int at;

	if (!*off)
		return 0;
	at = str_set__add(c->all, btf_build__str(c->built, *off));
	if (at < 0)
		return at;
	*off = at;
	return 0;
}

/*
 * Where a module's strings go, as libbpf's dedup of split BTF puts them:
 * each string the types name the base's first equal one, or else a new one,
 * added to @strs in the order the types first name them.  @at holds, by
 * offset in @src (whose strings are unique), the string's offset in the
 * output once known (>= 0), else a negative number: a string not yet met
 * that the base lacks.
 */
struct strs_remap {
	const struct str_set *src;
	int32_t *at;
	struct str_set *strs;
	uint32_t base_len;
};

static int remap_str(uint32_t *off, void *ctx)
{
	const struct strs_remap *r = ctx;
	int at;

	if (!*off)
		return 0;
	if (*off >= r->src->len)
		return -EINVAL;
	if (r->at[*off] < 0) {
		at = str_set__add(r->strs, r->src->data + *off);
		if (at < 0)
			return at;
		r->at[*off] = r->base_len + at;
	}
	*off = r->at[*off];
	return 0;
}

struct ids_shift {
	uint32_t nb, end;
};

/* A module type ID among the base's and the module's: void stays 0. */
static int shift_id(uint32_t *id, void *ctx)
{
	const struct ids_shift *s = ctx;

	if (!*id)
		return 0;
	if (*id >= s->end)
		return -EINVAL;
	*id += s->nb - 1;
	return 0;
}

/*
 * The module's types, in place, each ID past the base's, each string the base's
 * or a new one (@strs gets those, their offsets past btf_base__str_len()).
 */
static int dedup__load(struct dedup *d, struct btf_build *module, struct str_set *strs)
{
	uint32_t n = btf_build__type_cnt(module) - 1, id;
	struct str_set all = {};
	struct strs_collect c = { module, &all };
	struct strs_remap r = { &module->strs, NULL, strs, btf_base__str_len(d->base) };
	struct ids_shift s = { d->nb, n + 1 };
	int err;

	d->nr = d->nb + n;
	err = dedup__room(&d->types, &d->types_cap, n ?: 1, sizeof(*d->types));
	for (id = 1; id <= n && !err; id++) {
		struct btf_type *t = btf_build__type(module, id);

		d->types[id - 1] = t;
		err = btf_type__visit_ids(t, shift_id, &s);
	}
	/* A module's strings looked up in the base by its own index; one without, in a set made. */
	if (!err && !module->strs.slots) {
		err = str_set__add(&all, "");
		for (id = 0; id < n && err >= 0; id++)
			err = btf_type__visit_strs(d->types[id], collect_str, &c);
		err = err < 0 ? err : 0;
		r.src = &all;
	}
	if (!err && !(r.at = malloc(((size_t)r.src->len ?: 1) * sizeof(*r.at))))
		err = -ENOMEM;
	err = err ?: btf_base__find_strs(d->base, r.src, r.at);
	/* The new strings in the order the types first name them, in one walk. */
	for (id = 0; !err && id < n; id++)
		err = btf_type__visit_strs(d->types[id], remap_str, &r);
	free(r.at);
	str_set__free(&all);
	return err;
}

/*
 * Types @from to @n of @b (of d->nb 1) as they lie at @at, where @b's
 * types are or a copy of them: -EINVAL when one holds an ID past @n.
 */
static int dedup__point(struct dedup *d, uint32_t from, uint32_t n, const uint32_t *offs, char *at)
{
	uint32_t id, max_id = 0;

	for (id = from; id <= n; id++) {
		d->types[id - 1] = (struct btf_type *)(at + offs[id - 1]);
		max_id = btf_type__max_id(d->types[id - 1], max_id);
	}
	return max_id <= n ? 0 : -EINVAL;
}

/*
 * A BTF of its own: its @n types, in place, whose IDs are checked (the
 * strings wait until the types kept are known: dedup__own_strs(); or are
 * kept whole).  Its IDs are the dedup's (d->nb is 1): each is checked in
 * bulk, by the largest a type holds.
 */
static int dedup__load_own(struct dedup *d, uint32_t n, struct btf_build *b)
{
	int err;

	d->nr = d->nb + n;
	err = dedup__room(&d->types, &d->types_cap, n ?: 1, sizeof(*d->types));
	return err ?: dedup__point(d, 1, n, b->offs, b->types);
}

/* Where the dedup starts module type @id: VARs and DATASECs as they are, the others unseen. */
static void dedup__start(struct dedup *d, uint32_t id)
{
	const struct btf_type *t = split_type(d, id);

	map_set(d, id, btf_is_var(t) || btf_is_datasec(t) ? id : ID_UNSEEN);
}

static int dedup__init(struct dedup *d)
{
	int fresh = dedup__zroom(&d->ids, &d->ids_cap, d->nr);
	uint32_t id;

	if (fresh < 0)
		return fresh;
	d->pairs.nr = 0;
	d->adjust_canon = false;
	/* Zero is the start (map_of()): a base's own IDs, no hypothesis. */
	if (!fresh)
		memset(d->ids, 0, d->nr * sizeof(*d->ids));
	map_set(d, 0, 0);
	for (id = d->nb; id < d->nr; id++)
		dedup__start(d, id);
	return dedup__base(d);
}

/*
 * A type's ID in the output: the base's are kept, the module's kept ones
 * renumbered, their new IDs where the hypothetical map was (dedup__write()).
 */
static int out_id(uint32_t *id, void *ctx)
{
	const struct dedup *d = ctx;
	uint32_t r = resolve(d, *id);

	r = r < d->nb ? r : d->ids[r].hypot;
	if (r > ID_MAX)
		return -EINVAL;
	*id = r;
	return 0;
}

/* The string section written after the types: @len bytes at @data. */
struct dedup_strs {
	const char *data;
	uint32_t len;
};

/* The kept types one thread copies at a time (dedup__write()). */
#define OUT_BLOCK 1024

struct out_blocks {
	struct dedup *d;
	char *types; /* where the first kept type goes */
	uint32_t *at; /* at[b]: where block b's first type goes, from @types */
};

/* Copies block @b of the kept types to the output, their IDs renumbered (par_for()). */
static int out_block(void *ctx, size_t b, unsigned int thread)
{
	const struct out_blocks *o = ctx;
	struct dedup *d = o->d;
	size_t i, end = (b + 1) * OUT_BLOCK < d->kept.nr ? (b + 1) * OUT_BLOCK : d->kept.nr;
	char *p = o->types + o->at[b];
	int err = 0;

	(void)thread;
	for (i = b * OUT_BLOCK; i < end && !err; i++) {
		const struct btf_type *t = split_type(d, d->kept.data[i]);
		size_t n = btf_type__size(t);

		memcpy(p, t, n);
		err = btf_type__visit_ids((struct btf_type *)p, out_id, d);
		p += n;
	}
	return err;
}

/*
 * The types that stand for themselves, in order, renumbered, then @strs;
 * the @nr IDs at @ids, held outside the types, renumbered too.  The types
 * are copied in blocks by d->out_threads threads: where each block goes is
 * known first, and renumbering only reads the dedup's maps.
 */
static int dedup__write(struct dedup *d, const struct dedup_strs *strs, uint32_t *ids, size_t nr,
			void **raw, uint32_t *size, uint32_t *nr_types)
{
	/* The hypothetical map is done with: it holds each kept type's new ID. */
	uint32_t id, next = d->nb, len = 0;
	size_t i, kept = 0, nr_blocks = (d->kept.nr + OUT_BLOCK - 1) / OUT_BLOCK;
	struct out_blocks o = { .d = d, .at = malloc((nr_blocks ?: 1) * sizeof(*o.at)) };
	struct btf_header *hdr;
	char *p;
	int err = 0;

	if (!o.at)
		return -ENOMEM;
	for (id = d->nb; id < d->nr; id++) {
		d->ids[id].hypot = map_of(d, id) == id ? next++ : ID_UNSEEN;
		if (map_of(d, id) != id)
			continue;
		if (kept++ % OUT_BLOCK == 0)
			o.at[(kept - 1) / OUT_BLOCK] = len;
		len += btf_type__size(split_type(d, id));
	}
	if ((uint64_t)len + strs->len > UINT32_MAX - sizeof(*hdr))
		err = -E2BIG;
	/* d->kept lists the same types, in the same order. */
	if (!err && kept != d->kept.nr)
		err = -EPROTO;
	err = err ?: dedup__room(&d->out, &d->out_cap, sizeof(*hdr) + len + strs->len, 1);
	if (err) {
		free(o.at);
		return err;
	}
	/* Written whole: its pages mapped together (lib/populate.h). */
	populate__write(d->out, sizeof(*hdr) + len + strs->len);
	hdr = d->out;
	*hdr = (struct btf_header){ .magic = BTF_MAGIC,
				    .version = BTF_VERSION,
				    .hdr_len = sizeof(*hdr),
				    .type_len = len,
				    .str_off = len,
				    .str_len = strs->len };
	p = (char *)(hdr + 1);
	o.types = p;
	err = par_for(d->out_threads ?: 1, nr_blocks, out_block, &o);
	free(o.at);
	p += len;
	for (i = 0; i < nr && !err; i++)
		err = ids[i] >= d->nr ? -EINVAL : out_id(&ids[i], d);
	if (strs->len)
		memcpy(p, strs->data, strs->len);
	if (err)
		return err;
	*raw = hdr;
	*size = sizeof(*hdr) + len + strs->len;
	*nr_types = next - d->nb;
	return 0;
}

static void dedup__free(struct dedup *d)
{
	cand_table__free(&d->cands);
	cand_table__free(&d->enum_values);
	cand_table__free(&d->enum_decls);
	free(d->types);
	free(d->ids);
	darray__free(&d->pairs);
	darray__free(&d->kept);
	darray__free(&d->base_composites);
	str_set__free(&d->strs);
	free(d->out);
}

/*
 * Without a base: the strings of the types kept, each once, in the order
 * they name them, in @strs (the built ones are unique, and left alone by the
 * dedup: the types' offsets still point into them).
 */
static int dedup__own_strs(struct dedup *d, const struct btf_build *b, struct str_set *strs)
{
	struct strs_collect c = { b, strs };
	uint32_t i;
	int err = str_set__add(strs, "");

	for (i = 0; i < d->kept.nr && err >= 0; i++)
		err = btf_type__visit_strs(split_type(d, d->kept.data[i]), collect_str, &c);
	return err < 0 ? err : 0;
}

/*
 * The types that stand for themselves, listed once for the strings and
 * the writing, which would each walk all the types (a tenth are kept).
 */
static int dedup__kept(struct dedup *d)
{
	uint32_t id, *slot;

	d->kept.nr = 0;
	for (id = d->nb; id < d->nr; id++) {
		if (map_of(d, id) != id)
			continue;
		slot = darray__push(&d->kept);
		if (!slot)
			return -ENOMEM;
		*slot = id;
	}
	return 0;
}

/* Once every type has its representative: the output, as dedup__run() says. */
static int dedup__out(struct dedup *d, const struct btf_build *b, const struct dedup_strs *whole,
		      uint32_t *ids, size_t nr, void **raw, uint32_t *size, uint32_t *nr_types)
{
	struct dedup_strs out;
	int err = dedup__kept(d);

	if (!err && b)
		err = dedup__own_strs(d, b, &d->strs);
	out = whole ? *whole : (struct dedup_strs){ .data = d->strs.data, .len = d->strs.len };
	return err ?: dedup__write(d, &out, ids, nr, raw, size, nr_types);
}

/*
 * Deduplicates the types loaded, and writes what it keeps with the strings
 * of @whole, or else d->strs (for a BTF @b built, the strings of the types
 * kept, made here).
 */
static int dedup__run(struct dedup *d, const struct btf_build *b, const struct dedup_strs *whole,
		      uint32_t *ids, size_t nr, void **raw, uint32_t *size, uint32_t *nr_types)
{
	int err = dedup__init(d);

	err = err ?: dedup__types(d);
	return err ?: dedup__out(d, b, whole, ids, nr, raw, size, nr_types);
}

/* A dedup's output handed to the caller, who frees it: the dedup goes. */
static int dedup__hand_out(struct dedup *d, int err, void **raw)
{
	if (!err)
		d->out = NULL;
	else
		*raw = NULL;
	dedup__free(d);
	return err;
}

int btf_dedup__split(struct btf_build *module, const struct btf_base *base,
		     const struct btf_dedup_rules *rules, void **raw, uint32_t *size,
		     uint32_t *nr_types)
{
	struct dedup d = { .base = base, .nb = btf_base__type_cnt(base), .rules = *rules };
	int err = rules->identical_ptrs ? btf_dedup__merge_ptrs(module) : 0;

	err = err ?: dedup__load(&d, module, &d.strs);
	err = err ?: dedup__run(&d, NULL, NULL, NULL, 0, raw, size, nr_types);
	return dedup__hand_out(&d, err, raw);
}

struct btf_dedup_mem {
	struct dedup d;
};

struct btf_dedup_mem *btf_dedup_mem__new(void)
{
	return calloc(1, sizeof(struct btf_dedup_mem));
}

void btf_dedup_mem__delete(struct btf_dedup_mem *mem)
{
	if (mem)
		dedup__free(&mem->d);
	free(mem);
}

int btf_dedup__whole(struct btf_dedup_mem *mem, struct btf_build *b,
		     const struct btf_dedup_rules *rules, uint32_t *ids, size_t nr,
		     const void **raw, uint32_t *size, uint32_t *nr_types)
{
	struct dedup *d = &mem->d;
	void *out = NULL;
	int err = rules->identical_ptrs ? -EOPNOTSUPP : 0;

	d->nb = 1;
	d->rules = *rules;
	str_set__clear(&d->strs);
	err = err ?: dedup__load_own(d, btf_build__type_cnt(b) - 1, b);
	err = err ?: dedup__run(d, b, NULL, ids, nr, &out, size, nr_types);
	*raw = out;
	return err;
}

int btf_dedup__btf(struct btf_build *b, const struct btf_dedup_rules *rules, void **raw,
		   uint32_t *size, uint32_t *nr_types)
{
	struct dedup d = { .nb = 1, .rules = *rules };
	/* A BTF's string section holds "" at least. */
	struct dedup_strs whole = b->strs.len ? (struct dedup_strs){ b->strs.data, b->strs.len } :
						(struct dedup_strs){ "", 1 };
	int err = rules->identical_ptrs ? btf_dedup__merge_ptrs(b) : 0;

	err = err ?: dedup__load_own(&d, btf_build__type_cnt(b) - 1, b);
	err = err ?: dedup__run(&d, NULL, &whole, NULL, 0, raw, size, nr_types);
	return dedup__hand_out(&d, err, raw);
}

/* ---- the first passes beside the caller (btf_dedup_bg, btf_dedup.h) ---- */

struct btf_dedup_bg {
	struct dedup d;
	char *types; /* the copy of the types that the first passes read */
	uint32_t *offs; /* and of where each begins, until they are pointed at */
	size_t types_len, offs_len;
	pthread_t thread;
	bool joinable; /* the first passes run in @thread */
	int err; /* theirs */
};

/*
 * d->types and d->ids for the @n types copied, with as much room again
 * past them for the types the merge adds (some half as many, in a
 * vmlinux), so that the finish grows neither: a realloc() of a block of
 * this thread's arena, from the caller's, copies it (4 ms of the 6.1
 * vmlinux's).  Only the part used now is mapped; the rest is address space
 * until dedup__more() maps what it takes.
 */
static int dedup_bg__rooms(struct dedup *d, uint32_t n)
{
	uint64_t cap = 2 * (uint64_t)n + 1;

	if (cap > UINT32_MAX - 1)
		cap = UINT32_MAX - 1;
	d->types = malloc(cap * sizeof(*d->types));
	/* dedup__init() sets those used. */
	d->ids = malloc((cap + 1) * sizeof(*d->ids));
	if (!d->types || !d->ids)
		return -ENOMEM;
	d->types_cap = cap;
	d->ids_cap = cap + 1;
	populate__write(d->types, (size_t)n * sizeof(*d->types));
	populate__write(d->ids, ((size_t)n + 1) * sizeof(*d->ids));
	return 0;
}

/*
 * In the thread: the copied types pointed at, the dedup started, its first
 * passes run (the caller keeps only what a memcpy() costs).
 */
static void *dedup_bg__first(void *arg)
{
	struct btf_dedup_bg *bg = arg;
	struct dedup *d = &bg->d;
	uint32_t n = d->nr - 1;
	int err = dedup_bg__rooms(d, n);

	err = err ?: dedup__point(d, 1, n, bg->offs, bg->types);
	grow__free(bg->offs, bg->offs_len);
	bg->offs = NULL;
	err = err ?: dedup__init(d);
	err = err ?: dedup__types_first(d);
	/*
	 * The chunks' FWDs and references too: the types added since are of
	 * none of the kinds the FWDs are resolved among, and the chunks' types
	 * refer to none of them (dedup__point() checked), so each of theirs
	 * ends as it would with them there.
	 */
	err = err ?: dedup__resolve_fwds(d);
	bg->err = err ?: dedup__refs(d, d->nb);
	return NULL;
}

static int dedup_bg__join(struct btf_dedup_bg *bg)
{
	if (bg->joinable)
		pthread_join(bg->thread, NULL);
	bg->joinable = false;
	return bg->err;
}

void btf_dedup_bg__delete(struct btf_dedup_bg *bg)
{
	if (!bg)
		return;
	dedup_bg__join(bg);
	dedup__free(&bg->d);
	grow__free(bg->types, bg->types_len);
	grow__free(bg->offs, bg->offs_len);
	free(bg);
}

int btf_dedup_bg__start(const struct btf_build *b, const struct btf_dedup_rules *rules,
			struct btf_dedup_bg **out)
{
	uint32_t n = btf_build__type_cnt(b) - 1;
	struct btf_dedup_bg *bg;
	int err;

	*out = NULL;
	if (rules->identical_ptrs)
		return -EOPNOTSUPP;
	bg = calloc(1, sizeof(*bg));
	if (!bg)
		return -ENOMEM;
	bg->d.nb = 1;
	bg->d.nr = 1 + n;
	bg->d.rules = *rules;
	/* The caller goes on adding to @b, whose types and offsets may then move. */
	bg->types_len = b->types_len;
	bg->offs_len = (size_t)n * sizeof(*b->offs);
	/* Into pages mapped in one call: a fresh block faults a page at a time as it is written. */
	bg->types = grow__copy(b->types, bg->types_len);
	bg->offs = bg->types ? grow__copy(b->offs, bg->offs_len) : NULL;
	err = bg->offs ? 0 : -ENOMEM;
	if (err) {
		btf_dedup_bg__delete(bg);
		return err;
	}
	/* Where no thread can be started, here: the same passes, the same result. */
	bg->joinable = !pthread_create(&bg->thread, NULL, dedup_bg__first, bg);
	if (!bg->joinable)
		dedup_bg__first(bg);
	*out = bg;
	return 0;
}

/*
 * Room for the types up to @n (of d->nb 1), what d->types and d->ids hold
 * kept, the part past the d->nr there are mapped, to be written.
 */
static int dedup__more(struct dedup *d, uint32_t n)
{
	struct btf_type **types = d->types;
	struct dedup_id *ids = d->ids;
	uint32_t had = d->nr;

	if (n > d->types_cap) {
		types = realloc(d->types, n * sizeof(*types));
		if (!types)
			return -ENOMEM;
		d->types = types;
		d->types_cap = n;
	}
	if (n + 1 > d->ids_cap) {
		ids = realloc(d->ids, (n + 1) * sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		d->ids = ids;
		d->ids_cap = n + 1;
	}
	if (n + 1 > had) {
		populate__write(d->types + had - 1, (size_t)(n + 1 - had) * sizeof(*types));
		populate__write(d->ids + had, (size_t)(n + 1 - had) * sizeof(*ids));
	}
	return 0;
}

int btf_dedup_bg__finish(struct btf_dedup_bg *bg, struct btf_build *b, unsigned int nr_threads,
			 void **raw, uint32_t *size, uint32_t *nr_types)
{
	struct dedup *d = &bg->d;
	uint32_t n = btf_build__type_cnt(b) - 1, first = d->nr, id;
	struct dedup_strs whole = b->strs.len ? (struct dedup_strs){ b->strs.data, b->strs.len } :
						(struct dedup_strs){ "", 1 };
	int err = dedup_bg__join(bg);

	d->out_threads = nr_threads;
	err = err ?: (n + 1 < first ? -EINVAL : dedup__more(d, n));
	err = err ?: dedup__point(d, first, n, b->offs, b->types);
	d->nr = err ? d->nr : 1 + n;
	/* As dedup__init() starts them; none may be a type the first passes met. */
	for (id = first; id < d->nr && !err; id++) {
		d->ids[id] = (struct dedup_id){};
		dedup__start(d, id);
		if (dedup__first_meets(d, split_type(d, id)))
			err = -EINVAL;
	}
	/* The FWDs and the chunks' references are done: the references added since. */
	err = err ?: dedup__refs(d, first);
	err = err ?: dedup__out(d, NULL, &whole, NULL, 0, raw, size, nr_types);
	if (!err)
		d->out = NULL;
	else
		*raw = NULL;
	btf_dedup_bg__delete(bg);
	return err;
}
