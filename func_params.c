// SPDX-License-Identifier: GPL-2.0-only
/* Where pahole v1.31 expects parameters to arrive: see func_params.h. */
#include <dwarf.h>
#include <errno.h>
#include <elf.h>
#include <string.h>

#include "func_params.h"
#include "lib/btf_build.h"

#define NONE                                   \
	{                                      \
		-1, -1, -1, -1, -1, -1, -1, -1 \
	}

static const struct {
	int machine;
	int nr;
	int regs[8];
} machines[] = {
	{ EM_X86_64, 6, { 5, 4, 1, 2, 8, 9, -1, -1 } }, /* rdi rsi rdx rcx r8 r9 */
	{ EM_AARCH64, 8, { 0, 1, 2, 3, 4, 5, 6, 7 } }, /* x0-x7 */
	{ EM_ARM, 8, { 0, 1, 2, 3, 4, 5, 6, 7 } }, /* as pahole: r0-r7 */
	{ EM_S390, 5, { 2, 3, 4, 5, 6, -1, -1, -1 } }, /* r2-r6 */
	/* pahole counts these architectures' registers but names none. */
	{ EM_SPARC, 6, NONE },
	{ EM_SPARCV9, 6, NONE },
	{ EM_ARC, 8, NONE },
	{ EM_MIPS, 8, NONE },
	{ EM_PPC, 8, NONE },
	{ EM_PPC64, 8, NONE },
	{ EM_RISCV, 8, NONE },
};

struct param_regs param_regs__for_machine(int e_machine)
{
	struct param_regs r = { .nr = 0, .regs = NONE, .two_regs = e_machine != EM_S390 };
	size_t i;

	for (i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		if (machines[i].machine != e_machine)
			continue;
		r.nr = machines[i].nr;
		memcpy(r.regs, machines[i].regs, sizeof(r.regs));
	}
	return r;
}

/* The register @expr (of @len ops) names, or -1. */
static int loc_expr__reg(const struct loc_op *expr, size_t len, bool first)
{
	if (len > 1 && expr[len - 1].atom == DW_OP_stack_value)
		len--;
	if (len != 1)
		return -1;
	if (expr->atom >= DW_OP_reg0 && expr->atom <= DW_OP_reg31)
		return first ? (int)expr->atom : -1;
	if (expr->atom != DW_OP_entry_value && expr->atom != DW_OP_GNU_entry_value)
		return -1;
	return expr->entry_atom;
}

bool param_regs__expected(const struct param_regs *r, uint32_t i, int *expected)
{
	if (i >= (uint32_t)r->nr)
		return false;
	*expected = r->regs[i] < 0 ? -1 : DW_OP_reg0 + r->regs[i];
	return true;
}

void param_loc_walk__init(struct param_loc_walk *w, int expected)
{
	*w = (struct param_loc_walk){ .expected = expected, .reg = -1 };
}

void param_loc_walk__take(struct param_loc_walk *w, const struct loc_op *ops, size_t n, int nr)
{
	int r;

	if (w->done)
		return;
	r = loc_expr__reg(ops, n, nr == 0);
	/* A later location that names no register keeps the one found. */
	if (r >= 0)
		w->reg = r;
	w->done = r >= 0 && r == w->expected;
}

static bool loc_reg__take(void *ctx, const struct loc_op *ops, size_t n, int nr)
{
	struct param_loc_walk *w = ctx;

	param_loc_walk__take(w, ops, n, nr);
	return w->done;
}

int param_loc__reg(struct dwarf_locs *locs, Dwarf_Attribute *attr, int expected, int *reg)
{
	struct param_loc_walk w;
	int err;

	param_loc_walk__init(&w, expected);
	err = dwarf_locs__walk(locs, attr, loc_reg__take, &w);
	*reg = w.reg;
	return err;
}

/* @id with typedefs and modifiers (const, volatile, restrict, type tags) skipped. */
static const struct btf_type *strip_mods(const struct btf_build *btf, uint32_t id)
{
	const struct btf_type *t = btf_build__type_by_id(btf, id);
	int hops;

	for (hops = 0; t && (btf_is_typedef(t) || btf_is_mod(t)) && hops < 64; hops++)
		t = btf_build__type_by_id(btf, t->type);
	return t;
}

bool param_type__is_struct(const struct btf_build *btf, uint32_t id)
{
	const struct btf_type *t = btf_build__type_by_id(btf, id);
	int hops;

	for (hops = 0; t && (btf_is_typedef(t) || btf_is_const(t)) && hops < 64; hops++)
		t = btf_build__type_by_id(btf, t->type);
	return t && (btf_is_struct(t) || (btf_is_fwd(t) && !btf_kflag(t)));
}

