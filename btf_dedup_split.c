// SPDX-License-Identifier: GPL-2.0-only
/*
 * The dedup of split BTF over a base that is read, never copied nor hashed
 * by libbpf: btf_dedup__split() (btf_dedup.h).
 *
 * It gives what Debian 12's libbpf 1.1 btf__dedup() gives for a split BTF
 * made of the module's types (facts from libbpf v1.1.2's src/btf.c and
 * src/hashmap.c): the same representative for every type, the same types
 * kept in the same order, the same strings in the same order.  The rules:
 *
 * - Strings first: each string a module type refers to, in type order and
 *   within a type name first, then members, enumerators or parameters, is
 *   the base's offset of its first equal string, or else the next new one;
 *   new strings are the split BTF's string section, without a leading NUL.
 * - The base is canonical: every base type stands for itself, but that a
 *   base FWD, or a base enum without values, can come to stand for a module
 *   struct or enum.  Base types but VARs and DATASECs are candidates.
 * - Candidates: every type has a signature hash (a name offset, kind, size,
 *   members' names and offsets, or referenced IDs for reference types); the
 *   candidates of a hash are tried in the order libbpf's hash map hands them
 *   out (cand_table__get() says which that is), the first that matches wins.
 * - Three passes over the module's types: INTs, FLOATs, FWDs and enums by
 *   equality (an enum without values takes the first enum of its name; one
 *   with values makes earlier enums without values of its name its own);
 *   structs and unions by the equivalence of their type graphs, with the
 *   hypothetical map and the FWD rules of libbpf (a match that would need a
 *   base FWD resolved only resolves it); then FWDs left alone take the one
 *   struct or union of their name, base or module, if there is one
 *   (btf_dedup_fwds.c); then
 *   reference types, their references resolved first, by equality.
 * - The types that stand for themselves are kept, in order, their
 *   references renumbered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_dedup_priv.h"
#include "btf_dedup_sig.h"
#include "lib/btf_kinds.h"
#include "lib/btf_types.h"
#include "lib/str_set.h"

/* What each kind is to the dedup. */
struct dedup_kind {
	/* Its signature; NULL for VARs and DATASECs, never deduplicated. */
	uint64_t (*hash)(const struct btf_type *t);
	/* Whether a reference type equals a candidate, its references resolved. */
	bool (*equal)(const struct btf_type *a, const struct btf_type *b);
	/* Its part of the type graphs' equivalence (equiv_node()); EQUIV_none: an error. */
	uint8_t equiv;
	/* Where its type IDs are, by the IDS column (base_cands__refs_kept()). */
	uint8_t ids;
	/* Its dedup in the first two passes; NULL: a reference type, of the third. */
	int (*dedup)(struct dedup *d, uint32_t id);
	/* Whether two of its types are alike, as libbpf 1.6's identical types; NULL: never. */
	bool (*identical)(const struct dedup *d, const struct btf_type *a, const struct btf_type *b,
			  int depth);
};

/* A FWD's struct or union, once it has one, into *@id: the type at *@id. */
static const struct btf_type *resolve_fwd(const struct dedup *d, uint32_t *id)
{
	const struct btf_type *t = type_of(d, *id), *r;
	uint32_t to;

	if (!btf_is_fwd(t))
		return t;
	to = resolve(d, *id);
	r = type_of(d, to);
	if (btf_is_fwd(r))
		return t;
	*id = to;
	return r;
}

/*
 * v1.31's libbpf (1.1 with c8a28812): where the hypothetical map already
 * pairs a type with another, the two are alike when they are arrays equal
 * down to the element's ID, or structs whose members are of one ID or are
 * such arrays or structs.  (Its identical pointers are merged before.)
 */
static bool identical_arrays(const struct dedup *d, uint32_t a, uint32_t b)
{
	const struct btf_type *s = type_of(d, a), *t = type_of(d, b);

	return btf_is_array(s) && btf_is_array(t) && btf_sig__equal_array(s, t);
}

