// SPDX-License-Identifier: GPL-2.0-only
/* Reading a CU's DIEs with fewer libdw calls: see die_reader.h. */
#include <dwarf.h>
#include <string.h>

#include "die_reader.h"
#include "lib/leb128.h"

/* One attribute of an abbreviation: its name and form, and whether the callback wants it. */
struct die_reader_spec {
	uint16_t name;
	uint16_t form;
	bool wanted;
};

enum plan_state {
	PLAN_NONE, /* not made yet */
	PLAN_READY,
	PLAN_LIBDW, /* left to dwarf_getattrs() */
};

/* What the reader knows of an abbreviation code of the CU; all zero: nothing yet. */
struct die_reader_code {
	Dwarf_Abbrev *abbrev;
	uint32_t first; /* its plan: nr attributes in specs from first */
	uint16_t nr;
	uint8_t state; /* enum plan_state */
	bool has_children;
};

/* The longest abbreviation code kept: two ULEB128 bytes. */
#define MAX_CODE_BYTES 2

/*
 * Where the unit of @cu_die ends in memory, or NULL: a unit header that
 * says it ends before its DIE or past the section leaves it all to libdw.
 */
static const unsigned char *cu_end(struct die_reader *r, Dwarf_Die *cu_die)
{
	Dwarf_Off off = dwarf_dieoffset(cu_die), start = off - dwarf_cuoffset(cu_die), next;
	const unsigned char *die = cu_die->addr;
	Dwarf *dwarf = dwarf_cu_getdwarf(cu_die->cu);
	size_t header_size;

	if (!r->info || die < r->info || die >= r->info_end ||
	    dwarf_next_unit(dwarf, start, &next, &header_size, NULL, NULL, NULL, NULL, NULL,
			    NULL) != 0 ||
	    next <= off || next - off > (uint64_t)(r->info_end - die))
		return NULL;
	return die + (next - off);
}

void die_reader__begin_cu(struct die_reader *r, Dwarf_Die *cu_die, bool big_endian,
			  bool (*wanted)(unsigned int at))
{
	Dwarf_Half version = 0;
	uint8_t unit_type, addr_size = 0, offset_size = 0;

	r->cu = cu_die->cu;
	r->end = cu_end(r, cu_die);
	if (dwarf_cu_info(cu_die->cu, &version, &unit_type, NULL, NULL, NULL, &addr_size,
			  &offset_size) != 0)
		r->end = NULL; /* all left to libdw */
	r->version = version;
	r->addr_size = addr_size;
	r->offset_size = offset_size;
	r->big_endian = big_endian;
	r->wanted = wanted;
	r->codes.nr = 0;
	r->specs.nr = 0;
	r->last_die = NULL;
}

void die_reader__init(struct die_reader *r, const unsigned char *info,
		      const unsigned char *info_end)
{
	*r = (struct die_reader){ .info = info, .info_end = info ? info_end : NULL };
}

void die_reader__free(struct die_reader *r)
{
	darray__free(&r->codes);
	darray__free(&r->specs);
}

/* The abbreviation code @die starts with, and where its attributes start; 0 if unusual. */
static size_t die_code(const struct die_reader *r, Dwarf_Die *die, const unsigned char **attrs)
{
	const unsigned char *p = die->addr, *end = r->end;
	uint64_t code;

	if (!end || die->cu != r->cu || p >= end)
		return 0;
	if (end - p > MAX_CODE_BYTES)
		end = p + MAX_CODE_BYTES;
	if (!leb128__read(&p, end, &code, false))
		return 0;
	*attrs = p;
	return code;
}

/* The entry of abbreviation code @code, or NULL (out of memory). */
static struct die_reader_code *die_reader__code(struct die_reader *r, size_t code)
{
	struct die_reader_code *c;

	while (r->codes.nr <= code && (c = darray__push(&r->codes)))
		*c = (struct die_reader_code){};
	return code < r->codes.nr ? &r->codes.data[code] : NULL;
}

/*
 * Gives @die, which starts with abbreviation code @code, its abbreviation
 * before libdw looks it up: libdw takes a read-write lock for each lookup.
 * The first DIE of the CU with a code pays the lookup for the others.
 */
static struct die_reader_code *die_reader__set_abbrev(struct die_reader *r, Dwarf_Die *die,
						      size_t code)
{
	struct die_reader_code *c = die_reader__code(r, code);

	if (!c)
		return NULL;
	if (c->abbrev) {
		die->abbrev = c->abbrev;
		return c;
	}
	if (dwarf_tag(die) < 0 || !die->abbrev || die->abbrev == DWARF_END_ABBREV)
		return NULL;
	c->abbrev = die->abbrev;
	return c;
}

static void die_reader__abbrev(struct die_reader *r, Dwarf_Die *die)
{
	const unsigned char *attrs;
	size_t code = die_code(r, die, &attrs);

	if (code)
		die_reader__set_abbrev(r, die, code);
}

