// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoding DWARF types into BTF, one compile unit at a time.
 *
 * A CU is encoded in a single walk over its DIEs.  Types are appended to the
 * encoder's BTF as their DIEs are met, so a type may refer to a DIE that has
 * not been encoded yet.  Such references are written as DIE references (the
 * CU-relative DIE offset tagged with REF_DIE) and resolved once the whole CU
 * has been walked, by visiting the type-ID fields of each new type through
 * the per-kind operations in btf_kind_ops[].
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_dedup.h"
#include "btf_encoder.h"
#include "die_reader.h"
#include "elf_functions.h"
#include "func_params.h"
#include "elf_symtab.h"
#include "lib/btf_types.h"
#include "lib/arena.h"
#include "lib/darray.h"
#include "lib/ptr_map.h"

/*
 * Type references while a CU is being encoded: a plain BTF ID, or a DIE
 * offset relative to the CU with REF_DIE set.  They stay in the encoder
 * (btf_encoder__ref()): libbpf's type-ID fields take 0 until the CU is
 * resolved.
 */
#define REF_DIE 0x40000000u
#define REF_OFF_MASK (REF_DIE - 1)
/* The array index type of the CU: its "int". */
#define REF_INDEX (REF_DIE | REF_OFF_MASK)
/* A reference that could not be read. */
#define REF_BAD (REF_DIE | (REF_OFF_MASK - 1))

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000
#endif

/* Marks a slot of the DIE map as holding a reference for this CU. */
#define MAP_SET 0x80000000u

/*
 * The types of one chunk of CUs (see dwarf_loader.h), deduplicated on their
 * own once the chunk is encoded.  A chunk depends on its CUs alone, so the
 * chunks concatenated in order give the same BTF at every -j.
 */
struct btf_chunk {
	uint32_t index;
	struct btf *btf;
	uint32_t first_id; /* its first type: 1, as chunks are standalone BTF */
	uint32_t nr_types; /* after dedup */
	uint32_t merged_id; /* where first_id went in the merged BTF */
	uint32_t strs_len; /* of a deduplicated chunk's string table */
};

/* A variable with a static address, as the encoder saw it in a CU. */
struct btf_var_state {
	const struct btf_chunk *chunk; /* whose BTF type is in */
	const char *name;
	struct btf_decl_tag_ref *tags;
	uint32_t nr_tags;
	uint64_t addr;
	uint32_t type; /* in the encoder's BTF once its CU is resolved */
	uint32_t cu_index;
	bool external;
};

/* Where a parameter of a function of the current CU lives. */
struct cu_param_loc {
	Dwarf_Attribute attr; /* DW_AT_location */
	bool has_location;
	bool has_const_value;
};

/* A function defined in the CU being encoded, saved once the CU is resolved. */
struct cu_func {
	struct elf_functions_entry *entry;
	uint32_t ret_type;
	uint32_t first_param, nr_params; /* in btf_encoder.cu.params */
	uint32_t first_tag, nr_tags; /* in btf_encoder.cu.tags */
	bool varargs;
	bool optimized_parms, unexpected_reg, uncertain_parm_loc;
	bool raw_unexpected; /* a register unexpected, before a struct forgives it */
	/* The CU-relative offsets of its DIE and of its DW_AT_abstract_origin (or 0). */
	uint32_t die_off, origin_off;
};

/* A member of a struct, read before the struct is added. */
struct pending_member {
	int name_off; /* in the chunk's strings, 0 for none */
	uint32_t type;
	uint32_t bit_off, bit_size; /* as btf__add_field() takes them */
};

struct btf_encoder {
	const struct btf_encoder_conf *conf;
	struct btf *btf; /* the current chunk's */
	struct btf_chunk *chunk;
	DARRAY(struct btf_chunk *) chunks;
	/* What the current chunk's types are referred to from, to carry through its dedup. */
	DARRAY(struct btf_func_state *) chunk_states;
	/* Their type IDs, listed to go through the dedup (btf_dedup__carry()). */
	DARRAY(uint32_t) carried;
	size_t carried_next;
	size_t chunk_first_var;
	DARRAY(struct btf_var_state) vars;
	struct arena arena; /* what saved functions and variables point to */
	/* The names of the declarations its chunks' dedups resolved, in the arena. */
	DARRAY(const char *) resolved_decls;
	struct ptr_map strs; /* the DWARF's strings -> their offsets in the chunk's BTF */
	/* Per-CU state, reset by btf_encoder__encode_cu(). */
	struct {
		/*
		 * What each DIE offset of the CU stands for (a type reference:
		 * an ID or another DIE), indexed by offset, and the offsets set,
		 * to clear them for the next CU.
		 */
		uint32_t *map;
		size_t map_size;
		DARRAY(uint32_t) refs;
		DARRAY(struct cu_func) funcs;
		DARRAY(struct btf_func_param) params;
		DARRAY(struct cu_param_loc) locs; /* parallel to params */
		DARRAY(struct btf_decl_tag_ref) tags;
		/* The members of the structs being read, innermost last (see encode_struct()). */
		DARRAY(struct pending_member) members;
		/*
		 * What the type-ID fields of the CU's types refer to, in the
		 * order btf_type__visit_ids() meets them, and the next one to
		 * resolve.
		 */
		DARRAY(uint32_t) type_refs;
		size_t next_ref;
		bool indexed; /* an array needs the CU's "int" */
		uint32_t index;
		uint32_t first_id;
		size_t first_var; /* the CU's first entry in vars */
		int depth;
		uint32_t int_ref; /* DIE ref of the CU's "int", or 0 */
		Dwarf_Die die; /* the CU's */
		struct die_reader reader;
		uint64_t bad_off; /* where the DWARF was found corrupt */
		int err;
	} cu;
};

/* The attributes of a DIE that encoding needs, read in one pass. */
struct die_attrs {
	const char *name;
	uint32_t type; /* type reference (REF_DIE | offset), 0 = void */
	uint64_t byte_size;
	uint64_t bit_size;
	uint64_t data_bit_offset;
	int64_t bit_offset;
	uint64_t member_location;
	uint64_t upper_bound;
	uint64_t count;
	uint64_t const_value;
	unsigned int const_form;
	unsigned int encoding;
	bool has_byte_size, has_bit_size, has_data_bit_offset, has_bit_offset;
	bool has_upper_bound, has_count, declaration;
	bool has_const_value, has_low_pc, has_origin, has_location, external;
	bool name_inline; /* DW_FORM_string: in .debug_info, its pointer seen once */
	Dwarf_Attribute type_attr;
	Dwarf_Attribute origin_attr; /* DW_AT_abstract_origin or DW_AT_specification */
	Dwarf_Attribute location_attr;
};

/* ---- reading DIEs ---- */

static uint32_t die_ref(Dwarf_Attribute *attr)
{
	Dwarf_Off off;

	/*
	 * The CU-relative offset, without decoding the DIE (dwarf_formref_die
	 * would).  Fails for DW_FORM_ref_addr: references into another CU are
	 * not followed, so that no worker reads a CU another one owns.
	 */
	if (dwarf_whatform(attr) == DW_FORM_ref_addr)
		return 0;
	/*
	 * A type unit's signature (-fdebug-types-section): pahole v1.31 reads no
	 * type unit and takes such a reference for void, and so do we.
	 */
	if (dwarf_whatform(attr) == DW_FORM_ref_sig8)
		return 0;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	/* One that cannot be read resolves to no DIE: corrupt DWARF, see check_dangling. */
	if (dwarf_formref(attr, &off) != 0 || off >= REF_OFF_MASK - 1)
		return REF_BAD;
#pragma GCC diagnostic pop
	return REF_DIE | (uint32_t)off;
}

static void attr_udata(Dwarf_Attribute *attr, uint64_t *val, bool *has)
{
	Dwarf_Word w;

	if (dwarf_formudata(attr, &w) == 0) {
		*val = w;
		if (has)
			*has = true;
	}
}

/* DW_AT_data_member_location: a constant, or DW_OP_plus_uconst before DWARF 4. */
static void attr_member_location(Dwarf_Attribute *attr, uint64_t *val)
{
	Dwarf_Op *expr;
	size_t len;
	Dwarf_Word w;

	if (dwarf_formudata(attr, &w) == 0) {
		*val = w;
		return;
	}
	if (dwarf_getlocation(attr, &expr, &len) == 0 && len == 1 &&
	    expr[0].atom == DW_OP_plus_uconst)
		*val = expr[0].number;
}

/* Each attribute read here must be in wanted_attrs too, or die_reader passes it over. */
static int die_attrs__collect(Dwarf_Attribute *attr, void *arg)
{
	struct die_attrs *a = arg;
	Dwarf_Sword s;

	switch (dwarf_whatattr(attr)) {
	case DW_AT_name:
		a->name = dwarf_formstring(attr);
		a->name_inline = dwarf_whatform(attr) == DW_FORM_string;
		break;
	case DW_AT_type:
		a->type = die_ref(attr);
		a->type_attr = *attr;
		break;
	case DW_AT_byte_size:
		attr_udata(attr, &a->byte_size, &a->has_byte_size);
		break;
	case DW_AT_bit_size:
		attr_udata(attr, &a->bit_size, &a->has_bit_size);
		break;
	case DW_AT_data_bit_offset:
		attr_udata(attr, &a->data_bit_offset, &a->has_data_bit_offset);
		break;
	case DW_AT_bit_offset:
		if (dwarf_formsdata(attr, &s) == 0) {
			a->bit_offset = s;
			a->has_bit_offset = true;
		}
		break;
	case DW_AT_data_member_location:
		attr_member_location(attr, &a->member_location);
		break;
	case DW_AT_upper_bound:
		if (dwarf_whatform(attr) == DW_FORM_sdata) {
			/* gcc writes -1 for zero-length arrays */
			if (dwarf_formsdata(attr, &s) == 0) {
				a->upper_bound = s;
				a->has_upper_bound = s >= 0;
				a->has_count = s < 0;
			}
		} else {
			attr_udata(attr, &a->upper_bound, &a->has_upper_bound);
		}
		break;
	case DW_AT_count:
		attr_udata(attr, &a->count, &a->has_count);
		break;
	case DW_AT_const_value:
		a->has_const_value = true;
		a->const_form = dwarf_whatform(attr);
		if (a->const_form == DW_FORM_sdata || a->const_form == DW_FORM_implicit_const) {
			if (dwarf_formsdata(attr, &s) == 0)
				a->const_value = (uint64_t)s;
		} else {
			attr_udata(attr, &a->const_value, NULL);
		}
		break;
	case DW_AT_encoding: {
		uint64_t enc = 0;

		attr_udata(attr, &enc, NULL);
		a->encoding = enc;
	} break;
	case DW_AT_declaration:
		a->declaration = true;
		break;
	case DW_AT_abstract_origin:
	case DW_AT_specification:
		a->origin_attr = *attr;
		a->has_origin = true;
		break;
	case DW_AT_low_pc:
	case DW_AT_ranges:
		a->has_low_pc = true;
		break;
	case DW_AT_location:
		a->location_attr = *attr;
		a->has_location = true;
		break;
	case DW_AT_external:
		a->external = true;
		break;
	}
	return DWARF_CB_OK;
}

