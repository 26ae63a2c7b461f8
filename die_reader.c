// SPDX-License-Identifier: GPL-2.0-only
/* Reading a CU's DIEs with fewer libdw calls: see die_reader.h. */
#include <dwarf.h>
#include <string.h>

#include "die_reader.h"
#include "die_reader_plan.h"
#include "lib/dwarf_form.h"
#include "lib/leb128.h"

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
	r->start = r->end ? (const unsigned char *)cu_die->addr - dwarf_cuoffset(cu_die) : NULL;
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
	r->wanted_specs.nr = 0;
	r->last_die = NULL;
	r->walked_die = NULL;
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
	darray__free(&r->wanted_specs);
}

/* The abbreviation code @die starts with, and where its attributes start; 0 if unusual. */
static size_t die_code(const struct die_reader *r, Dwarf_Die *die, const unsigned char **attrs)
{
	const unsigned char *p = die->addr, *end = r->end;
	uint64_t code;

	if (!end || die->cu != r->cu || p >= end)
		return 0;
	/* Most codes take one byte. */
	if (*p < 0x80) {
		*attrs = p + 1;
		return *p;
	}
	if (end - p > MAX_CODE_BYTES)
		end = p + MAX_CODE_BYTES;
	if (!leb128__read(&p, end, &code, false))
		return 0;
	*attrs = p;
	return code;
}

/* The entry of abbreviation code @code, or NULL (out of memory). */
static inline struct die_reader_code *die_reader__code(struct die_reader *r, size_t code)
{
	struct die_reader_code *c;

	if (code < r->codes.nr)
		return &r->codes.data[code];
	while (r->codes.nr <= code && (c = darray__push(&r->codes)))
		*c = (struct die_reader_code){};
	return code < r->codes.nr ? &r->codes.data[code] : NULL;
}

/* The first DIE of the unit with the code of @c: libdw looks its abbreviation up. */
static struct die_reader_code *die_reader__first_abbrev(Dwarf_Die *die, struct die_reader_code *c)
{
	int tag = dwarf_tag(die);

	if (tag < 0 || !die->abbrev || die->abbrev == DWARF_END_ABBREV)
		return NULL;
	c->abbrev = die->abbrev;
	c->tag = tag;
	return c;
}

/*
 * Gives @die, which starts with abbreviation code @code, its abbreviation
 * before libdw looks it up: libdw takes a read-write lock for each lookup.
 * The first DIE of the CU with a code pays the lookup for the others.
 */
static inline struct die_reader_code *die_reader__set_abbrev(struct die_reader *r, Dwarf_Die *die,
							     size_t code)
{
	struct die_reader_code *c = die_reader__code(r, code);

	if (!c)
		return NULL;
	if (c->abbrev) {
		die->abbrev = c->abbrev;
		return c;
	}
	return die_reader__first_abbrev(die, c);
}

/*
 * Gives the DIE just walked to its abbreviation, and remembers its code and
 * where its attributes start: reading them next finds the plan at once.
 */
static void die_reader__abbrev(struct die_reader *r, Dwarf_Die *die)
{
	const unsigned char *attrs;
	size_t code = die_code(r, die, &attrs);
	const struct die_reader_code *c;

	r->walked_die = NULL;
	if (code && (c = die_reader__set_abbrev(r, die, code))) {
		r->walked_die = die->addr;
		r->walked_code = code;
		r->walked_attrs = attrs;
		r->walked_tag = c->tag;
	}
}

int die_reader__child(struct die_reader *r, Dwarf_Die *die, Dwarf_Die *child)
{
	const unsigned char *p;
	int rc;

	/* The DIE whose attributes were just read: its children follow them. */
	if (die->addr == r->last_die && die->cu == r->cu) {
		if (!r->last_has_children)
			return 1;
		/* A null entry first, even spelt with 0x80 bytes, is no child (dwarf_child()). */
		for (p = r->last_end; p < r->end && *p == 0x80; p++)
			;
		if (p >= r->end || !*p)
			return 1;
		*child = (Dwarf_Die){ .addr = (void *)r->last_end, .cu = r->cu };
		die_reader__abbrev(r, child);
		return 0;
	}
	rc = dwarf_child(die, child);
	if (rc == 0)
		die_reader__abbrev(r, child);
	return rc;
}

