// SPDX-License-Identifier: GPL-2.0-only
/*
 * Functions, in a worker: what the encoder collects of each function of a
 * CU (its prototype, where its parameters are, by the ABI's rules), and how
 * it merges its own sightings of a function, in CU order, into the
 * elf_function node it claimed (btf_encoder__save_func()).  Once all
 * workers are done, btf_merge_funcs.c merges the nodes across encoders.
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
#include "lib/u32_sort.h"

/* ---- collecting a CU's functions: prototypes and where the arguments are ---- */

static bool btf_encoder__has_struct_param(const struct btf_encoder *e, const struct cu_func *f)
{
	uint32_t i;

	for (i = 0; i < f->nr_params; i++)
		if (param_type__is_struct(&e->build,
					  e->cu.params.data[f->first_param + i].proto.type))
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
static int btf_encoder__check_params(struct btf_encoder *e, struct cu_func *f)
{
	const struct param_regs *regs = &e->in->param_regs;
	bool unexpected = false;
	uint32_t i;
	int err;

	for (i = 0; i < f->nr_params; i++) {
		const struct cu_param *p = &e->cu.params.data[f->first_param + i];
		int expected, reg;

		if (!p->has_location || !param_regs__expected(regs, i, &expected)) {
			f->optimized_parms = true;
			continue;
		}
		/* Read on the way by true_signature's walk, of this same location. */
		if (p->loc31_of && p->loc31_of == p->loc_attr.valp) {
			reg = p->loc31_reg;
		} else {
			err = param_loc__reg(&e->locs, (Dwarf_Attribute *)&p->loc_attr, expected,
					     &reg);
			if (err)
				return err;
		}
		if (reg < 0)
			f->optimized_parms = true;
		else if (expected >= 0 && reg != expected)
			unexpected = true;
	}
	f->raw_unexpected = unexpected;
	f->unexpected_reg = unexpected && !btf_encoder__has_struct_param(e, f);
	for (i = regs->nr; f->nr_params >= (uint32_t)regs->nr && i < f->nr_params; i++)
		if (param_type__is_packed_struct(&e->build,
						 e->cu.params.data[f->first_param + i].proto.type,
						 e->cu.reader.addr_size))
			f->uncertain_parm_loc = true;
	return 0;
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
		struct cu_param *param;
		struct die_attrs p;
		int nr, tag = btf_encoder__tag(e, &child);

		switch (tag) {
		case DW_TAG_formal_parameter:
			btf_encoder__attrs(e, &child, &p);
			param = darray__push(&e->cu.params);
			if (!param)
				return -ENOMEM;
			memset(param, 0, sizeof(*param));
			/* The rules read the DIE's own attributes, before its origin's are taken in. */
			err = btf_encoder__sig_collect_param(e, &child, &p,
							     e->cu.params.nr - 1 - f->first_param);
			die_attrs__inherit(&p, &e->cu.reader, false);
			param->proto.name = p.name;
			param->proto.type = p.type;
			param->loc_attr = p.location_attr;
			param->has_location = p.has_location;
			param->has_const_value = p.has_const_value;
			nr = e->cu.params.nr - 1 - f->first_param;
			err = err ?: btf_encoder__collect_decl_tags(e, &child, nr);
			err = err ?: btf_encoder__push_gnu_decl_tags(e, &p, nr);
			break;
		case DW_TAG_unspecified_parameters:
			f->varargs = true;
			break;
		default:
			err = btf_encoder__push_decl_tag(e, die__decl_tag_value(&child, tag), -1);
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
		if (!e->cu.params.data[f->first_param + i].proto.name)
			break;
	if (i == f->nr_params)
		return 0;
	e->cu.params.nr = f->first_param;
	e->cu.tags.nr = f->first_tag;
	e->cu.funcs.nr--;
	e->cu.func_index.nr--;
	return 0;
}

int btf_encoder__collect_func(struct btf_encoder *e, Dwarf_Die *die)
{
	struct elf_functions_entry *entry;
	uint32_t origin = 0, ret_type;
	struct die_attrs a;
	struct cu_func_off *at;
	struct cu_func *f;
	int err;

	btf_encoder__attrs(e, die, &a);
	if (a.declaration)
		return 0;
	if (a.has_origin && dwarf_whatattr(&a.origin_attr) == DW_AT_abstract_origin)
		origin = die_ref(&a.origin_attr, &e->cu.ref_ctx);
	ret_type = a.type;
	die_attrs__inherit(&a, &e->cu.reader, false);
	if (!a.name)
		return 0;
	/*
	 * pahole takes the name through DW_AT_abstract_origin or
	 * DW_AT_specification, but the return type only from the DIE or its
	 * abstract origin (v1.31's dwarf_loader.c,
	 * cu__resolve_func_ret_types_optimized()): a definition of what a
	 * struct or an enum declares (rustc's methods, C++'s) returns void.
	 */
	if (!ret_type && origin)
		ret_type = a.origin_type;
	entry = elf_functions__find(e->in->functions, a.name);
	if (!entry)
		return 0;
	at = darray__push(&e->cu.func_index);
	f = at ? darray__push(&e->cu.funcs) : NULL;
	if (!f)
		return -ENOMEM;
	memset(f, 0, sizeof(*f));
	f->entry = entry;
	f->die_off = btf_encoder__die_off(e, die);
	*at = (struct cu_func_off){ f->die_off, e->cu.funcs.nr - 1 };
	if (e->cu.func_index.nr > 1 && at[-1].off > at->off)
		e->cu.funcs_unsorted = true;
	if ((origin & REF_DIE) && origin != REF_BAD)
		f->origin_off = origin & REF_OFF_MASK;
	if ((a.name_ref & REF_DIE) && a.name_ref != REF_BAD)
		f->name_off = a.name_ref & REF_OFF_MASK;
	f->ret_type = ret_type;
	btf_encoder__sig_collect_func(e, die, &a, f);
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
				   const struct cu_func *f)
{
	struct btf_func_param *p;
	uint32_t i;

	if (!f->nr_params)
		return 0;
	p = arena__alloc(&e->arena, f->nr_params * sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (i = 0; i < f->nr_params; i++) {
		p[i] = e->cu.params.data[f->first_param + i].proto;
		if (p[i].name && !(p[i].name = arena__strdup(&e->arena, p[i].name)))
			return -ENOMEM;
	}
	*dst = p;
	return 0;
}

/* ---- merging the sightings of a function ---- */

/* @f's parameters as a prototype's, in e->cu.proto: 0 or -ENOMEM. */
static int btf_encoder__proto(struct btf_encoder *e, const struct cu_func *f)
{
	uint32_t i;

	e->cu.proto.nr = 0;
	for (i = 0; i < f->nr_params; i++) {
		struct btf_func_param *p = darray__push(&e->cu.proto);

		if (!p)
			return -ENOMEM;
		*p = e->cu.params.data[f->first_param + i].proto;
	}
	return 0;
}

/*
 * Merges a later sighting @cur of a function (@f of the current CU) into
 * the encoder's state @state: sightings come in CU order, so the first that
 * differs is the one pahole v1.31 reports.
 */
static int btf_encoder__merge_sighting(struct btf_encoder *e, struct btf_func_state *state,
				       struct btf_func_state *cur, const struct cu_func *f)
{
	const struct btf_build *first = btf_encoder__chunk_btf(e, state->chunk), *now = &e->build;
	struct func_mismatch mm;
	int err = btf_encoder__proto(e, f);

	if (err)
		return err;
	cur->params = f->nr_params ? e->cu.proto.data : NULL;
	/* The first sighting may be in an earlier chunk of this encoder. */
	if (btf_func_state__differs(first, state, now, cur, false, &mm, false)) {
		state->inconsistent_proto = true;
		if (state->mismatch.pos == FUNC_POS_NONE) {
			mm.pos = cur->pos;
			if (mm.name && !(mm.name = arena__strdup(&e->arena, mm.name)))
				return -ENOMEM;
			state->mismatch = mm;
		}
	}
	if (cur->unexpected_pos < state->unexpected_pos)
		state->unexpected_pos = cur->unexpected_pos;
	btf_func_state__merge_flags(state, cur);
	return 0;
}

/*
 * Saves a sighting of a function in the current CU (the @nr-th of its
 * functions) into the encoder's node of its name: the first becomes the
 * state, with copies in the arena of what it points to in the DWARF; a
 * later one is merged into it.
 */
static int btf_encoder__save_func(struct btf_encoder *e, struct elf_function *node,
				  const struct cu_func *f, uint32_t nr)
{
	struct btf_func_state cur = {
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
	int err;

	cur.unexpected_pos = cur.unexpected_reg ? cur.pos : FUNC_POS_NONE;
	if (state->initialized)
		return btf_encoder__merge_sighting(e, state, &cur, f);
	slot = darray__push(&e->chunk_states);
	if (!slot)
		return -ENOMEM;
	*slot = state;
	*state = cur;
	state->nr_tags = f->nr_tags;
	err = btf_encoder__own_tags(e, &state->tags, f->first_tag, f->nr_tags);
	return err ?: btf_encoder__own_params(e, &state->params, f);
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

/*
 * v1.31 makes no function of a subprogram that an enumeration declares
 * (its dwarf_loader.c, die__create_new_enumeration(): "not handled"), so
 * the definitions named through one (DW_AT_specification, and a concrete
 * instance through that abstract one) have no name there, and are no
 * sighting of any function.  Drops them, once the CU's enumerations are
 * all met, before anything is decided.
 */
static void btf_encoder__drop_enum_subprograms(struct btf_encoder *e)
{
	uint32_t *decls = e->cu.enum_subprograms.data;
	size_t i, kept = 0, nr = e->cu.enum_subprograms.nr;

	if (btf_encoder_conf__follows(e->in->conf, BTF_RULE_ENUM_SUBPROGRAMS) ||
	    (!nr && !e->in->merged_cus))
		return;
	if (nr > 1)
		qsort(decls, nr, sizeof(*decls), u32__cmp);
	for (i = 0; i < e->cu.funcs.nr; i++) {
		const struct cu_func *f = &e->cu.funcs.data[i];

		if (f->name_off && nr && bsearch(&f->name_off, decls, nr, sizeof(*decls), u32__cmp))
			continue;
		/* Named through another chunk's unit (units one CU): its enumerations. */
		if (f->name_off && e->in->merged_cus &&
		    btf_encoder__foreign_enum_subprogram(e, f->name_off))
			continue;
		e->cu.func_index.data[kept] = (struct cu_func_off){ f->die_off, kept };
		e->cu.funcs.data[kept++] = *f;
	}
	e->cu.funcs.nr = kept;
	e->cu.func_index.nr = kept;
}

int btf_encoder__save_cu_funcs(struct btf_encoder *e)
{
	/* v1.32's FUNCs are upstream's later rules' alone (btf_encoder_sigs.c). */
	bool v131 = !btf_encoder_conf__follows(e->in->conf, BTF_RULE_FUNCS_V132);
	size_t i;
	uint32_t j;
	int err;

	btf_encoder__drop_enum_subprograms(e);
	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct cu_func *f = &e->cu.funcs.data[i];

		f->ret_type = btf_encoder__resolve_ref(e, f->ret_type);
		for (j = 0; j < f->nr_params; j++) {
			struct btf_func_param *p = &e->cu.params.data[f->first_param + j].proto;

			p->type = btf_encoder__resolve_ref(e, p->type);
		}
		/* Its uncertain locations are both releases' rule. */
		err = btf_encoder__check_params(e, f);
		if (err)
			return err;
	}
	err = btf_encoder__index_funcs(e);
	if (err)
		return err;
	if (v131)
		btf_encoder__pass_on_unexpected(e);
	btf_encoder__sig_share(e);
	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct elf_function *node;
		int err = elf_functions__claim(e->cu.funcs.data[i].entry, e, &node);

		if (err)
			return err;
		err = v131 ? btf_encoder__save_func(e, node, &e->cu.funcs.data[i], i) : 0;
		err = err ?: btf_encoder__sig_save(e, node, &e->cu.funcs.data[i], i);
		if (err)
			return err;
	}
	return 0;
}