static bool identical_structs(const struct dedup *d, uint32_t a, uint32_t b)
{
	const struct btf_type *s = type_of(d, a), *t = type_of(d, b);
	const struct btf_member *m, *n;
	int i;

	if (!btf_is_composite(s) || btf_kind(s) != btf_kind(t) ||
	    !btf_sig__shallow_equal_struct(s, t))
		return false;
	m = btf_members(s);
	n = btf_members(t);
	for (i = 0; i < btf_vlen(s); i++)
		if (m[i].type != n[i].type && !identical_arrays(d, m[i].type, n[i].type) &&
		    !identical_structs(d, m[i].type, n[i].type))
			return false;
	return true;
}

/*
 * libbpf 1.6 on (5ee9fbf7, v1.32's): two types are alike when their graphs
 * are, compared structurally down to IDENTICAL_DEPTH levels of members,
 * elements and parameters (a chain of reference types costs no level).
 */
#define IDENTICAL_DEPTH 16

static bool identical_types(const struct dedup *d, uint32_t a, uint32_t b, int depth);

static bool identical_void(const struct dedup *d, const struct btf_type *a,
			   const struct btf_type *b, int depth)
{
	(void)d, (void)a, (void)b, (void)depth;
	return true;
}

static bool identical_int(const struct dedup *d, const struct btf_type *a, const struct btf_type *b,
			  int depth)
{
	(void)d, (void)depth;
	return btf_sig__equal_int_tag(a, b);
}

static bool identical_enum(const struct dedup *d, const struct btf_type *a,
			   const struct btf_type *b, int depth)
{
	(void)d, (void)depth;
	return btf_sig__compat_enum(a, b);
}

static bool identical_common(const struct dedup *d, const struct btf_type *a,
			     const struct btf_type *b, int depth)
{
	(void)d, (void)depth;
	return btf_sig__equal_common(a, b);
}

static const struct dedup_kind *kind_of(const struct btf_type *t);

/*
 * Reference types: the same kind, name and flags, then what they refer to,
 * at the same depth.  A chain longer than all the types is a cycle, which
 * the reference pass refuses (-ELOOP); libbpf would follow it forever.
 */
static bool identical_ref(const struct dedup *d, const struct btf_type *a, const struct btf_type *b,
			  int depth)
{
	uint32_t n, ia = 0, ib = 0;

	for (n = 0;
	     n < d->nr && btf_kind(a) == btf_kind(b) && kind_of(a)->identical == identical_ref;
	     n++) {
		if (a->info != b->info || a->name_off != b->name_off)
			return false;
		ia = a->type;
		ib = b->type;
		a = type_of(d, ia);
		b = type_of(d, ib);
	}
	return n < d->nr && identical_types(d, ia, ib, depth);
}

/*
 * Arrays of one size and count: libbpf compares the element and index types
 * of the first array with themselves (btf_array(t1) twice, 1.6 to 1.8), so
 * what the elements are never counts.  Kept as libbpf decides it.
 */
static bool identical_array(const struct dedup *d, const struct btf_type *a,
			    const struct btf_type *b, int depth)
{
	(void)d, (void)depth;
	return btf_sig__equal_common(a, b) && btf_array(a)->nelems == btf_array(b)->nelems;
}

/* One level deeper where two IDs differ. */
static bool identical_ids(const struct dedup *d, uint32_t a, uint32_t b, int depth)
{
	return a == b || identical_types(d, a, b, depth - 1);
}

static bool identical_struct(const struct dedup *d, const struct btf_type *a,
			     const struct btf_type *b, int depth)
{
	const struct btf_member *m = btf_members(a), *n = btf_members(b);
	int i;

	if (!btf_sig__shallow_equal_struct(a, b))
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (!identical_ids(d, m[i].type, n[i].type, depth))
			return false;
	return true;
}

static bool identical_proto(const struct dedup *d, const struct btf_type *a,
			    const struct btf_type *b, int depth)
{
	const struct btf_param *p = btf_params(a), *q = btf_params(b);
	int i;

	if (!btf_sig__compat_proto(a, b) || !identical_ids(d, a->type, b->type, depth))
		return false;
	for (i = 0; i < btf_vlen(a); i++)
		if (!identical_ids(d, p[i].type, q[i].type, depth))
			return false;
	return true;
}

/* @cand paired with @canon, of kinds @cand_kind and @canon_kind. */
static int hypot_add(struct dedup *d, uint32_t canon, unsigned int canon_kind, uint32_t cand,
		     unsigned int cand_kind)
{
	struct dedup_hypot *h = darray__push(&d->pairs);

	if (!h)
		return -ENOMEM;
	*h = (struct dedup_hypot){ canon, canon_kind, cand_kind };
	hypot_set(d, canon, cand);
	return 0;
}

