// SPDX-License-Identifier: GPL-2.0-only
/* Reading the attributes of a DIE that encoding needs: see die_attrs.h. */
#include <string.h>

#include "die_attrs.h"
#include "die_reader_plan.h"
#include "die_reader.h"
#include "dwarf_alt.h"

uint32_t die_ref(Dwarf_Attribute *attr, const struct die_ref_ctx *ctx)
{
	Dwarf_Die target;
	Dwarf_Off off;

	/*
	 * Into another unit: followed only where the units are one
	 * (ctx->global), else void, so that no worker reads a unit another
	 * one owns.
	 */
	if (dwarf_whatform(attr) == DW_FORM_ref_addr ||
	    dwarf_whatform(attr) == DW_FORM_GNU_ref_alt ||
	    dwarf_whatform(attr) == DW_FORM_ref_sup4 || dwarf_whatform(attr) == DW_FORM_ref_sup8) {
		if (!die_ref_followed(attr, ctx))
			return 0;
		if (!dwarf_alt__ref_die(attr, &target))
			return REF_BAD;
		off = die_ref_space__off(ctx->space, &target);
		return off >= REF_OFF_MASK - 1 ? REF_BAD : REF_DIE | (uint32_t)off;
	}
	/*
	 * A type unit's signature (-fdebug-types-section): pahole v1.31 reads no
	 * type unit and takes such a reference for void, and so do we.
	 */
	if (dwarf_whatform(attr) == DW_FORM_ref_sig8)
		return 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	/*
	 * The offset in the unit, without decoding the DIE (dwarf_formref_die
	 * would).  One that cannot be read resolves to no DIE: corrupt DWARF
	 * (btf_encoder_refs.c).
	 */
	if (dwarf_formref(attr, &off) != 0 || off + ctx->base >= REF_OFF_MASK - 1)
		return REF_BAD;
#pragma GCC diagnostic pop
	return REF_DIE | (uint32_t)(off + ctx->base);
}

bool die_ref_followed(Dwarf_Attribute *attr, const struct die_ref_ctx *ctx)
{
	switch (dwarf_whatform(attr)) {
	case DW_FORM_ref_addr:
		return ctx->global;
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
		/* Its alternate file, read where the units are one (dwarf_alt.h). */
		return ctx->global && ctx->space && ctx->space->alt;
	case DW_FORM_ref_sig8:
		return false;
	default:
		return true;
	}
}

uint64_t die_ref_space__off(const struct die_ref_space *space, Dwarf_Die *die)
{
	uint64_t off = dwarf_dieoffset(die);

	if (space && space->alt && dwarf_cu_getdwarf(die->cu) == space->alt)
		off += space->alt_base;
	return off;
}

void die_ref_ctx__init(struct die_ref_ctx *ctx, Dwarf_Die *die, bool global,
		       const struct die_ref_space *space)
{
	ctx->global = global;
	ctx->space = global ? space : NULL;
	ctx->base = global ? die_ref_space__off(space, die) - dwarf_cuoffset(die) : 0;
}

/*
 * The constant of @form at @p as libdw 0.188's dwarf_formudata() reads it,
 * where the bytes alone say, in the unit's byte order: a data1 to data8,
 * whose bytes the plan, or libdw, found within the unit, and an implicit
 * constant, in the abbreviation.  False for the others, libdw's: a LEB128
 * in the DIE may run to the unit's end, which is not known here.
 * die_reader__constant()'s forms, a switch of its own: it runs for most
 * sizes and member offsets, and the shared one took a second dispatch
 * (callgrind: some 150 M more instructions on the corpus 6.1).
 */
static inline __attribute__((always_inline)) bool
form_const(const struct die_strs *s, unsigned int form, const unsigned char *p, uint64_t *val)
{
	switch (form) {
	case DW_FORM_data1:
		*val = *p;
		return true;
	case DW_FORM_data2:
		*val = die_reader__fixed(p, 2, s->big_endian);
		return true;
	case DW_FORM_data4:
		*val = die_reader__fixed(p, 4, s->big_endian);
		return true;
	case DW_FORM_data8:
		*val = die_reader__fixed(p, 8, s->big_endian);
		return true;
	case DW_FORM_implicit_const:
		return s->abbrev && p >= s->abbrev && p < s->abbrev_end &&
		       leb128__read(&p, s->abbrev_end, val, true);
	default:
		return false;
	}
}

