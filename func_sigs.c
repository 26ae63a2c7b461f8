// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where parameters arrive by upstream pahole's rules after v1.31: see
 * func_sigs.h.  The facts (which location forms count, how pieces are read,
 * the order of the checks) are those of acmel/dwarves 1436daf's
 * dwarf_loader.c: parameter__decode_location(), get_member_with_offset() and
 * function__analyze_parameter_locations().
 */
#include <dwarf.h>
#include <string.h>

#include "die_reader.h"
#include "dwarf_alt.h"
#include "func_sigs.h"

/* Types nest deeper than this only in corrupt DWARF. */
#define SIG_MAX_DEPTH 32

static bool op_is_reg(unsigned int atom)
{
	return atom >= DW_OP_reg0 && atom <= DW_OP_reg31;
}

static bool op_is_breg(unsigned int atom)
{
	return atom >= DW_OP_breg0 && atom <= DW_OP_breg31;
}

static bool op_is_const(unsigned int atom)
{
	return (atom >= DW_OP_lit0 && atom <= DW_OP_lit31) || atom == DW_OP_constu ||
	       atom == DW_OP_consts;
}

/* The DIE that @attr (NULL: none) refers to, when it may be followed. */
static bool attr_follow(Dwarf_Attribute *attr, const struct die_ref_ctx *ctx, Dwarf_Die *out)
{
	return attr && die_ref_followed(attr, ctx) && dwarf_alt__ref_die(attr, out);
}

/* The DIE that @at of @die refers to, when it may be followed. */
static bool die_follow(Dwarf_Die *die, unsigned int at, const struct die_ref_ctx *ctx,
		       Dwarf_Die *out)
{
	Dwarf_Attribute attr;

	return attr_follow(dwarf_attr(die, at, &attr), ctx, out);
}

static uint64_t die_udata(Dwarf_Die *die, unsigned int at)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (!dwarf_attr(die, at, &attr) || dwarf_formudata(&attr, &v) != 0)
		return 0;
	return v;
}

static uint32_t type_byte_size(struct die_reader *r, Dwarf_Die *die, const struct sig_abi *abi,
			       const struct die_ref_ctx *ctx, int depth);

/* The size of the type that @type_attr (of some DIE) names, as type_byte_size() reads it. */
static uint32_t attr_type_byte_size(struct die_reader *r, Dwarf_Attribute *type_attr,
				    const struct sig_abi *abi, const struct die_ref_ctx *ctx,
				    int depth)
{
	Dwarf_Attribute attr;
	Dwarf_Word size;
	Dwarf_Die type;

	if (depth > SIG_MAX_DEPTH || !attr_follow(type_attr, ctx, &type))
		return 0;
	if (die_reader__tag_of(r, &type) == DW_TAG_pointer_type)
		return abi->addr_size;
	if (!die_reader__attr(r, &type, DW_AT_byte_size, &attr) ||
	    dwarf_formudata(&attr, &size) != 0)
		size = 0;
	return size ? (uint32_t)size : type_byte_size(r, &type, abi, ctx, depth + 1);
}

/*
 * The size of @die's type, as upstream reads it: a pointer's is the address
 * size; a type without DW_AT_byte_size is looked through to its own type.
 * The DIEs of @r's unit are read by @r, as libdw would read them.
 */
static uint32_t type_byte_size(struct die_reader *r, Dwarf_Die *die, const struct sig_abi *abi,
			       const struct die_ref_ctx *ctx, int depth)
{
	Dwarf_Attribute attr;

	return attr_type_byte_size(r, die_reader__attr(r, die, DW_AT_type, &attr), abi, ctx, depth);
}

static void sig_param__set_reg(struct sig_param *p, int reg)
{
	if (p->loc_reg < 0)
		p->loc_reg = reg;
}

static void set_field(uint64_t *fields, int64_t byte_off)
{
	if (byte_off >= 0 && byte_off < 64)
		*fields |= 1ull << byte_off;
}

/*
 * A location of more than one operation: a constant, a register or a
 * register's value (no larger than a word), or the pieces of an aggregate,
 * where each piece after an operation marks its byte offset in the first or
 * the second register.
 */