static void die_attrs__read(Dwarf_Die *die, struct die_attrs *a)
{
	memset(a, 0, sizeof(*a));
	dwarf_getattrs(die, die_attrs__collect, a, 0);
}

/* The attributes die_attrs__collect() reads, by DW_AT_* code. */
static const bool wanted_attrs[256] = {
	[DW_AT_name] = true,
	[DW_AT_type] = true,
	[DW_AT_byte_size] = true,
	[DW_AT_bit_size] = true,
	[DW_AT_data_bit_offset] = true,
	[DW_AT_bit_offset] = true,
	[DW_AT_data_member_location] = true,
	[DW_AT_upper_bound] = true,
	[DW_AT_count] = true,
	[DW_AT_const_value] = true,
	[DW_AT_encoding] = true,
	[DW_AT_declaration] = true,
	[DW_AT_abstract_origin] = true,
	[DW_AT_specification] = true,
	[DW_AT_low_pc] = true,
	[DW_AT_ranges] = true,
	[DW_AT_location] = true,
	[DW_AT_external] = true,
};

/* die_attrs__read() of a DIE of the current CU, by its abbreviation's plan. */
static void btf_encoder__attrs(struct btf_encoder *e, Dwarf_Die *die, struct die_attrs *a)
{
	memset(a, 0, sizeof(*a));
	die_reader__getattrs(&e->cu.reader, die, die_attrs__collect, a);
}

static int btf_encoder__child(struct btf_encoder *e, Dwarf_Die *die, Dwarf_Die *child)
{
	return die_reader__child(&e->cu.reader, die, child);
}

static int btf_encoder__sibling(struct btf_encoder *e, Dwarf_Die *die)
{
	return die_reader__sibling(&e->cu.reader, die);
}

/* ---- the DIE -> type reference map of the current CU ---- */

static int btf_encoder__map(struct btf_encoder *e, Dwarf_Die *die, uint32_t ref)
{
	Dwarf_Off off = dwarf_cuoffset(die);
	uint32_t *slot;

	if (off >= e->cu.map_size) {
		size_t size = e->cu.map_size ? e->cu.map_size * 2 : 1 << 16;
		uint32_t *map;

		while (size <= off)
			size *= 2;
		map = realloc(e->cu.map, size * sizeof(*map));
		if (!map)
			return -ENOMEM;
		memset(map + e->cu.map_size, 0, (size - e->cu.map_size) * sizeof(*map));
		e->cu.map = map;
		e->cu.map_size = size;
	}
	slot = darray_push(&e->cu.refs);
	if (!slot)
		return -ENOMEM;
	*slot = off;
	e->cu.map[off] = ref | MAP_SET;
	return 0;
}

/* What DIE offset @off stands for, or false when it stands for nothing encoded. */
static bool btf_encoder__lookup(const struct btf_encoder *e, uint32_t off, uint32_t *ref)
{
	if (off >= e->cu.map_size || !(e->cu.map[off] & MAP_SET))
		return false;
	*ref = e->cu.map[off] & ~MAP_SET;
	return true;
}

static void btf_encoder__clear_map(struct btf_encoder *e)
{
	size_t i;

	for (i = 0; i < e->cu.refs.nr; i++)
		e->cu.map[e->cu.refs.data[i]] = 0;
	e->cu.refs.nr = 0;
}

/* ---- encoding, one handler per DWARF tag ---- */

struct die_ops {
	int (*encode)(struct btf_encoder *e, Dwarf_Die *die);
};

static int btf_encoder__encode_children(struct btf_encoder *e, Dwarf_Die *parent);
static int btf_encoder__encode_die(struct btf_encoder *e, Dwarf_Die *die);

/* Notes that the CU's DWARF is corrupt near @die; -EBADMSG. */
static int btf_encoder__corrupt(struct btf_encoder *e, Dwarf_Die *die)
{
	if (!e->cu.err) {
		e->cu.err = -EBADMSG;
		e->cu.bad_off = dwarf_dieoffset(die);
	}
	return -EBADMSG;
}

static bool btf_encoder__has(const struct btf_encoder *e, enum btf_feature f)
{
	return btf_encoder_conf__has(e->conf, f);
}

static bool btf_encoder__has_vars(const struct btf_encoder *e)
{
	return e->conf->symtab &&
	       (btf_encoder__has(e, BTF_FEAT_VAR) || btf_encoder__has(e, BTF_FEAT_GLOBAL_VAR));
}

/*
 * Notes what the next type-ID field added for the CU refers to: each
 * btf__add_*() of the walk is given 0 for a type ID, one field after the
 * other, and btf_encoder__resolve_cu() sets them in the same order.
 */
static int btf_encoder__ref(struct btf_encoder *e, uint32_t ref)
{
	uint32_t *slot = darray_push(&e->cu.type_refs);

	if (!slot)
		return -ENOMEM;
	*slot = ref;
	return 0;
}

/*
 * Of the items (members, parameters) whose references were noted from
 * @first on, a reader sees the first vlen, which past 65,535 wraps (see
 * btf_encoder__add_field()): the others' references go.
 */
static void btf_encoder__wrap_refs(struct btf_encoder *e, size_t first)
{
	size_t nr = e->cu.type_refs.nr - first;

	if (nr > 0xffff)
		e->cu.type_refs.nr = first + (nr & 0xffff);
}

/* libbpf returns the new ID or a negative errno; record it for @die. */
static int btf_encoder__added(struct btf_encoder *e, Dwarf_Die *die, int id)
{
	if (id < 0)
		return id;
	if ((uint32_t)id >= REF_DIE)
		return -E2BIG;
	return btf_encoder__map(e, die, id);
}

/* ---- names, interned by the DWARF's string pointers ---- */

/*
 * The offset of the name of @a in the chunk's strings, 0 for none, or a
 * negative errno.  libbpf interns a string by hashing and comparing its
 * characters; the linker shares the DWARF's strings in .debug_str, so the
 * CUs of a chunk hand back the same pointer for the same name, and it is
 * looked up by address first.  A name written inline in the DIE has a
 * pointer of its own, and would only crowd the map.
 */
static int btf_encoder__str(struct btf_encoder *e, const struct die_attrs *a)
{
	const char *name = a->name;
	uint32_t off;
	int err;

	if (!name)
		return 0;
	if (a->name_inline)
		return *name ? btf__add_str(e->btf, name) : 0;
	/* A known pointer is not even read: the string is likely out of the cache. */
	if (ptr_map__find(&e->strs, name, &off))
		return off;
	if (!*name)
		return 0;
	err = btf__add_str(e->btf, name);
	if (err < 0)
		return err;
	off = err;
	err = ptr_map__add(&e->strs, name, off);
	return err ?: (int)off;
}

/* Names type @id, added without one, with the string at @off. */
static int btf_encoder__name_type(struct btf_encoder *e, int id, int off)
{
	if (id < 0 || off <= 0)
		return id < 0 ? id : off;
	btf_type__mut(e->btf, id)->name_off = off;
	return 0;
}

/*
 * What kinds that must have a name are added with, to be named from
 * btf_encoder__str() after: libbpf interns it once per chunk.
 */
#define NAME_PLACEHOLDER "?"

/* Adds a member to struct or union @id, as btf__add_field() with the name looked up first. */
/*
 * Adds member number @nr to struct or union @id.  Past 65,535 members BTF's
 * 16-bit vlen wraps, and libbpf's dedup keeps as many members as it then
 * says, which is what pahole v1.31 encodes: the name goes to the member just
 * added, found by @nr, not by the wrapped count.
 */
static int btf_encoder__add_field(struct btf_encoder *e, int id, uint32_t nr, int off, int type,
				  uint32_t bit_off, uint32_t bit_size)
{
	struct btf_type *t;
	int err;

	err = btf_encoder__ref(e, type) ?: btf__add_field(e->btf, NULL, 0, bit_off, bit_size);
	if (err || !off)
		return err;
	t = btf_type__mut(e->btf, id);
	btf_members(t)[nr].name_off = off;
	return 0;
}

/* Warns that BTF keeps only the first @nr % 65,536 of @nr members or values of @die. */
static void warn_vlen(Dwarf_Die *die, uint32_t nr)
{
	const char *name = dwarf_diename(die);

	if (nr <= 0xffff)
		return;
	fprintf(stderr,
		"pahole: warning: %s has %u members or values, more than BTF's 65,535: only the "
		"first %u are encoded, as pahole v1.31 does\n",
		name ?: "an anonymous type", nr, nr & 0xffff);
}

/*
 * Adds value number @nr to enum @id, as btf__add_enum{,64}_value() with the
 * name looked up first; past 65,535 values as btf_encoder__add_field().
 */
