// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where LTO makes the units one CU, the workers share its units out chunk
 * by chunk (dwarf_loader.h), and a chunk's DIEs refer into units of other
 * chunks (DW_FORM_ref_addr): a type a ThinLTO unit took from another, the
 * parameters of an abstract origin there.  Such a DIE is encoded into the
 * chunk that refers to it, as the types that units share are in a kernel
 * without LTO (each unit has its copy), and the chunks' dedup and the
 * merge's make them one.  So no worker waits for another, and what a
 * chunk holds depends on its units alone: the same bytes at every -j.
 *
 * A DIE is taken from another unit only where it is a type DIE of that
 * unit, as the unit's walk would meet it: each such unit's type DIEs are
 * listed once per encoder (by a walk of all its DIEs, cached for the run),
 * so that a reference into the middle of a DIE, or to a DIE that is no
 * type, is corrupt DWARF, never a type read from the wrong bytes.  A unit
 * that --lang_exclude or -X leaves out stands for no type: references into
 * it are void, as where upstream leaves it out of its CU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "btf_encoder_priv.h"
#include "dwarf_loader.h"
#include "lib/u32_sort.h"

/* What the encoder knows of a unit of another chunk. */
struct foreign_unit {
	uint64_t start, end; /* its offsets, as references number them */
	bool excluded; /* left out by the CU filter */
	bool rust; /* its language reorders members (btf_encoder__sort_members()) */
	Dwarf_Die cu_die;
	DARRAY(uint32_t) types; /* the offsets of its type DIEs, in order */
	DARRAY(uint32_t) enum_subprograms; /* of the subprograms its enumerations declare */
};

/*
 * With merged_cus: notes that the unit of @cu_die is the chunk's, so that
 * references into it are not taken for another chunk's.  Out of memory, a
 * unit not noted has its DIEs taken again where referred to: the same BTF.
 */
