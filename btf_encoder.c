// SPDX-License-Identifier: GPL-2.0-only
/*
 * Encoding a CU's DWARF types into BTF, one handler per DWARF tag.
 *
 * A CU is encoded in a single walk over its DIEs.  Types are appended to the
 * chunk's BTF as their DIEs are met, so a type may refer to a DIE that has
 * not been encoded yet: every type reference is noted aside
 * (btf_encoder_refs.c) and the type-ID fields set once the whole CU has
 * been walked.  Functions and variables are collected on the way
 * (btf_encoder_funcs.c, btf_encoder_vars.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_dedup.h"
#include "btf_encoder_priv.h"
#include "dwarf_alt.h"
#include "lib/btf_types.h"

static int btf_encoder__encode_children(struct btf_encoder *e, Dwarf_Die *parent);
static int btf_encoder__encode_die(struct btf_encoder *e, Dwarf_Die *die);

/* What btf_encoder__corrupt() says of a DIE whose next sibling libdw cannot read. */
#define DIE_AFTER_UNREADABLE "the DIE after it cannot be read"

/* ---- names, interned by the DWARF's string pointers ---- */

/*
 * The offset of the name of @a in the chunk's strings, 0 for none, or a
 * negative errno.  libbpf interns a string by hashing and comparing its
 * characters; the linker shares the DWARF's strings in .debug_str, so the
 * CUs of a chunk hand back the same pointer for the same name, and it is
 * looked up by where it lies first: its offset in .debug_str (a map of
 * half the size of a pointer map, for the millions of member names), else
 * its address.  A name written inline in the DIE has a pointer of its own,
 * and would only crowd the map; so would all names of a relocatable file,
 * whose units each have strings of their own (sctp.ko: 236,000 of 335,000
 * names missed the map, which then cost 6% of the run).
 */
static int btf_encoder__str(struct btf_encoder *e, const struct die_attrs *a)
{
	const char *name = a->name, *str = e->in->debug_str;
	uintptr_t at = (uintptr_t)name, start = (uintptr_t)str;
	bool in_str = str && at >= start && at < (uintptr_t)e->in->debug_str_end &&
		      at - start <= OFF_MAP_KEY_MAX;
	uint32_t off;
	int err;

	if (!name)
		return 0;
	/* A name in the DIE, or not met again: by its text alone. */
	if (a->name_inline || e->in->strs_per_unit)
		return btf_build__add_str(&e->build, name);
	/* A known string is not even read: it is likely out of the cache. */
	if (in_str ? off_map__find(&e->debug_strs, at - start, &off) :
		     ptr_map__find(&e->strs, name, &off))
		return off;
	if (!*name)
		return 0;
	err = btf_build__add_str(&e->build, name);
	if (err < 0)
		return err;
	off = err;
	err = in_str ? off_map__add(&e->debug_strs, at - start, off) :
		       ptr_map__add(&e->strs, name, off);
	return err ?: (int)off;
}

/* ---- encoding, one handler per DWARF tag ---- */

/*
 * Adds a member of name @off to the struct or union just added.  Past
 * 65,535 members BTF's 16-bit vlen wraps, and libbpf's dedup keeps as many
 * members as it then says, which is what pahole v1.31 encodes.
 */
static int btf_encoder__add_field(struct btf_encoder *e, int off, int type, uint32_t bit_off,
				  uint32_t bit_size)
{
	return btf_encoder__ref(e, type) ?:
					   btf_build__add_field(&e->build, off, 0, bit_off, bit_size);
}

/* Warns that BTF keeps only the first @nr % 65,536 of @nr members or values of @die. */
static void warn_vlen(Dwarf_Die *die, uint32_t nr)
{
	const char *name;

	if (nr <= 0xffff)
		return;
	name = dwarf_diename(die);
	fprintf(stderr,
		"pahole: warning: %s has %u members or values, more than BTF's 65,535: only the "
		"first %u are encoded, as pahole v1.31 does\n",
		name ?: "an anonymous type", nr, nr & 0xffff);
}

/*
 * Adds a value to the enum just added, as btf__add_enum{,64}_value() does;
 * past 65,535 values as btf_encoder__add_field().
 */
static int btf_encoder__add_enum_value(struct btf_encoder *e, bool is64, const struct die_attrs *v,
				       int64_t val)
{
	int off = btf_encoder__str(e, v);

	if (off < 0)
		return off;
	/* No name: libbpf's own error, as for any enumerator it refuses. */
	return is64 ? btf_build__add_enum64_value(&e->build, off, val) :
		      btf_build__add_enum_value(&e->build, off, val);
}