static void hypot_clear(struct dedup *d)
{
	size_t i;

	for (i = 0; i < d->pairs.nr; i++)
		hypot_set(d, d->pairs.data[i].canon, ID_UNSEEN);
	d->pairs.nr = 0;
	d->adjust_canon = false;
}

static int equiv_node(struct dedup *d, uint32_t cand, uint32_t canon);

/*
 * Whether the type graph of @cand (a module type) is that of @canon, as
 * libbpf's btf_dedup_is_equiv() judges: 1, 0 or a negative errno.  What it
 * pairs goes into the hypothetical map, from @canon's side.  Its first test
 * inline: a third of the pairs a graph meets are of one representative.
 */
static inline int equiv(struct dedup *d, uint32_t cand, uint32_t canon)
{
	if (resolve(d, cand) == resolve(d, canon))
		return 1;
	return equiv_node(d, cand, canon);
}

/*
 * The kinds' parts of equiv(), by the EQUIV column of lib/btf_kinds.h: a
 * switch in equiv_node(), not a call through a pointer per node.
 */
enum {
	EQUIV_none,
	EQUIV_int,
	EQUIV_enum,
	EQUIV_common,
	EQUIV_ref,
	EQUIV_array,
	EQUIV_struct,
	EQUIV_proto
};

/* Those that refer to more than one type: @a and @b are of one kind, and one name. */

static int equiv_array(struct dedup *d, const struct btf_type *a, const struct btf_type *b)
{
	int eq;

	if (!btf_sig__equal_common(a, b) || btf_array(a)->nelems != btf_array(b)->nelems)
		return 0;
	eq = equiv(d, btf_array(a)->index_type, btf_array(b)->index_type);
	return eq <= 0 ? eq : equiv(d, btf_array(a)->type, btf_array(b)->type);
}

static inline int equiv_struct(struct dedup *d, const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_member *m = btf_members(a), *n = btf_members(b);
	/* Read once: the compiler cannot tell the hypothetical map's writes from @a's info. */
	int i, eq, vlen = btf_vlen(a);

	if (!btf_sig__shallow_equal_struct(a, b))
		return 0;
	for (i = 0; i < vlen; i++) {
		eq = equiv(d, m[i].type, n[i].type);
		if (eq <= 0)
			return eq;
	}
	return 1;
}

static int equiv_proto(struct dedup *d, const struct btf_type *a, const struct btf_type *b)
{
	const struct btf_param *p = btf_params(a), *q = btf_params(b);
	int i, eq, vlen = btf_vlen(a);

	if (!btf_sig__compat_proto(a, b))
		return 0;
	eq = equiv(d, a->type, b->type);
	for (i = 0; eq > 0 && i < vlen; i++)
		eq = equiv(d, p[i].type, q[i].type);
	return eq;
}

static int dedup_prim(struct dedup *d, uint32_t id);
static int dedup_enum(struct dedup *d, uint32_t id);
static int dedup_composite(struct dedup *d, uint32_t id);

/* The kinds' rows (lib/btf_kinds.h), by HASH, EQUAL, EQUIV, DEDUP, IDENTICAL; "none" is NULL. */
#define btf_sig__hash_none NULL
#define btf_sig__equal_none NULL
#define dedup_none NULL
#define identical_none NULL
static const struct dedup_kind dedup_kinds[NR_BTF_KINDS] = {
#define BTF_KIND_DEDUP(kind, name, extra, item, named, k_ids, log, match, k_hash, k_equal, \
		       k_equiv, k_dedup, k_identical)                                      \
	[BTF_KIND_##kind] = { .hash = btf_sig__hash_##k_hash,                              \
			      .equal = btf_sig__equal_##k_equal,                           \
			      .equiv = EQUIV_##k_equiv,                                    \
			      .ids = BTF_IDS_##k_ids,                                      \
			      .dedup = dedup_##k_dedup,                                    \
			      .identical = identical_##k_identical },
	BTF_KINDS(BTF_KIND_DEDUP)
#undef BTF_KIND_DEDUP
};
#undef btf_sig__hash_none
#undef btf_sig__equal_none
#undef dedup_none
#undef identical_none

