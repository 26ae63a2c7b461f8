// SPDX-License-Identifier: GPL-2.0-only
/*
 * The plans of die_reader (die_reader_plan.h), made from the unit's
 * abbreviation table in .debug_abbrev (DWARF 5, 7.5.3: a code, a tag, a
 * children byte, then pairs of attribute name and form, an implicit
 * constant's value after its form, up to a pair of zeros).
 *
 * The table is read as libdw reads it: lazily, an entry after the other,
 * up to the code looked for.  A code met twice, an entry that does not end
 * within the section, a form the plans do not size: the DIEs of that code,
 * or of every code not read yet, are left to libdw, which reads the table
 * again its own way and says what it makes of it.  No libdw call here.
 */
#include <dwarf.h>
#include <limits.h>

#include "die_reader.h"
#include "die_reader_plan.h"
#include "lib/dwarf_form.h"
#include "lib/leb128.h"

/* Whether the plan can size @form. */
static bool form_planned(uint64_t form)
{
	return form >= DW_FORM_addr && form <= DW_FORM_addrx4 && form != DW_FORM_indirect &&
	       form != 0x02; /* unused in DWARF 2 to 5 */
}

/*
 * Lists the wanted attributes of @plan, and where each value lies when no
 * size varies: a DIE of such a plan is then read without a look at the
 * others; and where its DW_AT_sibling lies, when no size before it varies,
 * for a walk past it.  False when out of memory.
 */
static bool die_reader__list_wanted(struct die_reader *r, struct die_reader_code *plan)
{
	struct die_reader_spec *slot;
	uint32_t at = 0;
	bool varied = false;
	uint16_t i;

	plan->first_wanted = r->wanted_specs.nr;
	plan->nr_wanted = 0;
	plan->sibling_at = NO_FIXED;
	for (i = 0; i < plan->nr; i++) {
		struct die_reader_spec *spec = &r->specs.data[plan->first + i];

		spec->at = at;
		if (i == plan->sibling && !varied)
			plan->sibling_at = at;
		if (spec->size != SIZE_VARIES)
			at += spec->size;
		else
			varied = true;
		if (!spec->op)
			continue;
		slot = darray__push(&r->wanted_specs);
		if (!slot)
			return false;
		*slot = *spec;
		plan->nr_wanted++;
	}
	return true;
}

/* Adds the attribute of @name and @form to @plan, being made; false when it cannot be planned. */
static bool die_reader__add_spec(struct die_reader *r, struct die_reader_code *plan, uint64_t name,
				 uint64_t form, const unsigned char *implicit)
{
	struct die_reader_spec *spec;

	/* A name of 0 (libdw reads it as an attribute) or past 16 bits is libdw's. */
	if (!name || name > UINT16_MAX || !form_planned(form) || plan->nr == UINT16_MAX ||
	    !(spec = darray__push(&r->specs)))
		return false;
	*spec = (struct die_reader_spec){
		.name = name,
		.form = form,
		.size = dwarf_form__fixed_size(form, r->addr_size, r->offset_size, r->version),
		.op = r->wanted(name, form),
		.implicit = implicit,
	};
	if (name == DW_AT_sibling && plan->sibling == NO_SIBLING)
		plan->sibling = plan->nr;
	if (spec->size == SIZE_VARIES)
		plan->fixed = NO_FIXED;
	else if (plan->fixed != NO_FIXED)
		plan->fixed += spec->size;
	plan->nr++;
	return true;
}

/*
 * Reads the next entry of the table into its code's plan.  False at the
 * table's end or at an entry that does not end within the section: the
 * rest of the table is then libdw's.
 */
static bool die_reader__read_abbrev(struct die_reader *r)
{
	const unsigned char *p = r->abbrev_next, *end = r->abbrev_end, *implicit;
	uint64_t code, tag, name, form, value;
	struct die_reader_code plan = { .sibling = NO_SIBLING, .first = r->specs.nr }, *c;
	bool children, usable;

	if (!leb128__read(&p, end, &code, false) || !code || !leb128__read(&p, end, &tag, false) ||
	    end - p < 2)
		goto stop;
	children = *p++ == DW_CHILDREN_yes;
	/* Codes past two bytes are read by libdw (die_reader.c's die_code()). */
	usable = code < DIE_READER_CODES && tag <= INT_MAX;
	for (;;) {
		if (!leb128__read(&p, end, &name, false) || !leb128__read(&p, end, &form, false))
			goto stop;
		if (!name && !form)
			break;
		implicit = NULL;
		if (form == DW_FORM_implicit_const) {
			implicit = p;
			if (!leb128__read(&p, end, &value, true))
				goto stop;
		}
		if (usable)
			usable = die_reader__add_spec(r, &plan, name, form, implicit);
	}
	r->abbrev_next = p;
	if (code >= DIE_READER_CODES)
		return true;
	c = die_reader__code(r, code);
	if (!c)
		goto stop;
	/* A code met twice in the table: libdw says which entry it reads. */
	if (c->state != PLAN_NONE) {
		c->state = PLAN_LIBDW;
		c->tag = -1;
		return true;
	}
	plan.tag = usable ? (int)tag : -1;
	plan.has_children = children;
	plan.state = usable && die_reader__list_wanted(r, &plan) ? PLAN_READY : PLAN_LIBDW;
	*c = plan;
	return true;
stop:
	r->abbrev_next = NULL;
	return false;
}

/* See die_reader_plan.h. */
struct die_reader_code *die_reader__read_plan(struct die_reader *r, size_t code)
{
	struct die_reader_code *c;

	if (!die_reader__code(r, code))
		return NULL;
	/* Reading an entry may move the codes: by index, not by pointer. */
	while (r->codes.data[code].state == PLAN_NONE && r->abbrev_next &&
	       die_reader__read_abbrev(r))
		;
	c = &r->codes.data[code];
	if (c->state == PLAN_NONE)
		*c = (struct die_reader_code){ .state = PLAN_LIBDW, .tag = -1 };
	return c;
}

/* See die_reader_plan.h. */
void die_reader__begin_abbrevs(struct die_reader *r, uint64_t abbrev_off)
{
	r->abbrev_next = r->abbrev && abbrev_off < (uint64_t)(r->abbrev_end - r->abbrev) ?
				 r->abbrev + abbrev_off :
				 NULL;
}