int die_reader__child(struct die_reader *r, Dwarf_Die *die, Dwarf_Die *child)
{
	int rc = dwarf_child(die, child);

	if (rc == 0)
		die_reader__abbrev(r, child);
	return rc;
}

int die_reader__sibling(struct die_reader *r, Dwarf_Die *die)
{
	int rc;

	/*
	 * A DIE without children whose attributes were just read ends where
	 * they do: its sibling follows, or the null entry that ends the list.
	 */
	if (die->addr == r->last_die && r->last_end && r->last_end < r->end) {
		if (*r->last_end == 0)
			return 1;
		*die = (Dwarf_Die){ .addr = (void *)r->last_end, .cu = r->cu };
		die_reader__abbrev(r, die);
		return 0;
	}
	rc = dwarf_siblingof(die, die);

	if (rc == 0)
		die_reader__abbrev(r, die);
	return rc;
}

/* Whether the plan can size @form; a wanted implicit constant is left to libdw. */
static bool form_planned(unsigned int form, bool wanted)
{
	if (form == DW_FORM_implicit_const)
		return !wanted;
	return form >= DW_FORM_addr && form <= DW_FORM_addrx4 && form != DW_FORM_indirect &&
	       form != 0x02; /* unused in DWARF 2 to 5 */
}

/* Makes the plan of an abbreviation from the first DIE of the CU that has it. */
struct plan_recorder {
	struct die_reader *r;
	struct die_reader_code *plan;
	int (*cb)(Dwarf_Attribute *attr, void *arg);
	void *arg;
};

static int plan_recorder__attr(Dwarf_Attribute *attr, void *arg)
{
	struct plan_recorder *rec = arg;
	unsigned int name = dwarf_whatattr(attr), form = dwarf_whatform(attr);
	bool wanted = rec->r->wanted(name);
	struct die_reader_spec *spec;

	if (wanted && rec->cb)
		rec->cb(attr, rec->arg);
	if (rec->plan->state != PLAN_NONE)
		return DWARF_CB_OK;
	if (!form_planned(form, wanted) || rec->plan->nr == UINT16_MAX ||
	    !(spec = darray__push(&rec->r->specs))) {
		rec->plan->state = PLAN_LIBDW;
		return DWARF_CB_OK;
	}
	*spec = (struct die_reader_spec){ .name = name, .form = form, .wanted = wanted };
	rec->plan->nr++;
	return DWARF_CB_OK;
}

/*
 * libdw reads the DIE as it always does, and the plan is what
 * dwarf_getattrs() goes through: dwarf_getattrcnt() and
 * dwarf_getabbrevattr_data() miscount abbreviations with implicit
 * constants in elfutils 0.188.
 */
static void die_reader__make_plan(struct die_reader *r, Dwarf_Die *die,
				  struct die_reader_code *plan,
				  int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg)
{
	struct plan_recorder rec = { r, plan, cb, arg };

	plan->first = r->specs.nr;
	plan->has_children = dwarf_abbrevhaschildren(die->abbrev) != 0;
	if (dwarf_getattrs(die, plan_recorder__attr, &rec, 0) != 1)
		plan->state = PLAN_LIBDW;
	else if (plan->state == PLAN_NONE)
		plan->state = PLAN_READY;
}

/*
 * The plan for @die's code, or NULL: *@done tells whether the DIE was read
 * while making the plan, else it is left to libdw.
 */
static const struct die_reader_code *die_reader__plan(struct die_reader *r, Dwarf_Die *die,
						      const unsigned char **attrs,
						      int (*cb)(Dwarf_Attribute *attr, void *arg),
						      void *arg, bool *done)
{
	size_t code = die_code(r, die, attrs);
	struct die_reader_code *plan = code ? die_reader__set_abbrev(r, die, code) : NULL;

	if (!plan)
		return NULL;
	if (plan->state == PLAN_NONE) {
		die_reader__make_plan(r, die, plan, cb, arg);
		*done = true;
		return NULL;
	}
	return plan->state == PLAN_READY ? plan : NULL;
}

