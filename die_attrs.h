/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DIE_ATTRS_H_
#define _DIE_ATTRS_H_ 1

/*
 * die_attrs: the attributes of a DIE that encoding BTF needs, read in one
 * pass over the DIE (die_attrs__collect() is the callback, for libdw's
 * dwarf_getattrs() or die_reader's plans), and the type references they
 * hold.
 *
 * Nothing here keeps state: the functions read the DIEs they are given and
 * may run in any thread.  References into another CU (DW_FORM_ref_addr)
 * are followed only where the file's units are one CU (struct
 * die_ref_ctx), whose DIEs any worker may then read: DIEs are only read,
 * and libdw's tables for them made before the workers start.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <dwarf.h>
#include <elfutils/libdw.h>

/*
 * A type reference while a CU is being encoded: a plain BTF ID, or a DIE
 * offset relative to the CU with REF_DIE set, resolved once the CU has
 * been walked (btf_encoder_refs.c).
 */
#define REF_DIE 0x40000000u
#define REF_OFF_MASK (REF_DIE - 1)
/* The array index type of the CU: its "int". */
#define REF_INDEX (REF_DIE | REF_OFF_MASK)
/* A reference that could not be read. */
#define REF_BAD (REF_DIE | (REF_OFF_MASK - 1))

/* The standard DWARF 5 tags are below this; tables by tag are this long. */
#define DW_TAG_NR_STD (DW_TAG_immutable_type + 1)

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000
#endif
/*
 * gcc's BTF tags (gcc 15): a DIE's DW_AT_GNU_annotation names a
 * DW_TAG_GNU_annotation DIE (DW_AT_name "btf_decl_tag" or "btf_type_tag",
 * DW_AT_const_value the tag), whose own DW_AT_GNU_annotation names the next.
 */
#ifndef DW_TAG_GNU_annotation
#define DW_TAG_GNU_annotation 0x6001
#endif
#ifndef DW_AT_GNU_annotation
#define DW_AT_GNU_annotation 0x2139
#endif

/*
 * Where the units are one, a dwz alternate file's DIEs (dwarf_alt.h) are
 * numbered after the file's own: their offset there plus @alt_base, the
 * size of the file's .debug_info.  Read-only, shared by the workers.
 */
struct die_ref_space {
	Dwarf *main;
	Dwarf *alt; /* NULL: no alternate file is read */
	uint64_t alt_base;
};

/* The offset that stands for @die where the units are one (@space may be NULL). */
uint64_t die_ref_space__off(const struct die_ref_space *space, Dwarf_Die *die);

/*
 * How type references read from a unit's DIEs are numbered: as offsets in
 * the unit (base 0), or, where the units of the file are one (@global, see
 * dwarf_loader__merged()), as .debug_info offsets (@base is the unit's
 * start) that may cross into other units (DW_FORM_ref_addr).
 */
struct die_ref_ctx {
	uint64_t base;
	bool global;
	const struct die_ref_space *space; /* with @global: where a dwz alternate file's DIEs go */
};

/*
 * Whether dwarf_alt__ref_die() may follow @attr: into the unit, or into
 * another with ctx->global; never into a type unit (DW_FORM_ref_sig8: libdw
 * would look the signature up and read type units in, which pahole v1.31
 * reads none of); into a dwz alternate or DWARF 5 supplementary file only
 * with ctx->global and the file opened before the workers start
 * (ctx->space->alt, dwarf_alt.h).  The others would change libdw state
 * that other workers share.
 */
bool die_ref_followed(Dwarf_Attribute *attr, const struct die_ref_ctx *ctx);

/* Sets @ctx for the unit of @die; @space with @global. */
void die_ref_ctx__init(struct die_ref_ctx *ctx, Dwarf_Die *die, bool global,
		       const struct die_ref_space *space);

/*
 * The string sections that DW_FORM_strp and DW_FORM_line_strp names of unit
 * @cu are read from without libdw (libdw's own bytes, found before the
 * workers start: NULL where a file has none), .debug_abbrev, where its
 * implicit constants lie, and how @cu writes an offset and a constant.
 * Another unit's attributes, or @cu NULL (a unit outside .debug_info: a
 * dwz alternate file's), go to libdw.
 */
struct die_strs {
	const char *str, *str_end;
	const char *line_str, *line_str_end;
	const unsigned char *abbrev, *abbrev_end;
	const Dwarf_CU *cu;
	uint8_t offset_size, addr_size;
	bool big_endian;
};

