/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_DISTILL_H_
#define _BTF_DISTILL_H_ 1

/*
 * Distilled base BTF, as the kernel relocates it (a module's .BTF.base):
 * libbpf 1.1 has no btf__distill_base, so here it is.
 *
 * From split BTF on a base, make a new base holding only what the split
 * types refer to, described just enough to be found again in another
 * kernel's base: INTs, FLOATs and FWDs as they are, named structs and unions
 * as memberless ones of the same size, named enums as valueless ENUMs of the
 * same size.  Everything else the split types reach in the base (pointers,
 * typedefs, arrays, qualifiers, prototypes, anonymous structs, unions and
 * enums) is copied into the new split BTF, ahead of the split types.
 */
struct btf;

/* Returns 0 and the new base and split BTF (free both), or a negative errno. */
int btf_distill__run(const struct btf *split, struct btf **new_base, struct btf **new_split);

#endif /* _BTF_DISTILL_H_ */
