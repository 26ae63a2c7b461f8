/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DIE_READER_PLAN_H_
#define _DIE_READER_PLAN_H_ 1

/*
 * The plans of die_reader (die_reader.h): what it knows of each
 * abbreviation code of the CU, and the reading of a DIE's attributes by its
 * plan, inline so that a reader whose callback is known at compile time
 * (die_attrs.c) has it inlined.  For die_reader.c and die_attrs.c alone.
 */
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "die_reader.h"
#include "lib/dwarf_form.h"

/* One attribute of an abbreviation: its name and form, and whether the callback wants it. */
struct die_reader_spec {
	uint16_t name;
	uint16_t form;
	uint8_t size; /* of the value, SIZE_VARIES when the bytes say */
	uint8_t op; /* what r->wanted() says of it: 0, not wanted */
	uint32_t at; /* where its value lies past the code, when the plan's sizes are fixed */
	/*
	 * Of a DW_FORM_implicit_const: its value, in the abbreviation, where
	 * libdw's attribute points (dwarf_getattrs()), for every DIE of the code.
	 */
	const unsigned char *implicit;
};

#define SIZE_VARIES DWARF_FORM_VARIES
/* A plan's fixed when a value's size varies, its sibling when it has no DW_AT_sibling. */
#define NO_FIXED UINT32_MAX
#define NO_SIBLING UINT16_MAX

enum plan_state {
	PLAN_NONE, /* its entry not read yet */
	PLAN_READY,
	PLAN_LIBDW, /* the DIEs of the code are left to libdw */
};

/*
 * The codes a reader keeps a plan for: those of one or two ULEB128 bytes
 * (a DIE whose code takes more is libdw's).
 */
#define DIE_READER_CODES 0x4000

/* What the reader knows of an abbreviation code of the CU; all zero: nothing yet. */
struct die_reader_code {
	int tag; /* the abbreviation's, as dwarf_tag() says; -1: libdw is to say */
	uint32_t first; /* its plan: nr attributes in specs from first */
	uint16_t nr;
	uint8_t state; /* enum plan_state */
	bool has_children;
	uint16_t sibling; /* which attribute is DW_AT_sibling */
	/* Where its value lies past the code, when no size before it varies; else NO_FIXED. */
	uint32_t sibling_at;
	uint32_t fixed; /* the size of all the values, when none varies */
	/* Its wanted attributes: nr_wanted copies of its specs, in wanted_specs from this on. */
	uint32_t first_wanted;
	uint16_t nr_wanted;
};

/*
 * The size of the value of @form at @p, which varies, or false when it
 * runs past @end.
 */
bool die_reader__varying_size(const struct die_reader *r, unsigned int form, const unsigned char *p,
			      const unsigned char *end, uint64_t *size);

/* The size of the value of @spec at @p, or false when it runs past the unit. */
static inline bool die_reader__spec_size(const struct die_reader *r,
					 const struct die_reader_spec *spec, const unsigned char *p,
					 uint64_t *size)
{
	if (spec->size == SIZE_VARIES)
		return die_reader__varying_size(r, spec->form, p, r->end, size);
	*size = spec->size;
	return spec->size <= r->end - p;
}

/* The plan for @die's code, where its attributes start in *@attrs, or NULL: libdw is to read it. */
const struct die_reader_code *die_reader__plan(struct die_reader *r, Dwarf_Die *die,
					       const unsigned char **attrs);

/* The entry of abbreviation code @code (below DIE_READER_CODES), or NULL (out of memory). */
static inline struct die_reader_code *die_reader__code(struct die_reader *r, size_t code)
{
	struct die_reader_code *c;

	if (code < r->codes.nr)
		return &r->codes.data[code];
	while (r->codes.nr <= code && (c = darray__push(&r->codes)))
		*c = (struct die_reader_code){};
	return code < r->codes.nr ? &r->codes.data[code] : NULL;
}

/* die_reader__lookup() the first time @code is met (die_reader_abbrev.c). */
struct die_reader_code *die_reader__read_plan(struct die_reader *r, size_t code);

/*
 * The entry of code @code (below DIE_READER_CODES), its plan made from the
 * unit's abbreviation table, read up to it the first time; NULL when out of
 * memory.  A code not found, or not planned, is PLAN_LIBDW.  Inline: a
 * lookup for each DIE.
 */