static const struct dedup_kind *kind_of(const struct btf_type *t)
{
	return &dedup_kinds[btf_kind(t)];
}

static bool identical_types(const struct dedup *d, uint32_t a, uint32_t b, int depth)
{
	const struct btf_type *s = type_of(d, a), *t = type_of(d, b);

	return depth > 0 && btf_kind(s) == btf_kind(t) && kind_of(s)->identical &&
	       kind_of(s)->identical(d, s, t, depth);
}

/*
 * Whether @seen, the type the hypothetical map pairs with a canonical type,
 * and @cand, another module type met for it, are one type twice: by the
 * rules of the libbpf the release follows.
 */
static bool identical(const struct dedup *d, uint32_t seen, uint32_t cand)
{
	if (d->rules.identical_types)
		return identical_types(d, seen, cand, IDENTICAL_DEPTH);
	return identical_arrays(d, seen, cand) || identical_structs(d, seen, cand);
}

/*
 * equiv() past its first test: @cand and @canon of two representatives.  A
 * chain of reference types is followed in a loop, each pair as equiv()
 * would take it.
 */
static int equiv_node(struct dedup *d, uint32_t cand, uint32_t canon)
{
	const struct btf_type *a, *b;
	unsigned int ka, kb;
	uint32_t seen;
	int err;

	for (;;) {
		b = resolve_fwd(d, &canon);
		seen = hypot_of(d, canon);
		if (seen <= ID_MAX)
			return seen == cand || identical(d, seen, cand);
		a = type_of(d, cand);
		ka = btf_kind(a);
		kb = btf_kind(b);
		err = hypot_add(d, canon, kb, cand, ka);
		if (err)
			return err;
		if (a->name_off != b->name_off)
			return 0;
		/* Kinds that differ: only a FWD and a struct or union can be alike. */
		if (ka != kb) {
			if ((ka == BTF_KIND_FWD) == (kb == BTF_KIND_FWD))
				return 0;
			/* Alike if the FWD says that kind. */
			if (ka == BTF_KIND_FWD)
				return fwd_kind(a) == kb;
			if (fwd_kind(b) != ka)
				return 0;
			/* It would resolve a base FWD: the base cannot change. */
			if (canon < d->nb)
				d->adjust_canon = true;
			return 1;
		}
		switch (kind_of(a)->equiv) {
		case EQUIV_int:
			return btf_sig__equal_int_tag(a, b);
		case EQUIV_enum:
			return btf_sig__compat_enum(a, b);
		case EQUIV_common:
			return btf_sig__equal_common(a, b);
		case EQUIV_array:
			return equiv_array(d, a, b);
		case EQUIV_struct:
			return equiv_struct(d, a, b);
		case EQUIV_proto:
			return equiv_proto(d, a, b);
		case EQUIV_ref:
			/* Of one kind and name: the same flags, and what they refer to. */
			if (a->info != b->info)
				return 0;
			cand = a->type;
			canon = b->type;
			if (resolve(d, cand) == resolve(d, canon))
				return 1;
			break;
		default:
			return -EINVAL;
		}
	}
}

/*
 * After a match: FWDs resolved both ways, structs mapped where that is
 * safe.  The hypothetical map is emptied on the way (each pair is read
 * once, its own), d->adjust_canon left for the caller.
 */
static void hypot_merge(struct dedup *d)
{
	bool adjust_canon = d->adjust_canon;
	size_t i;

	for (i = 0; i < d->pairs.nr; i++) {
		const struct dedup_hypot *h = &d->pairs.data[i];
		uint32_t cand = hypot_of(d, h->canon);
		uint32_t c = resolve(d, h->canon), t = resolve(d, cand);
		unsigned int kc = c == h->canon ? h->canon_kind : btf_kind(type_of(d, c));
		unsigned int kt = t == cand ? h->cand_kind : btf_kind(type_of(d, t));

		hypot_set(d, h->canon, ID_UNSEEN);
		/* A FWD of the base too, so that module FWDs resolved to it follow. */
		if (kt != BTF_KIND_FWD && kc == BTF_KIND_FWD)
			map_set(d, c, t);
		if (adjust_canon)
			continue;
		if (kt == BTF_KIND_FWD && kc != BTF_KIND_FWD)
			map_set(d, t, c);
		if ((kt == BTF_KIND_STRUCT || kt == BTF_KIND_UNION) && kc != BTF_KIND_FWD &&
		    is_mapped(d, c) && !is_mapped(d, t))
			map_set(d, t, c);
	}
	d->pairs.nr = 0;
}

