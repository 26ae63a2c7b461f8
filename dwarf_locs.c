// SPDX-License-Identifier: GPL-2.0-only
/*
 * Location expressions read without libdw's cache: see dwarf_locs.h.  The
 * encodings are DWARF 5's (sections 2.5, 2.6 and 7.7); how libdw walks a
 * list (what ends it, what selects a base, which reads it refuses) is that
 * of elfutils' dwarf_getlocation.c and dwarf_ranges.c
 * (__libdw_read_begin_end_pair_inc, __libdw_intern_expression).
 */
#include <errno.h>
#include <string.h>

#include <dwarf.h>

#include "dwarf_locs.h"
#include "lib/leb128.h"

/* A read that libdw might answer otherwise than the bytes say: libdw reads the attribute. */
#define LOC_LIBDW 1

void dwarf_locs__init(struct dwarf_locs *l, const unsigned char *loc, const unsigned char *loc_end,
		      const unsigned char *loclists, const unsigned char *loclists_end,
		      bool big_endian, struct unit_locks *locks)
{
	memset(l, 0, sizeof(*l));
	l->loc = loc;
	l->loc_end = loc_end;
	l->loclists = loclists;
	l->loclists_end = loclists_end;
	l->big_endian = big_endian;
	l->unit_locks = locks;
}

void dwarf_locs__free(struct dwarf_locs *l)
{
	darray__free(&l->ops);
	darray__free(&l->entries);
}

/* A list read at @p: within the span. */
static void dwarf_locs__note(struct dwarf_locs *l, const unsigned char *p)
{
	if (!l->span_lo || p < l->span_lo)
		l->span_lo = p;
	if (!l->span_hi || p > l->span_hi)
		l->span_hi = p;
}

void dwarf_locs__take_span(struct dwarf_locs *l, const unsigned char **lo, const unsigned char **hi)
{
	*lo = l->span_lo;
	*hi = l->span_hi;
	l->span_lo = l->span_hi = NULL;
}

static bool skip_bytes(const unsigned char **p, const unsigned char *end, uint64_t n)
{
	if ((uint64_t)(end - *p) < n)
		return false;
	*p += n;
	return true;
}

/* How the operands of an operation are laid out; 0: left to libdw. */
enum op_form {
	OPS_LIBDW, /* offsets into .debug_info, which libdw checks, or not an operation libdw knows */
	OPS_NONE,
	OPS_FIXED, /* op_layout.size bytes */
	OPS_ADDR, /* an address of the unit's size */
	OPS_ULEB, /* its value kept: a piece's size */
	OPS_SLEB,
	OPS_ULEB_SLEB,
	OPS_ULEB_ULEB,
	OPS_BLOCK, /* a ULEB128 length, then that many bytes */
	OPS_BYTE_ULEB, /* a byte, then a ULEB128 */
	OPS_ULEB_BYTE_BLOCK, /* a ULEB128, a size byte, that many bytes */
};

struct op_layout {
	unsigned char form, size;
};

