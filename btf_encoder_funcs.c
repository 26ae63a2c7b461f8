// SPDX-License-Identifier: GPL-2.0-only
/*
 * Functions: what the encoder collects of each function of a CU (its
 * prototype, where its parameters are), how it merges the sightings of a
 * function, and how the merged states become FUNCs.
 *
 * The two merges of the design, side by side below:
 *   - btf_encoder__save_func(): a worker merges its own sightings of a
 *     function, in CU order, into the elf_function node it claimed;
 *   - btf_encoders__add_saved_funcs(): once all workers are done, one thread
 *     merges each function's nodes across encoders (elf_function__merge()),
 *     drops the inconsistent ones and adds the FUNCs.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_encoder_priv.h"
#include "btf_ids.h"
#include "func_params.h"
#include "lib/btf_types.h"

/* ---- collecting a CU's functions: prototypes and where the arguments are ---- */

static bool btf_encoder__has_struct_param(const struct btf_encoder *e, const struct cu_func *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_params; i++)
		if (param_type__is_struct(e->btf, e->cu.params.data[f->first_param + i].type))
			return true;
	return false;
}

/*
 * Sets @f's flags by pahole v1.31's rules (func_params.h): a parameter
 * within the argument registers is optimized out unless its first location
 * is a register, and unexpected in another than its index's, which a struct
 * parameter anywhere forgives; a named packed struct past the registers makes
 * the function's locations uncertain.
 */
static void btf_encoder__check_params(struct btf_encoder *e, struct cu_func *f)
{
	const struct param_regs *regs = &e->conf->param_regs;
	bool unexpected = false;
	uint32_t i;

	for (i = 0; i < f->nr_params; i++) {
		const struct cu_param_loc *loc = &e->cu.locs.data[f->first_param + i];
		int expected, reg;

		if (i >= (uint32_t)regs->nr || !loc->has_location) {
			f->optimized_parms = true;
			continue;
		}
		expected = regs->regs[i] < 0 ? -1 : DW_OP_reg0 + regs->regs[i];
		reg = param_loc__reg((Dwarf_Attribute *)&loc->attr, expected, e->conf->libdw_lock);
		if (reg < 0)
			f->optimized_parms = true;
		else if (expected >= 0 && reg != expected)
			unexpected = true;
	}
	f->raw_unexpected = unexpected;
	f->unexpected_reg = unexpected && !btf_encoder__has_struct_param(e, f);
	for (i = regs->nr; f->nr_params >= (uint32_t)regs->nr && i < f->nr_params; i++)
		if (param_type__is_packed_struct(e->btf, e->cu.params.data[f->first_param + i].type,
						 e->cu.reader.addr_size))
			f->uncertain_parm_loc = true;
}

