// SPDX-License-Identifier: GPL-2.0-only
/*
 * The type references of the CU being encoded (see btf_encoder_priv.h):
 * which DIE stands for which type, the references noted for the type-ID
 * fields of the CU's types, and their resolution once the CU is walked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_encoder_priv.h"
#include "lib/btf_types.h"
#include "lib/populate.h"
#include "lib/zpages.h"

/* Marks a slot of the DIE map as holding a reference for this CU. */
#define MAP_SET 0x80000000u

/* ---- the DIE -> type reference map of the current CU ---- */

/* The key of DIE offset @off in the sparse map: ptr_map takes no NULL. */
static const void *sparse_key(uint32_t off)
{
	return (const void *)((uintptr_t)off + 1);
}

int btf_encoder__note_remote(struct btf_encoder *e, uint32_t ref)
{
	uint32_t *slot, off = ref & REF_OFF_MASK;

	if (!e->in->merged_cus || !(ref & REF_DIE) || ref == REF_INDEX || ref == REF_BAD ||
	    (off >= e->cu.map_base && off < e->cu.map_limit))
		return 0;
	slot = darray__push(&e->cu.remote_refs);
	if (!slot)
		return -ENOMEM;
	*slot = ref;
	return 0;
}

/*
 * The index of DIE offset @off in the dense map, or false for the sparse
 * map: CU-relative offsets are dense; with global ones, those of the
 * chunk's units are where the units are one (merged_cus: their span), the
 * others (another chunk's units, the alternate file's, partial units)
 * sparse.
 */
static bool dense_index(const struct btf_encoder *e, uint32_t off, uint32_t *idx)
{
	if (!e->in->global_refs) {
		*idx = off;
		return true;
	}
	if (off < e->cu.map_base || off >= e->cu.map_limit)
		return false;
	*idx = off - e->cu.map_base;
	return true;
}

/*
 * Makes the dense map hold index @idx.  The new map's pages come zeroed
 * (zpages.h): only the slots set, which the CU's refs list, are copied, and
 * a first CU or chunk as large as the largest costs its faults once.
 */
static int btf_encoder__grow_map(struct btf_encoder *e, uint32_t idx)
{
	size_t size = e->cu.map_size ? e->cu.map_size * 2 : 1 << 16, i;
	uint32_t *map;

	while (size <= idx)
		size *= 2;
	map = zpages__alloc(size * sizeof(*map));
	if (!map)
		return -ENOMEM;
	for (i = 0; i < e->cu.refs.nr; i++)
		map[e->cu.refs.data[i]] = e->cu.map[e->cu.refs.data[i]];
	zpages__free(e->cu.map, e->cu.map_size * sizeof(*map));
	e->cu.map = map;
	e->cu.map_size = size;
	return 0;
}

void btf_encoder__map_unit(struct btf_encoder *e, size_t size)
{
	if (e->in->global_refs || size <= e->cu.map_size || btf_encoder__grow_map(e, size - 1))
		return;
	populate__write(e->cu.map, size * sizeof(*e->cu.map));
}

bool die_tag__is_type(int tag)
{
	static const bool types[DW_TAG_NR_STD] = {
#define TYPE_TAGS(tag, encode, refusal, type) [DW_TAG_##tag] = type,
		DIE_TAGS(TYPE_TAGS)
#undef TYPE_TAGS
	};

	return tag >= 0 && tag < DW_TAG_NR_STD && types[tag];
}

int btf_encoder__map(struct btf_encoder *e, Dwarf_Die *die, uint32_t ref)
{
	uint32_t *slot, off = btf_encoder__die_off(e, die), idx;

	/* A DIE that stands for the type of another (transparent) may name a remote one. */
	if (btf_encoder__note_remote(e, ref))
		return -ENOMEM;
	if (!dense_index(e, off, &idx))
		return ptr_map__set(&e->cu.sparse_map, sparse_key(off), ref);
	if (idx >= e->cu.map_size && btf_encoder__grow_map(e, idx))
		return -ENOMEM;
	slot = darray__push(&e->cu.refs);
	if (!slot)
		return -ENOMEM;
	*slot = idx;
	e->cu.map[idx] = ref | MAP_SET;
	return 0;
}

/* What DIE offset @off stands for, or false when it stands for nothing encoded. */
static bool btf_encoder__lookup(const struct btf_encoder *e, uint32_t off, uint32_t *ref)
{
	uint32_t idx;

	if (!dense_index(e, off, &idx))
		return ptr_map__find(&e->cu.sparse_map, sparse_key(off), ref);
	if (idx >= e->cu.map_size || !(e->cu.map[idx] & MAP_SET))
		return false;
	*ref = e->cu.map[idx] & ~MAP_SET;
	return true;
}

void btf_encoder__clear_map(struct btf_encoder *e)
{
	size_t i;

	for (i = 0; i < e->cu.refs.nr; i++)
		e->cu.map[e->cu.refs.data[i]] = 0;
	e->cu.refs.nr = 0;
	ptr_map__clear(&e->cu.sparse_map);
}

/*
 * Of the items (members, parameters) whose references were noted from
 * @first on, a reader sees the first vlen, which past 65,535 wraps (see
 * btf_encoder__add_field()): the others' references go.
 */