/* By opcode (DWARF 5, 7.7.1, and GNU's before it), as libdw decodes them. */
static const struct op_layout op_layouts[256] = {
	[DW_OP_addr] = { OPS_ADDR },
	[DW_OP_deref] = { OPS_NONE },
	[DW_OP_const1u] = { OPS_FIXED, 1 },
	[DW_OP_const1s] = { OPS_FIXED, 1 },
	[DW_OP_const2u] = { OPS_FIXED, 2 },
	[DW_OP_const2s] = { OPS_FIXED, 2 },
	[DW_OP_const4u] = { OPS_FIXED, 4 },
	[DW_OP_const4s] = { OPS_FIXED, 4 },
	[DW_OP_const8u] = { OPS_FIXED, 8 },
	[DW_OP_const8s] = { OPS_FIXED, 8 },
	[DW_OP_constu] = { OPS_ULEB },
	[DW_OP_consts] = { OPS_SLEB },
	[DW_OP_dup... DW_OP_over] = { OPS_NONE },
	[DW_OP_pick] = { OPS_FIXED, 1 },
	[DW_OP_swap... DW_OP_plus] = { OPS_NONE },
	[DW_OP_plus_uconst] = { OPS_ULEB },
	[DW_OP_shl... DW_OP_xor] = { OPS_NONE },
	[DW_OP_bra] = { OPS_FIXED, 2 },
	[DW_OP_eq... DW_OP_ne] = { OPS_NONE },
	[DW_OP_skip] = { OPS_FIXED, 2 },
	[DW_OP_lit0... DW_OP_lit31] = { OPS_NONE },
	[DW_OP_reg0... DW_OP_reg31] = { OPS_NONE },
	[DW_OP_breg0... DW_OP_breg31] = { OPS_SLEB },
	[DW_OP_regx] = { OPS_ULEB },
	[DW_OP_fbreg] = { OPS_SLEB },
	[DW_OP_bregx] = { OPS_ULEB_SLEB },
	[DW_OP_piece] = { OPS_ULEB },
	[DW_OP_deref_size] = { OPS_FIXED, 1 },
	[DW_OP_xderef_size] = { OPS_FIXED, 1 },
	[DW_OP_nop] = { OPS_NONE },
	[DW_OP_push_object_address] = { OPS_NONE },
	[DW_OP_call2] = { OPS_FIXED, 2 },
	[DW_OP_call4] = { OPS_FIXED, 4 },
	[DW_OP_form_tls_address] = { OPS_NONE },
	[DW_OP_call_frame_cfa] = { OPS_NONE },
	[DW_OP_bit_piece] = { OPS_ULEB_ULEB },
	[DW_OP_implicit_value] = { OPS_BLOCK },
	[DW_OP_stack_value] = { OPS_NONE },
	[DW_OP_addrx] = { OPS_ULEB },
	[DW_OP_constx] = { OPS_ULEB },
	[DW_OP_entry_value] = { OPS_BLOCK },
	[DW_OP_const_type] = { OPS_ULEB_BYTE_BLOCK },
	[DW_OP_regval_type] = { OPS_ULEB_ULEB },
	[DW_OP_deref_type] = { OPS_BYTE_ULEB },
	[DW_OP_xderef_type] = { OPS_BYTE_ULEB },
	[DW_OP_convert] = { OPS_ULEB },
	[DW_OP_reinterpret] = { OPS_ULEB },
	[DW_OP_GNU_push_tls_address] = { OPS_NONE },
	[DW_OP_GNU_uninit] = { OPS_NONE },
	[DW_OP_GNU_entry_value] = { OPS_BLOCK },
	[DW_OP_GNU_const_type] = { OPS_ULEB_BYTE_BLOCK },
	[DW_OP_GNU_regval_type] = { OPS_ULEB_ULEB },
	[DW_OP_GNU_deref_type] = { OPS_BYTE_ULEB },
	[DW_OP_GNU_convert] = { OPS_ULEB },
	[DW_OP_GNU_reinterpret] = { OPS_ULEB },
	[DW_OP_GNU_parameter_ref] = { OPS_FIXED, 4 },
	[DW_OP_GNU_addr_index] = { OPS_ULEB },
	[DW_OP_GNU_const_index] = { OPS_ULEB },
};

static int expr_decode(struct dwarf_locs *l, const unsigned char *p, const unsigned char *end,
		       bool nested, int *entry_atom);

/*
 * Reads the operands of @op at *@p (past its opcode): its first operand
 * into op->number where the readers look at it, an entry value's block
 * decoded.  0, LOC_LIBDW, or -ENOMEM.
 */