static void sig_param__pieces(struct sig_param *p, const struct loc_op *expr, size_t len, int nr,
			      const struct sig_abi *abi)
{
	int64_t off = 0;
	size_t i;

	if (op_is_const(expr[0].atom)) {
		p->loc_const |= nr == 0;
		return;
	}
	if ((int)p->byte_size <= abi->addr_size || !abi->two_regs) {
		if (nr != 0)
			return;
		if (op_is_reg(expr[0].atom))
			sig_param__set_reg(p, expr[0].atom);
		for (i = 1; op_is_breg(expr[0].atom) && i < len; i++)
			if (expr[i].atom == DW_OP_stack_value) {
				sig_param__set_reg(p, expr[0].atom - DW_OP_breg0 + DW_OP_reg0);
				break;
			}
		return;
	}
	for (i = 0; i < len; i++) {
		if (expr[i].atom == DW_OP_piece) {
			int num = (int)expr[i].number;

			if (i == 0) {
				off = num;
				continue;
			}
			if (off < abi->addr_size)
				set_field(&p->first_fields, off);
			else
				set_field(&p->second_fields, off - abi->addr_size);
			off += num;
		} else if (op_is_reg(expr[i].atom) && (off < abi->addr_size || p->loc_reg < 0)) {
			sig_param__set_reg(p, expr[i].atom);
		}
	}
}

struct sig_walk {
	struct sig_param *p;
	const struct sig_abi *abi;
	struct param_loc_walk *also; /* v1.31's rule, on the same list; or NULL */
};

/* One location, the @nr-th of the list (counting empty ones). */
static bool sig_param__location(void *ctx, const struct loc_op *expr, size_t len, int nr)
{
	struct sig_walk *w = ctx;
	struct sig_param *p = w->p;
	bool stack_value;
	unsigned int atom;

	if (w->also)
		param_loc_walk__take(w->also, expr, len, nr);
	if (!len)
		return false;
	stack_value = expr[len - 1].atom == DW_OP_stack_value;
	atom = expr[0].atom;
	if (len == 2 && stack_value)
		len = 1;
	if (len != 1) {
		sig_param__pieces(p, expr, len, nr, w->abi);
		return false;
	}
	/* An entry value: the register the parameter came in. */
	if (atom == DW_OP_entry_value || atom == DW_OP_GNU_entry_value) {
		if (expr[0].entry_atom >= 0 && op_is_reg(expr[0].entry_atom))
			sig_param__set_reg(p, expr[0].entry_atom);
	} else if (nr != 0) {
		return false;
	} else if (op_is_reg(atom)) {
		sig_param__set_reg(p, atom);
	} else if (op_is_breg(atom) && stack_value) {
		sig_param__set_reg(p, atom - DW_OP_breg0 + DW_OP_reg0);
	} else if (atom == DW_OP_fbreg) {
		p->loc_stack = true;
	} else if (op_is_const(atom)) {
		p->loc_const = true;
	}
	return false;
}

/*
 * A member's offset in bits as upstream's later rules read it: DW_AT_data_bit_offset,
 * or DW_AT_data_member_location bytes; a DWARF 2 DW_AT_bit_offset is not looked at
 * (the encoder's member_bit_offset() reads that too).
 */
static bool sig_member_bit_offset(Dwarf_Die *member, uint64_t *bits)
{
	Dwarf_Attribute attr;
	uint64_t bytes = 0;

	*bits = 0;
	if (dwarf_attr(member, DW_AT_data_bit_offset, &attr)) {
		dwarf_formudata(&attr, bits);
		return true;
	}
	if (!dwarf_attr(member, DW_AT_data_member_location, &attr))
		return false;
	die_attr__member_location(&attr, &bytes);
	*bits = bytes * 8;
	return true;
}

/* The member at byte @off of the struct that @die's type is (through unsized types). */
static bool struct_member_at(Dwarf_Die *die, uint64_t off, const struct die_ref_ctx *ctx,
			     Dwarf_Die *member, int depth)
{
	Dwarf_Die type;
	uint64_t bits;

	if (depth > SIG_MAX_DEPTH || !die_follow(die, DW_AT_type, ctx, &type))
		return false;
	if (!die_udata(&type, DW_AT_byte_size))
		return struct_member_at(&type, off, ctx, member, depth + 1);
	if (dwarf_tag(&type) != DW_TAG_structure_type || dwarf_child(&type, member) != 0)
		return false;
	do {
		if (dwarf_tag(member) == DW_TAG_member && sig_member_bit_offset(member, &bits) &&
		    bits == off * 8)
			return true;
	} while (dwarf_siblingof(member, member) == 0);
	return false;
}

