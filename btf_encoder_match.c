// SPDX-License-Identifier: GPL-2.0-only
/*
 * Comparing function states, for both of the design's merges: a worker's
 * of its own sightings (btf_encoder_funcs.c) and the merge of all encoders'
 * (btf_merge_funcs.c).  Pure: it reads two BTFs and two states.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <linux/btf.h>

#include "btf_encoder_priv.h"
#include "lib/btf_kinds.h"
/*
 * Whether two types, each in its own BTF, are the same for the purpose of
 * comparing prototypes, by pahole v1.31's types__match(): a CONST where the
 * other has none is looked through; named types (a FWD as what it declares)
 * match by kind and name, integers and floats by size (and encoding) too;
 * pointers, qualifiers and arrays by what they point to.  Of a function
 * prototype v1.31 compares the count of parameters and the return type only
 * (its loop over the parameters compares the return types again), and so do
 * we; upstream after v1.31 compares the parameters too (proto_params, for
 * true_signature's replay of its rules).  The relation is equality of the
 * types with their CONSTs taken out and FWDs taken for their kind, so an
 * equivalence: which sighting is compared with which does not change the
 * verdict.
 */
enum type_match {
	TYPE_MATCH_NO,
	TYPE_MATCH_YES,
	TYPE_MATCH_NEXT, /* so far: compare what they refer to next */
};

/* The two types of a comparison, each in its BTF, and what to compare next. */
struct type_pair {
	const struct btf_build *b1, *b2;
	const struct btf_type *t1, *t2;
	uint32_t id1, id2;
	/* Compare a prototype's parameters too, as upstream after v1.31 does. */
	bool proto_params;
	int depth;
};

static bool types_match_depth(const struct btf_build *b1, uint32_t id1, const struct btf_build *b2,
			      uint32_t id2, bool proto_params, int depth);

static bool type_pair__names_match(const struct type_pair *p)
{
	return !strcmp(btf_build__str(p->b1, p->t1->name_off),
		       btf_build__str(p->b2, p->t2->name_off));
}

static enum type_match match_int(struct type_pair *p)
{
	const struct btf_type *t1 = p->t1, *t2 = p->t2;

	if (t1->size != t2->size || btf_int_encoding(t1) != btf_int_encoding(t2) ||
	    btf_int_offset(t1) != btf_int_offset(t2) || btf_int_bits(t1) != btf_int_bits(t2))
		return TYPE_MATCH_NO;
	return type_pair__names_match(p);
}

static enum type_match match_float(struct type_pair *p)
{
	return p->t1->size == p->t2->size && type_pair__names_match(p);
}

static enum type_match match_name(struct type_pair *p)
{
	return type_pair__names_match(p);
}

static enum type_match match_ref(struct type_pair *p)
{
	p->id1 = p->t1->type;
	p->id2 = p->t2->type;
	return TYPE_MATCH_NEXT;
}

static enum type_match match_array(struct type_pair *p)
{
	if (btf_array(p->t1)->nelems != btf_array(p->t2)->nelems)
		return TYPE_MATCH_NO;
	p->id1 = btf_array(p->t1)->type;
	p->id2 = btf_array(p->t2)->type;
	return TYPE_MATCH_NEXT;
}

static enum type_match match_proto(struct type_pair *p)
{
	const struct btf_param *x = btf_params(p->t1), *y = btf_params(p->t2);
	int i;

	if (btf_vlen(p->t1) != btf_vlen(p->t2))
		return TYPE_MATCH_NO;
	for (i = 0; p->proto_params && i < btf_vlen(p->t1); i++)
		if (!types_match_depth(p->b1, x[i].type, p->b2, y[i].type, true, p->depth + 1))
			return TYPE_MATCH_NO;
	return match_ref(p);
}