static int btf_encoder__collect_params(struct btf_encoder *e, Dwarf_Die *die, struct cu_func *f)
{
	Dwarf_Die child;
	int err = 0;

	f->first_param = e->cu.params.nr;
	f->first_tag = e->cu.tags.nr;
	if (btf_encoder__child(e, die, &child) != 0)
		return 0;
	do {
		struct btf_func_param *param;
		struct cu_param_loc *loc;
		struct die_attrs p;

		switch (dwarf_tag(&child)) {
		case DW_TAG_formal_parameter:
			btf_encoder__attrs(e, &child, &p);
			die_attrs__inherit(&p, false);
			param = darray_push(&e->cu.params);
			if (!param)
				return -ENOMEM;
			param->name = p.name;
			param->type = p.type;
			loc = darray_push(&e->cu.locs);
			if (!loc)
				return -ENOMEM;
			loc->attr = p.location_attr;
			loc->has_location = p.has_location;
			loc->has_const_value = p.has_const_value;
			err = btf_encoder__sig_collect_param(e, &child);
			err = err   ?:
				      btf_encoder__collect_decl_tags(
					      e, &child, e->cu.params.nr - 1 - f->first_param);
			err = err   ?:
				      btf_encoder__push_gnu_decl_tags(
					      e, &p, e->cu.params.nr - 1 - f->first_param);
			break;
		case DW_TAG_unspecified_parameters:
			f->varargs = true;
			break;
		default:
			err = btf_encoder__push_decl_tag(e, die__decl_tag_value(&child), -1);
			break;
		}
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	f->nr_params = e->cu.params.nr - f->first_param;
	f->nr_tags = e->cu.tags.nr - f->first_tag;
	return err;
}

/*
 * Forgets the function just collected when a parameter has no name (C23 and
 * C++ allow that), as pahole v1.31 passes such a sighting over
 * (ftype__has_arg_names).  Its parameters and tags are the last collected.
 */
static int btf_encoder__drop_unnamed(struct btf_encoder *e)
{
	const struct cu_func *f = &e->cu.funcs.data[e->cu.funcs.nr - 1];
	uint32_t i;

	for (i = 0; i < f->nr_params; i++)
		if (!e->cu.params.data[f->first_param + i].name)
			break;
	if (i == f->nr_params)
		return 0;
	e->cu.params.nr = f->first_param;
	e->cu.locs.nr = f->first_param;
	if (btf_encoder__has(e, BTF_FEAT_TRUE_SIGNATURE))
		e->cu.sig_params.nr = f->first_param;
	e->cu.tags.nr = f->first_tag;
	e->cu.funcs.nr--;
	return 0;
}

int btf_encoder__collect_func(struct btf_encoder *e, Dwarf_Die *die)
{
	struct elf_functions_entry *entry;
	uint32_t origin = 0;
	struct die_attrs a;
	struct cu_func *f;
	int err;

	btf_encoder__attrs(e, die, &a);
	if (a.declaration)
		return 0;
	if (a.has_origin && dwarf_whatattr(&a.origin_attr) == DW_AT_abstract_origin)
		origin = die_ref(&a.origin_attr, &e->cu.ref_ctx);
	die_attrs__inherit(&a, false);
	if (!a.name)
		return 0;
	entry = elf_functions__find(e->conf->functions, a.name);
	if (!entry)
		return 0;
	f = darray_push(&e->cu.funcs);
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->entry = entry;
	f->die_off = btf_encoder__die_off(e, die);
	if ((origin & REF_DIE) && origin != REF_BAD)
		f->origin_off = origin & REF_OFF_MASK;
	f->ret_type = a.type;
	btf_encoder__sig_collect_func(e, die, f);
	err = btf_encoder__collect_params(e, die, f);
	/* gcc's tags of the function come after its parameters'. */
	err = err ?: btf_encoder__push_gnu_decl_tags(e, &a, -1);
	f->nr_tags = e->cu.tags.nr - f->first_tag;
	return err ?: btf_encoder__drop_unnamed(e);
}

/*
 * Copies of what a saved function or variable points to in the DWARF, for
 * after its chunk: strings in .debug_info (DW_FORM_string) would read back
 * the pages dropped behind the chunk.
 */
static int btf_encoder__own_params(struct btf_encoder *e, struct btf_func_param **dst,
				   const struct btf_func_param *src, uint32_t n)
{
	struct btf_func_param *p;
	uint32_t i;

	if (!n)
		return 0;
	p = arena__memdup(&e->arena, src, n * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (p[i].name && !(p[i].name = arena__strdup(&e->arena, p[i].name)))
			return -ENOMEM;
	*dst = p;
	return 0;
}

/* The @n tags of the current CU from @first. */
int btf_encoder__own_tags(struct btf_encoder *e, struct btf_decl_tag_ref **dst, size_t first,
			  uint32_t n)
{
	struct btf_decl_tag_ref *t;
	uint32_t i;

	if (!n)
		return 0;
	t = arena__memdup(&e->arena, &e->cu.tags.data[first], n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!(t[i].value = arena__strdup(&e->arena, t[i].value)))
			return -ENOMEM;
	*dst = t;
	return 0;
}

/* ---- merging the sightings of a function ---- */

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
	const struct btf *b1, *b2;
	const struct btf_type *t1, *t2;
	uint32_t id1, id2;
	/* Compare a prototype's parameters too, as upstream after v1.31 does. */
	bool proto_params;
	int depth;
};

static bool types_match_depth(const struct btf *b1, uint32_t id1, const struct btf *b2,
			      uint32_t id2, bool proto_params, int depth);

static bool type_pair__names_match(const struct type_pair *p)
{
	return !strcmp(btf__name_by_offset(p->b1, p->t1->name_off),
		       btf__name_by_offset(p->b2, p->t2->name_off));
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

/* By kind; a kind without an entry matches nothing. */
static enum type_match (*const type_match_ops[NR_BTF_KINDS])(struct type_pair *p) = {
	[BTF_KIND_INT] = match_int,	 [BTF_KIND_FLOAT] = match_float,
	[BTF_KIND_TYPEDEF] = match_name, [BTF_KIND_STRUCT] = match_name,
	[BTF_KIND_UNION] = match_name,	 [BTF_KIND_ENUM] = match_name,
	[BTF_KIND_ENUM64] = match_name,	 [BTF_KIND_PTR] = match_ref,
	[BTF_KIND_CONST] = match_ref,	 [BTF_KIND_VOLATILE] = match_ref,
	[BTF_KIND_RESTRICT] = match_ref, [BTF_KIND_TYPE_TAG] = match_ref,
	[BTF_KIND_ARRAY] = match_array,	 [BTF_KIND_FUNC_PROTO] = match_proto,
};

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
	p->t1 = btf__type_by_id(p->b1, p->id1);
	p->t2 = btf__type_by_id(p->b2, p->id2);
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

static bool types_match_depth(const struct btf *b1, uint32_t id1, const struct btf *b2,
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
 * in the merged BTF (@merged, @b1 == @b2); if so, *@mm says how, as pahole
 * v1.31 compares them: the count, the return type, then each parameter.
 */
static bool func_states_differ(const struct btf *b1, const struct btf_func_state *s1,
			       const struct btf *b2, const struct btf_func_state *s2, bool merged,
			       struct func_mismatch *mm, bool later)
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

static void func_state__or_flags(struct btf_func_state *dst, const struct btf_func_state *src)
{
	dst->inconsistent_proto |= src->inconsistent_proto;
	dst->optimized_parms |= src->optimized_parms;
	dst->unexpected_reg |= src->unexpected_reg;
	dst->uncertain_parm_loc |= src->uncertain_parm_loc;
}

/*
 * Merges a sighting of a function in the current CU (the @nr-th of its
 * functions) into the encoder's state.  Sightings come in CU order, so the
 * first that differs is the one pahole v1.31 reports.
 */
static int btf_encoder__save_func(struct btf_encoder *e, struct elf_function *node,
				  const struct cu_func *f, uint32_t nr)
{
	struct btf_func_state cur = {
		.params = f->nr_params ? &e->cu.params.data[f->first_param] : NULL,
		.nr_params = f->nr_params,
		.ret_type = f->ret_type,
		.cu_index = e->cu.index,
		.chunk = e->chunk,
		.initialized = true,
		.varargs = f->varargs,
		.optimized_parms = f->optimized_parms,
		.unexpected_reg = f->unexpected_reg,
		.uncertain_parm_loc = f->uncertain_parm_loc,
		.pos = (uint64_t)e->cu.index << 32 | nr,
		.mismatch.pos = FUNC_POS_NONE,
	};
	struct btf_func_state *state = &node->state, **slot;
	struct func_mismatch mm;
	int err;

	cur.unexpected_pos = cur.unexpected_reg ? cur.pos : FUNC_POS_NONE;
	if (state->initialized) {
		/* The first sighting may be in an earlier chunk of this encoder. */
		if (func_states_differ(state->chunk->btf, state, e->btf, &cur, false, &mm, false)) {
			state->inconsistent_proto = true;
			if (state->mismatch.pos == FUNC_POS_NONE) {
				mm.pos = cur.pos;
				if (mm.name && !(mm.name = arena__strdup(&e->arena, mm.name)))
					return -ENOMEM;
				state->mismatch = mm;
			}
		}
		if (cur.unexpected_pos < state->unexpected_pos)
			state->unexpected_pos = cur.unexpected_pos;
		func_state__or_flags(state, &cur);
		return 0;
	}
	slot = darray_push(&e->chunk_states);
	if (!slot)
		return -ENOMEM;
	*slot = state;
	*state = cur;
	state->params = NULL;
	state->tags = NULL;
	state->nr_tags = f->nr_tags;
	err = btf_encoder__own_tags(e, &state->tags, f->first_tag, f->nr_tags);
	return err ?: btf_encoder__own_params(e, &state->params, cur.params, cur.nr_params);
}

/* The CU's function whose DIE is at @off, or NULL: funcs are in DIE order. */
struct cu_func *btf_encoder__cu_func_at(struct btf_encoder *e, uint32_t off)
{
	size_t lo = 0, hi = e->cu.funcs.nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->cu.funcs.data[mid].die_off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->cu.funcs.nr && e->cu.funcs.data[lo].die_off == off ? &e->cu.funcs.data[lo] :
									    NULL;
}

/*
 * pahole v1.31 passes a concrete instance's unexpected registers on to the
 * parameters of its abstract origin (ftype__recode_dwarf_types), so the
 * abstract sighting, unless a struct parameter forgives it, is unexpected
 * too.  The function's flags come out the same (the concrete one is as
 * unexpected); where v1.31 stops comparing prototypes, which -V shows, not.
 */
static void btf_encoder__pass_on_unexpected(struct btf_encoder *e)
{
	size_t i;

	for (i = 0; i < e->cu.funcs.nr; i++) {
		const struct cu_func *f = &e->cu.funcs.data[i];
		struct cu_func *origin;

		if (!f->raw_unexpected || !f->origin_off)
			continue;
		origin = btf_encoder__cu_func_at(e, f->origin_off);
		if (origin && !origin->unexpected_reg && !btf_encoder__has_struct_param(e, origin))
			origin->unexpected_reg = true;
	}
}

int btf_encoder__save_cu_funcs(struct btf_encoder *e)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct cu_func *f = &e->cu.funcs.data[i];

		f->ret_type = btf_encoder__resolve_ref(e, f->ret_type);
		for (j = 0; j < f->nr_params; j++) {
			struct btf_func_param *p = &e->cu.params.data[f->first_param + j];

			p->type = btf_encoder__resolve_ref(e, p->type);
		}
		btf_encoder__check_params(e, f);
	}
	btf_encoder__pass_on_unexpected(e);
	btf_encoder__sig_share(e);
	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct elf_function *node = elf_functions__claim(e->cu.funcs.data[i].entry, e);
		int err;

		if (!node)
			return -ENOMEM;
		err = btf_encoder__save_func(e, node, &e->cu.funcs.data[i], i);
		err = err ?: btf_encoder__sig_save(e, node, &e->cu.funcs.data[i], i);
		if (err)
			return err;
	}
	return 0;
}