/*
 * The alignment pahole calls natural: a scalar's size, a pointer's the
 * address size, an aggregate's its members' largest, an array its element's;
 * 1 for anything else or nothing.
 */
static uint32_t natural_align(const struct btf_build *btf, uint32_t id, int ptr_size, int depth)
{
	const struct btf_type *t = strip_mods(btf, id);
	const struct btf_member *m;
	uint32_t align = 0, a;
	int i;

	if (!t || depth > 32)
		return 1;
	switch (btf_kind(t)) {
	case BTF_KIND_PTR:
		return ptr_size;
	case BTF_KIND_INT:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return t->size ?: 1;
	case BTF_KIND_ARRAY:
		return natural_align(btf, btf_array(t)->type, ptr_size, depth + 1);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0, m = btf_members(t); i < btf_vlen(t); i++, m++) {
			a = natural_align(btf, m->type, ptr_size, depth + 1);
			if (a > align)
				align = a;
		}
		return align ?: 1;
	default:
		return 1;
	}
}

/* A struct member as pahole lays it out: bitfields at their storage unit. */
struct member_span {
	uint32_t bit_start, bit_end;
	uint32_t bit_size; /* of the member's type */
	uint32_t byte_offset;
	uint32_t bitfield;
};

static struct member_span member_span(const struct btf_build *btf, const struct btf_type *t, int i)
{
	const struct btf_member *m = btf_members(t) + i;
	struct member_span s = { .bit_start = btf_member_bit_offset(t, i) };
	long size;

	s.bitfield = btf_member_bitfield_size(t, i);
	size = btf_build__resolve_size(btf, m->type);
	s.bit_size = size > 0 ? size * 8 : 0;
	s.bit_end = s.bit_start + (s.bitfield ?: s.bit_size);
	if (s.bitfield && s.bit_size)
		s.byte_offset = s.bit_start / s.bit_size * s.bit_size / 8;
	else
		s.byte_offset = s.bit_start / 8;
	return s;
}

/*
 * Whether the struct has a hole between members or padding at its end, by
 * pahole's walk of its members (class__find_holes), which follows bitfields
 * through their storage units.  pahole keeps the count of holes in 8 bits and
 * the padding in 16: a 256th hole or 64 KiB of padding wrap to none.
 */
static bool struct_has_gaps(const struct btf_build *btf, const struct btf_type *t)
{
	uint32_t unit_end = t->size * 8, unit_size = 0, last = 0;
	bool in_bitfield = false;
	uint8_t nr_holes = 0;
	uint16_t padding;
	int i;

	for (i = 0; i < btf_vlen(t); i++) {
		struct member_span s = member_span(btf, t, i);
		int32_t byte_hole = 0;

		if (in_bitfield)
			last = s.bit_start < unit_end ? s.bit_start : unit_end;
		if (!s.bitfield)
			byte_hole = s.bit_start / 8 - last / 8;
		else if (last < s.byte_offset * 8 && s.byte_offset * 8 <= s.bit_start)
			byte_hole = s.byte_offset - last / 8;
		if (byte_hole > 0)
			nr_holes++;
		last = s.bit_end;
		in_bitfield = s.bitfield;
		if (!s.bitfield) {
			unit_size = 0;
			unit_end = s.bit_end;
		} else if (s.bit_end > unit_end || s.bit_size > unit_size) {
			unit_size = s.bit_size;
			unit_end = s.byte_offset * 8 + unit_size;
			if (s.bit_end > unit_end)
				unit_end += unit_size;
		}
	}
	if (in_bitfield)
		last = t->size * 8 < unit_end ? t->size * 8 : unit_end;
	padding = t->size - last / 8;
	return nr_holes || padding;
}

bool param_type__is_packed_struct(const struct btf_build *btf, uint32_t id, int ptr_size)
{
	const struct btf_type *t = btf_build__type_by_id(btf, id);
	uint32_t max_align = 1;
	int i;

	if (!t || !btf_is_struct(t) || !t->name_off || struct_has_gaps(btf, t))
		return false;
	for (i = 0; i < btf_vlen(t); i++) {
		struct member_span s = member_span(btf, t, i);
		uint32_t align = natural_align(btf, btf_members(t)[i].type, ptr_size, 0);

		if (align == 1)
			continue;
		if (align > max_align)
			max_align = align;
		if (s.byte_offset % align)
			return true;
	}
	return t->size % max_align != 0;
}