/*
 * form_const() of @attr, where it is of the strs' unit; but a data4 or
 * data8 DW_AT_data_member_location may be an offset into .debug_loc before
 * DWARF 4, which libdw checks.
 */
static bool attr_const(const struct die_attrs *a, const Dwarf_Attribute *attr, uint64_t *val)
{
	const struct die_strs *s = a->strs;

	if (!s || attr->cu != s->cu)
		return false;
	if (attr->code == DW_AT_data_member_location &&
	    (attr->form == DW_FORM_data4 || attr->form == DW_FORM_data8))
		return false;
	return form_const(s, attr->form, attr->valp, val);
}

static void attr_udata(const struct die_attrs *a, Dwarf_Attribute *attr, uint64_t *val, bool *has)
{
	Dwarf_Word w;

	if (!attr_const(a, attr, val)) {
		if (dwarf_formudata(attr, &w) != 0)
			return;
		*val = w;
	}
	if (has)
		*has = true;
}

/*
 * The block is decoded here: dwarf_getlocation() would fill libdw's location
 * cache of the unit, which needs the unit's lock (unit_locks.h).
 */
void die_attr__member_location(Dwarf_Attribute *attr, uint64_t *val)
{
	Dwarf_Block block;
	Dwarf_Word w;
	uint64_t v = 0;
	size_t i;

	if (dwarf_formudata(attr, &w) == 0) {
		*val = w;
		return;
	}
	if (dwarf_formblock(attr, &block) != 0 || block.length < 2 ||
	    block.data[0] != DW_OP_plus_uconst)
		return;
	/* The operand, ULEB128, must end the block. */
	for (i = 1; i < block.length && i <= 10; i++) {
		v |= (uint64_t)(block.data[i] & 0x7f) << (7 * (i - 1));
		if (block.data[i] & 0x80)
			continue;
		if (i == block.length - 1)
			*val = v;
		return;
	}
}

typedef void (*attr_read_fn)(struct die_attrs *a, Dwarf_Attribute *attr);

/*
 * A DW_FORM_strp or DW_FORM_line_strp name, whose offset is at @valp, in
 * section @sec to @end, read as libdw 0.188's dwarf_formstring() reads it
 * (the unit's offset, in the file's byte order, into the section), or NULL: anything else (an offset past the section, a
 * section not found, other forms) is libdw's to read, and to refuse.
 */
static inline __attribute__((always_inline)) const char *
die_strs__at(const struct die_strs *s, const char *sec, const char *end, const unsigned char *valp)
{
	uint64_t off;

	if (!sec || (s->offset_size != 4 && s->offset_size != 8))
		return NULL;
	off = die_reader__fixed(valp, s->offset_size, s->big_endian);
	return off < (uint64_t)(end - sec) ? sec + off : NULL;
}

/* die_strs__at() of a name libdw found: of the strs' unit, else NULL. */
static const char *die_strs__name(const struct die_strs *s, const Dwarf_Attribute *attr)
{
	if (attr->cu != s->cu)
		return NULL;
	if (attr->form == DW_FORM_strp)
		return die_strs__at(s, s->str, s->str_end, attr->valp);
	return die_strs__at(s, s->line_str, s->line_str_end, attr->valp);
}

static void read_name(struct die_attrs *a, Dwarf_Attribute *attr)
{
	unsigned int form = attr->form;

	a->name = NULL;
	if (a->strs && (form == DW_FORM_strp || form == DW_FORM_line_strp))
		a->name = die_strs__name(a->strs, attr);
	if (!a->name)
		a->name = dwarf_formstring(attr);
	a->name_inline = form == DW_FORM_string;
}

/*
 * A DW_FORM_ref4 at @valp, a reference into the unit, 4 bytes, as
 * dwarf_formref() reads it (in the file's byte order, which the names'
 * sections tell); its bounds were checked with the DIE's.
 */