/* ---- adding the functions, once every encoder is done ---- */

int decl_tags__add(struct btf *btf, uint32_t id, const struct btf_decl_tag_ref *tags, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		int err = btf__add_decl_tag(btf, tags[i].value, id, tags[i].component);

		if (err < 0)
			return err;
	}
	return 0;
}

/* Why a function is left out, or NULL when it is encoded. */
static const char *func_skip_reason(const struct btf_encoder_conf *conf,
				    const struct elf_functions_entry *entry,
				    const struct btf_func_state *s)
{
	if (!btf_encoder_conf__has(conf, BTF_FEAT_CONSISTENT_FUNC))
		return NULL;
	if (s->inconsistent_proto)
		return "its prototype differs between CUs";
	if (s->unexpected_reg)
		return "a parameter is not in the register the ABI assigns it";
	if (s->uncertain_parm_loc)
		return "a parameter's location is uncertain";
	if (entry->ambiguous_addr)
		return "its name belongs to several addresses";
	return NULL;
}

/* The state of the first CU that defined @entry, merged with all others. */
/*
 * The state of the first sighting of @entry, merged with all others, and the
 * mismatch pahole v1.31 reports: it compares the first sighting with each
 * later one in CU order, until one differs or one has an unexpected register.
 * Its relation is an equivalence (types_match_depth()), so a later encoder's
 * sightings differ from the first exactly where they differ from that
 * encoder's own first, or all of them if that one differs.
 */