static inline struct die_reader_code *die_reader__lookup(struct die_reader *r, size_t code)
{
	if (code < r->codes.nr && r->codes.data[code].state != PLAN_NONE)
		return &r->codes.data[code];
	return die_reader__read_plan(r, code);
}

/*
 * The ready plan of the DIE at @p, in the reader's unit, whose code takes
 * one byte (its attributes then start at @p + 1), or NULL: inline, for a
 * walk over the unit's bytes, die_reader__plan() then to say.  Code 0's
 * entry is never ready (die_code() is 0 for it, and no plan is read for
 * it).
 */
static inline const struct die_reader_code *die_reader__ready_at(const struct die_reader *r,
								 const unsigned char *p)
{
	size_t code = *p;

	if (code >= 0x80 || code >= r->codes.nr || r->codes.data[code].state != PLAN_READY)
		return NULL;
	return &r->codes.data[code];
}

/* Starts reading the abbreviation table at @abbrev_off in .debug_abbrev for a new unit. */
void die_reader__begin_abbrevs(struct die_reader *r, uint64_t abbrev_off);

/*
 * The ready plan of the DIE the walk just met, where its attributes start
 * in *@attrs, or NULL: die_reader__plan() is to say.  Inline, the common
 * case of a DIE read right after the walk reached it.
 */
static inline const struct die_reader_code *
die_reader__walked_plan(const struct die_reader *r, Dwarf_Die *die, const unsigned char **attrs)
{
	const struct die_reader_code *plan;

	if (!die_reader__walked(r, die))
		return NULL;
	plan = &r->codes.data[r->walked_code];
	if (plan->state != PLAN_READY)
		return NULL;
	*attrs = r->walked_attrs;
	return plan;
}

/* @spec's value at @valp, of @die, as libdw's attribute. */
static inline Dwarf_Attribute die_reader_spec__attr(const struct die_reader_spec *spec,
						    const unsigned char *valp, const Dwarf_Die *die)
{
	return (Dwarf_Attribute){
		.code = spec->name,
		.form = spec->form,
		.valp = (unsigned char *)valp,
		.cu = die->cu,
	};
}

/*
 * What die_reader__read_planned() calls for each wanted attribute: its
 * @spec, where its value lies (@valp, in the DIE, or in the abbreviation
 * for an implicit constant), the DIE, and the caller's @arg.
 */
typedef void (*die_reader_spec_fn)(const struct die_reader_spec *spec, const unsigned char *valp,
				   Dwarf_Die *die, void *arg);

/*
 * Reads @die's wanted attributes by its plan, handing each to @cb; false
 * when something is unusual, after calling @cb for none or some.  Inline:
 * a caller whose @cb is known has it inlined, no call per attribute, and
 * may switch on the spec's op (die_attrs__get()).
 */
static inline __attribute__((always_inline)) bool
die_reader__read_planned(struct die_reader *r, Dwarf_Die *die, die_reader_spec_fn cb, void *arg)
{
	const struct die_reader_spec *spec, *last;
	const struct die_reader_code *plan;
	const unsigned char *p;
	uint64_t size;

	plan = die_reader__walked_plan(r, die, &p) ?: die_reader__plan(r, die, &p);
	if (!plan)
		return false;
	if (plan->fixed != NO_FIXED) {
		/* No size varies: straight to the wanted values, copied in a row. */
		if (plan->fixed > (uint64_t)(r->end - p))
			return false;
		spec = &r->wanted_specs.data[plan->first_wanted];
		for (last = spec + plan->nr_wanted; spec < last; spec++)
			cb(spec, spec->implicit ?: p + spec->at, die, arg);
		p += plan->fixed;
	} else {
		spec = &r->specs.data[plan->first];
		for (last = spec + plan->nr; spec < last; spec++) {
			if (!die_reader__spec_size(r, spec, p, &size))
				return false;
			if (spec->op)
				cb(spec, spec->implicit ?: p, die, arg);
			p += size;
		}
	}
	r->last_die = die->addr;
	r->last_end = p;
	r->last_has_children = plan->has_children;
	return true;
}

#endif /* _DIE_READER_PLAN_H_ */
