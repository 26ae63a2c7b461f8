// SPDX-License-Identifier: GPL-2.0-only
/*
 * The true_signature feature of upstream pahole after v1.31 (acmel/dwarves
 * 1436daf): a function whose clone has a '.'-suffixed symbol at its address
 * ("foo.isra.0") is encoded by that symbol's name, with the signature it is
 * called with (func_sigs.h), in the place of the FUNC "foo".
 *
 * Upstream decides that by its own function rules, which changed after v1.31,
 * while our FUNCs are v1.31's.  So each sighting is judged twice by
 * upstream's rules, as upstream's default would and as true_signature would,
 * and where the two give the same FUNC our default one stands; where they
 * differ, the one true_signature gives (or none) is added, and ours goes
 * where upstream's default had one (the one ours would be, as our default
 * is upstream's but for their rules' differences) or where the new one
 * takes its name (clang's changed signatures keep it): one name never names
 * two prototypes.  Where upstream's default has none and the new one is a
 * clone's ("foo.isra.0"), ours ("foo", v1.31's) stays beside it.  So the
 * feature changes our output where it changes upstream's, and as it does.
 *
 * Facts taken from 1436daf's btf_encoder.c: a state's symbol is the first of
 * the name's symbols at its address with a '.'; the states of a name are
 * combined in order, each taking the flags of those before it
 * (saved_functions_combine()); the first with a symbol whose flags say no
 * unexpected register and no uncertain location gives the FUNC, with no
 * kfunc tags (btf_encoder__add_true_signature()); else the default rules
 * apply, where true_signature keeps the functions with optimized parameters
 * that the default leaves out (btf_encoder_func_state__skip_optimized_parms()),
 * and a function of several states is encoded from the first at a symbol's
 * address that is not so left out (btf_encoder__select_canonical_state()).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_encoder_priv.h"

static bool sigs_on(const struct btf_encoder *e)
{
	return e->sigs;
}

void btf_encoder__sig_begin_unit(struct btf_encoder *e, Dwarf_Die *cu_die)
{
	Dwarf_Attribute attr;
	const char *producer;

	if (!sigs_on(e))
		return;
	producer = die_reader__attr(&e->cu.reader, cu_die, DW_AT_producer, &attr) ?
			   dwarf_formstring(&attr) :
			   NULL;
	e->cu.sig_abi = (struct sig_abi){
		.regs = &e->in->param_regs,
		.addr_size = e->cu.reader.addr_size,
		.two_regs = e->in->param_regs.two_regs,
		.clang = producer && strstr(producer, "clang"),
	};
}

void btf_encoder__sig_collect_func(struct btf_encoder *e, Dwarf_Die *die, const struct die_attrs *a,
				   struct cu_func *f)
{
	Dwarf_Addr addr;

	if (!sigs_on(e))
		return;
	/*
	 * dwarf_lowpc() is dwarf_formaddr() of the first DW_AT_low_pc, which
	 * the reader handed over: none, no address (a function in pieces has
	 * DW_AT_ranges alone).  Asked of the attribute, libdw need not load
	 * the unit's abbreviations to find it again.
	 */
	if (a->has_low_pc_addr || !a->has_low_pc) {
		f->addr = a->low_pc;
	} else {
		pthread_mutex_t *lock = unit_locks__of(e->in->unit_locks, die->cu);
		Dwarf_Attribute attr = a->low_pc_attr;

		pthread_mutex_lock(lock);
		f->addr = dwarf_formaddr(&attr, &addr) == 0 ? addr : 0;
		pthread_mutex_unlock(lock);
	}
	f->clang = e->cu.sig_abi.clang;
	f->changed = f->clang && sig_func__changed(die, dwarf_hasattr(die, DW_AT_abstract_origin),
						   &e->cu.ref_ctx);
}

/*
 * What @die, a parameter read into @a, holds itself: from @a (the attributes
 * the reader handed over, as libdw would find them on the DIE), but where a
 * name came twice, as libdw reads it (its first).
 */