/* INTs, FWDs and FLOATs: the first candidate equal to them. */
static int dedup_prim(struct dedup *d, uint32_t id)
{
	const struct btf_type *t = type_of(d, id);
	uint64_t h = kind_of(t)->hash(t);
	int n = cand_table__get(&d->cands, h), i;
	bool is_int = btf_is_int(t);
	uint32_t to = id;

	if (n < 0)
		return n;
	for (i = 0; i < n && to == id; i++) {
		const struct btf_type *c = type_of(d, d->cands.out.data[i]);

		if (is_int ? btf_sig__equal_int_tag(t, c) : btf_sig__equal_common(t, c))
			to = d->cands.out.data[i];
	}
	map_set(d, id, to);
	return to == id ? cand_table__add(&d->cands, h, id) : 0;
}

/* Whether the enums among the candidates are indexed: only without a base (its enums may repeat). */
static bool enums_indexed(const struct dedup *d)
{
	return d->nb <= 1;
}

/*
 * dedup_enum()'s answer for @t, an enum with values, without reading every
 * candidate of its name: without a base no two candidate enums are equal
 * (dedup_enum() adds none equal to one before), so the first equal one in
 * libbpf's order is the only one; and where no candidate of the name is
 * without values, none other is changed.  1 and *@to when so found, 0
 * when the candidates are to be read in order, or a negative errno.
 */
static int dedup_enum_indexed(struct dedup *d, const struct btf_type *t, uint32_t id, uint32_t *to)
{
	uint32_t match = id;
	int n, i, found = 0;

	if (!enums_indexed(d) || btf_sig__is_enum_decl(t))
		return 0;
	n = cand_table__get(&d->enum_decls, t->name_off);
	if (n)
		return n < 0 ? n : 0;
	n = cand_table__get(&d->enum_values, btf_sig__hash_enum_values(t));
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		uint32_t c = d->enum_values.out.data[i];

		if (btf_sig__equal_enum(t, type_of(d, c))) {
			match = c;
			found++;
		}
	}
	if (found > 1)
		return 0;
	*to = match;
	return 1;
}

/* @id, an enum, a candidate of signature @h; indexed as dedup_enum_indexed() reads it. */
static int dedup_enum_add(struct dedup *d, uint64_t h, uint32_t id)
{
	const struct btf_type *t = type_of(d, id);

	if (enums_indexed(d)) {
		int err =
			btf_sig__is_enum_decl(t) ?
				cand_table__add(&d->enum_decls, t->name_off, id) :
				cand_table__add(&d->enum_values, btf_sig__hash_enum_values(t), id);

		if (err)
			return err;
	}
	return cand_table__add(&d->cands, h, id);
}

/*
 * An equal enum; an enum without values takes the first enum of its name,
 * and one with values makes those without values that come before the match
 * its own.
 */
static int dedup_enum(struct dedup *d, uint32_t id)
{
	const struct btf_type *t = type_of(d, id);
	uint64_t h = btf_sig__hash_enum(t);
	uint32_t to = id;
	int n, i;

	n = dedup_enum_indexed(d, t, id, &to);
	if (n)
		goto found;
	n = cand_table__get(&d->cands, h);
	for (i = 0; i < n; i++) {
		uint32_t c_id = d->cands.out.data[i];
		const struct btf_type *c = type_of(d, c_id);

		if (btf_sig__equal_enum(t, c)) {
			to = c_id;
			break;
		}
		if (!btf_sig__compat_enum(t, c))
			continue;
		if (btf_sig__is_enum_decl(t)) {
			to = c_id;
			break;
		}
		map_set(d, c_id, id);
	}
found:
	if (n < 0)
		return n;
	map_set(d, id, to);
	return to == id ? dedup_enum_add(d, h, id) : 0;
}

/* Whether @t is deduplicated by its type graph: a struct or union, or a typedef of libbpf 1.7. */
static bool by_graph(const struct dedup *d, const struct btf_type *t)
{
	return btf_is_composite(t) || (d->rules.typedef_graphs && btf_is_typedef(t));
}