static int op_operands(struct dwarf_locs *l, struct loc_op *op, const unsigned char **p,
		       const unsigned char *end)
{
	struct op_layout lay = op_layouts[op->atom & 0xff];
	uint64_t a, b;
	const unsigned char *block;

	switch (lay.form) {
	case OPS_NONE:
		return 0;
	case OPS_FIXED:
		return skip_bytes(p, end, lay.size) ? 0 : LOC_LIBDW;
	case OPS_ADDR:
		return skip_bytes(p, end, l->addr_size) ? 0 : LOC_LIBDW;
	case OPS_ULEB:
		if (!leb128__read(p, end, &a, false))
			return LOC_LIBDW;
		op->number = a;
		return 0;
	case OPS_SLEB:
		return leb128__read(p, end, &a, true) ? 0 : LOC_LIBDW;
	case OPS_ULEB_SLEB:
	case OPS_ULEB_ULEB:
		/* libdw wants the second operand to start before the end. */
		if (!leb128__read(p, end, &a, false) || *p >= end ||
		    !leb128__read(p, end, &b, lay.form == OPS_ULEB_SLEB))
			return LOC_LIBDW;
		return 0;
	case OPS_BLOCK:
		if (!leb128__read(p, end, &a, false))
			return LOC_LIBDW;
		block = *p;
		if (!skip_bytes(p, end, a))
			return LOC_LIBDW;
		if (op->atom == DW_OP_implicit_value)
			return 0;
		return expr_decode(l, block, block + a, true, &op->entry_atom);
	case OPS_BYTE_ULEB:
		if (end - *p < 2)
			return LOC_LIBDW;
		(*p)++;
		return leb128__read(p, end, &a, false) ? 0 : LOC_LIBDW;
	case OPS_ULEB_BYTE_BLOCK:
		if (!leb128__read(p, end, &a, false) || *p >= end)
			return LOC_LIBDW;
		b = *(*p)++;
		return skip_bytes(p, end, b) ? 0 : LOC_LIBDW;
	default:
		return LOC_LIBDW;
	}
}

/*
 * Decodes the expression @p..@end: appended to l->ops, or, @nested (an
 * entry value's block), only looked at for its one operation's atom, in
 * *@entry_atom (-1 when it has another number of them).
 */
static int expr_decode(struct dwarf_locs *l, const unsigned char *p, const unsigned char *end,
		       bool nested, int *entry_atom)
{
	unsigned int n = 0, first = 0;
	int err;

	while (p < end) {
		struct loc_op nested_op = { .entry_atom = -1 };
		struct loc_op *op = nested ? &nested_op : darray__push(&l->ops);

		if (!op)
			return -ENOMEM;
		*op = (struct loc_op){ .atom = *p++, .entry_atom = -1 };
		/* libdw keeps no block of a block: one level is all an entry value has. */
		if (nested && (op->atom == DW_OP_entry_value || op->atom == DW_OP_GNU_entry_value))
			return LOC_LIBDW;
		err = op_operands(l, op, &p, end);
		if (err)
			return err;
		if (!n++)
			first = op->atom;
	}
	if (nested)
		*entry_atom = n == 1 ? (int)first : -1;
	return 0;
}

static int entry_push(struct dwarf_locs *l, const unsigned char *expr, uint64_t len)
{
	struct loc_entry *ent = darray__push(&l->entries);
	int err;

	if (!ent)
		return -ENOMEM;
	ent->first = l->ops.nr;
	err = expr_decode(l, expr, expr + len, false, NULL);
	ent->nr = l->ops.nr - ent->first;
	return err;
}

static uint64_t read_addr(const unsigned char *p, unsigned int size)
{
	uint64_t v = 0;
	unsigned int i;

	/* Only 0 and all ones are told apart: the same in either byte order. */
	for (i = 0; i < size; i++)
		v = v << 8 | p[i];
	return v;
}

/* DWARF 4's .debug_loc from @p: pairs of addresses, each but the last two with an expression. */
static int list_v4(struct dwarf_locs *l, const unsigned char *p, const unsigned char *end)
{
	uint64_t escape = l->addr_size == 8 ? ~0ull : 0xffffffffull;
	unsigned int w = l->addr_size;

	for (;;) {
		uint64_t begin, fin, len;
		int err;

		if ((uint64_t)(end - p) < 2ull * w)
			return LOC_LIBDW;
		begin = read_addr(p, w);
		fin = read_addr(p + w, w);
		p += 2 * w;
		if (begin == escape) {
			if (fin == escape)
				return LOC_LIBDW;
			continue; /* a base address */
		}
		if (!begin && !fin)
			return 0;
		if (end - p < 2)
			return LOC_LIBDW;
		len = l->big_endian ? (uint64_t)p[0] << 8 | p[1] : (uint64_t)p[1] << 8 | p[0];
		p += 2;
		if ((uint64_t)(end - p) < len)
			return LOC_LIBDW;
		err = entry_push(l, p, len);
		if (err)
			return err;
		p += len;
	}
}