static void sig_param_own__of(struct sig_param_own *own, Dwarf_Die *die, struct die_attrs *a,
			      Dwarf_Attribute attrs[3])
{
	if (a->repeated) {
		sig_param_own__read(own, die, attrs);
		return;
	}
	*own = (struct sig_param_own){
		.origin = a->has_origin && a->origin_attr.code == DW_AT_abstract_origin ?
				  &a->origin_attr :
				  NULL,
		.type = a->type_attr.code == DW_AT_type ? &a->type_attr : NULL,
		.location = a->has_location ? &a->location_attr : NULL,
		.has_const_value = a->has_const_value,
	};
}

int btf_encoder__sig_collect_param(struct btf_encoder *e, Dwarf_Die *die, struct die_attrs *a,
				   uint32_t index)
{
	struct cu_param *param = &e->cu.params.data[e->cu.params.nr - 1];
	struct sig_param *sp = &param->sig;
	struct param_loc_walk loc31, *also = NULL;
	struct sig_param_own own;
	Dwarf_Attribute attrs[3];
	int expected, err;

	if (!sigs_on(e))
		return 0;
	sp->die_off = btf_encoder__die_off(e, die) & REF_OFF_MASK;
	sig_param_own__of(&own, die, a, attrs);
	/* Upstream shares only what a parameter without a type of its own knows. */
	if (own.origin && !own.type) {
		uint32_t ref = die_ref(own.origin, &e->cu.ref_ctx);

		if ((ref & REF_DIE) && ref != REF_BAD)
			sp->origin_off = ref & REF_OFF_MASK;
	}
	/* The location list read once for both releases' rules (btf_encoder__check_params()). */
	if (own.location && param_regs__expected(&e->in->param_regs, index, &expected)) {
		param_loc_walk__init(&loc31, expected);
		also = &loc31;
	}
	err = sig_param__read(sp, die, &own, &e->cu.reader, &e->cu.sig_abi, &e->cu.ref_ctx,
			      &e->locs, also);
	if (!err && also) {
		param->loc31_of = own.location->valp;
		param->loc31_reg = loc31.reg;
	}
	return err;
}

/* The parameter of @origin whose DIE is at @off, and its place; NULL for none. */
static struct sig_param *cu_func__sig_param_at(struct btf_encoder *e, const struct cu_func *origin,
					       uint32_t off, uint32_t *idx)
{
	uint32_t k;

	for (k = 0; k < origin->nr_params; k++) {
		struct sig_param *sp = &e->cu.params.data[origin->first_param + k].sig;

		if (sp->die_off == off) {
			*idx = k;
			return sp;
		}
	}
	return NULL;
}

void btf_encoder__sig_share(struct btf_encoder *e)
{
	size_t i;
	uint32_t j, k;

	if (!sigs_on(e))
		return;
	for (i = 0; i < e->cu.params.nr; i++) {
		struct sig_param *sp = &e->cu.params.data[i].sig;

		if (sp->member)
			sp->member_type = btf_encoder__resolve_ref(e, sp->member_type);
	}
	/* In DIE order, as upstream recodes the functions: later concrete ones win. */
	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct cu_func *f = &e->cu.funcs.data[i];
		const struct cu_func *origin;

		if (!f->origin_off || !(origin = btf_encoder__cu_func_at(e, f->origin_off)))
			continue;
		for (j = 0; j < f->nr_params; j++) {
			struct sig_param *sp = &e->cu.params.data[f->first_param + j].sig, *to;

			if (!sp->origin_off ||
			    !(to = cu_func__sig_param_at(e, origin, sp->origin_off, &k)))
				continue;
			f->reordered |= k != j;
			sig_param__share(to, sp);
		}
	}
}

/* "param__member", in the arena. */
static const char *member_param_name(struct btf_encoder *e, const char *param, const char *member)
{
	size_t a = strlen(param), b = strlen(member);
	char *s = arena__alloc(&e->arena, a + b + 3);

	if (s) {
		memcpy(s, param, a);
		memcpy(s + a, "__", 2);
		memcpy(s + a + 2, member, b + 1);
	}
	return s;
}

/*
 * Fills mode @m of @s from the analysis @out of @f's parameters: upstream
 * drops a reordered function's parameters without location or optimized
 * out, and with true_signature (@true_sig) all that are optimized out.
 */
