/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DIE_READER_H_
#define _DIE_READER_H_ 1

/*
 * die_reader: walks the DIEs of one CU at a time for one worker, doing
 * what libdw would but without repeating its work for every DIE.
 *
 * libdw finds each DIE's abbreviation in a hash taken under a read-write
 * lock, and dwarf_getattrs() decodes the abbreviation's attribute list for
 * every DIE.  A die_reader keeps, per abbreviation code of the CU, a plan of
 * its attributes (name, form, the size of the value where the form fixes
 * it, an implicit constant's place in the abbreviation), made from the
 * unit's abbreviation table the first time the code is met
 * (die_reader_abbrev.c), and reads a DIE's attributes, or walks past them
 * and its children, by the plan.  The Dwarf_Die it hands out has no
 * abbreviation set: a libdw call on it looks it up.  Whatever
 * is unusual (a form it does not size, a value past the unit, a sibling
 * that is not a 1 to 8-byte unit reference) is left to libdw, so that
 * corrupt DWARF meets libdw's checks as before.
 *
 * One owner, no locking; everything refers to the current CU only, and
 * libelf is not called.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

#include "lib/darray.h"
#include "lib/leb128.h"

/* The @size-byte unsigned value at @p, in the file's byte order. */
static inline uint64_t die_reader__fixed(const unsigned char *p, unsigned int size, bool big_endian)
{
	bool swap = big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint64_t val = 0;
	uint32_t v4;
	unsigned int i;

	/* References and string offsets: one load, not four. */
	if (size == 4) {
		memcpy(&v4, p, 4);
		return swap ? __builtin_bswap32(v4) : v4;
	}
	for (i = 0; i < size; i++)
		val |= (uint64_t)p[big_endian ? size - 1 - i : i] << (8 * i);
	return val;
}

/*
 * The constant of @form at @p, which runs to @end at most, as libdw 0.188's
 * dwarf_formudata() reads it: a data1 to data8 in the file's byte order, a
 * ULEB128 (udata), an SLEB128 (sdata, and an implicit constant's value in
 * the abbreviation).  False for another form, or past @end.
 */
static inline bool die_reader__constant(unsigned int form, const unsigned char *p,
					const unsigned char *end, bool big_endian, uint64_t *v)
{
	unsigned int size;

	switch (form) {
	case DW_FORM_data1:
		size = 1;
		break;
	case DW_FORM_data2:
		size = 2;
		break;
	case DW_FORM_data4:
		size = 4;
		break;
	case DW_FORM_data8:
		size = 8;
		break;
	case DW_FORM_udata:
		return leb128__read(&p, end, v, false);
	case DW_FORM_sdata:
	case DW_FORM_implicit_const:
		return leb128__read(&p, end, v, true);
	default:
		return false;
	}
	if (end - p < size)
		return false;
	*v = die_reader__fixed(p, size, big_endian);
	return true;
}

struct die_reader_code;
struct die_reader_spec;

struct die_reader {
	/* .debug_info as libdw reads it, to check units against (NULL: unknown). */
	const unsigned char *info, *info_end;
	/* .debug_abbrev likewise, and where the unit's table is read next (NULL: libdw's). */
	const unsigned char *abbrev, *abbrev_end, *abbrev_next;
	Dwarf_CU *cu;
	/* The unit in memory (its header first), NULL when unknown. */
	const unsigned char *start, *end;
	uint8_t addr_size, offset_size;
	uint16_t version;
	bool big_endian;
	/*
	 * Of an attribute's DW_AT_* code and form: 0 when the callback is not
	 * called for it, else a code of the caller's below 256, kept in the
	 * plan (die_reader_plan.h: a spec's op) for a reader of its own to
	 * switch on.
	 */
	unsigned int (*wanted)(unsigned int at, unsigned int form);
	DARRAY(struct die_reader_code) codes; /* by abbreviation code */
	DARRAY(struct die_reader_spec) specs; /* the attributes of their plans */
	DARRAY(struct die_reader_spec) wanted_specs; /* copies of the wanted ones of each plan */
	/* The DIE whose attributes were read last, where they end, and whether children follow. */
	const void *last_die;
	const unsigned char *last_end;
	bool last_has_children;
	/* The DIE walked to last, its abbreviation code and where its attributes start. */
	const void *walked_die;
	size_t walked_code;
	const unsigned char *walked_attrs;
	int walked_tag;
};

