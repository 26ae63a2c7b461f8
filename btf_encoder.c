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

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_encoder.h"
#include "lib/darray.h"

/*
 * Type references while a CU is being encoded: a plain BTF ID, or a DIE
 * offset relative to the CU with REF_DIE set.  libbpf accepts IDs up to
 * 0x7fffffff, so both fit in a type-ID field until the CU is resolved.
 */
#define REF_DIE 0x40000000u
#define REF_OFF_MASK (REF_DIE - 1)
/* The array index type of the CU: its "int". */
#define REF_INDEX (REF_DIE | REF_OFF_MASK)

#ifndef DW_TAG_LLVM_annotation
#define DW_TAG_LLVM_annotation 0x6000
#endif

/* What a DIE offset stands for: a type reference (an ID or another DIE). */
struct die_ref {
	uint32_t off;
	uint32_t ref;
};

/* The types encoded from one CU: IDs [first_id, first_id + nr_types). */
struct btf_unit {
	uint32_t cu_index;
	uint32_t first_id;
	uint32_t nr_types;
};

struct btf_encoder {
	const struct btf_encoder_conf *conf;
	struct btf *btf;
	DARRAY(struct btf_unit) units;
	/* Per-CU state, reset by btf_encoder__encode_cu(). */
	struct {
		DARRAY(struct die_ref) refs;
		uint32_t first_id;
		uint32_t int_ref;	/* DIE ref of the CU's "int", or 0 */
		bool refs_sorted;
		int err;
	} cu;
};

/* The attributes of a DIE that encoding needs, read in one pass. */
struct die_attrs {
	const char *name;
	uint32_t type;		/* type reference (REF_DIE | offset), 0 = void */
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
	Dwarf_Attribute type_attr;
};

struct btf_kind_ops {
	/* Calls @visit on each type-ID field of @t. */
	int (*visit_ids)(struct btf_type *t, int (*visit)(uint32_t *id, void *ctx), void *ctx);
};

/* ---- per-kind operations on BTF types ---- */

static int visit_none(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	(void)t, (void)visit, (void)ctx;
	return 0;
}

static int visit_type(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return visit(&t->type, ctx);
}

static int visit_array(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	struct btf_array *a = btf_array(t);
	int err = visit(&a->type, ctx);

	return err ?: visit(&a->index_type, ctx);
}

static int visit_members(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	struct btf_member *m = btf_members(t);
	int i, err;

	for (i = 0; i < btf_vlen(t); i++, m++) {
		err = visit(&m->type, ctx);
		if (err)
			return err;
	}
	return 0;
}

static int visit_proto(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	struct btf_param *p = btf_params(t);
	int i, err = visit(&t->type, ctx);

	for (i = 0; !err && i < btf_vlen(t); i++, p++)
		err = visit(&p->type, ctx);
	return err;
}

static int visit_datasec(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	struct btf_var_secinfo *v = btf_var_secinfos(t);
	int i, err;

	for (i = 0; i < btf_vlen(t); i++, v++) {
		err = visit(&v->type, ctx);
		if (err)
			return err;
	}
	return 0;
}

static const struct btf_kind_ops btf_kind_ops[NR_BTF_KINDS] = {
	[BTF_KIND_UNKN] = { visit_none },
	[BTF_KIND_INT] = { visit_none },
	[BTF_KIND_PTR] = { visit_type },
	[BTF_KIND_ARRAY] = { visit_array },
	[BTF_KIND_STRUCT] = { visit_members },
	[BTF_KIND_UNION] = { visit_members },
	[BTF_KIND_ENUM] = { visit_none },
	[BTF_KIND_FWD] = { visit_none },
	[BTF_KIND_TYPEDEF] = { visit_type },
	[BTF_KIND_VOLATILE] = { visit_type },
	[BTF_KIND_CONST] = { visit_type },
	[BTF_KIND_RESTRICT] = { visit_type },
	[BTF_KIND_FUNC] = { visit_type },
	[BTF_KIND_FUNC_PROTO] = { visit_proto },
	[BTF_KIND_VAR] = { visit_type },
	[BTF_KIND_DATASEC] = { visit_datasec },
	[BTF_KIND_FLOAT] = { visit_none },
	[BTF_KIND_DECL_TAG] = { visit_type },
	[BTF_KIND_TYPE_TAG] = { visit_type },
	[BTF_KIND_ENUM64] = { visit_none },
};

static int btf_type__visit_ids(struct btf_type *t, int (*visit)(uint32_t *, void *), void *ctx)
{
	return btf_kind_ops[btf_kind(t)].visit_ids(t, visit, ctx);
}