/* See die_reader_plan.h. */
bool die_reader__varying_size(const struct die_reader *r, unsigned int form, const unsigned char *p,
			      const unsigned char *end, uint64_t *size)
{
	const unsigned char *q = p;
	uint64_t len;
	unsigned int n;

	switch (form) {
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
	case DW_FORM_block4:
		n = form == DW_FORM_block1 ? 1 : form == DW_FORM_block2 ? 2 : 4;
		if ((uint64_t)(end - p) < n)
			return false;
		*size = n + die_reader__fixed(p, n, r->big_endian);
		break;
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

/* Whether the plan can size @form. */
static bool form_planned(unsigned int form)
{
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
	if (!form_planned(form) || rec->plan->nr == UINT16_MAX ||
	    !(spec = darray__push(&rec->r->specs))) {
		rec->plan->state = PLAN_LIBDW;
		return DWARF_CB_OK;
	}
	*spec = (struct die_reader_spec){
		.name = name,
		.form = form,
		.size = dwarf_form__fixed_size(form, rec->r->addr_size, rec->r->offset_size,
					       rec->r->version),
		.wanted = wanted,
		.implicit = form == DW_FORM_implicit_const ? attr->valp : NULL
	};
	if (name == DW_AT_sibling && rec->plan->sibling == NO_SIBLING)
		rec->plan->sibling = rec->plan->nr;
	if (spec->size == SIZE_VARIES)
		rec->plan->fixed = NO_FIXED;
	else if (rec->plan->fixed != NO_FIXED)
		rec->plan->fixed += spec->size;
	rec->plan->nr++;
	return DWARF_CB_OK;
}

/*
 * Lists the wanted attributes of @plan, and where each value lies when no
 * size varies: a DIE of such a plan is then read without a look at the
 * others.  False when out of memory.
 */
static bool die_reader__list_wanted(struct die_reader *r, struct die_reader_code *plan)
{
	uint32_t at = 0, *slot;
	uint16_t i;

	plan->first_wanted = r->wanted_specs.nr;
	plan->nr_wanted = 0;
	for (i = 0; i < plan->nr; i++) {
		struct die_reader_spec *spec = &r->specs.data[plan->first + i];

		spec->at = at;
		if (spec->size != SIZE_VARIES)
			at += spec->size;
		if (!spec->wanted)
			continue;
		slot = darray__push(&r->wanted_specs);
		if (!slot)
			return false;
		*slot = plan->first + i;
		plan->nr_wanted++;
	}
	return true;
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
	plan->sibling = NO_SIBLING;
	plan->fixed = 0;
	plan->has_children = dwarf_abbrevhaschildren(die->abbrev) != 0;
	if (dwarf_getattrs(die, plan_recorder__attr, &rec, 0) != 1)
		plan->state = PLAN_LIBDW;
	else if (plan->state == PLAN_NONE)
		plan->state = die_reader__list_wanted(r, plan) ? PLAN_READY : PLAN_LIBDW;
}

/* See die_reader_plan.h. */
const struct die_reader_code *die_reader__plan(struct die_reader *r, Dwarf_Die *die,
					       const unsigned char **attrs,
					       int (*cb)(Dwarf_Attribute *attr, void *arg),
					       void *arg, bool *done)
{
	size_t code;
	struct die_reader_code *plan;

	if (die_reader__walked(r, die) && die->abbrev) {
		*attrs = r->walked_attrs;
		plan = &r->codes.data[r->walked_code];
	} else {
		code = die_code(r, die, attrs);
		plan = code ? die_reader__set_abbrev(r, die, code) : NULL;
	}

	if (!plan)
		return NULL;
	if (plan->state == PLAN_NONE) {
		die_reader__make_plan(r, die, plan, cb, arg);
		*done = true;
		return NULL;
	}
	return plan->state == PLAN_READY ? plan : NULL;
}

/*
 * The plan of @die for a walk that reads no value, made first if need be,
 * or NULL: the DIE is then left to libdw.
 */
static const struct die_reader_code *die_reader__walk_plan(struct die_reader *r, Dwarf_Die *die,
							   const unsigned char **attrs)
{
	const struct die_reader_code *plan;
	bool done = false;

	plan = die_reader__plan(r, die, attrs, NULL, NULL, &done);
	if (done)
		plan = die_reader__plan(r, die, attrs, NULL, NULL, &done);
	return plan;
}

void die_reader__getattrs(struct die_reader *r, Dwarf_Die *die,
			  int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg)
{
	if (!die_reader__read_planned(r, die, cb, arg))
		dwarf_getattrs(die, cb, arg, 0);
}

/* How die_reader__skip() ends. */
enum skip_result {
	SKIP_FOUND, /* a sibling follows */
	SKIP_NONE, /* the list of siblings ends */
	SKIP_LIBDW, /* something is unusual: dwarf_siblingof() is to say */
};

/*
 * The value of the DW_AT_sibling of form @form at @p, whose bounds the
 * plan checked: dwarf_siblingof() reads it with dwarf_formref(), so only
 * the fixed-size unit references are read here.
 */
static bool sibling_ref(const struct die_reader *r, unsigned int form, const unsigned char *p,
			uint64_t *off)
{
	unsigned int size;

	switch (form) {
	case DW_FORM_ref1:
		size = 1;
		break;
	case DW_FORM_ref2:
		size = 2;
		break;
	case DW_FORM_ref4:
		size = 4;
		break;
	case DW_FORM_ref8:
		size = 8;
		break;
	default:
		return false;
	}
	*off = die_reader__fixed(p, size, r->big_endian);
	return true;
}

/*
 * Where the DIE at @die, of plan @plan, whose attributes start at *@attrs,
 * has dwarf_siblingof() go next: *@sibling tells whether its DW_AT_sibling
 * says so, else *@attrs is moved past them.  False where libdw is to say.
 */
static bool die_reader__past_attrs(const struct die_reader *r, const struct die_reader_code *plan,
				   const unsigned char *die, const unsigned char **attrs,
				   bool *sibling)
{
	const unsigned char *p = *attrs;
	uint16_t i, nr = plan->sibling == NO_SIBLING ? plan->nr : plan->sibling;
	uint64_t size, off;

	*sibling = false;
	if (plan->sibling == NO_SIBLING && plan->fixed != NO_FIXED) {
		if (plan->fixed > (uint64_t)(r->end - p))
			return false;
		*attrs = p + plan->fixed;
		return true;
	}
	for (i = 0; i < nr; i++) {
		if (!die_reader__spec_size(r, &r->specs.data[plan->first + i], p, &size))
			return false;
		p += size;
	}
	if (plan->sibling != NO_SIBLING) {
		const struct die_reader_spec *spec = &r->specs.data[plan->first + nr];

		/* It must point past this DIE, and inside the unit. */
		if (!die_reader__spec_size(r, spec, p, &size) ||
		    !sibling_ref(r, spec->form, p, &off) || off >= (uint64_t)(r->end - r->start) ||
		    off <= (uint64_t)(die - r->start))
			return false;
		p = r->start + off;
		*sibling = true;
	}
	*attrs = p;
	return true;
}

/*
 * Where the DIE after the one at @p, and all its children, starts, found
 * as dwarf_siblingof() finds it (its DW_AT_sibling, else past its
 * attributes and, where it has children, theirs, down to the null entry
 * that ends them), by the plans instead of libdw's lookups for each DIE.
 * What libdw would take for corrupt is left to libdw, to say it.
 */
static enum skip_result die_reader__skip(struct die_reader *r, const unsigned char *p,
					 const unsigned char **next)
{
	unsigned int level = 0;

	do {
		Dwarf_Die die = { .addr = (void *)p, .cu = r->cu };
		const unsigned char *attrs;
		const struct die_reader_code *plan = die_reader__walk_plan(r, &die, &attrs);
		bool sibling;

		if (!plan || !die_reader__past_attrs(r, plan, p, &attrs, &sibling))
			return SKIP_LIBDW;
		p = attrs;
		if (!sibling && plan->has_children)
			level++;
		/* Null entries end the children of the DIEs above. */
		for (;;) {
			if (p >= r->end)
				return SKIP_NONE;
			if (*p)
				break;
			if (level-- == 0)
				return SKIP_NONE;
			p++;
		}
	} while (level > 0);
	*next = p;
	return SKIP_FOUND;
}

int die_reader__sibling(struct die_reader *r, Dwarf_Die *die)
{
	const unsigned char *next;
	int rc;

	/*
	 * A DIE without children whose attributes were just read ends where
	 * they do: its sibling follows, or the null entry that ends the list.
	 */
	if (die->addr == r->last_die && !r->last_has_children && r->last_end < r->end) {
		if (*r->last_end == 0)
			return 1;
		*die = (Dwarf_Die){ .addr = (void *)r->last_end, .cu = r->cu };
		die_reader__abbrev(r, die);
		return 0;
	}
	if (r->end && r->start && die->cu == r->cu &&
	    (const unsigned char *)die->addr >= r->start &&
	    (const unsigned char *)die->addr < r->end) {
		switch (die_reader__skip(r, die->addr, &next)) {
		case SKIP_FOUND:
			*die = (Dwarf_Die){ .addr = (void *)next, .cu = r->cu };
			die_reader__abbrev(r, die);
			return 0;
		case SKIP_NONE:
			return 1;
		case SKIP_LIBDW:
			break;
		}
	}
	rc = dwarf_siblingof(die, die);

	if (rc == 0)
		die_reader__abbrev(r, die);
	return rc;
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
		plan = die_reader__walk_plan(r, &die, &attrs);
		if (!plan)
			return 1;
		if (plan->fixed != NO_FIXED) {
			if (plan->fixed > (uint64_t)(r->end - attrs))
				return 1;
			attrs += plan->fixed;
		}
		for (i = 0; plan->fixed == NO_FIXED && i < plan->nr; i++) {
			uint64_t size;

			if (!die_reader__spec_size(r, &r->specs.data[plan->first + i], attrs,
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