/* The kinds' rows (lib/btf_kinds.h), by MATCH: "none" matches nothing. */
#define match_none NULL
static enum type_match (*const type_match_ops[NR_BTF_KINDS])(struct type_pair *p) = {
#define BTF_KIND_MATCH(kind, name, extra, item, named, ids, log, match, ...) \
	[BTF_KIND_##kind] = match_##match,
	BTF_KINDS(BTF_KIND_MATCH)
#undef BTF_KIND_MATCH
};
#undef match_none

/* A FWD's kind is that of what it declares, as pahole v1.31 compares them. */
static int fwd_kind(const struct btf_type *t)
{
	if (btf_is_fwd(t))
		return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
	return btf_kind(t);
}

/* One step of the walk: the types at p->id1 and p->id2. */
static enum type_match type_pair__step(struct type_pair *p)
{
	int k1, k2;

	if (!p->id1 || !p->id2)
		return p->id1 == p->id2;
	p->t1 = btf_build__type_by_id(p->b1, p->id1);
	p->t2 = btf_build__type_by_id(p->b2, p->id2);
	if (!p->t1 || !p->t2)
		return TYPE_MATCH_NO;
	k1 = fwd_kind(p->t1);
	k2 = fwd_kind(p->t2);
	if (k1 == k2)
		return type_match_ops[k1] ? type_match_ops[k1](p) : TYPE_MATCH_NO;
	if (k1 == BTF_KIND_CONST)
		p->id1 = p->t1->type;
	else if (k2 == BTF_KIND_CONST)
		p->id2 = p->t2->type;
	else
		return TYPE_MATCH_NO;
	return TYPE_MATCH_NEXT;
}

static bool types_match_depth(const struct btf_build *b1, uint32_t id1, const struct btf_build *b2,
			      uint32_t id2, bool proto_params, int depth)
{
	struct type_pair p = { .b1 = b1,
			       .b2 = b2,
			       .id1 = id1,
			       .id2 = id2,
			       .proto_params = proto_params,
			       .depth = depth };
	int steps;

	/* Corrupt input can make prototypes refer to themselves: a bounded walk. */
	for (steps = 0; steps < 32 && depth < 32; steps++) {
		enum type_match m = type_pair__step(&p);

		if (m != TYPE_MATCH_NEXT)
			return m == TYPE_MATCH_YES;
	}
	return false;
}

/* A state's type @id in @c's BTF, or in the merged one when @merged. */
static uint32_t state_id(const struct btf_chunk *c, bool merged, uint32_t id)
{
	return merged ? btf_chunk__merged_id(c, id) : id;
}

/*
 * Whether two prototypes differ: each in its chunk's BTF (@b1, @b2), or both
 * in the merged BTF (@merged); if so, *@mm says how, as pahole v1.31
 * compares them: the count, the return type, then each parameter.
 */
bool btf_func_state__differs(const struct btf_build *b1, const struct btf_func_state *s1,
			     const struct btf_build *b2, const struct btf_func_state *s2,
			     bool merged, struct func_mismatch *mm, bool later)
{
	uint32_t i;

	*mm = (struct func_mismatch){ .pos = FUNC_POS_NONE,
				      .nr_params = s2->nr_params + s2->varargs };
	if (s1->nr_params + s1->varargs != s2->nr_params + s2->varargs) {
		mm->kind = FUNC_MISMATCH_COUNT;
		return true;
	}
	if (!types_match_depth(b1, state_id(s1->chunk, merged, s1->ret_type), b2,
			       state_id(s2->chunk, merged, s2->ret_type), later, 0)) {
		mm->kind = FUNC_MISMATCH_RETURN;
		return true;
	}
	for (i = 0; i < s1->nr_params; i++) {
		if (!types_match_depth(b1, state_id(s1->chunk, merged, s1->params[i].type), b2,
				       state_id(s2->chunk, merged, s2->params[i].type), later, 0)) {
			mm->kind = FUNC_MISMATCH_PARAM;
			mm->param = i;
			mm->name = s2->params[i].name;
			return true;
		}
	}
	return false;
}

void btf_func_state__merge_flags(struct btf_func_state *dst, const struct btf_func_state *src)
{
	dst->inconsistent_proto |= src->inconsistent_proto;
	dst->optimized_parms |= src->optimized_parms;
	dst->unexpected_reg |= src->unexpected_reg;
	dst->uncertain_parm_loc |= src->uncertain_parm_loc;
}
