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
static const unsigned char *cu_end(struct die_reader *r, Dwarf_Die *cu_die, Dwarf_Off *abbrev_off)
{
	Dwarf_Off off = dwarf_dieoffset(cu_die), start = off - dwarf_cuoffset(cu_die), next;
	const unsigned char *die = cu_die->addr;
	Dwarf *dwarf = dwarf_cu_getdwarf(cu_die->cu);
	size_t header_size;

	if (!r->info || die < r->info || die >= r->info_end ||
	    dwarf_next_unit(dwarf, start, &next, &header_size, NULL, abbrev_off, NULL, NULL, NULL,
			    NULL) != 0 ||
	    next <= off || next - off > (uint64_t)(r->info_end - die))
		return NULL;
	return die + (next - off);
}

void die_reader__begin_cu(struct die_reader *r, Dwarf_Die *cu_die, bool big_endian,
			  unsigned int (*wanted)(unsigned int at, unsigned int form))
{
	Dwarf_Half version = 0;
	Dwarf_Off abbrev_off = 0;
	uint8_t unit_type, addr_size = 0, offset_size = 0;

	r->cu = cu_die->cu;
	r->end = cu_end(r, cu_die, &abbrev_off);
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
	die_reader__begin_abbrevs(r, r->end ? abbrev_off : UINT64_MAX);
}