/* ---- reading DIEs ---- */

static uint32_t die_ref(Dwarf_Attribute *attr)
{
	Dwarf_Off off;

	/*
	 * The CU-relative offset, without decoding the DIE (dwarf_formref_die
	 * would).  Fails for DW_FORM_ref_addr: references into another CU are
	 * not followed, so that no worker reads a CU another one owns.
	 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	if (dwarf_formref(attr, &off) != 0 || off >= REF_OFF_MASK)
		return 0;
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

static int die_attrs__collect(Dwarf_Attribute *attr, void *arg)
{
	struct die_attrs *a = arg;
	Dwarf_Sword s;

	switch (dwarf_whatattr(attr)) {
	case DW_AT_name:
		a->name = dwarf_formstring(attr);
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
		a->const_form = dwarf_whatform(attr);
		if (a->const_form == DW_FORM_sdata || a->const_form == DW_FORM_implicit_const) {
			if (dwarf_formsdata(attr, &s) == 0)
				a->const_value = (uint64_t)s;
		} else {
			attr_udata(attr, &a->const_value, NULL);
		}
		break;
	case DW_AT_encoding:
		{
			uint64_t enc = 0;

			attr_udata(attr, &enc, NULL);
			a->encoding = enc;
		}
		break;
	case DW_AT_declaration:
		a->declaration = true;
		break;
	}
	return DWARF_CB_OK;
}

static void die_attrs__read(Dwarf_Die *die, struct die_attrs *a)
{
	memset(a, 0, sizeof(*a));
	dwarf_getattrs(die, die_attrs__collect, a, 0);
}

/* ---- the DIE -> type reference map of the current CU ---- */

static int btf_encoder__map(struct btf_encoder *e, Dwarf_Die *die, uint32_t ref)
{
	Dwarf_Off off = dwarf_cuoffset(die);
	struct die_ref *r;

	if (e->cu.refs.nr && e->cu.refs.data[e->cu.refs.nr - 1].off > off)
		e->cu.refs_sorted = false;
	r = darray_push(&e->cu.refs);
	if (!r)
		return -ENOMEM;
	r->off = (uint32_t)off;
	r->ref = ref;
	return 0;
}

static int die_ref__cmp(const void *a, const void *b)
{
	const struct die_ref *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static const struct die_ref *btf_encoder__lookup(struct btf_encoder *e, uint32_t off)
{
	size_t lo = 0, hi = e->cu.refs.nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct die_ref *r = &e->cu.refs.data[mid];

		if (r->off == off)
			return r;
		if (r->off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* ---- encoding, one handler per DWARF tag ---- */

struct die_ops {
	int (*encode)(struct btf_encoder *e, Dwarf_Die *die);
};

static int btf_encoder__encode_children(struct btf_encoder *e, Dwarf_Die *parent);

static bool btf_encoder__has(const struct btf_encoder *e, enum btf_feature f)
{
	return btf_encoder_conf__has(e->conf, f);
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

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static int encode_base_type(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	const char *name;
	uint64_t size;
	int enc = 0;

	die_attrs__read(die, &a);
	name = a.name ?: "";
	size = a.has_byte_size ? a.byte_size : (a.bit_size + 7) / 8;
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
	int nr_tags = 0, id, i;
	struct die_attrs a;
	Dwarf_Die child;

	die_attrs__read(die, &a);
	if (btf_encoder__has(e, BTF_FEAT_TYPE_TAG) && dwarf_child(die, &child) == 0) {
		do {
			Dwarf_Attribute attr;
			const char *name, *value;

			if (dwarf_tag(&child) != DW_TAG_LLVM_annotation)
				continue;
			name = dwarf_diename(&child);
			value = dwarf_formstring(dwarf_attr(&child, DW_AT_const_value, &attr));
			if (name && value && !strcmp(name, "btf_type_tag") && nr_tags < 16)
				tags[nr_tags++] = value;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	id = btf__type_cnt(e->btf);
	id = btf_encoder__added(e, die, btf__add_ptr(e->btf, nr_tags ? id + 1 : (int)a.type));
	for (i = 0; !id && i < nr_tags; i++) {
		uint32_t next = i + 1 < nr_tags ? btf__type_cnt(e->btf) + 1 : a.type;

		id = btf__add_type_tag(e->btf, tags[i], next);
		id = id < 0 ? id : 0;
	}
	return id;
}

static int encode_modifier(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	int id;

	die_attrs__read(die, &a);
	switch (dwarf_tag(die)) {
	case DW_TAG_const_type:
		id = btf__add_const(e->btf, a.type);
		break;
	case DW_TAG_volatile_type:
		id = btf__add_volatile(e->btf, a.type);
		break;
	case DW_TAG_restrict_type:
		id = btf__add_restrict(e->btf, a.type);
		break;
	default:
		id = btf__add_typedef(e->btf, a.name, a.type);
		break;
	}
	return btf_encoder__added(e, die, id);
}

/* Types that BTF has no kind for stand for what they qualify, or for void. */
static int encode_transparent(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;

	die_attrs__read(die, &a);
	return btf_encoder__map(e, die, a.type);
}

static int encode_void(struct btf_encoder *e, Dwarf_Die *die)
{
	return btf_encoder__map(e, die, 0);
}

static int64_t member_bit_offset(const struct die_attrs *m)
{
	if (m->has_data_bit_offset)
		return m->data_bit_offset;
	if (m->has_bit_offset) {
		/* DWARF 2/3 bit fields count from the storage unit's most significant bit. */
		return m->member_location * 8 + m->byte_size * 8 - m->bit_offset - m->bit_size;
	}
	return m->member_location * 8;
}

static int encode_struct(struct btf_encoder *e, Dwarf_Die *die)
{
	bool is_union = dwarf_tag(die) == DW_TAG_union_type;
	bool nested = false;
	struct die_attrs a;
	Dwarf_Die child;
	int id, err;

	die_attrs__read(die, &a);
	if (a.declaration && a.name) {
		id = btf__add_fwd(e->btf, a.name, is_union ? BTF_FWD_UNION : BTF_FWD_STRUCT);
		return btf_encoder__added(e, die, id);
	}
	id = is_union ? btf__add_union(e->btf, a.name, a.byte_size) :
			btf__add_struct(e->btf, a.name, a.byte_size);
	err = btf_encoder__added(e, die, id);
	if (err || dwarf_child(die, &child) != 0)
		return err;
	do {
		struct die_attrs m;

		if (dwarf_tag(&child) != DW_TAG_member) {
			nested = true;
			continue;
		}
		die_attrs__read(&child, &m);
		err = btf__add_field(e->btf, m.name, m.type, member_bit_offset(&m),
				     m.has_bit_size ? m.bit_size : 0);
		if (err)
			return err;
	} while (dwarf_siblingof(&child, &child) == 0);
	/* Types declared inside the struct come after its members. */
	return nested ? btf_encoder__encode_children(e, die) : 0;
}

static bool enum_is_signed(struct die_attrs *a)
{
	Dwarf_Die type;
	Dwarf_Attribute attr;
	Dwarf_Word enc;

	if (!a->type || !dwarf_formref_die(&a->type_attr, &type))
		return false;
	/* The underlying type may be a typedef or qualified. */
	while (dwarf_tag(&type) != DW_TAG_base_type) {
		if (!dwarf_attr(&type, DW_AT_type, &attr) || !dwarf_formref_die(&attr, &type))
			return false;
	}
	if (!dwarf_attr(&type, DW_AT_encoding, &attr) || dwarf_formudata(&attr, &enc))
		return false;
	return enc == DW_ATE_signed || enc == DW_ATE_signed_char;
}

static int encode_enum(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	Dwarf_Die child;
	bool is_signed, is64;
	int id, err = 0;

	die_attrs__read(die, &a);
	if (a.declaration && a.name)
		return btf_encoder__added(e, die, btf__add_fwd(e->btf, a.name, BTF_FWD_ENUM));
	if (!a.has_byte_size)
		a.byte_size = 4;
	is_signed = enum_is_signed(&a);
	is64 = a.byte_size > 4 && btf_encoder__has(e, BTF_FEAT_ENUM64);
	if (is64)
		id = btf__add_enum64(e->btf, a.name, a.byte_size, is_signed);
	else
		id = btf__add_enum(e->btf, a.name, a.byte_size);
	err = btf_encoder__added(e, die, id);
	if (err || dwarf_child(die, &child) != 0)
		goto out;
	do {
		struct die_attrs v;
		int64_t val;

		if (dwarf_tag(&child) != DW_TAG_enumerator)
			continue;
		die_attrs__read(&child, &v);
		val = (int64_t)v.const_value;
		if (is64)
			err = btf__add_enum64_value(e->btf, v.name, val);
		else
			err = btf__add_enum_value(e->btf, v.name,
						  is_signed ? (int64_t)(int32_t)val : (uint32_t)val);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
out:
	if (!err && !is64 && is_signed) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(e->btf, id);

		t->info |= 1u << 31;	/* kind_flag: signed values */
	}
	return err;
}

/* Multi-dimensional arrays are flattened into one, as upstream pahole does. */
static int encode_array(struct btf_encoder *e, Dwarf_Die *die)
{
	uint64_t nelems = 1;
	struct die_attrs a;
	Dwarf_Die child;

	die_attrs__read(die, &a);
	if (dwarf_child(die, &child) == 0) {
		do {
			struct die_attrs r;

			if (dwarf_tag(&child) != DW_TAG_subrange_type)
				continue;
			die_attrs__read(&child, &r);
			nelems *= r.has_count ? r.count : r.has_upper_bound ? r.upper_bound + 1 : 0;
		} while (dwarf_siblingof(&child, &child) == 0);
	}
	if (nelems > UINT32_MAX)
		nelems = 0;
	return btf_encoder__added(e, die, btf__add_array(e->btf, REF_INDEX, a.type, nelems));
}

static int encode_subroutine_type(struct btf_encoder *e, Dwarf_Die *die)
{
	struct die_attrs a;
	Dwarf_Die child;
	int err;

	die_attrs__read(die, &a);
	err = btf_encoder__added(e, die, btf__add_func_proto(e->btf, a.type));
	if (err || dwarf_child(die, &child) != 0)
		return err;
	do {
		struct die_attrs p;

		switch (dwarf_tag(&child)) {
		case DW_TAG_formal_parameter:
			die_attrs__read(&child, &p);
			err = btf__add_func_param(e->btf, NULL, p.type);
			break;
		case DW_TAG_unspecified_parameters:
			err = btf__add_func_param(e->btf, NULL, 0);
			break;
		}
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
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
	[DW_TAG_reference_type] = { encode_pointer },
	[DW_TAG_rvalue_reference_type] = { encode_pointer },
	[DW_TAG_const_type] = { encode_modifier },
	[DW_TAG_volatile_type] = { encode_modifier },
	[DW_TAG_restrict_type] = { encode_modifier },
	[DW_TAG_typedef] = { encode_modifier },
	[DW_TAG_atomic_type] = { encode_transparent },
	[DW_TAG_immutable_type] = { encode_transparent },
	[DW_TAG_unspecified_type] = { encode_void },
	[DW_TAG_structure_type] = { encode_struct },
	[DW_TAG_class_type] = { encode_struct },
	[DW_TAG_union_type] = { encode_struct },
	[DW_TAG_enumeration_type] = { encode_enum },
	[DW_TAG_array_type] = { encode_array },
	[DW_TAG_subroutine_type] = { encode_subroutine_type },
	[DW_TAG_subprogram] = { encode_scope },
	[DW_TAG_lexical_block] = { encode_scope },
	[DW_TAG_namespace] = { encode_scope },
	[DW_TAG_ptr_to_member_type] = { encode_unsupported },
	[DW_TAG_string_type] = { encode_unsupported },
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

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		err = btf_encoder__encode_die(e, &child);
	} while (!err && dwarf_siblingof(&child, &child) == 0);
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

static uint32_t btf_encoder__resolve_ref(struct btf_encoder *e, uint32_t ref)
{
	int hops;

	for (hops = 0; ref & REF_DIE; hops++) {
		const struct die_ref *r;

		if (ref == REF_INDEX) {
			ref = e->cu.int_ref;
			continue;
		}
		r = btf_encoder__lookup(e, ref & REF_OFF_MASK);
		/* Unknown or cyclic (a qualifier of itself): void. */
		if (!r || hops > 64) {
			if (e->conf->verbose)
				fprintf(stderr, "btf_encoder: DIE %#x references no type: void\n",
					ref & REF_OFF_MASK);
			return 0;
		}
		ref = r->ref;
	}
	return ref;
}

static int resolve_id(uint32_t *id, void *ctx)
{
	if (*id & REF_DIE)
		*id = btf_encoder__resolve_ref(ctx, *id);
	return 0;
}

static int btf_encoder__resolve_cu(struct btf_encoder *e)
{
	uint32_t id, end;
	int err = 0;

	if (!e->cu.refs_sorted)
		qsort(e->cu.refs.data, e->cu.refs.nr, sizeof(*e->cu.refs.data), die_ref__cmp);
	end = btf__type_cnt(e->btf);
	for (id = e->cu.first_id; id < end && !err; id++) {
		struct btf_type *t = (struct btf_type *)btf__type_by_id(e->btf, id);

		if (btf_is_array(t) && btf_array(t)->index_type == REF_INDEX) {
			err = btf_encoder__index_type(e);
			end = btf__type_cnt(e->btf);
			t = (struct btf_type *)btf__type_by_id(e->btf, id);
		}
		err = err ?: btf_type__visit_ids(t, resolve_id, e);
	}
	return err;
}

int btf_encoder__encode_cu(struct btf_encoder *e, Dwarf_Die *cu_die, uint32_t cu_index)
{
	struct btf_unit *unit;
	int err;

	e->cu.refs.nr = 0;
	e->cu.refs_sorted = true;
	e->cu.int_ref = 0;
	e->cu.first_id = btf__type_cnt(e->btf);
	err = btf_encoder__encode_children(e, cu_die);
	err = err ?: btf_encoder__resolve_cu(e);
	if (err)
		return err;
	unit = darray_push(&e->units);
	if (!unit)
		return -ENOMEM;
	unit->cu_index = cu_index;
	unit->first_id = e->cu.first_id;
	unit->nr_types = btf__type_cnt(e->btf) - e->cu.first_id;
	return 0;
}

struct btf_encoder *btf_encoder__new(const struct btf_encoder_conf *conf)
{
	struct btf_encoder *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->conf = conf;
	e->btf = btf__new_empty();
	if (!e->btf) {
		free(e);
		return NULL;
	}
	return e;
}

void btf_encoder__delete(struct btf_encoder *e)
{
	if (!e)
		return;
	btf__free(e->btf);
	darray_free(&e->units);
	darray_free(&e->cu.refs);
	free(e);
}

/* ---- merging the units of all encoders in CU order ---- */

struct unit_ref {
	struct btf_encoder *encoder;
	const struct btf_unit *unit;
};

static int unit_ref__cmp(const void *a, const void *b)
{
	const struct unit_ref *x = a, *y = b;

	return x->unit->cu_index < y->unit->cu_index ? -1 : x->unit->cu_index > y->unit->cu_index;
}

struct unit_remap {
	uint32_t first, nr, base;
};

static int remap_id(uint32_t *id, void *ctx)
{
	const struct unit_remap *m = ctx;

	if (!*id)
		return 0;
	if (*id < m->first || *id - m->first >= m->nr)
		return -EINVAL;
	*id = *id - m->first + m->base;
	return 0;
}

static int btf__append_unit(struct btf *dst, const struct btf *src, const struct btf_unit *u)
{
	struct unit_remap m = { u->first_id, u->nr_types, btf__type_cnt(dst) };
	uint32_t i;

	for (i = 0; i < u->nr_types; i++) {
		int id = btf__add_type(dst, src, btf__type_by_id(src, u->first_id + i));

		if (id < 0)
			return id;
		id = btf_type__visit_ids((struct btf_type *)btf__type_by_id(dst, id), remap_id, &m);
		if (id)
			return id;
	}
	return 0;
}

/* True when @e holds every unit, already in CU order: its BTF is the merge. */
static bool btf_encoder__is_whole(const struct btf_encoder *e, size_t nr_units)
{
	size_t i;

	if (e->units.nr != nr_units)
		return false;
	for (i = 1; i < e->units.nr; i++)
		if (e->units.data[i].cu_index < e->units.data[i - 1].cu_index)
			return false;
	return true;
}

int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf **out)
{
	struct unit_ref *refs = NULL;
	size_t nr_units = 0, n = 0, i, j;
	struct btf *btf = NULL;
	int err = 0;

	for (i = 0; i < nr; i++)
		nr_units += encoders[i]->units.nr;
	for (i = 0; i < nr; i++) {
		if (btf_encoder__is_whole(encoders[i], nr_units)) {
			btf = encoders[i]->btf;
			encoders[i]->btf = btf__new_empty();
			goto dedup;
		}
	}
	refs = calloc(nr_units, sizeof(*refs));
	btf = btf__new_empty();
	if (!refs || !btf) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++)
		for (j = 0; j < encoders[i]->units.nr; j++)
			refs[n++] = (struct unit_ref){ encoders[i], &encoders[i]->units.data[j] };
	qsort(refs, n, sizeof(*refs), unit_ref__cmp);
	for (i = 0; i < n && !err; i++)
		err = btf__append_unit(btf, refs[i].encoder->btf, refs[i].unit);
	if (err)
		goto out;
dedup:
	err = btf__dedup(btf, NULL);
out:
	free(refs);
	if (err) {
		btf__free(btf);
		return err;
	}
	*out = btf;
	return 0;
}