/*
 * Makes @r read units of the .debug_info at @info..@info_end, with the
 * abbreviation tables of the .debug_abbrev at @abbrev..@abbrev_end, the
 * bytes libdw reads (dwarf_loader__debug_info(), __debug_abbrev(); NULL:
 * every DIE is left to libdw).  They are found once, before the workers
 * start: libelf is not called from here.
 */
void die_reader__init(struct die_reader *r, const unsigned char *info,
		      const unsigned char *info_end, const unsigned char *abbrev,
		      const unsigned char *abbrev_end);

/*
 * Starts on the CU of @cu_die; @wanted says which attributes the callbacks
 * get (struct die_reader).
 */
void die_reader__begin_cu(struct die_reader *r, Dwarf_Die *cu_die, bool big_endian,
			  unsigned int (*wanted)(unsigned int at, unsigned int form));
void die_reader__free(struct die_reader *r);

/*
 * dwarf_srclang(@cu_die), @cu_die the DIE of the unit die_reader__begin_cu()
 * started on: read by the plan of its code, else libdw's.
 */
int die_reader__lang(struct die_reader *r, Dwarf_Die *cu_die);

/*
 * dwarf_attr(@die, @at, @attr) for a DIE of the reader's unit (its DIE
 * too): the first @at found from the bytes by the plan of its code, else
 * by libdw; NULL when it has none.
 */
Dwarf_Attribute *die_reader__attr(struct die_reader *r, Dwarf_Die *die, unsigned int at,
				  Dwarf_Attribute *attr);

/* dwarf_tag(@die) likewise, by the plan of its code where it has one. */
int die_reader__tag_of(struct die_reader *r, Dwarf_Die *die);

/* dwarf_child() and dwarf_siblingof(): die_reader__tag() knows the DIE found. */
int die_reader__child(struct die_reader *r, Dwarf_Die *die, Dwarf_Die *child);
int die_reader__sibling(struct die_reader *r, Dwarf_Die *die);

/* Whether @die is the DIE the walk just met, whose code, attributes and tag are noted. */
static inline bool die_reader__walked(const struct die_reader *r, const Dwarf_Die *die)
{
	return die->addr == r->walked_die && die->cu == r->cu;
}

/*
 * Whether @die is the DIE whose attributes were read last, and has no
 * children: die_reader__child() would say 1.  False says nothing.
 */
static inline bool die_reader__childless(const struct die_reader *r, const Dwarf_Die *die)
{
	return die->addr == r->last_die && die->cu == r->cu && !r->last_has_children;
}

/*
 * dwarf_tag(@die): the DIE the walk just met has its abbreviation's tag
 * noted, without a call into libdw for each of a kernel's millions.
 */
static inline int die_reader__tag(const struct die_reader *r, Dwarf_Die *die)
{
	return die_reader__walked(r, die) ? r->walked_tag : dwarf_tag(die);
}

/*
 * As dwarf_getattrs(@die, @cb, @arg, 0), but @cb is called only for the
 * wanted attributes, and must return DWARF_CB_OK.  When the DIE turns out
 * to be unusual half-way, libdw reads it all again: @cb may see an
 * attribute twice, with the same value.
 */
void die_reader__getattrs(struct die_reader *r, Dwarf_Die *die,
			  int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg);

/* How deep die_reader__scan() follows DIEs nested in DIEs. */
#define DIE_READER_SCAN_DEPTH 256

/*
 * Calls @fn for every DIE below @cu_die, the unit's DIE, in the order they
 * lie in the unit, with the tag of the DIE they are children of: a pass
 * over the unit's bytes by the plans, none of libdw's lookups but a plan's
 * first.  0 when all were met; 1 when a DIE is unusual (a form the plans do
 * not size, the unit's end met early, DIEs nested past
 * DIE_READER_SCAN_DEPTH), and libdw is to be asked instead; @fn's nonzero
 * return, which ends the pass.
 */
int die_reader__scan(struct die_reader *r, Dwarf_Die *cu_die,
		     int (*fn)(void *ctx, Dwarf_Die *die, int parent_tag), void *ctx);

#endif /* _DIE_READER_H_ */