void die_reader__init(struct die_reader *r, const unsigned char *info,
		      const unsigned char *info_end, const unsigned char *abbrev,
		      const unsigned char *abbrev_end)
{
	*r = (struct die_reader){
		.info = info,
		.info_end = info ? info_end : NULL,
		.abbrev = abbrev,
		.abbrev_end = abbrev ? abbrev_end : NULL,
	};
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

/*
 * Remembers the code of the DIE just walked to, its tag and where its
 * attributes start: reading them next finds the plan at once.
 */
static void die_reader__abbrev(struct die_reader *r, Dwarf_Die *die)
{
	const unsigned char *attrs;
	size_t code = die_code(r, die, &attrs);
	const struct die_reader_code *c;

	r->walked_die = NULL;
	if (code && (c = die_reader__lookup(r, code)) && c->tag >= 0) {
		r->walked_die = die->addr;
		r->walked_code = code;
		r->walked_attrs = attrs;
		r->walked_tag = c->tag;
	}
}

/* die_reader__abbrev() where the inline walk_to() cannot say; 0. */
static __attribute__((noinline)) int die_reader__abbrev_slow(struct die_reader *r, Dwarf_Die *die)
{
	die_reader__abbrev(r, die);
	return 0;
}

/*
 * Walks to the DIE at @p, in the unit, into *@die, and notes it as
 * die_reader__abbrev() does: inline, without a call, where its code takes
 * one byte and its plan is ready (a kernel's 14 million DIEs, nearly all),
 * else by die_reader__abbrev(); 0.
 */
static inline __attribute__((always_inline)) int
die_reader__walk_to(struct die_reader *r, Dwarf_Die *die, const unsigned char *p)
{
	const struct die_reader_code *plan = die_reader__ready_at(r, p);

	*die = (Dwarf_Die){ .addr = (void *)p, .cu = r->cu };
	if (!plan)
		return die_reader__abbrev_slow(r, die);
	r->walked_die = p;
	r->walked_code = *p;
	r->walked_attrs = p + 1;
	r->walked_tag = plan->tag;
	return 0;
}

/*
 * The first child of a DIE whose attributes end at @end, as dwarf_child()
 * finds it: 1 when it has none.
 */
static inline __attribute__((always_inline)) int die_reader__first_child(struct die_reader *r,
									 const unsigned char *end,
									 bool has_children,
									 Dwarf_Die *child)
{
	const unsigned char *p;

	if (!has_children)
		return 1;
	/* A null entry first, even spelt with 0x80 bytes, is no child (dwarf_child()). */
	for (p = end; p < r->end && *p == 0x80; p++)
		;
	if (p >= r->end || !*p)
		return 1;
	return die_reader__walk_to(r, child, end);
}

/* Where the attributes of a DIE of @plan, which start at @p, end; false if past the unit. */
static inline bool die_reader__attrs_end(const struct die_reader *r,
					 const struct die_reader_code *plan, const unsigned char *p,
					 const unsigned char **end)
{
	uint64_t size;
	uint16_t i;

	if (plan->fixed != NO_FIXED) {
		if (plan->fixed > (uint64_t)(r->end - p))
			return false;
		*end = p + plan->fixed;
		return true;
	}
	for (i = 0; i < plan->nr; i++) {
		if (!die_reader__spec_size(r, &r->specs.data[plan->first + i], p, &size))
			return false;
		p += size;
	}
	*end = p;
	return true;
}

/* die_reader__child() of a DIE other than the one whose attributes were just read. */
static __attribute__((noinline)) int die_reader__child_slow(struct die_reader *r, Dwarf_Die *die,
							    Dwarf_Die *child)
{
	const struct die_reader_code *plan;
	const unsigned char *attrs;
	int rc;

	/* Past its attributes by its plan (a unit's DIE, whose are not read so). */
	plan = die_reader__plan(r, die, &attrs);
	if (plan && die_reader__attrs_end(r, plan, attrs, &attrs))
		return die_reader__first_child(r, attrs, plan->has_children, child);
	rc = dwarf_child(die, child);
	if (rc == 0)
		die_reader__abbrev(r, child);
	return rc;
}

int die_reader__child(struct die_reader *r, Dwarf_Die *die, Dwarf_Die *child)
{
	/* The DIE whose attributes were just read: its children follow them. */
	if (die->addr == r->last_die && die->cu == r->cu)
		return die_reader__first_child(r, r->last_end, r->last_has_children, child);
	return die_reader__child_slow(r, die, child);
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

/* See die_reader_plan.h. */
const struct die_reader_code *die_reader__plan(struct die_reader *r, Dwarf_Die *die,
					       const unsigned char **attrs)
{
	const struct die_reader_code *plan;
	size_t code;

	if (die_reader__walked(r, die))
		return die_reader__walked_plan(r, die, attrs);
	code = die_code(r, die, attrs);
	plan = code ? die_reader__lookup(r, code) : NULL;
	return plan && plan->state == PLAN_READY ? plan : NULL;
}

/* A die_reader__getattrs() callback and its argument. */
struct getattrs_cb {
	int (*cb)(Dwarf_Attribute *attr, void *arg);
	void *arg;
};

/* Hands @spec's value at @valp to the callback as libdw's attribute. */
static void hand_over(const struct die_reader_spec *spec, const unsigned char *valp, Dwarf_Die *die,
		      void *arg)
{
	const struct getattrs_cb *c = arg;
	Dwarf_Attribute attr = die_reader_spec__attr(spec, valp, die);

	c->cb(&attr, c->arg);
}

void die_reader__getattrs(struct die_reader *r, Dwarf_Die *die,
			  int (*cb)(Dwarf_Attribute *attr, void *arg), void *arg)
{
	struct getattrs_cb c = { cb, arg };

	if (!die_reader__read_planned(r, die, hand_over, &c))
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
	const struct die_reader_spec *spec;
	uint64_t size, off;
	uint16_t i;

	*sibling = false;
	if (plan->sibling == NO_SIBLING)
		return die_reader__attrs_end(r, plan, p, attrs);
	if (plan->sibling_at != NO_FIXED) {
		/* The values before it, of fixed sizes, end in the unit where it starts there. */
		if (plan->sibling_at > (uint64_t)(r->end - p))
			return false;
		p += plan->sibling_at;
	} else {
		for (i = 0; i < plan->sibling; i++) {
			if (!die_reader__spec_size(r, &r->specs.data[plan->first + i], p, &size))
				return false;
			p += size;
		}
	}
	spec = &r->specs.data[plan->first + plan->sibling];
	/* It must point past this DIE, and inside the unit. */
	if (!die_reader__spec_size(r, spec, p, &size) || !sibling_ref(r, spec->form, p, &off) ||
	    off >= (uint64_t)(r->end - r->start) || off <= (uint64_t)(die - r->start))
		return false;
	*attrs = r->start + off;
	*sibling = true;
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
		const unsigned char *attrs = p + 1;
		const struct die_reader_code *plan = die_reader__ready_at(r, p);
		bool sibling;

		if (!plan)
			plan = die_reader__plan(r, &die, &attrs);

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

/* die_reader__sibling() of a DIE other than a childless one whose attributes were just read. */
static __attribute__((noinline)) int die_reader__skip_to_sibling(struct die_reader *r,
								 Dwarf_Die *die)
{
	const unsigned char *next;
	int rc;

	if (r->end && r->start && die->cu == r->cu &&
	    (const unsigned char *)die->addr >= r->start &&
	    (const unsigned char *)die->addr < r->end) {
		switch (die_reader__skip(r, die->addr, &next)) {
		case SKIP_FOUND:
			return die_reader__walk_to(r, die, next);
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

int die_reader__sibling(struct die_reader *r, Dwarf_Die *die)
{
	const unsigned char *p = r->last_end;

	/*
	 * A DIE without children whose attributes were just read ends where
	 * they do: its sibling follows, or the null entry that ends the list.
	 * No call but for the unusual: most DIEs are met so.
	 */
	if (die->addr == r->last_die && !r->last_has_children && p < r->end)
		return *p ? die_reader__walk_to(r, die, p) : 1;
	return die_reader__skip_to_sibling(r, die);
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
		plan = die_reader__plan(r, &die, &attrs);
		if (!plan || !die_reader__attrs_end(r, plan, attrs, &attrs))
			return 1;
		if (depth) {
			err = fn(ctx, &die, tags[depth - 1]);
			if (err)
				return err;
		}
		if (plan->has_children) {
			if (depth == DIE_READER_SCAN_DEPTH)
				return 1;
			tags[depth++] = plan->tag;
		} else if (!depth) {
			return 0; /* a unit without children */
		}
		p = attrs;
	}
	return 1;
}

/* What the plan of a DIE's code says of one of its attributes. */
enum plan_says {
	PLAN_SAYS_NOTHING, /* no plan, or its bytes run out: libdw is to say */
	PLAN_SAYS_ABSENT, /* the code has no attribute of the name */
	PLAN_SAYS_FOUND,
};

/*
 * The form of @die's attribute @at and where its value lies, found by the
 * plan of its code (the unit's table is read once, for all its DIEs).  A
 * ready plan lists every attribute of the code, as dwarf_attr() walks them
 * (DW_FORM_indirect is never planned): what it does not list, the DIE has
 * not, and libdw need not load the unit's abbreviations to say so.
 */
static enum plan_says die_reader__value(struct die_reader *r, Dwarf_Die *die, unsigned int at,
					unsigned int *form, const unsigned char **valp)
{
	const struct die_reader_code *plan = die_reader__plan(r, die, valp);
	const struct die_reader_spec *spec;
	uint64_t size;
	uint16_t i;

	if (!plan)
		return PLAN_SAYS_NOTHING;
	for (i = 0; i < plan->nr; i++) {
		spec = &r->specs.data[plan->first + i];
		if (!die_reader__spec_size(r, spec, *valp, &size))
			return PLAN_SAYS_NOTHING;
		/* The first of its name, as dwarf_attr() finds it. */
		if (spec->name == at) {
			*form = spec->form;
			*valp = spec->implicit ?: *valp;
			return PLAN_SAYS_FOUND;
		}
		*valp += size;
	}
	return PLAN_SAYS_ABSENT;
}

int die_reader__lang(struct die_reader *r, Dwarf_Die *cu_die)
{
	const unsigned char *valp;
	unsigned int form;
	uint64_t v;

	/* dwarf_srclang() takes what dwarf_formudata() reads, as an int. */
	if (die_reader__value(r, cu_die, DW_AT_language, &form, &valp) == PLAN_SAYS_FOUND &&
	    die_reader__constant(form, valp,
				 form == DW_FORM_implicit_const ? r->abbrev_end : r->end,
				 r->big_endian, &v))
		return (int)v;
	return dwarf_srclang(cu_die);
}

Dwarf_Attribute *die_reader__attr(struct die_reader *r, Dwarf_Die *die, unsigned int at,
				  Dwarf_Attribute *attr)
{
	const unsigned char *valp;
	unsigned int form;

	switch (die_reader__value(r, die, at, &form, &valp)) {
	case PLAN_SAYS_NOTHING:
		return dwarf_attr(die, at, attr);
	case PLAN_SAYS_ABSENT:
		return NULL;
	case PLAN_SAYS_FOUND:
		break;
	}
	*attr = (Dwarf_Attribute){
		.code = at,
		.form = form,
		.valp = (unsigned char *)valp,
		.cu = die->cu,
	};
	return attr;
}

int die_reader__tag_of(struct die_reader *r, Dwarf_Die *die)
{
	const struct die_reader_code *plan;
	const unsigned char *attrs;

	if (die_reader__walked(r, die))
		return r->walked_tag;
	plan = die_reader__plan(r, die, &attrs);
	return plan && plan->tag >= 0 ? plan->tag : dwarf_tag(die);
}