void btf_encoder__note_unit(struct btf_encoder *e, Dwarf_Die *cu_die)
{
	uint64_t start = die_ref_space__off(&e->in->ref_space, cu_die) - dwarf_cuoffset(cu_die);
	Dwarf *dwarf = dwarf_cu_getdwarf(cu_die->cu);
	struct unit_range *r;
	uint64_t next, local = dwarf_dieoffset(cu_die) - dwarf_cuoffset(cu_die);
	size_t header;

	if (dwarf_next_unit(dwarf, local, &next, &header, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    !(r = darray__push(&e->cu.units)))
		return;
	r->start = start;
	r->end = start + (next - local);
	/*
	 * The main file's units of a chunk follow each other (but for those
	 * the CU filter leaves out, whose DIEs are never mapped): their span's
	 * map is dense.
	 */
	if (start == local && start >= e->cu.map_limit) {
		if (!e->cu.map_limit)
			e->cu.map_base = start;
		e->cu.map_limit = r->end;
	}
}

/* The references number DIEs of the alternate file past .debug_info (die_attrs.h). */
static Dwarf *ref_dwarf(const struct btf_encoder *e, uint64_t *off)
{
	const struct die_ref_space *space = &e->in->ref_space;

	if (space->alt && *off >= space->alt_base) {
		*off -= space->alt_base;
		return space->alt;
	}
	return space->main;
}

/* Whether @off lies in one of the chunk's own units. */
static bool btf_encoder__in_chunk(const struct btf_encoder *e, uint32_t off)
{
	size_t i;

	for (i = 0; i < e->cu.units.nr; i++)
		if (off >= e->cu.units.data[i].start && off < e->cu.units.data[i].end)
			return true;
	return false;
}

static bool sorted_has(const uint32_t *v, size_t n, uint32_t x)
{
	return n && bsearch(&x, v, n, sizeof(x), u32__cmp);
}

/* Notes @die of @u if it is a type DIE, or a subprogram an enumeration declares. */
struct unit_index {
	struct btf_encoder *e;
	struct foreign_unit *u;
};

static int unit_index__note(void *ctx, Dwarf_Die *die, int parent_tag)
{
	struct unit_index *ui = ctx;
	int tag = dwarf_tag(die);
	uint32_t *slot;

	if (die_tag__is_type(tag))
		slot = darray__push(&ui->u->types);
	else if (tag == DW_TAG_subprogram && parent_tag == DW_TAG_enumeration_type)
		slot = darray__push(&ui->u->enum_subprograms);
	else
		return 0;
	if (!slot)
		return -ENOMEM;
	*slot = die_ref_space__off(&ui->e->in->ref_space, die);
	return 0;
}

/*
 * The same by libdw, for a unit whose bytes the reader's pass leaves to
 * it: each DIE's children, then its siblings, on a stack of parents.
 */
static int unit_index__libdw(struct unit_index *ui)
{
	DARRAY(Dwarf_Die) stack = {};
	Dwarf_Die die, child, *top;
	int rc, err = 0;

	rc = dwarf_child(&ui->u->cu_die, &die);
	while (rc == 0 && !err) {
		int parent = stack.nr ? dwarf_tag(&stack.data[stack.nr - 1]) : DW_TAG_compile_unit;

		err = unit_index__note(ui, &die, parent);
		if (err)
			break;
		rc = dwarf_child(&die, &child);
		if (rc == 0) {
			if (stack.nr == DIE_READER_SCAN_DEPTH || !(top = darray__push(&stack))) {
				err = stack.nr == DIE_READER_SCAN_DEPTH ?
					      btf_encoder__corrupt(ui->e, dwarf_dieoffset(&die),
								   "DIEs nest too deep") :
					      -ENOMEM;
				break;
			}
			*top = die;
			die = child;
			continue;
		}
		/* The next sibling, of this DIE or of the nearest parent that has one. */
		while (rc > 0 && (rc = dwarf_siblingof(&die, &die)) > 0 && stack.nr)
			die = stack.data[--stack.nr];
	}
	if (!err && rc < 0)
		err = btf_encoder__corrupt(ui->e, dwarf_dieoffset(&die),
					   "the DIE after it cannot be read");
	darray__free(&stack);
	return err;
}

/*
 * Lists @u's type DIEs and the subprograms its enumerations declare, in
 * order (so sorted): a pass over the unit's bytes (die_reader__scan()),
 * else a walk by libdw.
 */
static int foreign_unit__index(struct btf_encoder *e, struct foreign_unit *u)
{
	struct unit_index ui = { e, u };
	struct die_reader r;
	int rc;

	die_reader__init(&r, e->in->debug_info, e->in->debug_info_end, e->in->debug_abbrev,
			 e->in->debug_abbrev_end);
	die_reader__begin_cu(&r, &u->cu_die, e->in->big_endian, die_attrs__wanted);
	rc = die_reader__scan(&r, &u->cu_die, unit_index__note, &ui);
	die_reader__free(&r);
	if (rc != 1)
		return rc;
	u->types.nr = 0;
	u->enum_subprograms.nr = 0;
	return unit_index__libdw(&ui);
}

/*
 * The unit of the DIE at @off (in *@die), indexed the first time; NULL and
 * *@err when it cannot be read (the offset past the units: corrupt).
 */
static struct foreign_unit *btf_encoder__foreign_unit(struct btf_encoder *e, uint32_t off,
						      Dwarf_Die *die, int *err)
{
	uint64_t local = off, base, start, next;
	Dwarf *dwarf = ref_dwarf(e, &local);
	struct foreign_unit *u;
	Dwarf_Die cu_die;
	size_t header;
	uint32_t idx;

	base = off - local;
	if (!dwarf_offdie(dwarf, local, die) ||
	    !dwarf_cu_die(die->cu, &cu_die, NULL, NULL, NULL, NULL, NULL, NULL)) {
		*err = btf_encoder__corrupt(e, local,
					    "a type reference points there, past its units");
		return NULL;
	}
	start = dwarf_dieoffset(&cu_die) - dwarf_cuoffset(&cu_die);
	if (ptr_map__find(&e->foreign_index, (const void *)(uintptr_t)(base + start + 1), &idx))
		return &e->foreign_units.data[idx];
	u = darray__push(&e->foreign_units);
	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	memset(u, 0, sizeof(*u));
	u->cu_die = cu_die;
	u->start = base + start;
	u->end = dwarf_next_unit(dwarf, start, &next, &header, NULL, NULL, NULL, NULL, NULL,
				 NULL) == 0 ?
			 base + next :
			 u->start;
	u->excluded = dwarf_cu_filter__excludes(&e->in->conf->cu_filter, &cu_die);
	u->rust = dwarf_srclang(&cu_die) == DW_LANG_Rust;
	*err = ptr_map__set(&e->foreign_index, (const void *)(uintptr_t)(u->start + 1),
			    e->foreign_units.nr - 1);
	if (!*err && !u->excluded)
		*err = foreign_unit__index(e, u);
	return *err ? NULL : u;
}

/*
 * Encodes @die, a type DIE of unit @u, into the chunk: read through a
 * reader of its own (the CU's stays on the CU's unit), its references
 * numbered as any (global), nothing but types taken from it.
 */
static int btf_encoder__encode_in(struct btf_encoder *e, struct foreign_unit *u, Dwarf_Die *die,
				  int (*encode)(struct btf_encoder *e, Dwarf_Die *die))
{
	struct die_reader own = e->cu.reader;
	struct die_ref_ctx refs = e->cu.ref_ctx;
	bool rust = e->cu.members_by_offset;
	int err;

	e->cu.reader = e->foreign_reader;
	if (e->foreign_reader_unit != u->start + 1) {
		die_reader__begin_cu(&e->cu.reader, &u->cu_die, e->in->big_endian,
				     die_attrs__wanted);
		e->foreign_reader_unit = u->start + 1;
	}
	die_ref_ctx__init(&e->cu.ref_ctx, &u->cu_die, true, &e->in->ref_space);
	e->cu.members_by_offset = u->rust;
	e->cu.foreign = true;
	err = encode(e, die);
	e->cu.foreign = false;
	e->cu.members_by_offset = rust;
	e->cu.ref_ctx = refs;
	e->foreign_reader = e->cu.reader;
	e->cu.reader = own;
	return err;
}

/*
 * The DIE reference @ref stands for, if it is a DIE of another chunk's
 * unit that the chunk has not encoded yet: encodes it.  0 or a negative
 * errno (-EBADMSG: the reference is corrupt).
 */
static int btf_encoder__follow(struct btf_encoder *e, uint32_t ref,
			       int (*encode)(struct btf_encoder *e, Dwarf_Die *die))
{
	struct foreign_unit *u;
	uint32_t off;
	Dwarf_Die die;
	int err;

	if (!btf_encoder__ref_unmapped(e, ref, &off) || btf_encoder__in_chunk(e, off))
		return 0;
	u = btf_encoder__foreign_unit(e, off, &die, &err);
	if (!u || u->excluded)
		return err;
	if (!sorted_has(u->types.data, u->types.nr, off))
		return btf_encoder__corrupt(e, dwarf_dieoffset(&die),
					    "a type reference into another unit points there, "
					    "at no type DIE of it");
	return btf_encoder__encode_in(e, u, &die, encode);
}

int btf_encoder__encode_foreign(struct btf_encoder *e,
				int (*encode)(struct btf_encoder *e, Dwarf_Die *die))
{
	size_t i;
	int err = 0;

	/* What the functions and variables refer to (few), all of it. */
	for (i = 0; i < e->cu.funcs.nr && !err; i++)
		err = btf_encoder__follow(e, e->cu.funcs.data[i].ret_type, encode);
	for (i = 0; i < e->cu.params.nr && !err; i++) {
		err = btf_encoder__follow(e, e->cu.params.data[i].proto.type, encode);
		if (!err && e->cu.params.data[i].sig.member)
			err = btf_encoder__follow(e, e->cu.params.data[i].sig.member_type, encode);
	}
	for (i = e->cu.first_var; i < e->vars.nr && !err; i++)
		err = btf_encoder__follow(e, e->vars.data[i].type, encode);
	/* The types' references outside the chunk's span, as they grow. */
	for (i = 0; i < e->cu.remote_refs.nr && !err; i++)
		err = btf_encoder__follow(e, e->cu.remote_refs.data[i], encode);
	return err;
}

bool btf_encoder__foreign_enum_subprogram(struct btf_encoder *e, uint32_t off)
{
	struct foreign_unit *u;
	Dwarf_Die die;
	int err;

	if (btf_encoder__in_chunk(e, off))
		return false;
	u = btf_encoder__foreign_unit(e, off, &die, &err);
	return u && sorted_has(u->enum_subprograms.data, u->enum_subprograms.nr, off);
}

void btf_encoder__free_foreign(struct btf_encoder *e)
{
	size_t i;

	for (i = 0; i < e->foreign_units.nr; i++) {
		darray__free(&e->foreign_units.data[i].types);
		darray__free(&e->foreign_units.data[i].enum_subprograms);
	}
	darray__free(&e->foreign_units);
	ptr_map__free(&e->foreign_index);
	die_reader__free(&e->foreign_reader);
}