void btf_encoder__wrap_refs(struct btf_encoder *e, size_t first)
{
	size_t nr = e->cu.type_refs.nr - first;

	if (nr > 0xffff)
		e->cu.type_refs.nr = first + (nr & 0xffff);
}

/* btf_build__add_*() returns the new ID or a negative errno; record it for @die. */
int btf_encoder__added(struct btf_encoder *e, Dwarf_Die *die, int id)
{
	if (id < 0)
		return id;
	if ((uint32_t)id >= REF_DIE)
		return -E2BIG;
	return btf_encoder__map(e, die, id);
}

/* ---- resolving a CU's DIE references ---- */

static int btf_encoder__index_type(struct btf_encoder *e)
{
	int id;

	if (e->cu.int_ref)
		return 0;
	/* A CU without "int" still indexes its arrays with one. */
	id = btf_build__add_str(&e->build, "int");
	id = id < 0 ? id : btf_build__add_int(&e->build, id, 4, BTF_INT_SIGNED);
	if (id < 0)
		return id;
	e->cu.int_ref = id;
	return 0;
}

/*
 * A reference to DIE offset @off that stands for no type encoded: void when
 * it is a type DIE the walk did not meet (or a cycle of qualifiers), corrupt
 * DWARF when it is no DIE of the CU, or not a type.
 */
static __attribute__((noinline, cold)) void btf_encoder__check_dangling(struct btf_encoder *e,
									uint32_t off)
{
	Dwarf_Off cu_start = dwarf_dieoffset(&e->cu.die) - dwarf_cuoffset(&e->cu.die);
	const struct die_ref_space *space = &e->in->ref_space;
	Dwarf *dwarf = dwarf_cu_getdwarf(e->cu.die.cu); /* without global references */
	Dwarf_Die target;
	bool found;

	/* With global references, @off is in .debug_info, or past it in the alternate file's. */
	if (e->in->global_refs) {
		cu_start = 0;
		dwarf = space->main;
		if (space->alt && off >= space->alt_base) {
			dwarf = space->alt;
			off -= space->alt_base;
		}
	}
	/*
	 * In the CU, as dwarf_formref_die() makes the DIE of a CU-relative
	 * reference: not by libdw's tree of units, which the scan of the
	 * units may still be filling (dwarf_scan.c).
	 */
	if (!e->in->global_refs && e->cu.reader.end) {
		found = off < (size_t)(e->cu.reader.end - e->cu.reader.start);
		if (found)
			target = (Dwarf_Die){ .addr = (void *)(e->cu.reader.start + off),
					      .cu = e->cu.die.cu };
	} else {
		found = dwarf_offdie(dwarf, cu_start + off, &target);
	}
	if (!found || (!e->in->global_refs && dwarf_cuoffset(&target) != off) ||
	    !die_tag__is_type(dwarf_tag(&target))) {
		btf_encoder__corrupt(e, cu_start + off,
				     "a type reference points there, at no type");
		return;
	}
	if (e->in->conf->verbose)
		fprintf(stderr, "btf_encoder: DIE %#x references no type: void\n", off);
}

bool btf_encoder__ref_unmapped(const struct btf_encoder *e, uint32_t ref, uint32_t *off)
{
	int hops;

	for (hops = 0; (ref & REF_DIE) && ref != REF_INDEX && ref != REF_BAD && hops <= 64;
	     hops++) {
		*off = ref & REF_OFF_MASK;
		if (!btf_encoder__lookup(e, *off, &ref))
			return true;
	}
	return false;
}

/* btf_encoder__resolve_ref() where its one lookup does not say: through the hops. */
static __attribute__((noinline)) uint32_t btf_encoder__resolve_hops(struct btf_encoder *e,
								    uint32_t ref)
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

uint32_t btf_encoder__resolve_ref(struct btf_encoder *e, uint32_t ref)
{
	uint32_t idx, to;

	/*
	 * Most references (9.7 M of the corpus 6.1) name a DIE of the dense
	 * map that stands for a BTF ID: one lookup, without the loop's frame.
	 */
	if ((ref & REF_DIE) && ref != REF_INDEX && dense_index(e, ref & REF_OFF_MASK, &idx) &&
	    idx < e->cu.map_size && (e->cu.map[idx] & MAP_SET)) {
		to = e->cu.map[idx] & ~MAP_SET;
		if (!(to & REF_DIE))
			return to;
	}
	return btf_encoder__resolve_hops(e, ref);
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

int btf_encoder__resolve_cu(struct btf_encoder *e)
{
	uint32_t id, end;
	int err = 0;

	/* It comes after the CU's types, whichever array needs it first. */
	if (e->cu.indexed)
		err = btf_encoder__index_type(e);
	end = btf_build__type_cnt(&e->build);
	for (id = e->cu.first_id; id < end && !err; id++)
		err = btf_type__visit_ids(btf_build__type(&e->build, id), resolve_id, e);
	/* As many fields as references noted, or the walk has a bug of ours. */
	if (!err && e->cu.next_ref != e->cu.type_refs.nr)
		err = -EPROTO;
	if (err == -EPROTO && e->in->conf->verbose)
		fprintf(stderr,
			"btf_encoder: the type references of a CU do not match the fields of "
			"its types\n");
	return err;
}
