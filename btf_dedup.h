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
 * (btf_encoder_chunk.c: btf_dedup__whole(), ours, by libbpf 1.1's own rules)
 * need not, since whatever it keeps apart meets again there.
 *
 * Called by one thread on a BTF it owns; @btf's types (not its base's) are
 * rewritten in place.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct btf_base;
struct btf_build;

/*
 * btf__dedup(@btf, NULL) after pointing every reference to a pointer at the
 * first pointer to the same type, unless the caller knows, with
 * @ptrs_unique, that no two pointers of @btf point to one type (so the rule
 * would change nothing); 0 or a negative errno.  What v1.31's libbpf gives:
 * the reference tests/split_dedup.c holds btf_dedup__split() to.
 */
int btf_dedup__run(struct btf *btf, bool ptrs_unique);

/* The pointer rule alone, on @b: references to a pointer go to the first pointer to its type. */
int btf_dedup__merge_ptrs(struct btf_build *b);

/*
 * Whether no two pointers of @b point to one type ID, which holds after
 * libbpf's dedup and ours (they merge equal pointers) and is checked, not
 * assumed: 1, 0, or -ENOMEM.
 */
int btf_dedup__ptrs_unique(const struct btf_build *b);

/*
 * The libbpf whose split dedup btf_dedup__split() gives, by the rules in
 * which libbpf 1.1 (and v1.31's, 1.1 with c8a28812) and 1.7 on (v1.32's)
 * decide differently.
 */
struct btf_dedup_rules {
	/*
	 * Typedefs deduplicated by their type graphs, in the pass of the
	 * structs (37027144, 5b0f3729: BTF_RULE_DEDUP_TYPEDEF_GRAPHS); else as
	 * reference types.
	 */
	bool typedef_graphs;
	/*
	 * Two module types that the type-graph comparison pairs with one
	 * canonical type are one when alike structurally, any kind, 16 levels
	 * deep (5ee9fbf7: BTF_RULE_DEDUP_IDENTICAL_TYPES); else only arrays
	 * equal to the element's ID and structs whose members are such.
	 */
	bool identical_types;
	/*
	 * Two pointers to one type ID are one before anything else (c8a28812:
	 * v1.31's libbpf and 1.7 on); not libbpf 1.1's own dedup.
	 */
	bool identical_ptrs;
};

/*
 * Split BTF on @base (btf_base.h, indexed in this machine's byte order)
 * from @module, a BTF of its own whose types refer only to each other:
 * what libbpf's btf__dedup() by @rules gives for a split BTF on @base
 * holding @module's types in order, as its raw bytes (btf__raw_data()'s
 * layout, native byte order), without libbpf reading the base
 * (btf_dedup_split.c).  0 and, in *@raw (the caller frees it), *@size bytes
 * holding *@nr_types types of the module's own; or a negative errno (-ELOOP
 * for a cycle of reference types).  @module's types are rewritten in place
 * (IDs, strings, the pointer rule): it is of no use after but to be freed.
 * One thread; @base is only read.
 */
int btf_dedup__split(struct btf_build *module, const struct btf_base *base,
		     const struct btf_dedup_rules *rules, void **raw, uint32_t *size,
		     uint32_t *nr_types);

/*
 * The working memory of btf_dedup__whole(), kept from one dedup to the next
 * by its one owner (a worker, chunk after chunk), so that its pages are
 * touched once.  btf_dedup_mem__new(): NULL when out of memory.
 */
struct btf_dedup_mem;
struct btf_dedup_mem *btf_dedup_mem__new(void);
void btf_dedup_mem__delete(struct btf_dedup_mem *mem);

/*
 * What libbpf's btf__dedup() by @rules gives for the BTF that @b built
 * (lib/btf_build.h: no base, its strings unique), as raw bytes
 * (btf__raw_data()'s layout, native byte order: the types kept in order,
 * then the strings they name) at *@raw, in @mem until its next dedup,
 * *@size bytes holding *@nr_types types; the @nr type IDs at @ids, held
 * outside the BTF, rewritten to the IDs their types have in it.  0 or a
 * negative errno (-ELOOP for a cycle of reference types, -EINVAL for an ID
 * past the types, -EOPNOTSUPP for the pointer rule, not written yet for
 * it).  @b's types are rewritten in place (their IDs, never their kinds,
 * counts nor names): it is of no use after but to be read so or reset.
 */
int btf_dedup__whole(struct btf_dedup_mem *mem, struct btf_build *b,
		     const struct btf_dedup_rules *rules, uint32_t *ids, size_t nr,
		     const void **raw, uint32_t *size, uint32_t *nr_types);

/*
 * What libbpf's btf__dedup() by @rules gives for the BTF @b (the merged
 * chunks: no base, its strings unique, and kept whole, as libbpf keeps those
 * of a BTF that btf__add_*() built), as raw bytes in *@raw (the caller frees
 * it), *@size bytes holding *@nr_types types.  0 or a negative errno
 * (-ELOOP for a cycle of reference types, -EINVAL for an ID past the
 * types).  @b's types are rewritten in place (the pointer rule, IDs): it is
 * of no use after but to be freed.
 */
int btf_dedup__btf(struct btf_build *b, const struct btf_dedup_rules *rules, void **raw,
		   uint32_t *size, uint32_t *nr_types);

/*
 * btf_dedup__btf() in two steps, the first beside its caller: for a vmlinux,
 * whose merge adds FUNCs, their prototypes and tags, and VARs and DATASECs
 * to the merged chunks before the dedup, types that libbpf's passes before
 * its reference pass never meet (nor do the types before them refer to
 * them).  btf_dedup_bg__start() copies the types @b holds and runs those
 * passes on the copy, then the FWDs' and the reference pass over them, in
 * a thread of its own (or in the caller's, where none can be started): the
 * caller may go on adding to @b.  btf_dedup_bg__finish() waits for them,
 * takes the types added since, and runs the reference pass over those:
 * what btf_dedup__btf() gives for @b as it is then, the output written by
 * @nr_threads threads (par_for()), and @bg goes.  A type added
 * since that the first passes would have met is -EINVAL; the pointer rule
 * is not run so (-EOPNOTSUPP from btf_dedup_bg__start()).
 * btf_dedup_bg__delete() is for a caller that does not finish.
 */
struct btf_dedup_bg;
int btf_dedup_bg__start(const struct btf_build *b, const struct btf_dedup_rules *rules,
			struct btf_dedup_bg **out);
int btf_dedup_bg__finish(struct btf_dedup_bg *bg, struct btf_build *b, unsigned int nr_threads,
			 void **raw, uint32_t *size, uint32_t *nr_types);
void btf_dedup_bg__delete(struct btf_dedup_bg *bg);

#endif /* _BTF_DEDUP_H_ */