static struct elf_function *elf_function__merge(const struct btf *btf,
						struct elf_functions_entry *entry,
						struct btf_func_state *merged)
{
	struct elf_function *best = NULL, *f;
	struct func_mismatch first, mm;
	uint64_t unexpected;

	for (f = atomic_load(&entry->head); f; f = f->next)
		if (f->state.initialized && (!best || f->state.pos < best->state.pos))
			best = f;
	if (!best)
		return NULL;
	*merged = best->state;
	first = best->state.mismatch;
	unexpected = best->state.unexpected_pos;
	for (f = atomic_load(&entry->head); f; f = f->next) {
		if (f == best || !f->state.initialized)
			continue;
		if (func_states_differ(btf, &best->state, btf, &f->state, true, &mm, false)) {
			merged->inconsistent_proto = true;
			mm.pos = f->state.pos;
		} else {
			mm = f->state.mismatch;
		}
		if (mm.pos < first.pos)
			first = mm;
		if (f->state.unexpected_pos < unexpected)
			unexpected = f->state.unexpected_pos;
		func_state__or_flags(merged, &f->state);
	}
	merged->mismatch = first;
	if (first.pos >= unexpected)
		merged->mismatch.pos = FUNC_POS_NONE;
	return best;
}

/*
 * With -V, the lines pahole v1.31 prints on standard output for a function
 * it leaves out (upstream's tests/btf_functions.sh reads them): a prototype
 * that differs, and an uncertain location.  Ours on standard error say more.
 */