/*
 * A struct passed in pieces, one register of which holds one piece (and
 * the other none): the member at that piece's offset, by its name and type.
 */
static void sig_param__find_member(struct sig_param *p, Dwarf_Die *die, const struct sig_abi *abi,
				   const struct die_ref_ctx *ctx)
{
	uint64_t first = p->first_fields, second = p->second_fields, off;
	Dwarf_Attribute attr;
	Dwarf_Die member;
	const char *name;

	if (!first == !second || __builtin_popcountll(first | second) != 1)
		return;
	off = first ? (uint64_t)__builtin_ctzll(first) :
		      (uint64_t)abi->addr_size + __builtin_ctzll(second);
	if (!dwarf_hasattr(die, DW_AT_name) || !struct_member_at(die, off, ctx, &member, 0))
		return;
	name = dwarf_diename(&member);
	if (!name || !dwarf_attr(&member, DW_AT_type, &attr))
		return;
	p->member_type = die_ref(&attr, ctx);
	if (p->member_type && p->member_type != REF_BAD)
		p->member = name;
}

void sig_param_own__read(struct sig_param_own *own, Dwarf_Die *die, Dwarf_Attribute attrs[3])
{
	*own = (struct sig_param_own){
		.origin = dwarf_attr(die, DW_AT_abstract_origin, &attrs[0]),
		.type = dwarf_attr(die, DW_AT_type, &attrs[1]),
		.location = dwarf_attr(die, DW_AT_location, &attrs[2]),
		.has_const_value = dwarf_hasattr(die, DW_AT_const_value),
	};
}

int sig_param__read(struct sig_param *p, Dwarf_Die *die, const struct sig_param_own *own,
		    struct die_reader *r, const struct sig_abi *abi, const struct die_ref_ctx *ctx,
		    struct dwarf_locs *locs, struct param_loc_walk *also)
{
	struct sig_walk w = { p, abi, also };
	Dwarf_Die origin;
	int err;

	p->loc_reg = -1;
	if (attr_follow(own->origin, ctx, &origin))
		p->byte_size = type_byte_size(r, &origin, abi, ctx, 0);
	else if (!own->origin)
		p->byte_size = attr_type_byte_size(r, own->type, abi, ctx, 0);
	p->in_memory = (int)p->byte_size > (abi->two_regs ? 2 : 1) * abi->addr_size;
	p->has_const_value = own->has_const_value;
	p->has_loc = own->location != NULL;
	if (!p->has_loc)
		return 0;
	err = dwarf_locs__walk(locs, own->location, sig_param__location, &w);
	if (err)
		return err;
	sig_param__find_member(p, die, abi, ctx);
	return 0;
}

void sig_param__share(struct sig_param *to, const struct sig_param *from)
{
	to->has_loc |= from->has_loc;
	to->has_const_value |= from->has_const_value;
	to->loc_const |= from->loc_const;
	to->loc_stack |= from->loc_stack;
	to->in_memory |= from->in_memory;
	if (from->loc_reg >= 0)
		to->loc_reg = from->loc_reg;
	if (from->byte_size)
		to->byte_size = from->byte_size;
	to->first_fields |= from->first_fields;
	to->second_fields |= from->second_fields;
	if (from->member && !to->member) {
		to->member = from->member;
		to->member_type = from->member_type;
	}
}

bool sig_func__changed(Dwarf_Die *die, bool has_origin, const struct die_ref_ctx *ctx)
{
	Dwarf_Die origin;

	if (die_udata(die, DW_AT_inline))
		return false;
	if (!has_origin)
		return die_udata(die, DW_AT_calling_convention) == DW_CC_nocall;
	return die_follow(die, DW_AT_abstract_origin, ctx, &origin) &&
	       die_udata(&origin, DW_AT_calling_convention) == DW_CC_nocall;
}

/* ---- the analysis ---- */

/* The argument register at @idx, as a DW_OP_reg* atom, or -1. */
static int abi_reg(const struct sig_abi *abi, int idx)
{
	if (idx >= abi->regs->nr || abi->regs->regs[idx] < 0)
		return -1;
	return DW_OP_reg0 + abi->regs->regs[idx];
}

