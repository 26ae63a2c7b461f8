/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_DEDUP_CANDS_H_
#define _BTF_DEDUP_CANDS_H_ 1

/*
 * btf_dedup_cands: the candidates of btf_dedup_split.c's dedup, by
 * signature hash, handed out in the order libbpf's dedup meets them (its
 * hashmap's bucket order): for that dedup alone, one thread.
 */
#include <stddef.h>
#include <stdint.h>

#include "lib/darray.h"

/*
 * The candidates, by signature hash.  libbpf keeps them in a hash map that
 * puts an entry first in its bucket, and reverses each bucket's entries of
 * one hash whenever it grows (when an insertion would fill it past 3/4, from
 * 4 buckets on); it hands out a hash's entries in bucket order.  So an entry
 * added while the map had grown an even number of times went to the front
 * of its list, one added after an odd number to the back, and the list is
 * read forwards after an even number of growths, backwards after an odd.
 */
struct cand {
	uint64_t key;
	uint32_t id; /* | CAND_BACK: added at the back of its list */
	uint32_t next; /* the entry added before it to its chain */
};

#define CAND_BACK 0x80000000u

struct cand_table {
	struct cand *v;
	uint32_t nr, cap;
	uint32_t *heads, mask, heads_cap;
	size_t seen; /* the entries libbpf's map would hold: those here and those skipped */
	size_t libbpf_cap; /* the capacity libbpf's map would have */
	unsigned int grows;
	DARRAY(uint32_t) out; /* the last cand_table__get() */
	DARRAY(uint32_t) aside; /* its entries to go after those that lead */
};

/*
 * Empty, with room for @max entries at first (more as they come), and
 * about @chains chains (twice as many whenever the entries outnumber
 * them), the memory of an earlier use kept: 0 or -ENOMEM.
 */
int cand_table__init(struct cand_table *c, uint32_t max, uint32_t chains);
void cand_table__free(struct cand_table *c);
/* @id a candidate of signature @key, the newest: 0 or -ENOMEM. */
int cand_table__add(struct cand_table *c, uint64_t key, uint32_t id);
/*
 * @n candidates libbpf's map would hold but that no cand_table__get() will
 * ask for: not kept, but counted, as the map's growth decides where the
 * ones after them go.
 */
void cand_table__skip(struct cand_table *c, uint32_t n);
/* The candidates of @key in libbpf's order, in c->out: their count, or a negative errno. */
int cand_table__get(struct cand_table *c, uint64_t key);

#endif /* _BTF_DEDUP_CANDS_H_ */