static inline __attribute__((always_inline)) uint32_t type_ref4(const struct die_attrs *a,
								const unsigned char *valp)
{
	uint64_t off = die_reader__fixed(valp, 4, a->strs->big_endian) + a->refs.base;

	return off >= REF_OFF_MASK - 1 ? REF_BAD : REF_DIE | (uint32_t)off;
}

/* @attr, a DW_AT_type whose reference is @type, taken into @a: the last wins. */
static inline __attribute__((always_inline)) void type_take(struct die_attrs *a, uint32_t type,
							    const Dwarf_Attribute *attr)
{
	a->type = type;
	a->repeated |= a->type_attr.code != 0;
	a->type_attr = *attr;
}

static void read_type(struct die_attrs *a, Dwarf_Attribute *attr)
{
	bool ref4 = attr->form == DW_FORM_ref4 && a->strs;

	type_take(a, ref4 ? type_ref4(a, attr->valp) : die_ref(attr, &a->refs), attr);
}

static void read_byte_size(struct die_attrs *a, Dwarf_Attribute *attr)
{
	attr_udata(a, attr, &a->byte_size, &a->has_byte_size);
}

static void read_bit_size(struct die_attrs *a, Dwarf_Attribute *attr)
{
	attr_udata(a, attr, &a->bit_size, &a->has_bit_size);
}

static void read_data_bit_offset(struct die_attrs *a, Dwarf_Attribute *attr)
{
	attr_udata(a, attr, &a->data_bit_offset, &a->has_data_bit_offset);
}

static void read_bit_offset(struct die_attrs *a, Dwarf_Attribute *attr)
{
	Dwarf_Sword s;

	if (dwarf_formsdata(attr, &s) == 0) {
		a->bit_offset = s;
		a->has_bit_offset = true;
	}
}

static void read_member_location(struct die_attrs *a, Dwarf_Attribute *attr)
{
	if (!attr_const(a, attr, &a->member_location))
		die_attr__member_location(attr, &a->member_location);
}

static void read_upper_bound(struct die_attrs *a, Dwarf_Attribute *attr)
{
	Dwarf_Sword s;

	if (dwarf_whatform(attr) != DW_FORM_sdata) {
		attr_udata(a, attr, &a->upper_bound, &a->has_upper_bound);
		return;
	}
	/* gcc writes -1 for zero-length arrays */
	if (dwarf_formsdata(attr, &s) == 0) {
		a->upper_bound = s;
		a->has_upper_bound = s >= 0;
		a->has_count = s < 0;
	}
}

static void read_count(struct die_attrs *a, Dwarf_Attribute *attr)
{
	attr_udata(a, attr, &a->count, &a->has_count);
}

static void read_const_value(struct die_attrs *a, Dwarf_Attribute *attr)
{
	Dwarf_Sword s;

	a->repeated |= a->has_const_value;
	a->has_const_value = true;
	a->const_form = attr->form;
	/* An implicit constant is an SLEB128, which dwarf_formudata() reads as dwarf_formsdata(). */
	if (a->const_form != DW_FORM_sdata)
		attr_udata(a, attr, &a->const_value, NULL);
	else if (dwarf_formsdata(attr, &s) == 0)
		a->const_value = (uint64_t)s;
}

static void read_encoding(struct die_attrs *a, Dwarf_Attribute *attr)
{
	uint64_t enc = 0;

	attr_udata(a, attr, &enc, NULL);
	a->encoding = enc;
}

static void read_declaration(struct die_attrs *a, Dwarf_Attribute *attr)
{
	(void)attr;
	a->declaration = true;
}

static void read_origin(struct die_attrs *a, Dwarf_Attribute *attr)
{
	a->repeated |= a->has_origin;
	a->origin_attr = *attr;
	a->has_origin = true;
}

static void read_low_pc(struct die_attrs *a, Dwarf_Attribute *attr)
{
	const struct die_strs *s = a->strs;

	/* dwarf_lowpc() takes the first DW_AT_low_pc (and no DW_AT_ranges). */
	if (a->has_low_pc)
		return;
	a->has_low_pc = true;
	/*
	 * dwarf_formaddr() reads a DW_FORM_addr's address-size bytes (libdw
	 * itself relocates nothing; a module's are relocated in memory by
	 * libdwfl); other forms (DW_FORM_addrx) are left to it, with the
	 * attribute kept.
	 */
	if (attr->form == DW_FORM_addr && s && attr->cu == s->cu &&
	    (s->addr_size == 4 || s->addr_size == 8)) {
		a->low_pc = die_reader__fixed(attr->valp, s->addr_size, s->big_endian);
		a->has_low_pc_addr = true;
	} else {
		a->low_pc_attr = *attr;
	}
}