/* A type's signature among the candidates: a typedef's is libbpf 1.7's where it goes by graph. */
static uint64_t dedup_hash(const struct dedup *d, const struct btf_type *t)
{
	return d->rules.typedef_graphs && btf_is_typedef(t) ? btf_sig__hash_typedef(t) :
							      kind_of(t)->hash(t);
}

/*
 * A struct or union (or, by graph, a typedef): the first candidate whose
 * type graph is its own.
 */
static int dedup_composite(struct dedup *d, uint32_t id)
{
	const struct btf_type *t = type_of(d, id);
	bool td = btf_is_typedef(t);
	uint32_t to = id;
	int n, i, eq;
	uint64_t h;

	if (is_mapped(d, id))
		return 0;
	h = dedup_hash(d, t);
	n = cand_table__get(&d->cands, h);
	if (n < 0)
		return n;
	for (i = 0; i < n && to == id; i++) {
		uint32_t c = d->cands.out.data[i];

		/* Not a FWD that shares the hash: that could make a loop. */
		if (td ? !btf_sig__shallow_equal_typedef(t, type_of(d, c)) ||
				    !btf_is_typedef(type_of(d, c)) :
			 !btf_sig__shallow_equal_struct(t, type_of(d, c)))
			continue;
		hypot_clear(d);
		eq = equiv(d, id, c);
		if (eq < 0)
			return eq;
		if (!eq)
			continue;
		hypot_merge(d);
		if (!d->adjust_canon)
			to = c;
	}
	map_set(d, id, to);
	return to == id ? cand_table__add(&d->cands, h, id) : 0;
}

static int resolve_ref(uint32_t *id, void *ctx);

/* dedup_ref() of a type not yet met. */
static __attribute__((noinline)) int dedup_ref_new(struct dedup *d, uint32_t id)
{
	struct btf_type *t = split_type(d, id);
	uint32_t to = id;
	int n, i, err;
	uint64_t h;

	if (!kind_of(t)->equal)
		return -EINVAL;
	map_set(d, id, ID_ON_PATH);
	err = btf_type__visit_ids(t, resolve_ref, d);
	if (err)
		return err;
	h = kind_of(t)->hash(t);
	n = cand_table__get(&d->cands, h);
	if (n < 0)
		return n;
	for (i = 0; i < n && to == id; i++)
		if (kind_of(t)->equal(t, type_of(d, d->cands.out.data[i])))
			to = d->cands.out.data[i];
	map_set(d, id, to);
	err = to == id ? cand_table__add(&d->cands, h, id) : 0;
	return err ?: (int)to;
}

/*
 * A reference type, once what it refers to is: the first equal candidate.
 * Its representative, or a negative errno (-ELOOP for a cycle that no
 * struct breaks).  Inline where the type was met before: most references
 * are to types already deduplicated.
 */
static inline int dedup_ref(struct dedup *d, uint32_t id)
{
	if (is_mapped(d, id))
		return resolve(d, id);
	if (map_of(d, id) == ID_ON_PATH)
		return -ELOOP;
	return dedup_ref_new(d, id);
}

static int resolve_ref(uint32_t *id, void *ctx)
{
	int to = dedup_ref(ctx, *id);

	if (to < 0)
		return to;
	*id = to;
	return 0;
}

/* The passes over the module's types, as libbpf runs them. */
int dedup__types(struct dedup *d)
{
	return dedup__types_first(d) ?: dedup__types_rest(d);
}

int dedup__types_first(struct dedup *d)
{
	uint32_t id;
	int err = 0;

	for (id = d->nb; id < d->nr && !err; id++) {
		const struct btf_type *t = split_type(d, id);

		if (kind_of(t)->dedup && !btf_is_composite(t))
			err = kind_of(t)->dedup(d, id);
	}
	for (id = d->nb; id < d->nr && !err; id++)
		if (by_graph(d, split_type(d, id)))
			err = dedup_composite(d, id);
	return err;
}

bool dedup__first_meets(const struct dedup *d, const struct btf_type *t)
{
	return kind_of(t)->dedup || by_graph(d, t);
}

int dedup__refs(struct dedup *d, uint32_t from)
{
	uint32_t id;
	int err = 0;

	for (id = from; id < d->nr && !err; id++) {
		/* At the top, on no path: what is met already needs no representative here. */
		int to = is_mapped(d, id) ? 0 : dedup_ref_new(d, id);

		err = to < 0 ? to : 0;
	}
	return err;
}