/* A FWD of @kind (struct, union or enum) named as @a; no name: libbpf's own error. */
static int btf_encoder__add_fwd(struct btf_encoder *e, const struct die_attrs *a, unsigned int kind)
{
	int off = btf_encoder__str(e, a);

	return off < 0 ? off : btf_build__add_fwd(&e->build, off, kind);
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

/* An INT or FLOAT @name, which is no string of the DWARF's (it may be a stand-in's). */
static int btf_encoder__add_base(struct btf_encoder *e, Dwarf_Die *die, const char *name,
				 unsigned int kind, uint32_t size, int enc)
{
	int off = btf_build__add_str(&e->build, name);

	if (off >= 0 && kind == BTF_KIND_FLOAT)
		off = btf_build__add_float(&e->build, off, size);
	else if (off >= 0)
		off = btf_build__add_int(&e->build, off, size, enc);
	return btf_encoder__added(e, die, off);
}

static int btf_encoder__encode_base_type(struct btf_encoder *e, Dwarf_Die *die)
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
		return btf_encoder__add_base(e, die, name, BTF_KIND_FLOAT, size, 0);
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
		e->cu.int_ref = REF_DIE | btf_encoder__die_off(e, die);
	return btf_encoder__add_base(e, die, name, BTF_KIND_INT, size, enc);
}

/* Type tags hang off a pointer DIE as DW_TAG_LLVM_annotation children. */
static int btf_encoder__encode_pointer(struct btf_encoder *e, Dwarf_Die *die)
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

			if (btf_encoder__tag(e, &child) != DW_TAG_LLVM_annotation)
				continue;
			name = dwarf_diename(&child);
			value = dwarf_formstring(dwarf_attr(&child, DW_AT_const_value, &attr));
			if (name && value && !strcmp(name, "btf_type_tag") && nr_tags < 16)
				tags[nr_tags++] = value;
		} while (btf_encoder__sibling(e, &child) == 0);
	}
	/* gcc's chain runs from the pointer to the pointee: reversed, as clang's are read. */
	if (!nr_tags && a.has_gnu_annotation && btf_encoder__has(e, BTF_FEAT_TYPE_TAG)) {
		const char *chain[16];
		int n = btf_encoder__gnu_annotations(e, &a.gnu_annotation_attr, "btf_type_tag",
						     true, chain, 16);

		for (i = 0; i < n; i++)
			tags[nr_tags++] = chain[n - 1 - i];
	}
	/* PTR -> last tag -> ... -> first tag -> pointee, as clang's own BTF has it. */
	id = btf_build__type_cnt(&e->build);
	err = btf_encoder__ref(e, nr_tags ? (uint32_t)id + 1 : a.type);
	err = err ?: btf_encoder__added(e, die, btf_build__add_ref(&e->build, BTF_KIND_PTR, 0, 0));
	for (i = nr_tags - 1; !err && i >= 0; i--) {
		err = btf_encoder__ref(e, i ? btf_build__type_cnt(&e->build) + 1 : a.type);
		id = err ?: btf_build__add_str(&e->build, tags[i]);
		id = id < 0 ? id : btf_build__add_ref(&e->build, BTF_KIND_TYPE_TAG, id, 0);
		err = id < 0 ? id : 0;
	}
	return err;
}

/* Adds the tags recorded since @first on type @id, and forgets them. */
static int btf_encoder__add_cu_decl_tags(struct btf_encoder *e, uint32_t id, size_t first)
{
	size_t i;
	int err = 0;

	for (i = first; i < e->cu.tags.nr && !err; i++) {
		const struct btf_decl_tag_ref *t = &e->cu.tags.data[i];

		int off = btf_build__add_str(&e->build, t->value);

		err = off < 0 ? off : btf_encoder__ref(e, id);
		err = err ?: btf_build__add_decl_tag(&e->build, off, 0, t->component);
		err = err < 0 ? err : 0;
	}
	e->cu.tags.nr = first;
	return err;
}

static int btf_encoder__encode_modifier(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	int id;

	btf_encoder__attrs(e, die, &a);
	id = btf_encoder__ref(e, a.type);
	if (id)
		return id;
	switch (btf_encoder__tag(e, die)) {
	case DW_TAG_const_type:
		id = btf_build__add_ref(&e->build, BTF_KIND_CONST, 0, 0);
		break;
	case DW_TAG_volatile_type:
		id = btf_build__add_ref(&e->build, BTF_KIND_VOLATILE, 0, 0);
		break;
	case DW_TAG_restrict_type:
		id = btf_build__add_ref(&e->build, BTF_KIND_RESTRICT, 0, 0);
		break;
	default: {
		size_t first_tag = e->cu.tags.nr;
		int err, off = btf_encoder__str(e, &a);

		/* No name: libbpf's own error, as for any typedef it refuses. */
		id = off < 0 ? off : btf_build__add_ref(&e->build, BTF_KIND_TYPEDEF, off, 0);
		err = btf_encoder__added(e, die, id);
		err = err ?: btf_encoder__collect_decl_tags(e, die, -1);
		return err ?: btf_encoder__add_cu_decl_tags(e, id, first_tag);
	}
	}
	return btf_encoder__added(e, die, id);
}