struct die_attrs {
	struct die_ref_ctx refs; /* set before reading, see die_attrs__get() */
	/* Set with refs, or NULL: names are then all libdw's dwarf_formstring(). */
	const struct die_strs *strs;
	/* From here to type_attr, what die_attrs__clear() zeroes. */
	const char *name;
	uint32_t type; /* type reference (REF_DIE | offset), 0 = void */
	uint32_t origin_type; /* die_attrs__inherit(): the type of the DIE origin_attr names */
	uint32_t name_ref; /* die_attrs__inherit(): the reference to the DIE the name came from */
	unsigned int const_form;
	unsigned int encoding;
	uint64_t byte_size;
	uint64_t bit_size;
	uint64_t data_bit_offset;
	int64_t bit_offset;
	uint64_t member_location;
	uint64_t upper_bound;
	uint64_t count;
	uint64_t const_value;
	/* The first DW_AT_low_pc, a DW_FORM_addr of the strs' unit, as dwarf_lowpc() reads it. */
	uint64_t low_pc;
	bool has_byte_size, has_bit_size, has_data_bit_offset, has_bit_offset;
	bool has_upper_bound, has_count, declaration;
	bool has_const_value, has_low_pc, has_origin, has_location, external;
	bool name_inline; /* DW_FORM_string: in .debug_info, its pointer seen once */
	bool has_gnu_annotation;
	bool has_low_pc_addr; /* low_pc is read */
	/*
	 * A type, origin, location or constant met twice (corrupt DWARF):
	 * dwarf_attr() would find the first, the fields above hold the last.
	 */
	bool repeated;
	/*
	 * What is read only with its flag, not cleared: type_attr with a code
	 * (0: no DW_AT_type read), origin_attr with has_origin, and so on.
	 */
	Dwarf_Attribute type_attr;
	Dwarf_Attribute origin_attr; /* DW_AT_abstract_origin or DW_AT_specification */
	Dwarf_Attribute location_attr;
	Dwarf_Attribute gnu_annotation_attr; /* the first of gcc's annotations */
	/* The first DW_AT_low_pc, with has_low_pc but not has_low_pc_addr. */
	Dwarf_Attribute low_pc_attr;
};

/*
 * The reference in @attr: REF_DIE | the offset of the DIE it names, as @ctx
 * numbers them; 0 (void) for one into a type unit, or into another unit
 * without ctx->global; REF_BAD for one that cannot be read.
 */
uint32_t die_ref(Dwarf_Attribute *attr, const struct die_ref_ctx *ctx);

/*
 * die_reader's wanted (die_reader.h): 0 for an attribute that
 * die_attrs__collect() does not read, else how die_attrs__get() reads it.
 */
unsigned int die_attrs__wanted(unsigned int at, unsigned int form);

/*
 * A dwarf_getattrs() callback that fills the struct die_attrs at @arg,
 * whose refs the caller has set.
 */
int die_attrs__collect(Dwarf_Attribute *attr, void *arg);

struct die_reader;

/*
 * Reads the wanted attributes of @die into @a (its refs and strs set, the
 * rest unset) with @r: die_reader__getattrs() with die_attrs__collect()
 * inlined, no call per attribute.
 */
void die_attrs__get(struct die_reader *r, Dwarf_Die *die, struct die_attrs *a);

/*
 * Unsets every attribute of @a: zeroes its values, from name to type_attr,
 * and type_attr's code.  Two stretches of at most 64 bytes, which gcc
 * stores inline (a call to the C library's memset() took some 30
 * instructions, for each of a kernel's millions of DIEs); one larger
 * would be a `rep stos`, which takes some 15 ns to start.
 */
static inline void die_attrs__clear(struct die_attrs *a)
{
#define DIE_ATTRS_CLEARED (offsetof(struct die_attrs, type_attr) - offsetof(struct die_attrs, name))
	char *p = (char *)&a->name;

	_Static_assert(DIE_ATTRS_CLEARED > 64 && DIE_ATTRS_CLEARED <= 128,
		       "die_attrs__clear() clears two stretches");
	memset(p, 0, 64);
	memset(p + 64, 0, DIE_ATTRS_CLEARED - 64);
#undef DIE_ATTRS_CLEARED
	a->type_attr.code = 0;
}

/*
 * Fills what a concrete DIE leaves to its abstract origin or declaration
 * (DW_AT_abstract_origin, DW_AT_specification): the name, the type (with
 * @origin_type, the origin's wins, as upstream has it for variables), and
 * DW_AT_external; in a->origin_type the type of the first origin alone, in
 * a->name_ref the reference to the one that has the name.  An origin in
 * another unit is read only with a->refs.global.  Origins in @r's unit are
 * read by its plans.
 */
void die_attrs__inherit(struct die_attrs *a, struct die_reader *r, bool origin_type);

/*
 * DW_AT_data_member_location @attr into *@val: a constant, or before DWARF 4
 * a block of one DW_OP_plus_uconst; *@val is left as it is for any other.
 */
void die_attr__member_location(Dwarf_Attribute *attr, uint64_t *val);

/*
 * The value of a btf_decl_tag annotation DIE (clang's or gcc's) @die, of tag
 * @tag (btf_encoder__tag(): no libdw lookup for the many DIEs that are no
 * annotation), or NULL for any other DIE.
 */
const char *die__decl_tag_value(Dwarf_Die *die, int tag);

#endif /* _DIE_ATTRS_H_ */