int dedup__types_rest(struct dedup *d)
{
	return dedup__resolve_fwds(d) ?: dedup__refs(d, d->nb);
}

/*
 * Which base types can be a module type's candidate.  Each candidate a
 * module type takes has its name (every EQUAL and the shallow equalities
 * compare name offsets), and a reference type's candidate has its
 * references, resolved (EQUAL compares every ID), which are module types or
 * base types that module types came to stand for: base types of their
 * names, or reference types of the same kind again.  So a base type is kept
 * as a candidate when it is named as a module type is, or unnamed, and,
 * when it is deduplicated as a reference type, when each type it refers to
 * is kept too: the others are never asked for.  The rest of the base (most
 * of a vmlinux's) is counted, not hashed (cand_table__skip()).
 */
struct base_cands {
	const struct dedup *d;
	const char *types; /* the base's, by offs[id] (btf_base__index()) */
	const uint32_t *offs;
	uint32_t *names, mask; /* the module types' base name offsets, open-addressed; 0 is empty */
	uint8_t *memo; /* by base ID: BASE_* */
	int depth;
};

/* A base type: not yet judged, being judged, a candidate, counted only, never a candidate. */
enum {
	BASE_UNSEEN,
	BASE_ON_PATH,
	BASE_KEPT,
	BASE_LEFT,
	BASE_NONE
};

/* Deeper chains of references are kept whole, rather than followed. */
#define BASE_DEPTH 64

static uint32_t *base_cands__slot(const struct base_cands *b, uint32_t name_off)
{
	uint32_t i = (name_off * 0x9e3779b97f4a7c15ull >> 32) & b->mask;

	while (b->names[i] && b->names[i] != name_off)
		i = (i + 1) & b->mask;
	return &b->names[i];
}

static int base_cands__init(struct base_cands *b, const struct dedup *d)
{
	uint32_t n = 16, id;

	while (n < (uint64_t)2 * (d->nr - d->nb))
		n *= 2;
	b->d = d;
	btf_base__index(d->base, &b->types, &b->offs);
	b->mask = n - 1;
	b->depth = 0;
	b->names = calloc(n, sizeof(*b->names));
	b->memo = calloc(d->nb, sizeof(*b->memo));
	if (!b->names || !b->memo)
		return -ENOMEM;
	/* void: what refers to it alone is kept. */
	b->memo[0] = BASE_KEPT;
	/* A module string the base has is the base's offset (dedup__load()); new ones are past it. */
	for (id = d->nb; id < d->nr; id++) {
		uint32_t off = split_type(d, id)->name_off;

		if (off && off < btf_base__str_len(d->base))
			*base_cands__slot(b, off) = off;
	}
	return 0;
}

static uint8_t base_cands__judge(struct base_cands *b, uint32_t id);

/* Whether base type @id is kept, or on the path being judged: judged now if not yet. */
static inline bool base_cands__ref_kept(struct base_cands *b, uint32_t id)
{
	uint8_t m = b->memo[id];

	if (m == BASE_UNSEEN)
		m = base_cands__judge(b, id);
	return m == BASE_KEPT || m == BASE_ON_PATH;
}

/*
 * Whether every type @t refers to is kept, read in btf_type__read_ids()'s
 * order and no further than the first that is not: in a loop of
 * references, which is judged first decides the others.
 */
static bool base_cands__refs_kept(struct base_cands *b, const struct btf_type *t)
{
	const struct btf_param *p;
	int i, vlen;

	switch (kind_of(t)->ids) {
	case BTF_IDS_type:
		return base_cands__ref_kept(b, t->type);
	case BTF_IDS_array:
		return base_cands__ref_kept(b, btf_array(t)->type) &&
		       base_cands__ref_kept(b, btf_array(t)->index_type);
	case BTF_IDS_proto:
		if (!base_cands__ref_kept(b, t->type))
			return false;
		p = btf_params(t);
		vlen = btf_vlen(t);
		for (i = 0; i < vlen; i++)
			if (!base_cands__ref_kept(b, p[i].type))
				return false;
		return true;
	default:
		/* No reference type refers to members or variables. */
		return true;
	}
}

