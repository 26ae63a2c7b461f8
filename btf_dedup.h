/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_DEDUP_H_
#define _BTF_DEDUP_H_ 1

/*
 * libbpf's btf__dedup() as pahole v1.31 runs it: v1.31 bundles a libbpf
 * (1.6) whose type-graph comparison also takes two pointers to the same type
 * ID for one (btf_dedup_identical_ptrs(), libbpf commit c8a28812, 2025), where
 * Debian 12's libbpf 1.1 finds the graphs different and keeps both copies of
 * whatever holds them (clang's DWARF repeats a pointer type within a CU).
 * Merging such pointers before the dedup gives libbpf 1.1 the same verdicts.
 * The output's dedup (whole, or split over a base) runs here; a chunk's
 * (btf_encoder.c) need not, since whatever it keeps apart meets again there.
 *
 * Called by one thread on a BTF it owns; @btf's types (not its base's) are
 * rewritten in place.
 */
struct btf;

/* btf__dedup(@btf, NULL) after pointing every reference to a pointer at the
 * first pointer to the same type; 0 or a negative errno. */
int btf_dedup__run(struct btf *btf);

#endif /* _BTF_DEDUP_H_ */