/* DWARF 5's .debug_loclists from @p: entries by kind, to DW_LLE_end_of_list. */
static int list_v5(struct dwarf_locs *l, const unsigned char *p, const unsigned char *end)
{
	unsigned int w = l->addr_size;

	for (;;) {
		uint64_t a, len;
		int err;

		if (p >= end)
			return LOC_LIBDW;
		switch (*p++) {
		case DW_LLE_end_of_list:
			return 0;
		case DW_LLE_base_address:
			if (!skip_bytes(&p, end, w))
				return LOC_LIBDW;
			continue;
		case DW_LLE_offset_pair:
			if (!leb128__read(&p, end, &a, false) || p >= end ||
			    !leb128__read(&p, end, &a, false))
				return LOC_LIBDW;
			break;
		case DW_LLE_default_location:
			break;
		case DW_LLE_start_end:
			if (!skip_bytes(&p, end, 2ull * w))
				return LOC_LIBDW;
			break;
		case DW_LLE_start_length:
			if (!skip_bytes(&p, end, w) || p >= end ||
			    !leb128__read(&p, end, &a, false))
				return LOC_LIBDW;
			break;
		default:
			/* Indexes into .debug_addr, which libdw checks; or not a kind at all. */
			return LOC_LIBDW;
		}
		if (p >= end || !leb128__read(&p, end, &len, false) || (uint64_t)(end - p) < len)
			return LOC_LIBDW;
		err = entry_push(l, p, len);
		if (err)
			return err;
		p += len;
	}
}

void dwarf_locs__unit_low_pc(struct dwarf_locs *l, Dwarf_CU *cu, const Dwarf_Attribute *low_pc)
{
	l->low_pc_cu = cu;
	l->has_low_pc = low_pc != NULL;
	if (low_pc)
		l->low_pc = *low_pc;
}

/*
 * What libdw takes for the base address of @cu's lists: DW_AT_low_pc, else
 * DW_AT_entry_pc, else 0; libdw reads no list of a unit whose base is all
 * ones.  Of a unit not split (dwarf_locs__unit()), dwarf_lowpc() is
 * dwarf_formaddr() of dwarf_attr() (libdw 0.188: only a split unit's DIE
 * looks further).
 */
static bool unit_base_readable(const struct dwarf_locs *l, Dwarf_CU *cu, Dwarf_Die *cu_die)
{
	Dwarf_Attribute attr = l->low_pc;
	Dwarf_Addr base;
	int err;

	if (l->low_pc_cu == cu)
		err = l->has_low_pc ? dwarf_formaddr(&attr, &base) : -1;
	else
		err = dwarf_lowpc(cu_die, &base);
	if (err != 0 && dwarf_formaddr(dwarf_attr(cu_die, DW_AT_entry_pc, &attr), &base) != 0)
		base = 0;
	return base != (Dwarf_Addr)-1;
}

/*
 * Takes in the sizes of @cu, for expressions; false when they cannot be
 * read.  l->lists_here says whether its lists may be read here.
 */
static bool dwarf_locs__unit(struct dwarf_locs *l, Dwarf_CU *cu)
{
	Dwarf_Half version;
	uint8_t unit_type, addr_size, offset_size;
	pthread_mutex_t *lock;
	Dwarf_Die cu_die;

	if (cu == l->cu)
		return l->unit_known;
	l->cu = cu;
	l->unit_known = l->lists_here = false;
	if (dwarf_cu_info(cu, &version, &unit_type, &cu_die, NULL, NULL, &addr_size,
			  &offset_size) != 0 ||
	    (addr_size != 4 && addr_size != 8))
		return false;
	l->version = version;
	l->addr_size = addr_size;
	l->unit_known = true;
	/* Split and skeleton units have their lists elsewhere; DWARF 2 and 3 other forms. */
	if ((unit_type != DW_UT_compile && unit_type != DW_UT_partial && unit_type != DW_UT_type) ||
	    version < 4 || version > 5)
		return true;
	lock = unit_locks__of(l->unit_locks, cu);
	pthread_mutex_lock(lock);
	l->lists_here = unit_base_readable(l, cu, &cu_die);
	pthread_mutex_unlock(lock);
	return true;
}