/* Types that BTF has no kind for stand for what they qualify, or for void. */
static int btf_encoder__encode_transparent(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;

	btf_encoder__attrs(e, die, &a);
	return btf_encoder__map(e, die, a.type);
}

static int btf_encoder__encode_void(struct btf_encoder *e, Dwarf_Die *die)
{
	return btf_encoder__map(e, die, 0);
}

static int64_t member_bit_offset(const struct btf_encoder *e, const struct die_attrs *m)
{
	if (m->has_data_bit_offset)
		return m->data_bit_offset;
	if (m->has_bit_offset) {
		/* DWARF 2/3 bit fields count from the storage unit's most significant bit. */
		if (e->in->big_endian)
			return m->member_location * 8 + m->bit_offset;
		return m->member_location * 8 + m->byte_size * 8 - m->bit_offset - m->bit_size;
	}
	return m->member_location * 8;
}

/*
 * Reads @die's members into e->cu.members (from @first on) and encodes the
 * types declared among them as it meets them (see btf_encoder__encode_struct()).
 */
static int btf_encoder__read_members(struct btf_encoder *e, Dwarf_Die *die, size_t first)
{
	bool nested = false;
	Dwarf_Die child;
	int err = 0, rc = 0;

	if (btf_encoder__child(e, die, &child) != 0)
		return 0;
	e->cu.depth++;
	do {
		struct pending_member *pm;
		uint32_t nr = e->cu.members.nr - first;
		struct die_attrs m;
		int tag = btf_encoder__tag(e, &child);

		if (tag == DW_TAG_LLVM_annotation) {
			err = btf_encoder__push_decl_tag(e, die__decl_tag_value(&child, tag), -1);
			continue;
		}
		if (tag != DW_TAG_member) {
			nested = true;
			err = btf_encoder__encode_die(e, &child);
			continue;
		}
		btf_encoder__attrs(e, &child, &m);
		pm = darray__push(&e->cu.members);
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
		err = err ?: btf_encoder__push_gnu_decl_tags(e, &m, nr);
	} while (!err && (rc = btf_encoder__sibling(e, &child)) == 0);
	e->cu.depth--;
	/* A walk of members alone stops at a DIE libdw cannot read; one of types checks it. */
	if (!err && rc < 0 && nested)
		err = btf_encoder__corrupt(e, dwarf_dieoffset(&child), DIE_AFTER_UNREADABLE);
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
static int btf_encoder__encode_struct(struct btf_encoder *e, Dwarf_Die *die)
{
	bool is_union = btf_encoder__tag(e, die) == DW_TAG_union_type;
	size_t first_tag = e->cu.tags.nr, first = e->cu.members.nr, first_ref, i;
	struct die_attrs a;
	int id, err = 0;

	btf_encoder__attrs(e, die, &a);
	/* Without a name, libbpf's own error, as pahole v1.31 meets it. */
	if (a.declaration) {
		/* Its members are no types (die_ops has no entry for them); its nested types are. */
		err = btf_encoder__encode_children(e, die);
		id = btf_encoder__add_fwd(e, &a, is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT);
		return err ?: btf_encoder__added(e, die, id);
	}
	err = btf_encoder__read_members(e, die, first);
	if (!err && e->cu.members_by_offset)
		err = btf_encoder__sort_members(e, first);
	/* gcc's tags of the struct itself come after its members'. */
	err = err ?: btf_encoder__push_gnu_decl_tags(e, &a, -1);
	if (err) {
		e->cu.members.nr = first;
		return err;
	}
	id = btf_encoder__str(e, &a);
	id = id < 0 ? id :
		      btf_build__add_composite(&e->build,
					       is_union ? BTF_KIND_UNION : BTF_KIND_STRUCT, id,
					       a.byte_size);
	err = btf_encoder__added(e, die, id);
	first_ref = e->cu.type_refs.nr;
	for (i = first; !err && i < e->cu.members.nr; i++) {
		const struct pending_member *pm = &e->cu.members.data[i];

		err = btf_encoder__add_field(e, pm->name_off, pm->type, pm->bit_off, pm->bit_size);
	}
	btf_encoder__wrap_refs(e, first_ref);
	warn_vlen(die, e->cu.members.nr - first);
	e->cu.members.nr = first;
	/* Decl tags come after its members. */
	return err ?: btf_encoder__add_cu_decl_tags(e, id, first_tag);
}

/*
 * Whether an ENUM64 is signed: pahole reads the encoding of the DIE that
 * DW_AT_type names, and nothing past it (a typedef there has none, and
 * makes it unsigned): v1.31's dwarf_loader.c, type__init().
 */
static bool enum_is_signed(struct die_attrs *a)
{
	Dwarf_Attribute attr;
	Dwarf_Word enc;
	Dwarf_Die type;

	if (!a->type || a->type == REF_BAD || !die_ref_followed(&a->type_attr, &a->refs) ||
	    !dwarf_alt__ref_die(&a->type_attr, &type))
		return false;
	if (!dwarf_attr(&type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

/* Notes @die, a subprogram an enumeration declares, for the release that names nothing by it. */
static int btf_encoder__note_enum_subprogram(struct btf_encoder *e, Dwarf_Die *die)
{
	uint32_t *off;

	if (btf_encoder_conf__follows(e->in->conf, BTF_RULE_ENUM_SUBPROGRAMS))
		return 0;
	off = darray__push(&e->cu.enum_subprograms);
	if (!off)
		return -ENOMEM;
	*off = btf_encoder__die_off(e, die);
	return 0;
}

/*
 * An ENUM's sign is its values': libbpf's btf__add_enum_value() marks it
 * signed at the first negative value pahole hands it (read as libdw's
 * dwarf_formudata() reads any constant), whatever the type under it says
 * (Rust's and C++'s enums on a signed type with no negative value stay
 * unsigned).  Without enum64 pahole hands it each value's low 32 bits.
 */
static int btf_encoder__encode_enum(struct btf_encoder *e, Dwarf_Die *die)
{
	bool is64, negative = false;
	struct die_attrs a;
	Dwarf_Die child;
	uint32_t nr = 0;
	int id, err = 0;

	btf_encoder__attrs(e, die, &a);
	if (a.declaration && a.name)
		return btf_encoder__added(e, die, btf_encoder__add_fwd(e, &a, BTF_KIND_ENUM));
	/* An enum of no size is an int's, as pahole v1.31 has it. */
	if (!a.byte_size)
		a.byte_size = 4;
	/* BTF enums are 1, 2, 4 or 8 bytes; C++ has them on __int128 too. */
	if (!is_pow2(a.byte_size) || a.byte_size > 8)
		return -BTF_REFUSED_ENUM_SIZE;
	is64 = a.byte_size > 4 && btf_encoder__has(e, BTF_FEAT_ENUM64);
	id = btf_encoder__str(e, &a);
	if (id >= 0 && is64)
		id = btf_build__add_enum(&e->build, BTF_KIND_ENUM64, id, a.byte_size,
					 enum_is_signed(&a));
	else if (id >= 0)
		id = btf_build__add_enum(&e->build, BTF_KIND_ENUM, id, a.byte_size, 0);
	err = btf_encoder__added(e, die, id);
	if (err || btf_encoder__child(e, die, &child) != 0)
		goto out;
	do {
		struct die_attrs v;
		int64_t val;

		if (btf_encoder__tag(e, &child) == DW_TAG_subprogram) {
			err = btf_encoder__note_enum_subprogram(e, &child);
			continue;
		}
		if (btf_encoder__tag(e, &child) != DW_TAG_enumerator)
			continue;
		btf_encoder__attrs(e, &child, &v);
		val = (int64_t)v.const_value;
		negative |= val < 0;
		nr++;
		err = btf_encoder__add_enum_value(e, is64, &v, is64 ? val : (uint32_t)val);
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	warn_vlen(die, nr);
out:
	if (!err && !is64 && negative && btf_encoder__has(e, BTF_FEAT_ENUM64)) {
		struct btf_type *t = btf_build__type(&e->build, id);

		t->info |= 1u << 31; /* kind_flag: signed values */
	}
	return err;
}

/* A dimension's element count: 0 where DWARF knows none (a VLA, a flexible array). */
static uint64_t subrange_count(const struct die_attrs *r)
{
	return r->has_count ? r->count : r->has_upper_bound ? r->upper_bound + 1 : 0;
}

/*
 * v1.31 flattens a multi-dimensional array into one ARRAY of all the
 * elements (0 when one dimension is unknown, or the product is past 32 bits).
 */
static int btf_encoder__encode_flat_array(struct btf_encoder *e, Dwarf_Die *die,
					  const struct die_attrs *a)
{
	uint64_t nelems = 1;
	Dwarf_Die child;

	if (btf_encoder__child(e, die, &child) == 0) {
		do {
			struct die_attrs r;

			if (btf_encoder__tag(e, &child) != DW_TAG_subrange_type)
				continue;
			btf_encoder__attrs(e, &child, &r);
			nelems *= subrange_count(&r);
		} while (btf_encoder__sibling(e, &child) == 0);
	}
	if (nelems > UINT32_MAX)
		nelems = 0;
	/* btf_type__visit_ids() meets the element type first, then the index type. */
	return btf_encoder__ref(e, a->type)	      ?:
		       btf_encoder__ref(e, REF_INDEX) ?:
		       btf_encoder__added(e, die, btf_build__add_array(&e->build, 0, 0, nelems));
}

/* Twice the room for @counts, which is @few (on the stack) or on the heap; NULL for none. */
static uint64_t *btf_encoder__grow_counts(uint64_t *counts, uint64_t *few, uint32_t *size)
{
	uint64_t *bigger = realloc(counts == few ? NULL : counts, 2 * *size * sizeof(*counts));

	if (!bigger) {
		if (counts != few)
			free(counts);
		return NULL;
	}
	if (counts == few)
		memcpy(bigger, few, *size * sizeof(*counts));
	*size *= 2;
	return bigger;
}

/*
 * BTF_RULE_NESTED_ARRAYS: one ARRAY per subrange of the DIE, the innermost
 * (the last subrange, whose elements are the DIE's type) added first, each
 * outer one of the one inside it; the DIE stands for the outermost.  A
 * dimension keeps its own count, 0 where unknown; a DIE without subranges
 * is one ARRAY of 0.
 */
static int btf_encoder__encode_nested_array(struct btf_encoder *e, Dwarf_Die *die,
					    const struct die_attrs *a)
{
	uint64_t few[16], *counts = few;
	uint32_t nr = 0, size = 16, elem = a->type;
	Dwarf_Die child;
	int id = 0, err = 0;

	if (btf_encoder__child(e, die, &child) == 0) {
		do {
			struct die_attrs r;

			if (btf_encoder__tag(e, &child) != DW_TAG_subrange_type)
				continue;
			if (nr == size && !(counts = btf_encoder__grow_counts(counts, few, &size)))
				return -ENOMEM;
			btf_encoder__attrs(e, &child, &r);
			counts[nr++] = subrange_count(&r);
		} while (btf_encoder__sibling(e, &child) == 0);
	}
	if (!nr)
		counts[nr++] = 0;
	while (nr-- && !err) {
		err = btf_encoder__ref(e, elem) ?: btf_encoder__ref(e, REF_INDEX);
		id = err   ?:
			     btf_build__add_array(&e->build, 0, 0,
						  counts[nr] > UINT32_MAX ? 0 : counts[nr]);
		err = id < 0 ? id : err;
		elem = id;
	}
	if (counts != few)
		free(counts);
	return err ?: btf_encoder__added(e, die, id);
}

static int btf_encoder__encode_array(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;

	btf_encoder__attrs(e, die, &a);
	e->cu.indexed = true;
	if (btf_encoder_conf__follows(e->in->conf, BTF_RULE_NESTED_ARRAYS))
		return btf_encoder__encode_nested_array(e, die, &a);
	return btf_encoder__encode_flat_array(e, die, &a);
}

static int tag_refusal(int tag);

static int btf_encoder__encode_refused(struct btf_encoder *e, Dwarf_Die *die)
{
	if (e->in->conf->verbose)
		fprintf(stderr,
			"btf_encoder: tag %#x at DIE %#llx: refused, as pahole v1.31 does\n",
			dwarf_tag(die), (unsigned long long)dwarf_dieoffset(die));
	return tag_refusal(dwarf_tag(die));
}

/* v1.32's cap on partial units imported by imported ones (die__process_imported_unit). */
#define IMPORT_DEPTH_MAX 64

/*
 * The reader's unit is the one whose names are read from the string
 * sections, when the reader reads it from .debug_info (die_reader's end).
 */
static void btf_encoder__set_strs(struct btf_encoder *e)
{
	const struct btf_encoder_input *in = e->in;

	e->cu.strs = (struct die_strs){ .str = in->debug_str,
					.str_end = in->debug_str_end,
					.line_str = in->debug_line_str,
					.line_str_end = in->debug_line_str_end,
					.abbrev = in->debug_abbrev,
					.abbrev_end = in->debug_abbrev_end,
					.cu = e->cu.reader.end ? e->cu.reader.cu : NULL,
					.offset_size = e->cu.reader.offset_size,
					.addr_size = e->cu.reader.addr_size,
					.big_endian = in->big_endian };
}

/*
 * Where each unit is a CU, the partial unit @pu that the CU imports: its
 * children are walked as the CU's own, here, once per CU, as v1.32 walks
 * them (its types are the CU's, in every CU that imports it; the dedup
 * makes them one).  The CU's references are .debug_info offsets
 * (in->global_refs), so that those into @pu and within it are one numbering.
 */
static int btf_encoder__walk_import(struct btf_encoder *e, Dwarf_Die *pu)
{
	uint64_t off = dwarf_dieoffset(pu), *slot;
	struct die_ref_ctx refs = e->cu.ref_ctx;
	Dwarf_Die unit;
	size_t i;
	int err;

	for (i = 0; i < e->cu.imported.nr; i++)
		if (e->cu.imported.data[i] == off)
			return 0;
	if (e->cu.import_depth >= IMPORT_DEPTH_MAX)
		return btf_encoder__corrupt(e, off, "partial units import each other too deep");
	slot = darray__push(&e->cu.imported);
	if (!slot)
		return -ENOMEM;
	*slot = off;
	/* The unit being walked: the CU, or the partial unit that imported this one. */
	if (!dwarf_cu_die(e->cu.reader.cu, &unit, NULL, NULL, NULL, NULL, NULL, NULL))
		return btf_encoder__corrupt(e, off, "the importing unit cannot be read");
	e->cu.import_depth++;
	die_reader__begin_cu(&e->cu.reader, pu, e->in->big_endian, die_attrs__wanted);
	btf_encoder__set_strs(e);
	die_ref_ctx__init(&e->cu.ref_ctx, pu, true, &e->in->ref_space);
	err = btf_encoder__encode_children(e, pu);
	e->cu.import_depth--;
	die_reader__begin_cu(&e->cu.reader, &unit, e->in->big_endian, die_attrs__wanted);
	btf_encoder__set_strs(e);
	e->cu.ref_ctx = refs;
	return err;
}

/*
 * An imported unit, as pahole v1.32 reads it (DW_FORM_ref_addr, into a
 * partial unit of the file; DW_FORM_GNU_ref_alt, into one of its dwz
 * alternate file; anything else it leaves alone).  Where the units are one
 * CU, the partial unit is one of them, walked in its place in .debug_info
 * (an alternate file's first, dwarf_alt.h); where each unit is a CU, it is
 * walked inside the CU (btf_encoder__walk_import()).  DWARF 5's
 * DW_FORM_ref_sup4/8, into a supplementary file, as DW_FORM_GNU_ref_alt.  An
 * alternate file that cannot be found (v1.32 warns and takes references
 * into it for void) is refused.
 */
static int btf_encoder__encode_imported_unit(struct btf_encoder *e, Dwarf_Die *die)
{
	Dwarf_Attribute attr;
	Dwarf_Die pu;
	int err = 0;

	if (!btf_encoder_conf__follows(e->in->conf, BTF_RULE_IMPORTED_UNITS))
		return btf_encoder__encode_refused(e, die);
	if (!dwarf_attr(die, DW_AT_import, &attr))
		return 0;
	switch (dwarf_whatform(&attr)) {
	case DW_FORM_GNU_ref_alt:
	case DW_FORM_ref_sup4:
	case DW_FORM_ref_sup8:
		/* Its units are the chunk's first (dwarf_loader__alt()). */
		if (!e->in->merged_cus || !e->in->ref_space.alt)
			err = -BTF_REFUSED_IMPORTED_ALT;
		break;
	case DW_FORM_ref_addr:
		if (e->in->merged_cus)
			break;
		if (!dwarf_formref_die(&attr, &pu))
			return btf_encoder__corrupt(e, dwarf_dieoffset(die),
						    "its DW_AT_import names no DIE");
		if (dwarf_tag(&pu) == DW_TAG_partial_unit)
			err = btf_encoder__walk_import(e, &pu);
		break;
	default:
		/* Within the unit: no partial unit, which v1.32 then leaves alone. */
		break;
	}
	if (err && err != -EBADMSG && err != -ENOMEM && e->in->conf->verbose)
		fprintf(stderr, "btf_encoder: the imported unit at DIE %#llx cannot be read\n",
			(unsigned long long)dwarf_dieoffset(die));
	return err;
}

static int btf_encoder__encode_subroutine_type(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	Dwarf_Die child;
	size_t first_ref;
	int err;

	btf_encoder__attrs(e, die, &a);
	err = btf_encoder__ref(e, a.type);
	err = err ?: btf_encoder__added(e, die, btf_build__add_func_proto(&e->build, 0));
	if (err || btf_encoder__child(e, die, &child) != 0)
		return err;
	first_ref = e->cu.type_refs.nr;
	do {
		struct die_attrs p;

		switch (btf_encoder__tag(e, &child)) {
		case DW_TAG_formal_parameter:
			btf_encoder__attrs(e, &child, &p);
			err = btf_encoder__ref(e, p.type) ?:
				      btf_build__add_func_param(&e->build, 0, 0);
			break;
		case DW_TAG_unspecified_parameters:
			err = btf_encoder__ref(e, 0) ?: btf_build__add_func_param(&e->build, 0, 0);
			break;
		default:
			/* pahole v1.31 takes any other child for a type of the CU. */
			if (tag_refusal(btf_encoder__tag(e, &child)))
				err = btf_encoder__encode_refused(e, &child);
			break;
		}
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	btf_encoder__wrap_refs(e, first_ref);
	return err;
}

/*
 * Functions are collected wherever they are, as pahole v1.31 collects them:
 * at the CU's level, nested in another (GNU C), in a namespace or a class.
 */
static int btf_encoder__encode_subprogram(struct btf_encoder *e, Dwarf_Die *die)
{
	int err = 0;

	if (e->in->functions)
		err = btf_encoder__collect_func(e, die);
	return err ?: btf_encoder__encode_children(e, die);
}

static int btf_encoder__encode_scope(struct btf_encoder *e, Dwarf_Die *die)
{
	return btf_encoder__encode_children(e, die);
}

static int btf_encoder__encode_unsupported(struct btf_encoder *e, Dwarf_Die *die)
{
	if (e->in->conf->verbose)
		fprintf(stderr, "btf_encoder: %s tag %#x at DIE %#llx has no BTF kind: void\n",
			dwarf_diename(die) ?: "(anonymous)", dwarf_tag(die),
			(unsigned long long)dwarf_dieoffset(die));
	return btf_encoder__encode_void(e, die);
}

/*
 * What each DWARF tag encodes into, and refuses (btf_encoder_priv.h's
 * DIE_TAGS).  The refused are types that pahole v1.31 reads into a CU's
 * types, wherever in the CU it meets them (in functions, blocks, structs,
 * namespaces, even unreferenced), then has no BTF kind for: it says
 * "Unsupported DW_TAG_..." and "Error while encoding BTF.", and writes
 * nothing.  An imported unit (dwz) it cannot read at all, and writes
 * nothing without a word.  The file is refused as it would be, rather than
 * encoded into BTF that it never writes.
 */
struct die_ops {
	int (*encode)(struct btf_encoder *e, Dwarf_Die *die);
	enum btf_refusal refusal;
};

#define btf_encoder__encode_none NULL
static const struct die_ops die_ops[DW_TAG_NR_STD] = {
#define DIE_OPS(tag, encode, refusal, type) \
	[DW_TAG_##tag] = { btf_encoder__encode_##encode, BTF_REFUSED_##refusal },
	DIE_TAGS(DIE_OPS)
#undef DIE_OPS
};
#undef btf_encoder__encode_none

/* Its refusal, negated, or 0 for a tag pahole v1.31 takes. */
static int tag_refusal(int tag)
{
	if (tag < 0 || tag >= DW_TAG_NR_STD)
		return 0;
	return -(int)die_ops[tag].refusal;
}

static int btf_encoder__encode_die(struct btf_encoder *e, Dwarf_Die *die)
{
	int tag = btf_encoder__tag(e, die);

	if (tag < 0 || tag >= DW_TAG_NR_STD || !die_ops[tag].encode)
		return 0;
	/* Of another chunk's unit, the types alone: its functions are its chunk's. */
	if (e->cu.foreign && !die_tag__is_type(tag))
		return 0;
	return die_ops[tag].encode(e, die);
}

static int btf_encoder__encode_children(struct btf_encoder *e, Dwarf_Die *parent)
{
	Dwarf_Die child;
	int err = 0;

	int rc = btf_encoder__child(e, parent, &child);

	if (rc != 0)
		return rc < 0 ? btf_encoder__corrupt(e, dwarf_dieoffset(parent),
						     "its children cannot be read") :
				0;
	e->cu.depth++;
	do {
		err = btf_encoder__encode_die(e, &child);
	} while (!err && (rc = btf_encoder__sibling(e, &child)) == 0);
	e->cu.depth--;
	/* libdw could not read the next DIE (an unknown abbreviation, say). */
	if (!err && rc < 0)
		err = btf_encoder__corrupt(e, dwarf_dieoffset(&child), DIE_AFTER_UNREADABLE);
	return err;
}

/* Starts on the unit of @cu_die, in the CU the encoder is in. */
static void btf_encoder__begin_unit(struct btf_encoder *e, Dwarf_Die *cu_die)
{
	Dwarf_Attribute low_pc;

	e->cu.die = *cu_die;
	if (e->in->merged_cus)
		btf_encoder__note_unit(e, cu_die);
	die_ref_ctx__init(&e->cu.ref_ctx, cu_die, e->in->global_refs, &e->in->ref_space);
	die_reader__begin_cu(&e->cu.reader, cu_die, e->in->big_endian, die_attrs__wanted);
	if (e->cu.reader.end)
		btf_encoder__map_unit(e, e->cu.reader.end - e->cu.reader.start);
	e->cu.members_by_offset = die_reader__lang(&e->cu.reader, cu_die) == DW_LANG_Rust;
	btf_encoder__set_strs(e);
	btf_encoder__sig_begin_unit(e, cu_die);
	dwarf_locs__unit_low_pc(&e->locs, cu_die->cu,
				die_reader__attr(&e->cu.reader, cu_die, DW_AT_low_pc, &low_pc));
}

/* Forgets the previous CU's state and starts on a new one, numbered @cu_index. */
static void btf_encoder__begin_cu(struct btf_encoder *e, uint32_t cu_index)
{
	btf_encoder__clear_map(e);
	btf_encoder_cu__reset(&e->cu);
	e->cu.first_var = e->vars.nr;
	e->cu.index = cu_index;
	e->cu.open = true;
	e->cu.first_id = btf_build__type_cnt(&e->build);
}

int btf_encoder__finish_cu(struct btf_encoder *e)
{
	int err = 0;

	e->cu.open = false;
	if (e->in->merged_cus)
		err = btf_encoder__encode_foreign(e, btf_encoder__encode_die);
	err = err ?: btf_encoder__resolve_cu(e);
	err = err ?: btf_encoder__save_cu_funcs(e);
	if (!err)
		btf_encoder__resolve_cu_vars(e);
	return err ?: e->cu.err;
}

/*
 * A CU is a unit, or, with merged_cus, all the units of the chunk, whose
 * CU btf_encoder__end_chunk() finishes.
 */
int btf_encoder__encode_cu(struct btf_encoder *e, Dwarf_Die *cu_die, uint32_t cu_index)
{
	int err;

	if (!e->in->merged_cus || !e->cu.open)
		btf_encoder__begin_cu(e, cu_index);
	btf_encoder__begin_unit(e, cu_die);
	errno = 0; /* what btf_encoder__corrupt() reads was left by this unit's calls */
	err = btf_encoder__encode_children(e, cu_die);
	if (err || !e->in->merged_cus)
		err = err ?: btf_encoder__finish_cu(e);
	return err;
}

/* ---- the encoder's life ---- */

int btf_encoder__new(const struct btf_encoder_input *in, struct btf_encoder **out)
{
	struct btf_encoder *e = calloc(1, sizeof(*e));

	*out = e;
	if (!e)
		return -ENOMEM;
	e->in = in;
	e->sigs = btf_encoder_conf__has(in->conf, BTF_FEAT_TRUE_SIGNATURE) ||
		  btf_encoder_conf__follows(in->conf, BTF_RULE_FUNCS_V132);
	die_reader__init(&e->cu.reader, in->debug_info, in->debug_info_end, in->debug_abbrev,
			 in->debug_abbrev_end);
	die_reader__init(&e->foreign_reader, in->debug_info, in->debug_info_end, in->debug_abbrev,
			 in->debug_abbrev_end);
	dwarf_locs__init(&e->locs, in->debug_loc, in->debug_loc_end, in->debug_loclists,
			 in->debug_loclists_end, in->big_endian, in->unit_locks);
	return 0;
}

void btf_encoder__delete(struct btf_encoder *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->chunks.nr; i++) {
		if (!e->chunks.data[i]->shared) {
			btf_build__free(e->chunks.data[i]->built);
			free(e->chunks.data[i]->built);
		}
		free(e->chunks.data[i]);
	}
	darray__free(&e->chunks);
	btf_build__free(&e->build);
	btf_build_strmap__free(&e->part_strs);
	btf_dedup_mem__delete(e->dedup);
	darray__free(&e->chunk_states);
	darray__free(&e->chunk_sightings);
	darray__free(&e->carried);
	darray__free(&e->vars);
	darray__free(&e->resolved_decls);
	arena__free(&e->arena);
	ptr_map__free(&e->strs);
	off_map__free(&e->debug_strs);
	dwarf_locs__free(&e->locs);
	btf_encoder_cu__free(&e->cu);
	btf_encoder__free_foreign(e);
	free(e);
}