static void func_state__log_v131(const char *name, const struct btf_func_state *s)
{
	const struct func_mismatch *mm = &s->mismatch;
	const char *p1;

	if (mm->pos != FUNC_POS_NONE) {
		printf("%s : skipping BTF encoding of function due to ", name);
		switch (mm->kind) {
		case FUNC_MISMATCH_COUNT:
			printf("param count mismatch; %u params != %u params\n",
			       s->nr_params + s->varargs, mm->nr_params);
			break;
		case FUNC_MISMATCH_RETURN:
			printf("return type mismatch\n");
			break;
		case FUNC_MISMATCH_PARAM:
			p1 = s->params[mm->param].name;
			printf("param type mismatch for param#%u %s != %s\n", mm->param + 1,
			       p1 ?: "", mm->name ?: "");
			break;
		}
	}
	if (s->uncertain_parm_loc)
		printf("%s : skipping BTF encoding of function due to uncertain parameter location\n",
		       name);
}

/*
 * With the attributes feature, a kfunc's pointer into a BPF arena becomes a
 * pointer to a TYPE_TAG "address_space(1)" with kind_flag set (an
 * attribute, not a tag), as its KF_ARENA_* flags say (pahole v1.31,
 * btf__add_bpf_arena_type_tags()).  *@id is the pointer's type; -EINVAL when
 * it is no pointer.
 */
static int kfunc__arena_ptr(struct btf *btf, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);
	int tag_id;

	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	tag_id = btf__add_type_tag(btf, "address_space(1)", t->type);
	if (tag_id < 0)
		return tag_id;
	btf_type__mut(btf, tag_id)->info |= 1u << 31;
	tag_id = btf__add_ptr(btf, tag_id);
	if (tag_id < 0)
		return tag_id;
	*id = tag_id;
	return 0;
}