/* The size of the value of @form at @p, or false when it runs past @end. */
static bool form_size(const struct die_reader *r, unsigned int form, const unsigned char *p,
		      const unsigned char *end, uint64_t *size)
{
	const unsigned char *q = p;
	uint64_t len;

	switch (form) {
	case DW_FORM_flag_present:
	case DW_FORM_implicit_const:
		*size = 0;
		return true;
	case DW_FORM_data1:
	case DW_FORM_ref1:
	case DW_FORM_flag:
	case DW_FORM_strx1:
	case DW_FORM_addrx1:
		*size = 1;
		break;
	case DW_FORM_data2:
	case DW_FORM_ref2:
	case DW_FORM_strx2:
	case DW_FORM_addrx2:
		*size = 2;
		break;
	case DW_FORM_strx3:
	case DW_FORM_addrx3:
		*size = 3;
		break;
	case DW_FORM_data4:
	case DW_FORM_ref4:
	case DW_FORM_ref_sup4:
	case DW_FORM_strx4:
	case DW_FORM_addrx4:
		*size = 4;
		break;
	case DW_FORM_data8:
	case DW_FORM_ref8:
	case DW_FORM_ref_sig8:
	case DW_FORM_ref_sup8:
		*size = 8;
		break;
	case DW_FORM_data16:
		*size = 16;
		break;
	case DW_FORM_addr:
		*size = r->addr_size;
		break;
	case DW_FORM_ref_addr:
		*size = r->version < 3 ? r->addr_size : r->offset_size;
		break;
	case DW_FORM_strp:
	case DW_FORM_line_strp:
	case DW_FORM_sec_offset:
	case DW_FORM_strp_sup:
		*size = r->offset_size;
		break;
	case DW_FORM_sdata:
	case DW_FORM_udata:
	case DW_FORM_ref_udata:
	case DW_FORM_strx:
	case DW_FORM_addrx:
	case DW_FORM_loclistx:
	case DW_FORM_rnglistx:
		if (!leb128__read(&q, end, &len, false))
			return false;
		*size = q - p;
		return true;
	case DW_FORM_string:
		q = memchr(p, '\0', end - p);
		if (!q)
			return false;
		*size = q - p + 1;
		return true;
	case DW_FORM_block1:
	case DW_FORM_block2:
	case DW_FORM_block4: {
		unsigned int n = form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4;

		if ((uint64_t)(end - p) < n)
			return false;
		*size = n + die_reader__fixed(p, n, r->big_endian);
		break;
	}
	case DW_FORM_block:
	case DW_FORM_exprloc:
		if (!leb128__read(&q, end, &len, false))
			return false;
		*size = (q - p) + len;
		break;
	default:
		return false;
	}
	return *size <= (uint64_t)(end - p);
}

/* By the plan: false when something is unusual, after calling @cb for none or some. */
static bool die_reader__read_planned(struct die_reader *r, Dwarf_Die *die,
				     int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg)
{
	const struct die_reader_code *plan;
	const unsigned char *p;
	bool done = false;
	uint16_t i;

	plan = die_reader__plan(r, die, &p, cb, arg, &done);
	if (!plan)
		return done;
	for (i = 0; i < plan->nr; i++) {
		const struct die_reader_spec *spec = &r->specs.data[plan->first + i];
		uint64_t size;

		if (!form_size(r, spec->form, p, r->end, &size))
			return false;
		if (spec->wanted) {
			Dwarf_Attribute attr = {
				.code = spec->name,
				.form = spec->form,
				.valp = (unsigned char *)p,
				.cu = die->cu,
			};

			cb(&attr, arg);
		}
		p += size;
	}
	r->last_die = die->addr;
	r->last_end = plan->has_children ? NULL : p;
	return true;
}

void die_reader__getattrs(struct die_reader *r, Dwarf_Die *die,
			  int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg)
{
	if (!die_reader__read_planned(r, die, cb, arg))
		dwarf_getattrs(die, cb, arg, 0);
}

int die_reader__scan(struct die_reader *r, Dwarf_Die *cu_die,
		     int (*fn)(void *ctx, Dwarf_Die *die, int parent_tag), void *ctx)
{
	const unsigned char *p = cu_die->addr;
	int tags[DIE_READER_SCAN_DEPTH];
	unsigned int depth = 0;

	if (!r->end || cu_die->cu != r->cu)
		return 1;
	while (p < r->end) {
		Dwarf_Die die = { .addr = (void *)p, .cu = r->cu };
		const struct die_reader_code *plan;
		const unsigned char *attrs;
		bool done = false;
		uint16_t i;
		int err;

		if (!*p) {
			/* A null entry ends the children of the DIE above. */
			if (!depth)
				return 1;
			p++;
			if (!--depth)
				return 0;
			continue;
		}
		plan = die_reader__plan(r, &die, &attrs, NULL, NULL, &done);
		if (done)
			plan = die_reader__plan(r, &die, &attrs, NULL, NULL, &done);
		if (!plan)
			return 1;
		for (i = 0; i < plan->nr; i++) {
			uint64_t size;

			if (!form_size(r, r->specs.data[plan->first + i].form, attrs, r->end,
				       &size))
				return 1;
			attrs += size;
		}
		if (depth) {
			err = fn(ctx, &die, tags[depth - 1]);
			if (err)
				return err;
		}
		if (plan->has_children) {
			if (depth == DIE_READER_SCAN_DEPTH)
				return 1;
			tags[depth++] = dwarf_tag(&die);
		} else if (!depth) {
			return 0; /* a unit without children */
		}
		p = attrs;
	}
	return 1;
}