static void read_location(struct die_attrs *a, Dwarf_Attribute *attr)
{
	a->repeated |= a->has_location;
	a->location_attr = *attr;
	a->has_location = true;
}

static void read_external(struct die_attrs *a, Dwarf_Attribute *attr)
{
	(void)attr;
	a->external = true;
}

/* The attributes read, by DW_AT_* code: die_reader plans to pass only these. */
static const attr_read_fn attr_readers[256] = {
	[DW_AT_name] = read_name,
	[DW_AT_type] = read_type,
	[DW_AT_byte_size] = read_byte_size,
	[DW_AT_bit_size] = read_bit_size,
	[DW_AT_data_bit_offset] = read_data_bit_offset,
	[DW_AT_bit_offset] = read_bit_offset,
	[DW_AT_data_member_location] = read_member_location,
	[DW_AT_upper_bound] = read_upper_bound,
	[DW_AT_count] = read_count,
	[DW_AT_const_value] = read_const_value,
	[DW_AT_encoding] = read_encoding,
	[DW_AT_declaration] = read_declaration,
	[DW_AT_abstract_origin] = read_origin,
	[DW_AT_specification] = read_origin,
	[DW_AT_low_pc] = read_low_pc,
	[DW_AT_location] = read_location,
	[DW_AT_external] = read_external,
};

/* Whether collect() reads attribute DW_AT_* @at. */
static bool attr_read(unsigned int at)
{
	return (at < 256 && attr_readers[at]) || at == DW_AT_GNU_annotation;
}

/*
 * What die_attrs__get() does with an attribute, by its name and form, in
 * a plan (die_reader.h's wanted): the most common read straight from the
 * bytes, any other handed to collect().  About 26 M attributes of the
 * corpus 6.1 are read this way; the call through attr_readers for each
 * took some 100 instructions.
 */
enum attr_op {
	OP_NONE, /* not read */
	OP_COLLECT,
	OP_NAME_STRP,
	OP_NAME_STRING,
	OP_TYPE_REF4,
	OP_MEMBER_LOCATION, /* a data1, data2 or implicit constant */
	OP_BYTE_SIZE, /* a data1 to data8 or implicit constant */
};

unsigned int die_attrs__wanted(unsigned int at, unsigned int form)
{
	bool constant = form == DW_FORM_data1 || form == DW_FORM_data2 ||
			form == DW_FORM_implicit_const;

	if (!attr_read(at))
		return OP_NONE;
	switch (at) {
	case DW_AT_name:
		return form == DW_FORM_strp   ? OP_NAME_STRP :
		       form == DW_FORM_string ? OP_NAME_STRING :
						OP_COLLECT;
	case DW_AT_type:
		return form == DW_FORM_ref4 ? OP_TYPE_REF4 : OP_COLLECT;
	case DW_AT_data_member_location:
		return constant ? OP_MEMBER_LOCATION : OP_COLLECT;
	case DW_AT_byte_size:
		return constant || form == DW_FORM_data4 || form == DW_FORM_data8 ? OP_BYTE_SIZE :
										    OP_COLLECT;
	default:
		return OP_COLLECT;
	}
}

/* die_attrs__collect(), inline for die_attrs__get(). */
static inline __attribute__((always_inline)) int collect(Dwarf_Attribute *attr, void *arg)
{
	/* Its name as libdw.h lays it out: dwarf_whatattr() is a call per attribute. */
	unsigned int at = attr->code;
	struct die_attrs *a = arg;

	if (at == DW_AT_GNU_annotation) {
		a->gnu_annotation_attr = *attr;
		a->has_gnu_annotation = true;
	} else if (attr_read(at)) {
		attr_readers[at](a, attr);
	}
	return DWARF_CB_OK;
}

int die_attrs__collect(Dwarf_Attribute *attr, void *arg)
{
	return collect(attr, arg);
}