static int btf_encoder__sig_mode(struct btf_encoder *e, const struct cu_func *f,
				 const struct sig_param *sp, const struct sig_param_out *out,
				 bool true_sig, struct func_sig_mode *m)
{
	const struct cu_param *params;
	bool unexpected = false, has_struct = false;
	uint32_t j;

	m->params = arena__alloc(&e->arena, (f->nr_params ?: 1) * sizeof(*m->params));
	if (!m->params)
		return -ENOMEM;
	if (!f->nr_params)
		return 0;
	params = &e->cu.params.data[f->first_param];
	for (j = 0; j < f->nr_params; j++) {
		struct btf_func_param *p = &m->params[m->nr_params];
		uint32_t type = out[j].member_typed ? sp[j].member_type : params[j].proto.type;

		unexpected |= out[j].unexpected;
		has_struct |= param_type__is_struct(&e->build, type);
		m->optimized_parms |= out[j].optimized || !sp[j].has_loc;
		if (f->reordered && (!sp[j].has_loc || out[j].optimized))
			continue;
		if (true_sig && out[j].optimized)
			continue;
		p->type = type;
		p->name = params[j].proto.name;
		if (p->name && true_sig && out[j].member_named)
			p->name = member_param_name(e, p->name, sp[j].member);
		else if (p->name)
			p->name = arena__strdup(&e->arena, p->name);
		if (params[j].proto.name && !p->name)
			return -ENOMEM;
		m->nr_params++;
	}
	m->unexpected = unexpected && !has_struct;
	return 0;
}

static int btf_encoder__sig_modes(struct btf_encoder *e, const struct cu_func *f,
				  struct func_sighting *s)
{
	/* sig_params__analyze() reads the parameters' facts as one array. */
	struct sig_param_out *out = calloc(f->nr_params ?: 1, sizeof(*out));
	struct sig_param *sp = calloc(f->nr_params ?: 1, sizeof(*sp));
	struct sig_abi abi = e->cu.sig_abi;
	uint32_t j;
	int err = -ENOMEM;

	if (!out || !sp)
		goto out;
	for (j = 0; j < f->nr_params; j++)
		sp[j] = e->cu.params.data[f->first_param + j].sig;
	abi.clang = f->clang;
	sig_params__analyze(&abi, sp, f->nr_params, f->changed, false, out);
	err = btf_encoder__sig_mode(e, f, sp, out, false, &s->mode[SIG_DEFAULT]);
	s->mode[SIG_TRUE] = s->mode[SIG_DEFAULT];
	if (!err && f->changed) {
		memset(&s->mode[SIG_TRUE], 0, sizeof(s->mode[SIG_TRUE]));
		sig_params__analyze(&abi, sp, f->nr_params, true, true, out);
		err = btf_encoder__sig_mode(e, f, sp, out, true, &s->mode[SIG_TRUE]);
	}
out:
	free(sp);
	free(out);
	return err;
}

int btf_encoder__sig_save(struct btf_encoder *e, struct elf_function *node, const struct cu_func *f,
			  uint32_t nr)
{
	struct func_sighting *s, **slot;
	int err;

	if (!sigs_on(e))
		return 0;
	s = arena__alloc(&e->arena, sizeof(*s));
	slot = darray__push(&e->chunk_sightings);
	if (!s || !slot)
		return -ENOMEM;
	*s = (struct func_sighting){
		.chunk = e->chunk,
		.pos = (uint64_t)e->cu.index << 32 | nr,
		.addr = f->addr,
		.ret_type = f->ret_type,
		.nr_tags = f->nr_tags,
		.varargs = f->varargs,
		.changed = f->changed,
		.reordered = f->reordered,
		.uncertain = f->uncertain_parm_loc,
	};
	*slot = s;
	err = btf_encoder__own_tags(e, &s->tags, f->first_tag, f->nr_tags);
	err = err ?: btf_encoder__sig_modes(e, f, s);
	if (err)
		return err;
	if (node->state.last_sighting)
		node->state.last_sighting->next = s;
	else
		node->state.sightings = s;
	node->state.last_sighting = s;
	return 0;
}