/* The locations of @attr decoded into l->entries: 0, LOC_LIBDW or -ENOMEM. */
static int dwarf_locs__read(struct dwarf_locs *l, Dwarf_Attribute *attr)
{
	unsigned int form = dwarf_whatform(attr);
	const unsigned char *sec, *sec_end;
	Dwarf_Block block;
	Dwarf_Word off;

	l->ops.nr = 0;
	l->entries.nr = 0;
	switch (form) {
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4:
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (dwarf_formblock(attr, &block) != 0)
			return LOC_LIBDW;
		if (!dwarf_locs__unit(l, attr->cu))
			return LOC_LIBDW;
		return entry_push(l, block.data, block.length);
	case DW_FORM_sec_offset:
		if (!dwarf_locs__unit(l, attr->cu) || !l->lists_here ||
		    dwarf_formudata(attr, &off) != 0)
			return LOC_LIBDW;
		sec = l->version < 5 ? l->loc : l->loclists;
		sec_end = l->version < 5 ? l->loc_end : l->loclists_end;
		if (!sec || off >= (Dwarf_Word)(sec_end - sec))
			return LOC_LIBDW;
		dwarf_locs__note(l, sec + off);
		return l->version < 5 ? list_v4(l, sec + off, sec_end) :
					list_v5(l, sec + off, sec_end);
	default:
		return LOC_LIBDW;
	}
}

/*
 * The atom of the one operation of DW_OP_entry_value @op's block, by libdw;
 * else -1.  Called under the lock of @attr's unit.
 */
static int libdw_entry_atom(struct dwarf_locs *l, Dwarf_Attribute *attr, Dwarf_Op *op)
{
	pthread_mutex_t *file_lock = NULL;
	Dwarf_Attribute entry;
	Dwarf_Op *ops;
	size_t n;
	int atom = -1;

	if (dwarf_getlocation_attr(attr, op, &entry) != 0)
		return -1;
	/* An entry value in a list is read in the file's unit of lists, which all units share. */
	if (entry.cu != attr->cu)
		file_lock = unit_locks__file(l->unit_locks);
	if (file_lock)
		pthread_mutex_lock(file_lock);
	if (dwarf_getlocation(&entry, &ops, &n) == 0 && n == 1)
		atom = ops->atom;
	if (file_lock)
		pthread_mutex_unlock(file_lock);
	return atom;
}

/* libdw's reading of @attr, as dwarf_locs__walk() hands it out. */
static int dwarf_locs__walk_libdw(struct dwarf_locs *l, Dwarf_Attribute *attr, dwarf_loc_fn fn,
				  void *ctx)
{
	pthread_mutex_t *lock = unit_locks__of(l->unit_locks, attr->cu);
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;
	Dwarf_Op *expr;
	size_t len, i;
	int nr = 0, err = 0;

	pthread_mutex_lock(lock);
	while ((off = dwarf_getlocations(attr, off, &base, &start, &end, &expr, &len)) > 0) {
		l->ops.nr = 0;
		for (i = 0; i < len; i++) {
			struct loc_op *op = darray__push(&l->ops);

			if (!op) {
				err = -ENOMEM;
				goto out;
			}
			*op = (struct loc_op){ expr[i].atom, 0, -1 };
			if (op->atom < 256 && op_layouts[op->atom].form == OPS_ULEB)
				op->number = expr[i].number;
			if (op->atom == DW_OP_entry_value || op->atom == DW_OP_GNU_entry_value)
				op->entry_atom = libdw_entry_atom(l, attr, &expr[i]);
		}
		if (fn(ctx, l->ops.data, len, nr++))
			break;
	}
out:
	pthread_mutex_unlock(lock);
	return err;
}

int dwarf_locs__walk(struct dwarf_locs *l, Dwarf_Attribute *attr, dwarf_loc_fn fn, void *ctx)
{
	int err = dwarf_locs__read(l, attr);
	size_t i;

	if (err < 0)
		return err;
	if (err == LOC_LIBDW)
		return dwarf_locs__walk_libdw(l, attr, fn, ctx);
	for (i = 0; i < l->entries.nr; i++) {
		const struct loc_entry *ent = &l->entries.data[i];
		/* No operation decoded yet: no array to point into. */
		const struct loc_op *ops = ent->nr ? l->ops.data + ent->first : NULL;

		if (fn(ctx, ops, ent->nr, (int)i))
			break;
	}
	return 0;
}
