// SPDX-License-Identifier: GPL-2.0-only
/*
 * The bottom of the encoder: the per-CU state (reset when a CU begins,
 * freed with the encoder), what makes the CU corrupt and where, the CU's
 * function at a DIE, and the members of a struct being read ordered by
 * offset.  (Reading the CU's DIEs is inline, in btf_encoder_priv.h.)  It
 * calls no other file of the encoder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "btf_encoder_priv.h"
#include "lib/elfutils.h"
#include "lib/zpages.h"

int btf_encoder__corrupt(struct btf_encoder *e, uint64_t off, const char *what)
{
	int err = elfutils__err(-EBADMSG);

	if (!e->cu.err)
		e->cu.err = err;
	if (err == -EBADMSG && !e->corrupt_what) {
		e->corrupt_off = off;
		e->corrupt_what = what;
	}
	return err;
}

bool btf_encoder__corrupt_at(const struct btf_encoder *e, uint64_t *off, const char **what)
{
	if (!e->corrupt_what)
		return false;
	*off = e->corrupt_off;
	*what = e->corrupt_what;
	return true;
}

static int func_off__cmp(const void *a, const void *b)
{
	const struct cu_func_off *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

int btf_encoder__index_funcs(struct btf_encoder *e)
{
	if (e->cu.func_index.nr != e->cu.funcs.nr)
		return -EPROTO;
	if (e->cu.funcs_unsorted && e->cu.func_index.nr > 1)
		qsort(e->cu.func_index.data, e->cu.func_index.nr, sizeof(*e->cu.func_index.data),
		      func_off__cmp);
	return 0;
}

struct cu_func *btf_encoder__cu_func_at(struct btf_encoder *e, uint32_t off)
{
	size_t lo = 0, hi = e->cu.func_index.nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (e->cu.func_index.data[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < e->cu.func_index.nr && e->cu.func_index.data[lo].off == off ?
		       &e->cu.funcs.data[e->cu.func_index.data[lo].idx] :
		       NULL;
}

void btf_encoder_cu__reset(struct btf_encoder_cu *cu)
{
	cu->funcs.nr = 0;
	cu->func_index.nr = 0;
	cu->params.nr = 0;
	cu->tags.nr = 0;
	cu->members.nr = 0;
	cu->type_refs.nr = 0;
	cu->next_ref = 0;
	cu->indexed = false;
	cu->depth = 0;
	cu->int_ref = 0;
	cu->err = 0;
	cu->imported.nr = 0;
	cu->import_depth = 0;
	cu->funcs_unsorted = false;
	cu->enum_subprograms.nr = 0;
	cu->units.nr = 0;
	cu->remote_refs.nr = 0;
	cu->map_base = cu->map_limit = 0;
}

void btf_encoder_cu__free(struct btf_encoder_cu *cu)
{
	zpages__free(cu->map, cu->map_size * sizeof(*cu->map));
	ptr_map__free(&cu->sparse_map);
	darray__free(&cu->refs);
	darray__free(&cu->funcs);
	darray__free(&cu->enum_subprograms);
	darray__free(&cu->units);
	darray__free(&cu->remote_refs);
	darray__free(&cu->func_index);
	darray__free(&cu->params);
	darray__free(&cu->proto);
	darray__free(&cu->tags);
	darray__free(&cu->members);
	darray__free(&cu->type_refs);
	darray__free(&cu->imported);
	die_reader__free(&cu->reader);
}

/* Merges the runs @a[0, @mid) and @a[@mid, @n), each in order, by offset into @out. */
static void members_merge(const struct pending_member *a, size_t mid, size_t n,
			  struct pending_member *out)
{
	size_t i = 0, j = mid, k = 0;

	while (i < mid && j < n)
		out[k++] = a[j].bit_off / 8 < a[i].bit_off / 8 ? a[j++] : a[i++];
	while (i < mid)
		out[k++] = a[i++];
	while (j < n)
		out[k++] = a[j++];
}

/*
 * rustc lays a struct's fields out in an order of its own and lists them in
 * DWARF in the source's, so pahole sorts the data members of a Rust unit's
 * types by byte offset once the unit is read (v1.31's dwarf_loader.c,
 * cu__finalize(): cu__language_reorders_offsets(), type__sort_by_offset();
 * the same in v1.32).  Its sort is a stable one (members of one offset, as
 * zero-sized fields, keep their order) and compares a member with the
 * DWARF child after it, which in rustc's DWARF is a member until the
 * members end, so it orders the members alone.  A bottom-up merge sort in
 * the room past the members: a Rust struct may have 65,535 of them.  The
 * index a decl tag names stays the member's DWARF one, as pahole's does.
 */
int btf_encoder__sort_members(struct btf_encoder *e, size_t first)
{
	size_t n = e->cu.members.nr - first, width, i;
	struct pending_member *a, *b, *t;

	if (n < 2)
		return 0;
	if (e->cu.members.capacity < first + 2 * n &&
	    !darray__grow((void **)&e->cu.members.data, &e->cu.members.capacity,
			  sizeof(*e->cu.members.data), first + 2 * n))
		return -ENOMEM;
	a = e->cu.members.data + first;
	b = a + n;
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t mid = i + width < n ? width : n - i;
			size_t len = i + 2 * width < n ? 2 * width : n - i;

			members_merge(a + i, mid, len, b + i);
		}
		t = a;
		a = b;
		b = t;
	}
	if (a != e->cu.members.data + first)
		memcpy(e->cu.members.data + first, a, n * sizeof(*a));
	return 0;
}