/* Hands @spec's value at @valp to collect(), as libdw's attribute. */
static __attribute__((noinline)) void get_collect(const struct die_reader_spec *spec,
						  const unsigned char *valp, Dwarf_Die *die,
						  void *arg)
{
	Dwarf_Attribute attr = die_reader_spec__attr(spec, valp, die);

	collect(&attr, arg);
}

/*
 * Reads the attribute of @spec whose value is at @valp into the struct
 * die_attrs at @arg by its op, as collect() would; else hands it to
 * collect().  Its strs are those of the unit the plans read (die_attrs__get()).
 */
static inline __attribute__((always_inline)) void
get_spec(const struct die_reader_spec *spec, const unsigned char *valp, Dwarf_Die *die, void *arg)
{
	struct die_attrs *a = arg;
	const struct die_strs *s = a->strs;
	Dwarf_Attribute attr;

	switch (spec->op) {
	case OP_NAME_STRP:
		a->name = die_strs__at(s, s->str, s->str_end, valp);
		if (!a->name)
			break;
		a->name_inline = false;
		return;
	case OP_NAME_STRING:
		/* In the DIE, the plan found its end there (dwarf_formstring()). */
		a->name = (const char *)valp;
		a->name_inline = true;
		return;
	case OP_TYPE_REF4:
		attr = die_reader_spec__attr(spec, valp, die);
		type_take(a, type_ref4(a, valp), &attr);
		return;
	case OP_MEMBER_LOCATION:
		if (!form_const(s, spec->form, valp, &a->member_location))
			break;
		return;
	case OP_BYTE_SIZE:
		if (!form_const(s, spec->form, valp, &a->byte_size))
			break;
		a->has_byte_size = true;
		return;
	default:
		break;
	}
	get_collect(spec, valp, die, a);
}

/* die_attrs__get() where the strings are not the plans' unit's: all by collect(). */
static __attribute__((noinline)) void get_collected(struct die_reader *r, Dwarf_Die *die,
						    struct die_attrs *a)
{
	if (!die_reader__read_planned(r, die, get_collect, a))
		dwarf_getattrs(die, die_attrs__collect, a, 0);
}

void die_attrs__get(struct die_reader *r, Dwarf_Die *die, struct die_attrs *a)
{
	/* By op where the strings are the reader's unit's, whose DIEs alone the plans read. */
	if (!a->strs || a->strs->cu != r->cu)
		get_collected(r, die, a);
	else if (!die_reader__read_planned(r, die, get_spec, a))
		dwarf_getattrs(die, die_attrs__collect, a, 0);
}

void die_attrs__inherit(struct die_attrs *a, struct die_reader *r, bool origin_type)
{
	Dwarf_Attribute origin = a->origin_attr;
	int hops;

	for (hops = 0; a->has_origin && !a->name && hops < 8; hops++) {
		struct die_attrs o;
		Dwarf_Die odie;

		if (!die_ref_followed(&origin, &a->refs) || !dwarf_alt__ref_die(&origin, &odie))
			return;
		/* Its references numbered as in its unit; by @r's plans where that is @r's. */
		die_attrs__clear(&o);
		die_ref_ctx__init(&o.refs, &odie, a->refs.global, a->refs.space);
		o.strs = a->strs;
		die_attrs__get(r, &odie, &o);
		if (!hops)
			a->origin_type = o.type;
		a->name = o.name;
		if (o.name)
			a->name_ref = die_ref(&origin, &a->refs);
		/* A variable takes its declaration's type, as upstream does. */
		if (!a->type || (origin_type && o.type))
			a->type = o.type;
		a->external |= o.external;
		a->has_origin = o.has_origin;
		origin = o.origin_attr;
	}
}

const char *die__decl_tag_value(Dwarf_Die *die, int tag)
{
	Dwarf_Attribute attr;
	const char *name;

	if (tag != DW_TAG_LLVM_annotation && tag != DW_TAG_GNU_annotation)
		return NULL;
	name = dwarf_diename(die);
	if (!name || strcmp(name, "btf_decl_tag"))
		return NULL;
	return dwarf_formstring(dwarf_attr(die, DW_AT_const_value, &attr));
}