/* Tags the arena pointers of kfunc @entry: its return type *@ret, its @params. */
static int kfunc__arena_ptrs(struct btf *btf, const struct btf_encoder_conf *conf,
			     const struct elf_functions_entry *entry, uint32_t *ret,
			     uint32_t *params, uint32_t nr_params)
{
	uint32_t flags = entry->kfunc_flags;
	int err = 0;

	if (!entry->kfunc || !btf_encoder_conf__has(conf, BTF_FEAT_ATTRIBUTES))
		return 0;
	if (flags & KF_ARENA_RET)
		err = kfunc__arena_ptr(btf, ret);
	if (!err && (flags & KF_ARENA_ARG1))
		err = nr_params > 0 ? kfunc__arena_ptr(btf, &params[0]) : -EINVAL;
	if (!err && (flags & KF_ARENA_ARG2))
		err = nr_params > 1 ? kfunc__arena_ptr(btf, &params[1]) : -EINVAL;
	return err;
}

bool btf_func_states__differ(const struct btf *btf, const struct btf_func_state *a,
			     const struct btf_func_state *b)
{
	struct func_mismatch mm;

	return func_states_differ(btf, a, btf, b, true, &mm, true);
}

int btf_func_state__add(struct btf *btf, const struct btf_encoder_conf *conf,
			const struct elf_functions_entry *entry, const char *name,
			const struct btf_func_state *s, bool as_kfunc)
{
	uint32_t ret = btf_chunk__merged_id(s->chunk, s->ret_type), i, *params;
	int proto, func, err;

	params = calloc(s->nr_params ?: 1, sizeof(*params));
	if (!params)
		return -ENOMEM;
	for (i = 0; i < s->nr_params; i++)
		params[i] = btf_chunk__merged_id(s->chunk, s->params[i].type);
	err = as_kfunc ? kfunc__arena_ptrs(btf, conf, entry, &ret, params, s->nr_params) : 0;
	proto = err ?: btf__add_func_proto(btf, ret);
	for (i = 0; i < s->nr_params && proto > 0 && !err; i++)
		err = btf__add_func_param(btf, s->params[i].name, params[i]);
	free(params);
	if (proto < 0)
		return proto;
	if (err)
		return err;
	if (s->varargs) {
		err = btf__add_func_param(btf, NULL, 0);
		if (err)
			return err;
	}
	func = btf__add_func(btf, name, BTF_FUNC_STATIC, proto);
	if (func < 0)
		return func;
	if (!as_kfunc)
		return decl_tags__add(btf, func, s->tags, s->nr_tags);
	if (entry->kfunc && (err = btf__add_decl_tag(btf, "bpf_kfunc", func, -1)) < 0)
		return err;
	if ((entry->kfunc_flags & KF_FASTCALL) &&
	    (err = btf__add_decl_tag(btf, "bpf_fastcall", func, -1)) < 0)
		return err;
	return decl_tags__add(btf, func, s->tags, s->nr_tags);
}

int btf_encoders__add_saved_funcs(const struct btf_encoder_conf *conf, struct btf *btf)
{
	size_t i, n = elf_functions__nr_entries(conf->functions);

	for (i = 0; i < n; i++) {
		struct elf_functions_entry *entry = elf_functions__entry(conf->functions, i);
		struct btf_func_state merged;
		struct elf_function *best;
		const char *reason;
		int err;

		best = elf_function__merge(btf, entry, &merged);
		if (!best)
			continue;
		err = btf_encoders__add_true_sig(conf, btf, entry);
		if (err < 0)
			return err;
		if (err)
			continue;
		if (conf->verbose)
			func_state__log_v131(entry->name, &merged);
		reason = func_skip_reason(conf, entry, &merged);
		if (reason) {
			if (conf->verbose)
				fprintf(stderr, "skipping function %s: %s\n", entry->name, reason);
			continue;
		}
		err = btf_func_state__add(btf, conf, entry, entry->name, &merged, true);
		if (err)
			return err;
	}
	return 0;
}