/* The registers @p takes: one, or a word each for an aggregate of two or more. */
static int abi_slots(const struct sig_abi *abi, const struct sig_param *p)
{
	int slots;

	if (!abi->two_regs || (int)p->byte_size <= abi->addr_size)
		return 1;
	slots = ((int)p->byte_size + abi->addr_size - 1) / abi->addr_size;
	return slots > 0 ? slots : 1;
}

/* Whether the parameter after @i arrives right after @slots registers from @idx. */
static bool next_keeps_slots(const struct sig_abi *abi, const struct sig_param *p, uint32_t n,
			     uint32_t i, int idx, int slots)
{
	if (i + 1 >= n || p[i + 1].loc_reg < 0 || idx + slots >= abi->regs->nr)
		return false;
	return p[i + 1].loc_reg == abi_reg(abi, idx + slots);
}

/* clang, convention unchanged: each register within the window its size gives. */
static void sig_params__match_windows(const struct sig_abi *abi, const struct sig_param *p,
				      uint32_t n, struct sig_param_out *out)
{
	int idx = 0, slots, k;
	uint32_t i;

	for (i = 0; i < n; i++) {
		bool within = false;

		if (p[i].in_memory)
			continue;
		if (idx >= abi->regs->nr)
			break;
		slots = abi_slots(abi, &p[i]);
		for (k = 0; k < slots && idx + k < abi->regs->nr; k++)
			within |= p[i].loc_reg == abi_reg(abi, idx + k);
		if (p[i].loc_reg >= 0 && !within)
			out[i].unexpected = true;
		idx += slots;
	}
}

/*
 * One parameter with a location, in register @idx on: false when it uses
 * no register; *@step is how many it takes when that is not @slots.
 */
static bool sig_param__check_loc(const struct sig_abi *abi, const struct sig_param *p, uint32_t n,
				 uint32_t i, int idx, bool true_sig, struct sig_param_out *out,
				 int *step)
{
	int slots = abi_slots(abi, &p[i]), expected = abi_reg(abi, idx);

	if (true_sig && p[i].loc_const) {
		out->optimized = true;
		return false;
	}
	if (idx >= abi->regs->nr)
		return false;
	if (true_sig && p[i].loc_stack) {
		out->unexpected = !p[i].in_memory;
		return !p[i].in_memory;
	}
	if (p[i].loc_reg < 0) {
		out->unexpected = true_sig;
		out->optimized = !true_sig;
		return true;
	}
	if (expected >= 0 && expected != p[i].loc_reg) {
		out->unexpected = true;
		return true;
	}
	if (!true_sig || !(p[i].first_fields || p[i].second_fields))
		return true;
	/* In pieces: the whole struct, or what the next one leaves, or just its member. */
	if (p[i].first_fields && p[i].second_fields) {
		*step = slots;
	} else if (next_keeps_slots(abi, p, n, i, idx, slots)) {
		out->member_named = false;
		*step = slots;
	} else if (p[i].member) {
		out->member_typed = true;
		*step = 1;
	}
	return true;
}

void sig_params__analyze(const struct sig_abi *abi, const struct sig_param *p, uint32_t n,
			 bool changed, bool true_sig, struct sig_param_out *out)
{
	int idx = 0;
	uint32_t i;

	memset(out, 0, n * sizeof(*out));
	if (abi->clang && !changed) {
		sig_params__match_windows(abi, p, n, out);
		return;
	}
	for (i = 0; i < n; i++) {
		int slots = abi_slots(abi, &p[i]), step = p[i].in_memory ? 1 : slots;
		bool uses = true;

		/* A member found is named whatever the checks say, unless the next one undoes it. */
		out[i].member_named = true_sig && p[i].member;

		if (p[i].has_loc) {
			uses = sig_param__check_loc(abi, p, n, i, idx, true_sig, &out[i], &step);
		} else if (p[i].has_const_value && !abi->clang) {
			out[i].optimized = true;
		} else if (true_sig) {
			if (idx < abi->regs->nr && next_keeps_slots(abi, p, n, i, idx, slots))
				step = slots;
			else
				out[i].optimized = true, uses = false;
		}
		if (uses)
			idx += step;
	}
}