/*
 * Base type @t judged by itself: BASE_NONE, BASE_LEFT, BASE_KEPT, or
 * BASE_UNSEEN when that takes what it refers to.  Most of a vmlinux's
 * types are named as no module type is: judged here, inline.
 */
static inline uint8_t base_cands__alone(const struct base_cands *b, const struct btf_type *t)
{
	const struct dedup_kind *k = kind_of(t);

	if (!k->hash)
		return BASE_NONE;
	if (t->name_off && !*base_cands__slot(b, t->name_off))
		return BASE_LEFT;
	if (!k->equal || by_graph(b->d, t) || b->depth >= BASE_DEPTH)
		return BASE_KEPT;
	return BASE_UNSEEN;
}

/* Base type @id, @t, judged by what it refers to: BASE_KEPT or BASE_LEFT, in b->memo too. */
static uint8_t base_cands__judge_refs(struct base_cands *b, uint32_t id, const struct btf_type *t)
{
	uint8_t kept;

	/* A loop of references (no module type can match it) is kept, as is. */
	b->memo[id] = BASE_ON_PATH;
	b->depth++;
	kept = base_cands__refs_kept(b, t) ? BASE_KEPT : BASE_LEFT;
	b->depth--;
	b->memo[id] = kept;
	return kept;
}

static inline const struct btf_type *base_cands__type(const struct base_cands *b, uint32_t id)
{
	return (const struct btf_type *)(b->types + b->offs[id]);
}

/* Base type @id, not yet judged: BASE_KEPT, BASE_LEFT or BASE_NONE, in b->memo too. */
static uint8_t base_cands__judge(struct base_cands *b, uint32_t id)
{
	const struct btf_type *t = base_cands__type(b, id);
	uint8_t kept = base_cands__alone(b, t);

	if (kept == BASE_UNSEEN)
		return base_cands__judge_refs(b, id, t);
	b->memo[id] = kept;
	return kept;
}

/*
 * The candidates of the base's types, in ID order, as libbpf adds them all
 * but VARs and DATASECs, each standing for itself; room for the module's.
 */
int dedup__base(struct dedup *d)
{
	struct base_cands b = {};
	uint32_t id, skipped = 0, max = (d->nr - d->nb) + 16;
	int err = d->nb > 1 ? base_cands__init(&b, d) : 0;

	/*
	 * A chain per candidate (a quarter made a vmlinux's chains long enough
	 * to cost a fifth), as many as a module's dedup may add: a module keeps
	 * some of the base's types, a sixth for a small one, and the chains
	 * double as more come.  A BTF of its own (a chunk's: 300,000 types of
	 * which a tenth stand for themselves) starts with a quarter: chains for
	 * every type spread the lookups over 2 MB, out of the cache.
	 */
	d->base_composites.nr = 0;
	if (d->nb > 1)
		max += d->nb / 4;
	err = err ?: cand_table__init(&d->cands, max, d->nb > 1 ? max : d->nr / 4);
	if (!err && enums_indexed(d))
		err = cand_table__init(&d->enum_values, 64, 64) ?:
			      cand_table__init(&d->enum_decls, 16, 16);
	/*
	 * Each its own representative already (map_of()).  Judged in ID order,
	 * each is final once its turn comes (those it refers to may be judged
	 * before it), so added to the candidates in ID order, as libbpf adds them.
	 */
	for (id = 1; id < d->nb && !err; id++) {
		const struct btf_type *t = base_cands__type(&b, id);
		uint8_t m = b.memo[id];

		if (m == BASE_UNSEEN)
			m = base_cands__alone(&b, t);
		if (m == BASE_UNSEEN)
			m = base_cands__judge_refs(&b, id, t);
		if (m == BASE_LEFT)
			skipped++;
		if (m != BASE_KEPT)
			continue;
		if (btf_is_composite(t)) {
			uint32_t *slot = darray__push(&d->base_composites);

			if (!slot) {
				err = -ENOMEM;
				break;
			}
			*slot = id;
		}
		cand_table__skip(&d->cands, skipped);
		skipped = 0;
		err = cand_table__add(&d->cands, dedup_hash(d, t), id);
	}
	/* Those after the last count for the module's. */
	if (!err)
		cand_table__skip(&d->cands, skipped);
	free(b.names);
	free(b.memo);
	return err;
}