static int btf_encoder__add_enum_value(struct btf_encoder *e, int id, uint32_t nr, bool is64,
				       const struct die_attrs *v, int64_t val)
{
	int off = btf_encoder__str(e, v), err;
	const char *name = off ? NAME_PLACEHOLDER : v->name;
	struct btf_type *t;

	if (off < 0)
		return off;
	/* No name: libbpf's own error, as for any enumerator it refuses. */
	err = is64 ? btf__add_enum64_value(e->btf, name, val) :
		     btf__add_enum_value(e->btf, name, val);
	if (err)
		return err;
	t = btf_type__mut(e->btf, id);
	if (is64)
		btf_enum64(t)[nr].name_off = off;
	else
		btf_enum(t)[nr].name_off = off;
	return 0;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* The sizes BTF has floats of (libbpf's btf__add_float() takes no other). */
static bool btf_float_size(uint64_t size)
{
	return size == 2 || size == 4 || size == 8 || size == 12 || size == 16;
}

static int encode_base_type(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	const char *name;
	uint64_t size;
	int enc = 0;

	btf_encoder__attrs(e, die, &a);
	name = a.name ?: "";
	size = a.has_byte_size ? a.byte_size : (a.bit_size + 7) / 8;
	/*
	 * With floats, pahole v1.31 takes complex and imaginary ones for
	 * floats too, then refuses the file: BTF has no kind for them.
	 * Without, they are integers of their size, as all floats are.
	 */
	if (btf_encoder__has(e, BTF_FEAT_FLOAT)) {
		if (a.encoding == DW_ATE_complex_float)
			return -BTF_REFUSED_COMPLEX_FLOAT;
		if (a.encoding == DW_ATE_imaginary_float)
			return -BTF_REFUSED_IMAGINARY_FLOAT;
		if (a.encoding == DW_ATE_float && !btf_float_size(size))
			return -BTF_REFUSED_FLOAT_SIZE;
	}
	if (a.encoding == DW_ATE_float && btf_encoder__has(e, BTF_FEAT_FLOAT))
		return btf_encoder__added(e, die, btf__add_float(e->btf, name, size));
	if (a.encoding == DW_ATE_signed || a.encoding == DW_ATE_signed_char)
		enc = BTF_INT_SIGNED;
	else if (a.encoding == DW_ATE_boolean)
		enc = BTF_INT_BOOL;
	/*
	 * BTF integers are 1, 2, 4, 8 or 16 bytes.  DWARF also has odd-sized
	 * ones (DW_OP_convert targets, _BitInt): stand-ins as upstream does.
	 */
	if (!is_pow2(size) || size > 16) {
		name = "__SANITIZED_FAKE_INT__";
		size = 4;
	}
	if (!e->cu.int_ref && enc == BTF_INT_SIGNED && size == 4 && !strcmp(name, "int"))
		e->cu.int_ref = REF_DIE | (uint32_t)dwarf_cuoffset(die);
	return btf_encoder__added(e, die, btf__add_int(e->btf, name, size, enc));
}

/* Type tags hang off a pointer DIE as DW_TAG_LLVM_annotation children. */
static int encode_pointer(struct btf_encoder *e, Dwarf_Die *die)
{
	const char *tags[16];
	int nr_tags = 0, id, i, err;
	struct die_attrs a;
	Dwarf_Die child;

	btf_encoder__attrs(e, die, &a);
	if (btf_encoder__has(e, BTF_FEAT_TYPE_TAG) && btf_encoder__child(e, die, &child) == 0) {
		do {
			Dwarf_Attribute attr;
			const char *name, *value;

			if (dwarf_tag(&child) != DW_TAG_LLVM_annotation)
				continue;
			name = dwarf_diename(&child);
			value = dwarf_formstring(dwarf_attr(&child, DW_AT_const_value, &attr));
			if (name && value && !strcmp(name, "btf_type_tag") && nr_tags < 16)
				tags[nr_tags++] = value;
		} while (btf_encoder__sibling(e, &child) == 0);
	}
	/* PTR -> last tag -> ... -> first tag -> pointee, as clang's own BTF has it. */
	id = btf__type_cnt(e->btf);
	err = btf_encoder__ref(e, nr_tags ? (uint32_t)id + 1 : a.type);
	err = err ?: btf_encoder__added(e, die, btf__add_ptr(e->btf, 0));
	for (i = nr_tags - 1; !err && i >= 0; i--) {
		err = btf_encoder__ref(e, i ? btf__type_cnt(e->btf) + 1 : a.type);
		id = err ?: btf__add_type_tag(e->btf, tags[i], 0);
		err = id < 0 ? id : 0;
	}
	return err;
}

/* The value of a btf_decl_tag annotation DIE, or NULL for any other DIE. */
static const char *decl_tag_value(Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	const char *name;

	if (dwarf_tag(die) != DW_TAG_LLVM_annotation)
		return NULL;
	name = dwarf_diename(die);
	if (!name || strcmp(name, "btf_decl_tag"))
		return NULL;
	return dwarf_formstring(dwarf_attr(die, DW_AT_const_value, &attr));
}

static int btf_encoder__push_decl_tag(struct btf_encoder *e, const char *value, int component)
{
	struct btf_decl_tag_ref *t;

	if (!value || !btf_encoder__has(e, BTF_FEAT_DECL_TAG))
		return 0;
	t = darray_push(&e->cu.tags);
	if (!t)
		return -ENOMEM;
	t->value = value;
	t->component = component;
	return 0;
}

/* Records the btf_decl_tag annotations among @die's children for @component. */
static int btf_encoder__collect_decl_tags(struct btf_encoder *e, Dwarf_Die *die, int component)
{
	Dwarf_Die child;
	int err = 0;

	if (!btf_encoder__has(e, BTF_FEAT_DECL_TAG) || !dwarf_haschildren(die) ||
	    btf_encoder__child(e, die, &child) != 0)
		return 0;
	do {
		err = btf_encoder__push_decl_tag(e, decl_tag_value(&child), component);
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	return err;
}

static int btf__add_decl_tags(struct btf *btf, uint32_t id, const struct btf_decl_tag_ref *tags,
			      size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		int err = btf__add_decl_tag(btf, tags[i].value, id, tags[i].component);

		if (err < 0)
			return err;
	}
	return 0;
}

/* Adds the tags recorded since @first on type @id, and forgets them. */
static int btf_encoder__add_cu_decl_tags(struct btf_encoder *e, uint32_t id, size_t first)
{
	size_t i;
	int err = 0;

	for (i = first; i < e->cu.tags.nr && !err; i++) {
		const struct btf_decl_tag_ref *t = &e->cu.tags.data[i];

		err = btf_encoder__ref(e, id) ?:
						btf__add_decl_tag(e->btf, t->value, 0, t->component);
		err = err < 0 ? err : 0;
	}
	e->cu.tags.nr = first;
	return err;
}

static int encode_modifier(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	int id;

	btf_encoder__attrs(e, die, &a);
	id = btf_encoder__ref(e, a.type);
	if (id)
		return id;
	switch (dwarf_tag(die)) {
	case DW_TAG_const_type:
		id = btf__add_const(e->btf, 0);
		break;
	case DW_TAG_volatile_type:
		id = btf__add_volatile(e->btf, 0);
		break;
	case DW_TAG_restrict_type:
		id = btf__add_restrict(e->btf, 0);
		break;
	default: {
		size_t first_tag = e->cu.tags.nr;
		int err;

		int off = btf_encoder__str(e, &a);

		/* No name: libbpf's own error, as for any typedef it refuses. */
		id = btf__add_typedef(e->btf, off > 0 ? NAME_PLACEHOLDER : a.name, 0);
		err = btf_encoder__name_type(e, id, off);
		err = err ?: btf_encoder__added(e, die, id);
		err = err ?: btf_encoder__collect_decl_tags(e, die, -1);
		return err ?: btf_encoder__add_cu_decl_tags(e, id, first_tag);
	}
	}
	return btf_encoder__added(e, die, id);
}

/* Types that BTF has no kind for stand for what they qualify, or for void. */
static int encode_transparent(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;

	btf_encoder__attrs(e, die, &a);
	return btf_encoder__map(e, die, a.type);
}

static int encode_void(struct btf_encoder *e, Dwarf_Die *die)
{
	return btf_encoder__map(e, die, 0);
}

static int64_t member_bit_offset(const struct btf_encoder *e, const struct die_attrs *m)
{
	if (m->has_data_bit_offset)
		return m->data_bit_offset;
	if (m->has_bit_offset) {
		/* DWARF 2/3 bit fields count from the storage unit's most significant bit. */
		if (e->conf->big_endian)
			return m->member_location * 8 + m->bit_offset;
		return m->member_location * 8 + m->byte_size * 8 - m->bit_offset - m->bit_size;
	}
	return m->member_location * 8;
}

/*
 * Reads @die's members into e->cu.members (from @first on) and encodes the
 * types declared among them as it meets them (see encode_struct()).
 */
static int btf_encoder__read_members(struct btf_encoder *e, Dwarf_Die *die, size_t first)
{
	bool nested = false;
	Dwarf_Die child;
	int err = 0, rc = 0;

	if (!dwarf_haschildren(die) || btf_encoder__child(e, die, &child) != 0)
		return 0;
	e->cu.depth++;
	do {
		struct pending_member *pm;
		uint32_t nr = e->cu.members.nr - first;
		struct die_attrs m;
		int tag = dwarf_tag(&child);

		if (tag == DW_TAG_LLVM_annotation) {
			err = btf_encoder__push_decl_tag(e, decl_tag_value(&child), -1);
			continue;
		}
		if (tag != DW_TAG_member) {
			nested = true;
			err = btf_encoder__encode_die(e, &child);
			continue;
		}
		btf_encoder__attrs(e, &child, &m);
		pm = darray_push(&e->cu.members);
		if (!pm) {
			err = -ENOMEM;
			break;
		}
		pm->type = m.type;
		pm->bit_off = member_bit_offset(e, &m);
		/* pahole v1.31 keeps a bit field's size in 8 bits. */
		pm->bit_size = m.has_bit_size ? (uint8_t)m.bit_size : 0;
		/*
		 * A bit field's offset has 24 bits in BTF: one past 2 MiB
		 * into its struct is out of reach, and libbpf refuses it,
		 * so pahole v1.31 does.  A C struct can have one.
		 */
		if ((pm->bit_size || pm->bit_off % 8) && pm->bit_off > 0xffffff)
			err = -BTF_REFUSED_BITFIELD_OFFSET;
		pm->name_off = err ?: btf_encoder__str(e, &m);
		if (pm->name_off < 0)
			err = pm->name_off;
		err = err ?: btf_encoder__collect_decl_tags(e, &child, nr);
	} while (!err && (rc = btf_encoder__sibling(e, &child)) == 0);
	e->cu.depth--;
	/* A walk of members alone stops at a DIE libdw cannot read; one of types checks it. */
	if (!err && rc < 0 && nested)
		err = btf_encoder__corrupt(e, &child);
	return err;
}

/*
 * A struct's types (clang nests there the anonymous struct or union of a
 * member) each come before the struct, in DIE order: pahole v1.31 numbers a
 * struct once all its children are read, a nested type when it is met.
 * libbpf's dedup of split BTF depends on the order of the types (a base's
 * FWD met by a module's STRUCT).  So the members are read in one walk that
 * encodes the nested types, and added once it is done.
 */
static int encode_struct(struct btf_encoder *e, Dwarf_Die *die)
{
	bool is_union = dwarf_tag(die) == DW_TAG_union_type;
	size_t first_tag = e->cu.tags.nr, first = e->cu.members.nr, first_ref, i;
	struct die_attrs a;
	int id, err = 0;

	btf_encoder__attrs(e, die, &a);
	/* Without a name, libbpf's own error, as pahole v1.31 meets it. */
	if (a.declaration) {
		/* Its members are no types (die_ops has no entry for them); its nested types are. */
		err = btf_encoder__encode_children(e, die);
		id = btf__add_fwd(e->btf, a.name, is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT);
		return err ?: btf_encoder__added(e, die, id);
	}
	err = btf_encoder__read_members(e, die, first);
	if (err) {
		e->cu.members.nr = first;
		return err;
	}
	id = is_union ? btf__add_union(e->btf, NULL, a.byte_size) :
			btf__add_struct(e->btf, NULL, a.byte_size);
	err = btf_encoder__name_type(e, id, btf_encoder__str(e, &a));
	err = err ?: btf_encoder__added(e, die, id);
	first_ref = e->cu.type_refs.nr;
	for (i = first; !err && i < e->cu.members.nr; i++) {
		const struct pending_member *pm = &e->cu.members.data[i];

		err = btf_encoder__add_field(e, id, i - first, pm->name_off, pm->type, pm->bit_off,
					     pm->bit_size);
	}
	btf_encoder__wrap_refs(e, first_ref);
	warn_vlen(die, e->cu.members.nr - first);
	e->cu.members.nr = first;
	/* Decl tags come after its members. */
	return err ?: btf_encoder__add_cu_decl_tags(e, id, first_tag);
}

static bool enum_is_signed(struct die_attrs *a)
{
	Dwarf_Die type;
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	int hops;

	if (!a->type || a->type == REF_BAD || !dwarf_formref_die(&a->type_attr, &type))
		return false;
	/* The underlying type may be a typedef or qualified; a cycle is no base type. */
	for (hops = 0; dwarf_tag(&type) != DW_TAG_base_type; hops++) {
		if (hops == 16 || !dwarf_attr(&type, DW_AT_type, &attr) ||
		    dwarf_whatform(&attr) == DW_FORM_ref_addr || !dwarf_formref_die(&attr, &type))
			return false;
	}
	if (!dwarf_attr(&type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

/*
 * Kernels without ENUM64 know no signed enums either: there upstream keeps
 * the low 32 bits of each value, unsigned.
 */
static int64_t enum_value32(const struct btf_encoder *e, bool is_signed, int64_t val)
{
	if (is_signed && btf_encoder__has(e, BTF_FEAT_ENUM64))
		return (int32_t)val;
	return (uint32_t)val;
}

static int encode_enum(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	Dwarf_Die child;
	bool is_signed, is64;
	uint32_t nr = 0;
	int id, err = 0;

	btf_encoder__attrs(e, die, &a);
	if (a.declaration && a.name)
		return btf_encoder__added(e, die, btf__add_fwd(e->btf, a.name, BTF_FWD_ENUM));
	/* An enum of no size is an int's, as pahole v1.31 has it. */
	if (!a.byte_size)
		a.byte_size = 4;
	/* BTF enums are 1, 2, 4 or 8 bytes; C++ has them on __int128 too. */
	if (!is_pow2(a.byte_size) || a.byte_size > 8)
		return -BTF_REFUSED_ENUM_SIZE;
	is_signed = enum_is_signed(&a);
	is64 = a.byte_size > 4 && btf_encoder__has(e, BTF_FEAT_ENUM64);
	if (is64)
		id = btf__add_enum64(e->btf, NULL, a.byte_size, is_signed);
	else
		id = btf__add_enum(e->btf, NULL, a.byte_size);
	err = btf_encoder__name_type(e, id, btf_encoder__str(e, &a));
	err = err ?: btf_encoder__added(e, die, id);
	if (err || btf_encoder__child(e, die, &child) != 0)
		goto out;
	do {
		struct die_attrs v;
		int64_t val;

		if (dwarf_tag(&child) != DW_TAG_enumerator)
			continue;
		btf_encoder__attrs(e, &child, &v);
		val = (int64_t)v.const_value;
		err = btf_encoder__add_enum_value(e, id, nr++, is64, &v,
						  is64 ? val : enum_value32(e, is_signed, val));
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	warn_vlen(die, nr);
out:
	if (!err && !is64 && is_signed && btf_encoder__has(e, BTF_FEAT_ENUM64)) {
		struct btf_type *t = btf_type__mut(e->btf, id);

		t->info |= 1u << 31; /* kind_flag: signed values */
	}
	return err;
}

/* Multi-dimensional arrays are flattened into one, as upstream pahole does. */
static int encode_array(struct btf_encoder *e, Dwarf_Die *die)
{
	uint64_t nelems = 1;
	struct die_attrs a;
	Dwarf_Die child;
	int err;

	btf_encoder__attrs(e, die, &a);
	if (btf_encoder__child(e, die, &child) == 0) {
		do {
			struct die_attrs r;

			if (dwarf_tag(&child) != DW_TAG_subrange_type)
				continue;
			btf_encoder__attrs(e, &child, &r);
			nelems *= r.has_count ? r.count : r.has_upper_bound ? r.upper_bound + 1 : 0;
		} while (btf_encoder__sibling(e, &child) == 0);
	}
	if (nelems > UINT32_MAX)
		nelems = 0;
	e->cu.indexed = true;
	/* btf_type__visit_ids() meets the element type first, then the index type. */
	err = btf_encoder__ref(e, a.type) ?: btf_encoder__ref(e, REF_INDEX);
	return err ?: btf_encoder__added(e, die, btf__add_array(e->btf, 0, 0, nelems));
}

/*
 * Types that pahole v1.31 reads into a CU's types, wherever in the CU it
 * meets them (in functions, blocks, structs, namespaces, even unreferenced),
 * then has no BTF kind for: it says "Unsupported DW_TAG_..." and "Error
 * while encoding BTF.", and writes nothing.  An imported unit (dwz) it cannot
 * read at all, and writes nothing without a word.  The file is refused as it
 * would be, rather than encoded into BTF that it never writes.  Their
 * refusal, negated, or 0 for any other tag.
 */
static int tag_refusal(int tag)
{
	switch (tag) {
	case DW_TAG_reference_type:
		return -BTF_REFUSED_REFERENCE;
	case DW_TAG_rvalue_reference_type:
		return -BTF_REFUSED_RVALUE_REFERENCE;
	case DW_TAG_ptr_to_member_type:
		return -BTF_REFUSED_PTR_TO_MEMBER;
	case DW_TAG_string_type:
		return -BTF_REFUSED_STRING;
	case DW_TAG_atomic_type:
		return -BTF_REFUSED_ATOMIC;
	case DW_TAG_interface_type:
		return -BTF_REFUSED_INTERFACE;
	case DW_TAG_imported_unit:
		return -BTF_REFUSED_IMPORTED_UNIT;
	default:
		return 0;
	}
}

static int encode_refused(struct btf_encoder *e, Dwarf_Die *die)
{
	if (e->conf->verbose)
		fprintf(stderr,
			"btf_encoder: tag %#x at DIE %#llx: refused, as pahole v1.31 does\n",
			dwarf_tag(die), (unsigned long long)dwarf_dieoffset(die));
	return tag_refusal(dwarf_tag(die));
}

static int encode_subroutine_type(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	Dwarf_Die child;
	size_t first_ref;
	int err;

	btf_encoder__attrs(e, die, &a);
	err = btf_encoder__ref(e, a.type);
	err = err ?: btf_encoder__added(e, die, btf__add_func_proto(e->btf, 0));
	if (err || btf_encoder__child(e, die, &child) != 0)
		return err;
	first_ref = e->cu.type_refs.nr;
	do {
		struct die_attrs p;

		switch (dwarf_tag(&child)) {
		case DW_TAG_formal_parameter:
			btf_encoder__attrs(e, &child, &p);
			err = btf_encoder__ref(e, p.type) ?: btf__add_func_param(e->btf, NULL, 0);
			break;
		case DW_TAG_unspecified_parameters:
			err = btf_encoder__ref(e, 0) ?: btf__add_func_param(e->btf, NULL, 0);
			break;
		default:
			/* pahole v1.31 takes any other child for a type of the CU. */
			if (tag_refusal(dwarf_tag(&child)))
				err = encode_refused(e, &child);
			break;
		}
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	btf_encoder__wrap_refs(e, first_ref);
	return err;
}

/* ---- functions: collecting prototypes and where their arguments are ---- */

/* Fills what a concrete DIE leaves to its abstract origin or declaration. */
static void die_attrs__inherit(struct die_attrs *a, bool origin_type)
{
	Dwarf_Attribute origin = a->origin_attr;
	int hops;

	for (hops = 0; a->has_origin && !a->name && hops < 8; hops++) {
		struct die_attrs o;
		Dwarf_Die odie;

		/* Another CU belongs to another worker: not followed. */
		if (dwarf_whatform(&origin) == DW_FORM_ref_addr ||
		    !dwarf_formref_die(&origin, &odie))
			return;
		die_attrs__read(&odie, &o);
		a->name = o.name;
		/* A variable takes its declaration's type, as upstream does. */
		if (!a->type || (origin_type && o.type))
			a->type = o.type;
		a->external |= o.external;
		a->has_origin = o.has_origin;
		origin = o.origin_attr;
	}
}

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
			err = btf_encoder__collect_decl_tags(e, &child,
							     e->cu.params.nr - 1 - f->first_param);
			break;
		case DW_TAG_unspecified_parameters:
			f->varargs = true;
			break;
		default:
			err = btf_encoder__push_decl_tag(e, decl_tag_value(&child), -1);
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
	e->cu.tags.nr = f->first_tag;
	e->cu.funcs.nr--;
	return 0;
}

static int btf_encoder__collect_func(struct btf_encoder *e, Dwarf_Die *die)
{
	struct elf_functions_entry *entry;
	uint32_t origin = 0;
	struct die_attrs a;
	struct cu_func *f;

	btf_encoder__attrs(e, die, &a);
	if (a.declaration)
		return 0;
	if (a.has_origin && dwarf_whatattr(&a.origin_attr) == DW_AT_abstract_origin)
		origin = die_ref(&a.origin_attr);
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
	f->die_off = dwarf_cuoffset(die);
	if ((origin & REF_DIE) && origin != REF_BAD)
		f->origin_off = origin & REF_OFF_MASK;
	f->ret_type = a.type;
	return btf_encoder__collect_params(e, die, f) ?: btf_encoder__drop_unnamed(e);
}

/* ---- variables ---- */

/* The address in a DW_OP_addr or DW_OP_addrx location, or -1. */
static int variable_addr(struct btf_encoder *e, Dwarf_Attribute *attr, uint64_t *addr)
{
	Dwarf_Attribute addr_attr;
	Dwarf_Addr a;
	Dwarf_Op *expr;
	size_t len;
	int err = -1;

	pthread_mutex_lock(e->conf->libdw_lock);
	if (dwarf_getlocation(attr, &expr, &len) == 0 && len == 1) {
		if (expr->atom == DW_OP_addr) {
			*addr = expr->number;
			err = 0;
		} else if ((expr->atom == DW_OP_addrx || expr->atom == DW_OP_GNU_addr_index) &&
			   dwarf_getlocation_attr(attr, expr, &addr_attr) == 0 &&
			   dwarf_formaddr(&addr_attr, &a) == 0) {
			*addr = a;
			err = 0;
		}
	}
	pthread_mutex_unlock(e->conf->libdw_lock);
	return err;
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
static int btf_encoder__own_tags(struct btf_encoder *e, struct btf_decl_tag_ref **dst, size_t first,
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

static int btf_encoder__save_var_tags(struct btf_encoder *e, Dwarf_Die *die,
				      struct btf_var_state *v)
{
	size_t first = e->cu.tags.nr;
	int err = btf_encoder__collect_decl_tags(e, die, -1);

	v->tags = NULL;
	v->nr_tags = e->cu.tags.nr - first;
	err = err ?: btf_encoder__own_tags(e, &v->tags, first, v->nr_tags);
	e->cu.tags.nr = first;
	return err;
}

static int encode_variable(struct btf_encoder *e, Dwarf_Die *die)
{
	struct btf_var_state *v;
	struct die_attrs a;
	uint64_t addr;

	if (e->cu.depth != 1 || !btf_encoder__has_vars(e))
		return 0;
	btf_encoder__attrs(e, die, &a);
	if (a.declaration || !a.has_location || variable_addr(e, &a.location_attr, &addr))
		return 0;
	die_attrs__inherit(&a, true);
	if (!a.name)
		return 0;
	v = darray_push(&e->vars);
	if (!v)
		return -ENOMEM;
	v->chunk = e->chunk;
	v->name = arena__strdup(&e->arena, a.name);
	if (!v->name)
		return -ENOMEM;
	v->type = a.type;
	v->addr = addr;
	v->cu_index = e->cu.index;
	v->external = a.external;
	return btf_encoder__save_var_tags(e, die, v);
}

/*
 * Functions are collected wherever they are, as pahole v1.31 collects them:
 * at the CU's level, nested in another (GNU C), in a namespace or a class.
 */
static int encode_subprogram(struct btf_encoder *e, Dwarf_Die *die)
{
	int err = 0;

	if (e->conf->functions)
		err = btf_encoder__collect_func(e, die);
	return err ?: btf_encoder__encode_children(e, die);
}

static int encode_scope(struct btf_encoder *e, Dwarf_Die *die)
{
	return btf_encoder__encode_children(e, die);
}

static int encode_unsupported(struct btf_encoder *e, Dwarf_Die *die)
{
	if (e->conf->verbose)
		fprintf(stderr, "btf_encoder: %s tag %#x at DIE %#llx has no BTF kind: void\n",
			dwarf_diename(die) ?: "(anonymous)", dwarf_tag(die),
			(unsigned long long)dwarf_dieoffset(die));
	return encode_void(e, die);
}

#define DIE_OPS_NR 0x4c

static const struct die_ops die_ops[DIE_OPS_NR] = {
	[DW_TAG_base_type] = { encode_base_type },
	[DW_TAG_pointer_type] = { encode_pointer },
	[DW_TAG_reference_type] = { encode_refused },
	[DW_TAG_rvalue_reference_type] = { encode_refused },
	[DW_TAG_const_type] = { encode_modifier },
	[DW_TAG_volatile_type] = { encode_modifier },
	[DW_TAG_restrict_type] = { encode_modifier },
	[DW_TAG_typedef] = { encode_modifier },
	[DW_TAG_atomic_type] = { encode_refused },
	[DW_TAG_immutable_type] = { encode_transparent },
	[DW_TAG_unspecified_type] = { encode_void },
	[DW_TAG_structure_type] = { encode_struct },
	[DW_TAG_class_type] = { encode_struct },
	[DW_TAG_union_type] = { encode_struct },
	[DW_TAG_enumeration_type] = { encode_enum },
	[DW_TAG_array_type] = { encode_array },
	[DW_TAG_subroutine_type] = { encode_subroutine_type },
	[DW_TAG_subprogram] = { encode_subprogram },
	[DW_TAG_variable] = { encode_variable },
	[DW_TAG_lexical_block] = { encode_scope },
	[DW_TAG_namespace] = { encode_scope },
	[DW_TAG_ptr_to_member_type] = { encode_refused },
	[DW_TAG_string_type] = { encode_refused },
	[DW_TAG_interface_type] = { encode_refused },
	[DW_TAG_imported_unit] = { encode_refused },
	[DW_TAG_set_type] = { encode_unsupported },
	[DW_TAG_subrange_type] = { encode_unsupported },
	[DW_TAG_file_type] = { encode_unsupported },
	[DW_TAG_packed_type] = { encode_transparent },
	[DW_TAG_shared_type] = { encode_transparent },
	[DW_TAG_coarray_type] = { encode_unsupported },
	[DW_TAG_generic_subrange] = { encode_unsupported },
	[DW_TAG_dynamic_type] = { encode_unsupported },
};

static int btf_encoder__encode_die(struct btf_encoder *e, Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	if (tag < 0 || tag >= DIE_OPS_NR || !die_ops[tag].encode)
		return 0;
	return die_ops[tag].encode(e, die);
}

static int btf_encoder__encode_children(struct btf_encoder *e, Dwarf_Die *parent)
{
	Dwarf_Die child;
	int err = 0;

	int rc = btf_encoder__child(e, parent, &child);

	if (rc != 0)
		return rc < 0 ? btf_encoder__corrupt(e, parent) : 0;
	e->cu.depth++;
	do {
		err = btf_encoder__encode_die(e, &child);
	} while (!err && (rc = btf_encoder__sibling(e, &child)) == 0);
	e->cu.depth--;
	/* libdw could not read the next DIE (an unknown abbreviation, say). */
	if (!err && rc < 0)
		err = btf_encoder__corrupt(e, &child);
	return err;
}

/* ---- resolving a CU's DIE references ---- */

static int btf_encoder__index_type(struct btf_encoder *e)
{
	int id;

	if (e->cu.int_ref)
		return 0;
	/* A CU without "int" still indexes its arrays with one. */
	id = btf__add_int(e->btf, "int", 4, BTF_INT_SIGNED);
	if (id < 0)
		return id;
	e->cu.int_ref = id;
	return 0;
}

static bool is_type_tag(int tag)
{
	switch (tag) {
	case DW_TAG_array_type:
	case DW_TAG_class_type:
	case DW_TAG_enumeration_type:
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_string_type:
	case DW_TAG_structure_type:
	case DW_TAG_subroutine_type:
	case DW_TAG_typedef:
	case DW_TAG_union_type:
	case DW_TAG_ptr_to_member_type:
	case DW_TAG_set_type:
	case DW_TAG_subrange_type:
	case DW_TAG_base_type:
	case DW_TAG_const_type:
	case DW_TAG_file_type:
	case DW_TAG_packed_type:
	case DW_TAG_volatile_type:
	case DW_TAG_restrict_type:
	case DW_TAG_interface_type:
	case DW_TAG_unspecified_type:
	case DW_TAG_shared_type:
	case DW_TAG_rvalue_reference_type:
	case DW_TAG_coarray_type:
	case DW_TAG_generic_subrange:
	case DW_TAG_dynamic_type:
	case DW_TAG_atomic_type:
	case DW_TAG_immutable_type:
		return true;
	default:
		return false;
	}
}

/*
 * A reference to DIE offset @off that stands for no type encoded: void when
 * it is a type DIE the walk did not meet (or a cycle of qualifiers), corrupt
 * DWARF when it is no DIE of the CU, or not a type.
 */
static void btf_encoder__check_dangling(struct btf_encoder *e, uint32_t off)
{
	Dwarf_Off cu_start = dwarf_dieoffset(&e->cu.die) - dwarf_cuoffset(&e->cu.die);
	Dwarf_Die target;

	if (!dwarf_offdie(dwarf_cu_getdwarf(e->cu.die.cu), cu_start + off, &target) ||
	    dwarf_cuoffset(&target) != off || !is_type_tag(dwarf_tag(&target))) {
		btf_encoder__corrupt(e, &e->cu.die);
		e->cu.bad_off = cu_start + off;
		return;
	}
	if (e->conf->verbose)
		fprintf(stderr, "btf_encoder: DIE %#x references no type: void\n", off);
}

static uint32_t btf_encoder__resolve_ref(struct btf_encoder *e, uint32_t ref)
{
	int hops;

	for (hops = 0; ref & REF_DIE; hops++) {
		uint32_t off = ref & REF_OFF_MASK;

		if (ref == REF_INDEX) {
			ref = e->cu.int_ref;
			continue;
		}
		if (!btf_encoder__lookup(e, off, &ref) || hops > 64) {
			btf_encoder__check_dangling(e, off);
			return 0;
		}
	}
	return ref;
}

/* Sets the next type-ID field to what btf_encoder__ref() noted for it. */
static int resolve_id(uint32_t *id, void *ctx)
{
	struct btf_encoder *e = ctx;

	if (e->cu.next_ref == e->cu.type_refs.nr)
		return -EPROTO;
	*id = btf_encoder__resolve_ref(e, e->cu.type_refs.data[e->cu.next_ref++]);
	return 0;
}

static int btf_encoder__resolve_cu(struct btf_encoder *e)
{
	uint32_t id, end;
	int err = 0;

	/* It comes after the CU's types, whichever array needs it first. */
	if (e->cu.indexed)
		err = btf_encoder__index_type(e);
	end = btf__type_cnt(e->btf);
	for (id = e->cu.first_id; id < end && !err; id++)
		err = btf_type__visit_ids(btf_type__mut(e->btf, id), resolve_id, e);
	/* As many fields as references noted, or the walk has a bug of ours. */
	if (!err && e->cu.next_ref != e->cu.type_refs.nr)
		err = -EPROTO;
	if (err == -EPROTO)
		fprintf(stderr, "pahole: internal error: the type references of a CU do not match "
				"the fields of its types\n");
	return err;
}

/* ---- merging the sightings of a function ---- */

static bool names_match(const struct btf *b1, const struct btf_type *t1, const struct btf *b2,
			const struct btf_type *t2)
{
	return !strcmp(btf__name_by_offset(b1, t1->name_off),
		       btf__name_by_offset(b2, t2->name_off));
}

/* A FWD's kind is that of what it declares, as pahole v1.31 compares them. */
static int fwd_kind(const struct btf_type *t)
{
	if (btf_is_fwd(t))
		return btf_kflag(t) ? BTF_KIND_UNION : BTF_KIND_STRUCT;
	return btf_kind(t);
}

/*
 * Whether two types, each in its own BTF, are the same for the purpose of
 * comparing prototypes, by pahole v1.31's types__match(): a CONST where the
 * other has none is looked through; named types (a FWD as what it declares)
 * match by kind and name, integers and floats by size (and encoding) too;
 * pointers, qualifiers and arrays by what they point to.  Of a function
 * prototype v1.31 compares the count of parameters and the return type only
 * (its loop over the parameters compares the return types again), and so do
 * we.  The relation is equality of the types with their CONSTs taken out and
 * FWDs taken for their kind, so an equivalence: which sighting is compared
 * with which does not change the verdict.
 */
static bool types_match_depth(const struct btf *b1, uint32_t id1, const struct btf *b2,
			      uint32_t id2, int depth)
{
	/* Corrupt input can make prototypes refer to themselves: a bounded walk. */
	for (; depth < 32; depth++) {
		const struct btf_type *t1, *t2;
		int k1, k2;

		if (!id1 || !id2)
			return id1 == id2;
		t1 = btf__type_by_id(b1, id1);
		t2 = btf__type_by_id(b2, id2);
		if (!t1 || !t2)
			return false;
		k1 = fwd_kind(t1);
		k2 = fwd_kind(t2);
		if (k1 != k2) {
			if (k1 == BTF_KIND_CONST) {
				id1 = t1->type;
				continue;
			}
			if (k2 == BTF_KIND_CONST) {
				id2 = t2->type;
				continue;
			}
			return false;
		}
		switch (k1) {
		case BTF_KIND_INT:
			if (t1->size != t2->size || btf_int_encoding(t1) != btf_int_encoding(t2) ||
			    btf_int_offset(t1) != btf_int_offset(t2) ||
			    btf_int_bits(t1) != btf_int_bits(t2))
				return false;
			return names_match(b1, t1, b2, t2);
		case BTF_KIND_FLOAT:
			return t1->size == t2->size && names_match(b1, t1, b2, t2);
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return names_match(b1, t1, b2, t2);
		case BTF_KIND_PTR:
		case BTF_KIND_CONST:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_RESTRICT:
		case BTF_KIND_TYPE_TAG:
			id1 = t1->type;
			id2 = t2->type;
			continue;
		case BTF_KIND_ARRAY:
			if (btf_array(t1)->nelems != btf_array(t2)->nelems)
				return false;
			id1 = btf_array(t1)->type;
			id2 = btf_array(t2)->type;
			continue;
		case BTF_KIND_FUNC_PROTO:
			if (btf_vlen(t1) != btf_vlen(t2))
				return false;
			id1 = t1->type;
			id2 = t2->type;
			continue;
		default:
			return false;
		}
	}
	return false;
}

static bool types_match(const struct btf *b1, uint32_t id1, const struct btf *b2, uint32_t id2)
{
	return types_match_depth(b1, id1, b2, id2, 0);
}

/* Where type @id of @c's BTF is in the merged BTF (base types stay where they are). */
static uint32_t btf_chunk__merged_id(const struct btf_chunk *c, uint32_t id)
{
	return id < c->first_id ? id : id - c->first_id + c->merged_id;
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
			       struct func_mismatch *mm)
{
	uint32_t i;

	*mm = (struct func_mismatch){ .pos = FUNC_POS_NONE,
				      .nr_params = s2->nr_params + s2->varargs };
	if (s1->nr_params + s1->varargs != s2->nr_params + s2->varargs) {
		mm->kind = FUNC_MISMATCH_COUNT;
		return true;
	}
	if (!types_match(b1, state_id(s1->chunk, merged, s1->ret_type), b2,
			 state_id(s2->chunk, merged, s2->ret_type))) {
		mm->kind = FUNC_MISMATCH_RETURN;
		return true;
	}
	for (i = 0; i < s1->nr_params; i++) {
		if (!types_match(b1, state_id(s1->chunk, merged, s1->params[i].type), b2,
				 state_id(s2->chunk, merged, s2->params[i].type))) {
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
		if (func_states_differ(state->chunk->btf, state, e->btf, &cur, false, &mm)) {
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
static struct cu_func *btf_encoder__cu_func_at(struct btf_encoder *e, uint32_t off)
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

static int btf_encoder__save_cu_funcs(struct btf_encoder *e)
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
	for (i = 0; i < e->cu.funcs.nr; i++) {
		struct elf_function *node = elf_functions__claim(e->cu.funcs.data[i].entry, e);
		int err;

		if (!node)
			return -ENOMEM;
		err = btf_encoder__save_func(e, node, &e->cu.funcs.data[i], i);
		if (err)
			return err;
	}
	return 0;
}

int btf_encoder__encode_cu(struct btf_encoder *e, Dwarf_Die *cu_die, uint32_t cu_index)
{
	size_t i;
	int err;

	btf_encoder__clear_map(e);
	e->cu.funcs.nr = 0;
	e->cu.params.nr = 0;
	e->cu.locs.nr = 0;
	e->cu.tags.nr = 0;
	e->cu.members.nr = 0;
	e->cu.type_refs.nr = 0;
	e->cu.next_ref = 0;
	e->cu.indexed = false;
	e->cu.first_var = e->vars.nr;
	e->cu.index = cu_index;
	e->cu.depth = 0;
	e->cu.int_ref = 0;
	e->cu.err = 0;
	e->cu.die = *cu_die;
	die_reader__begin_cu(&e->cu.reader, cu_die, e->conf->big_endian, wanted_attrs);
	e->cu.first_id = btf__type_cnt(e->btf);
	err = btf_encoder__encode_children(e, cu_die);
	err = err ?: btf_encoder__resolve_cu(e);
	err = err ?: btf_encoder__save_cu_funcs(e);
	for (i = e->cu.first_var; !err && i < e->vars.nr; i++)
		e->vars.data[i].type = btf_encoder__resolve_ref(e, e->vars.data[i].type);
	return err ?: e->cu.err;
}

int btf_encoder__begin_chunk(struct btf_encoder *e, uint32_t index)
{
	struct btf_chunk *c = calloc(1, sizeof(*c)), **slot = c ? darray_push(&e->chunks) : NULL;

	if (!slot) {
		free(c);
		return -ENOMEM;
	}
	*slot = c;
	c->index = index;
	/*
	 * Standalone even for split BTF: libbpf looks every string up in the
	 * base first, writing into the base's buffers as it does, so workers
	 * may not share one base.  The chunks meet it in the merge.
	 */
	c->btf = btf__new_empty();
	if (!c->btf)
		return -ENOMEM;
	/* Else libbpf guesses from a "long" the chunk may lack, or takes the host's. */
	btf__set_pointer_size(c->btf, e->conf->ptr_size);
	c->first_id = btf__type_cnt(c->btf);
	e->chunk = c;
	e->btf = c->btf;
	e->chunk_states.nr = 0;
	e->chunk_first_var = e->vars.nr;
	ptr_map__clear(&e->strs);
	return 0;
}

/*
 * Calls @fn on each type-ID field of the current chunk that lives outside
 * its BTF: the functions' prototypes and the variables' types.
 */
static int btf_encoder__visit_chunk_refs(struct btf_encoder *e, int (*fn)(uint32_t *, void *),
					 void *ctx)
{
	size_t i;
	uint32_t j;
	int err = 0;

	for (i = 0; i < e->chunk_states.nr && !err; i++) {
		struct btf_func_state *s = e->chunk_states.data[i];

		err = fn(&s->ret_type, ctx);
		for (j = 0; j < s->nr_params && !err; j++)
			err = fn(&s->params[j].type, ctx);
	}
	for (i = e->chunk_first_var; i < e->vars.nr && !err; i++)
		err = fn(&e->vars.data[i].type, ctx);
	return err;
}

/* Appends *@id to the encoder's list of IDs to carry through the chunk's dedup. */
static int carried__push(uint32_t *id, void *ctx)
{
	struct btf_encoder *e = ctx;
	uint32_t *slot = darray_push(&e->carried);

	if (!slot)
		return -ENOMEM;
	*slot = *id;
	return 0;
}

/* Takes back the next carried ID, in the order carried__push() listed them. */
static int carried__pop(uint32_t *id, void *ctx)
{
	struct btf_encoder *e = ctx;

	*id = e->carried.data[e->carried_next++];
	return 0;
}

/*
 * Replaces the chunk's BTF by a read-only copy of its raw bytes: after
 * dedup, libbpf keeps the buffers sized for the types before it and the
 * string hash, several times the bytes that remain, for every chunk until
 * the merge.  The copy also knows where its strings end.
 */
static int btf_chunk__compact(struct btf_chunk *c)
{
	const struct btf_header *hdr;
	struct btf *copy;
	const void *raw;
	__u32 size;

	raw = btf__raw_data(c->btf, &size);
	if (!raw)
		return -ENOMEM;
	copy = btf__new(raw, size);
	if (!copy)
		return -errno;
	hdr = raw;
	c->strs_len = hdr->str_len;
	btf__free(c->btf);
	c->btf = copy;
	return 0;
}

/* A declaration: a FWD, or an enum without values (libbpf's enum FWD). */
static bool btf_type__is_decl(const struct btf_type *t)
{
	return t->name_off && (btf_is_fwd(t) || (btf_is_any_enum(t) && !btf_vlen(t)));
}

static int str_ptr__cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The names of the declarations of @btf from type @first on, sorted and
 * unique, in *@names (to free): pointers into @btf's strings.
 */
static int btf__decl_names(const struct btf *btf, uint32_t first, const char ***names, size_t *nr)
{
	uint32_t id, end = btf__type_cnt(btf);
	const char **v = NULL;
	size_t n = 0, cap = 0, i, j;

	for (id = first; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!btf_type__is_decl(t))
			continue;
		if (n == cap) {
			const char **p = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof(*v));

			if (!p) {
				free(v);
				return -ENOMEM;
			}
			v = p;
		}
		v[n++] = btf__name_by_offset(btf, t->name_off);
	}
	if (n)
		qsort(v, n, sizeof(*v), str_ptr__cmp);
	for (i = j = 0; i < n; i++)
		if (!j || strcmp(v[i], v[j - 1]))
			v[j++] = v[i];
	*names = v;
	*nr = j;
	return 0;
}

/*
 * Deduplicates the chunk's BTF, noting the names of the declarations that
 * the dedup resolved (see btf_encoders__merge()): those that it had before
 * and has no more.
 */
static int btf_encoder__dedup_chunk(struct btf_encoder *e, struct btf *btf, uint32_t first,
				    uint32_t *nr_types)
{
	const char **before = NULL, **after = NULL;
	size_t nr_before = 0, nr_after = 0, i;
	struct arena copies = {};
	int err;

	err = btf__decl_names(btf, first, &before, &nr_before);
	/* The dedup rewrites the strings. */
	for (i = 0; i < nr_before && !err; i++)
		if (!(before[i] = arena__strdup(&copies, before[i])))
			err = -ENOMEM;
	/*
	 * libbpf's own dedup: a chunk's identical pointers are merged by it,
	 * and whatever they kept apart meets again in the final dedup, which
	 * takes v1.31's pointer rule (btf_dedup.h).
	 */
	err = err ?: btf_dedup__carry(btf, e->carried.data, e->carried.nr, nr_types);
	if (err == -EPROTO)
		fprintf(stderr,
			"pahole: internal error: libbpf's dedup did not keep the carriers of "
			"type IDs last\n");
	err = err ?: btf__decl_names(btf, first, &after, &nr_after);
	for (i = 0; i < nr_before && !err; i++) {
		const char **slot;

		if (nr_after && bsearch(&before[i], after, nr_after, sizeof(*after), str_ptr__cmp))
			continue;
		slot = darray_push(&e->resolved_decls);
		if (!slot || !(*slot = arena__strdup(&e->arena, before[i])))
			err = -ENOMEM;
	}
	free(before);
	free(after);
	arena__free(&copies);
	return err;
}

/*
 * Deduplicates the chunk's types (btf_encoder__dedup_chunk()), carrying the
 * IDs that its function states and variables hold through the dedup.
 */
static int btf_encoder__dedup_carried(struct btf_encoder *e, struct btf_chunk *c)
{
	int err;

	e->carried.nr = 0;
	e->carried_next = 0;
	err = btf_encoder__visit_chunk_refs(e, carried__push, e);
	err = err ?: btf_encoder__dedup_chunk(e, c->btf, c->first_id, &c->nr_types);
	return err ?: btf_encoder__visit_chunk_refs(e, carried__pop, e);
}

int btf_encoder__end_chunk(struct btf_encoder *e)
{
	struct btf_chunk *c = e->chunk;
	int err = 0;

	/*
	 * Split BTF is deduplicated once, against its base, as upstream does:
	 * a second pass can merge more than the first, and modules are small.
	 * So is all BTF when chunks must not be deduplicated on their own.
	 */
	if (e->conf->base_btf || e->conf->whole_dedup)
		c->nr_types = btf__type_cnt(c->btf) - c->first_id;
	else
		err = btf_encoder__dedup_carried(e, c);
	if (!e->conf->base_btf)
		err = err ?: btf_chunk__compact(c);
	e->chunk = NULL;
	e->btf = NULL;
	return err;
}

struct btf_encoder *btf_encoder__new(const struct btf_encoder_conf *conf)
{
	struct btf_encoder *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->conf = conf;
	return e;
}

void btf_encoder__delete(struct btf_encoder *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->chunks.nr; i++) {
		btf__free(e->chunks.data[i]->btf);
		free(e->chunks.data[i]);
	}
	darray_free(&e->chunks);
	darray_free(&e->chunk_states);
	darray_free(&e->carried);
	darray_free(&e->vars);
	darray_free(&e->resolved_decls);
	arena__free(&e->arena);
	die_reader__free(&e->cu.reader);
	ptr_map__free(&e->strs);
	darray_free(&e->cu.refs);
	free(e->cu.map);
	darray_free(&e->cu.funcs);
	darray_free(&e->cu.params);
	darray_free(&e->cu.locs);
	darray_free(&e->cu.tags);
	darray_free(&e->cu.members);
	darray_free(&e->cu.type_refs);
	free(e);
}

/* ---- merging the chunks of all encoders in order ---- */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int chunk_ptr__cmp(const void *a, const void *b)
{
	const struct btf_chunk *x = *(struct btf_chunk **)a, *y = *(struct btf_chunk **)b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* All the chunks of all encoders, in order; NULL on ENOMEM. */
static struct btf_chunk **btf_encoders__chunks(struct btf_encoder **encoders, unsigned int nr,
					       size_t *nr_chunks)
{
	struct btf_chunk **chunks;
	size_t n = 0, i, j;

	for (i = 0; i < nr; i++)
		n += encoders[i]->chunks.nr;
	chunks = calloc(n ?: 1, sizeof(*chunks));
	if (!chunks)
		return NULL;
	for (i = 0, n = 0; i < nr; i++)
		for (j = 0; j < encoders[i]->chunks.nr; j++)
			chunks[n++] = encoders[i]->chunks.data[j];
	qsort(chunks, n, sizeof(*chunks), chunk_ptr__cmp);
	*nr_chunks = n;
	return chunks;
}

static int remap_to_merged(uint32_t *id, void *ctx)
{
	const struct btf_chunk *c = ctx;

	if (*id >= c->first_id + c->nr_types)
		return -EINVAL;
	*id = btf_chunk__merged_id(c, *id);
	return 0;
}

/* Split BTF (modules): few types, added one by one on the base. */
static int btf__append_chunks(struct btf *btf, struct btf_chunk **chunks, size_t n)
{
	size_t i;
	uint32_t id;

	for (i = 0; i < n; i++) {
		struct btf_chunk *c = chunks[i];

		c->merged_id = btf__type_cnt(btf);
		for (id = c->first_id; id < c->first_id + c->nr_types; id++) {
			int new_id = btf__add_type(btf, c->btf, btf__type_by_id(c->btf, id));
			int err;

			if (new_id < 0)
				return new_id;
			err = btf_type__visit_ids(btf_type__mut(btf, new_id), remap_to_merged, c);
			if (err)
				return err;
		}
	}
	return 0;
}

/* The bytes of the types of chunk @c. */
static const char *btf_chunk__bytes(const struct btf_chunk *c, size_t *len)
{
	const char *start, *end;

	*len = 0;
	if (!c->nr_types)
		return NULL;
	start = (const char *)btf__type_by_id(c->btf, c->first_id);
	end = (const char *)btf__type_by_id(c->btf, c->first_id + c->nr_types - 1);
	end += btf_type__size((const struct btf_type *)end);
	*len = end - start;
	return start;
}

/*
 * Concatenates the chunks into raw BTF: the types are copied as bytes with
 * their IDs and string offsets moved, the string tables follow one another
 * (dedup merges equal strings), and each chunk's BTF is freed once copied.
 */
static struct btf *btf__concat_chunks(struct btf_chunk **chunks, size_t n, int *errp)
{
	size_t types_len = 0, strs_len = 0, i, len;
	uint32_t next_id = 1, strs_base = 0;
	struct btf_header *hdr;
	struct btf *btf = NULL;
	char *buf = NULL, *p, *s;
	int err = -ENOMEM;

	for (i = 0; i < n; i++) {
		strs_len += chunks[i]->strs_len;
		btf_chunk__bytes(chunks[i], &len);
		types_len += len;
	}
	buf = malloc(sizeof(*hdr) + types_len + strs_len);
	if (!buf)
		goto out;
	hdr = (struct btf_header *)buf;
	*hdr = (struct btf_header){ .magic = BTF_MAGIC,
				    .version = BTF_VERSION,
				    .hdr_len = sizeof(*hdr),
				    .type_len = types_len,
				    .str_off = types_len,
				    .str_len = strs_len };
	p = buf + sizeof(*hdr);
	s = p + types_len;
	for (i = 0; i < n; i++) {
		struct btf_chunk *c = chunks[i];
		const char *src = btf_chunk__bytes(c, &len);
		char *t = p;

		if (len)
			memcpy(p, src, len);
		p += len;
		c->merged_id = next_id;
		next_id += c->nr_types;
		for (; t < p; t += btf_type__size((struct btf_type *)t)) {
			btf_type__shift_strs((struct btf_type *)t, strs_base);
			err = btf_type__visit_ids((struct btf_type *)t, remap_to_merged, c);
			if (err)
				goto out;
		}
		memcpy(s + strs_base, btf__str_by_offset(c->btf, 0), c->strs_len);
		strs_base += c->strs_len;
		/* Everything from here on works on the merged BTF. */
		btf__free(c->btf);
		c->btf = NULL;
	}
	btf = btf__new(buf, sizeof(*hdr) + types_len + strs_len);
	err = btf ? 0 : -errno;
out:
	free(buf);
	*errp = err;
	return err ? NULL : btf;
}

/* ---- adding the functions, once every encoder is done ---- */

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
		if (func_states_differ(btf, &best->state, btf, &f->state, true, &mm)) {
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

/* kfuncs whose pointer (the return value: -1, or an argument) is into a BPF arena. */
static const struct {
	const char *name;
	int arg;
} arena_kfuncs[] = {
	{ "bpf_arena_alloc_pages", -1 },
	{ "bpf_arena_free_pages", 1 },
};

/*
 * With the attributes feature, an arena pointer becomes a pointer to a
 * TYPE_TAG "address_space(1)" with kind_flag set: an attribute, not a tag.
 */
static int btf__arena_ptr(struct btf *btf, const struct btf_encoder_conf *conf,
			  const struct elf_functions_entry *entry, int arg, uint32_t *id)
{
	const struct btf_type *t = btf__type_by_id(btf, *id);
	struct btf_type *tag;
	size_t i;
	int tag_id;

	if (!entry->kfunc || !btf_encoder_conf__has(conf, BTF_FEAT_ATTRIBUTES) || !t ||
	    !btf_is_ptr(t))
		return 0;
	for (i = 0; i < sizeof(arena_kfuncs) / sizeof(arena_kfuncs[0]); i++)
		if (arena_kfuncs[i].arg == arg && !strcmp(arena_kfuncs[i].name, entry->name))
			break;
	if (i == sizeof(arena_kfuncs) / sizeof(arena_kfuncs[0]))
		return 0;
	tag_id = btf__add_type_tag(btf, "address_space(1)", t->type);
	if (tag_id < 0)
		return tag_id;
	tag = btf_type__mut(btf, tag_id);
	tag->info |= 1u << 31;
	tag_id = btf__add_ptr(btf, tag_id);
	if (tag_id < 0)
		return tag_id;
	*id = tag_id;
	return 0;
}

static int btf__add_func_state(struct btf *btf, const struct btf_encoder_conf *conf,
			       const struct elf_functions_entry *entry,
			       const struct btf_func_state *s)
{
	uint32_t ret = btf_chunk__merged_id(s->chunk, s->ret_type), i, *params;
	int proto, func, err;

	params = calloc(s->nr_params ?: 1, sizeof(*params));
	if (!params)
		return -ENOMEM;
	err = btf__arena_ptr(btf, conf, entry, -1, &ret);
	for (i = 0; i < s->nr_params && !err; i++) {
		params[i] = btf_chunk__merged_id(s->chunk, s->params[i].type);
		err = btf__arena_ptr(btf, conf, entry, i, &params[i]);
	}
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
	func = btf__add_func(btf, entry->name, BTF_FUNC_STATIC, proto);
	if (func < 0)
		return func;
	if (entry->kfunc && (err = btf__add_decl_tag(btf, "bpf_kfunc", func, -1)) < 0)
		return err;
	if (entry->fastcall && (err = btf__add_decl_tag(btf, "bpf_fastcall", func, -1)) < 0)
		return err;
	return btf__add_decl_tags(btf, func, s->tags, s->nr_tags);
}

static int btf_encoders__add_saved_funcs(const struct btf_encoder_conf *conf, struct btf *btf)
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
		if (conf->verbose)
			func_state__log_v131(entry->name, &merged);
		reason = func_skip_reason(conf, entry, &merged);
		if (reason) {
			if (conf->verbose)
				fprintf(stderr, "skipping function %s: %s\n", entry->name, reason);
			continue;
		}
		err = btf__add_func_state(btf, conf, entry, &merged);
		if (err)
			return err;
	}
	return 0;
}

/* ---- adding the variables, grouped in a DATASEC per ELF section ---- */

struct var_ref {
	const struct btf_var_state *var;
	const struct elf_section *sec;
	uint32_t type; /* in the merged BTF */
	uint32_t size;
};

static int var_ref__cmp(const void *a, const void *b)
{
	const struct var_ref *x = a, *y = b;

	if (x->sec->index != y->sec->index)
		return x->sec->index < y->sec->index ? -1 : 1;
	if (x->var->addr != y->var->addr)
		return x->var->addr < y->var->addr ? -1 : 1;
	if (x->var->cu_index != y->var->cu_index)
		return x->var->cu_index < y->var->cu_index ? -1 : 1;
	return strcmp(x->var->name, y->var->name);
}

/* Compiler- and macro-made objects that are not variables anyone looks up. */
static bool variable_name_skipped(const char *name)
{
	static const char *const prefixes[] = { "__UNIQUE_ID", "__tpstrtab_", "__exitcall_",
						"__func_stack_frame_non_standard_" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * Whether pahole v1.31 takes @name for a variable's: letters, digits, '_'
 * and '.', not a digit first, 128 characters at most (its KSYM_NAME_LEN).
 * It refuses the file for another, or with encode_force leaves that
 * variable out.
 */
static bool variable_name_valid(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (i == 128 || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
				  c == '.' || (i && c >= '0' && c <= '9')))
			return false;
	}
	return i > 0;
}

static bool section_has_vars(const struct btf_encoder_conf *conf, const struct elf_section *sec)
{
	if (sec->type != SHT_PROGBITS && sec->type != SHT_NOBITS)
		return false;
	if (btf_encoder_conf__has(conf, BTF_FEAT_GLOBAL_VAR))
		return true;
	return btf_encoder_conf__has(conf, BTF_FEAT_VAR) && !strcmp(sec->name, ".data..percpu");
}

/* Adds the VARs of one section, then its DATASEC: @refs[0..n) share the section. */
static int btf__add_section_vars(struct btf *btf, const struct var_ref *refs, size_t n)
{
	const struct elf_section *sec = refs[0].sec;
	uint32_t first = btf__type_cnt(btf), end = 0;
	size_t i;
	int id;

	for (i = 0; i < n; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->addr - sec->addr + refs[i].size > end)
			end = v->addr - sec->addr + refs[i].size;
		id = btf__add_var(btf, v->name,
				  v->external ? BTF_VAR_GLOBAL_ALLOCATED : BTF_VAR_STATIC,
				  refs[i].type);
		if (id < 0)
			return id;
	}
	id = btf__add_datasec(btf, sec->name, end);
	for (i = 0; i < n && id >= 0; i++)
		id = btf__add_datasec_var_info(btf, first + i, refs[i].var->addr - sec->addr,
					       refs[i].size);
	for (i = 0; i < n && id >= 0; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->nr_tags)
			id = btf__add_decl_tags(btf, first + i, v->tags, v->nr_tags);
	}
	return id < 0 ? id : 0;
}

static int btf_encoders__add_vars(struct btf_encoder **encoders, unsigned int nr, struct btf *btf)
{
	const struct btf_encoder_conf *conf = encoders[0]->conf;
	size_t total = 0, n = 0, i, j;
	struct var_ref *refs;
	int err = 0;

	for (i = 0; i < nr; i++)
		total += encoders[i]->vars.nr;
	refs = calloc(total ?: 1, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < encoders[i]->vars.nr; j++) {
			const struct btf_var_state *v = &encoders[i]->vars.data[j];
			const struct elf_section *sec =
				elf_symtab__data_section_at(conf->symtab, v->addr);
			uint32_t type = btf_chunk__merged_id(v->chunk, v->type);
			int64_t size = btf__resolve_size(btf, type);

			if (!sec || !section_has_vars(conf, sec) || variable_name_skipped(v->name))
				continue;
			/*
			 * At offset 0 it may be in a discarded section, which DWARF
			 * gives address 0: a symbol of its name must be in the
			 * section (pahole v1.31's variable_in_sec).
			 */
			if (v->addr == sec->addr &&
			    !elf_symtab__has_object(conf->symtab, v->name, sec->index))
				continue;
			/* Its name is checked before its type or size, as upstream does. */
			if (!variable_name_valid(v->name)) {
				if (btf_encoder_conf__has(conf, BTF_FEAT_ENCODE_FORCE))
					continue;
				err = -BTF_REFUSED_VAR_NAME;
				goto out;
			}
			/* Sizeless ones (extern char x[]) neither. */
			if (!v->type || size <= 0)
				continue;
			refs[n++] = (struct var_ref){ v, sec, type, size };
		}
	}
	qsort(refs, n, sizeof(*refs), var_ref__cmp);
	for (i = 0; i < n && !err; i = j) {
		for (j = i + 1; j < n && refs[j].sec == refs[i].sec; j++)
			;
		err = btf__add_section_vars(btf, &refs[i], j - i);
	}
out:
	free(refs);
	return err;
}

static int u32__cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Whether a chunk's dedup resolved a declaration whose name more than one
 * struct or union, or more than one enum with values, of @btf bears.
 */
static int btf_encoders__resolved_ambiguous(struct btf_encoder **encoders, unsigned int nr,
					    struct btf *btf, bool *ambiguous)
{
	uint32_t id, end = btf__type_cnt(btf), *names;
	size_t n[2] = {}, i, j;
	unsigned int k;

	*ambiguous = false;
	names = malloc(2 * (end ?: 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	/* The names of structs and unions from names[0], of enums from names[end]. */
	for (id = 1; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t->name_off)
			continue;
		if (btf_is_composite(t))
			names[n[0]++] = t->name_off;
		else if (btf_is_any_enum(t) && btf_vlen(t))
			names[end + n[1]++] = t->name_off;
	}
	/* Each keeps the names it has more than once. */
	for (k = 0; k < 2; k++) {
		uint32_t *v = names + k * end;

		qsort(v, n[k], sizeof(*v), u32__cmp);
		for (i = j = 0; i + 1 < n[k]; i++)
			if (v[i] == v[i + 1] && (!j || v[j - 1] != v[i]))
				v[j++] = v[i];
		n[k] = j;
	}
	for (k = 0; k < nr && !*ambiguous; k++) {
		for (i = 0; i < encoders[k]->resolved_decls.nr && !*ambiguous; i++) {
			int off = btf__find_str(btf, encoders[k]->resolved_decls.data[i]);
			uint32_t key = off;

			if (off <= 0)
				continue;
			*ambiguous = bsearch(&key, names, n[0], sizeof(*names), u32__cmp) ||
				     bsearch(&key, names + end, n[1], sizeof(*names), u32__cmp);
		}
	}
	free(names);
	return 0;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf **out)
{
	const struct btf_encoder_conf *conf = encoders[0]->conf;
	double t_start = now(), t_chunks, t_funcs;
	struct btf_chunk **chunks;
	struct btf *btf = NULL;
	unsigned int nr_types;
	size_t nr_chunks;
	int err;

	chunks = btf_encoders__chunks(encoders, nr, &nr_chunks);
	if (!chunks)
		return -ENOMEM;
	if (!conf->base_btf) {
		btf = btf__concat_chunks(chunks, nr_chunks, &err);
	} else {
		btf = btf__new_empty_split(conf->base_btf);
		err = btf ? btf__append_chunks(btf, chunks, nr_chunks) : -ENOMEM;
	}
	free(chunks);
	if (btf)
		btf__set_pointer_size(btf, conf->ptr_size); /* the variables' sizes */
	nr_types = btf ? btf__type_cnt(btf) - 1 : 0;
	t_chunks = now();
	if (!err && conf->functions)
		err = btf_encoders__add_saved_funcs(conf, btf);
	if (!err && conf->symtab)
		err = btf_encoders__add_vars(encoders, nr, btf);
	t_funcs = now();
	if (!err)
		err = btf_dedup__run(btf);
	if (!err && !conf->base_btf && !conf->whole_dedup) {
		bool again;

		err = btf_encoders__resolved_ambiguous(encoders, nr, btf, &again);
		if (!err && again) {
			if (conf->verbose)
				fprintf(stderr,
					"btf_encoder: a chunk resolved a declaration of a name that several types bear: the chunks are encoded again, deduplicated once\n");
			btf__free(btf);
			return BTF_ENCODERS_AGAIN;
		}
	}
	if (conf->verbose)
		fprintf(stderr,
			"btf_encoder: merge %.3f s (%zu chunks, %u types), functions and variables %.3f s, dedup %.3f s (%u types)\n",
			t_chunks - t_start, nr_chunks, nr_types, t_funcs - t_chunks,
			now() - t_funcs, btf ? btf__type_cnt(btf) - 1 : 0);
	if (err) {
		btf__free(btf);
		return err;
	}
	*out = btf;
	return 0;
}
