/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_RELEASE_H_
#define _BTF_RELEASE_H_ 1

/*
 * btf_release: the upstream pahole releases whose BTF we write, and the one
 * table of the rules in which they differ.
 *
 * By default we are pahole v1.32; PAHOLE_COMPAT=v1.31 in the environment, or
 * --compat=v1.31, makes us v1.31, for kernels rebuilt bit for bit with the
 * release they were built with.  The release is chosen once, by pahole.c,
 * before anything is read, and is part of the read-only btf_encoder_conf:
 * any thread may ask it.  Code that writes what two releases write
 * differently asks btf_release__has() for the rule, never for a release's
 * name or number, so each difference is a row of the table in btf_release.c
 * (docs/design.md lists them).
 */
#include <stdbool.h>

enum btf_rule {
	/*
	 * A multi-dimensional array is one ARRAY per dimension, the innermost
	 * first (v1.31: one ARRAY of all the elements).
	 */
	BTF_RULE_NESTED_ARRAYS,
	/*
	 * A function's FUNC is chosen by v1.32's rules: among same-name
	 * definitions the one at an ELF symbol's address; reordered
	 * parameters leave it out; optimized-out parameters leave it out only
	 * where its ABI changed (DW_CC_nocall, an .isra or .constprop clone);
	 * unexpected registers, uncertain locations and ambiguous addresses
	 * leave it out without consistent_func too; function-pointer
	 * parameters count in comparing prototypes.  (v1.31: the first
	 * definition, and those skips only with consistent_func.)
	 */
	BTF_RULE_FUNCS_V132,
	/* --btf_features=all and --btf_gen_all turn on every feature but distilled_base. */
	BTF_RULE_FEATURES_ALL,
	/*
	 * Split BTF's dedup takes typedefs by their type graphs, with the
	 * structs, as the libbpf of v1.32 (1.7 on) does; v1.31's (1.6) takes
	 * them as reference types.  (vmlinux's dedup is libbpf 1.1's in both:
	 * the same BTF on the corpus.)
	 */
	BTF_RULE_DEDUP_TYPEDEF_GRAPHS,
	/*
	 * Split BTF's dedup takes two module types that the type-graph
	 * comparison meets for one base type for one when they are alike
	 * structurally, of any kind, as libbpf 1.6 on (v1.32's) does
	 * (5ee9fbf7); v1.31's takes only arrays equal down to the element's
	 * ID, structs of such members, and (c8a28812) pointers to one ID.
	 */
	BTF_RULE_DEDUP_IDENTICAL_TYPES,
	/*
	 * A unit's DW_TAG_imported_unit (dwz's partial units) is read: where
	 * the units are one CU, the partial units it names are walked there
	 * in their place, as units of that CU (v1.31 cannot read it and
	 * writes nothing).
	 */
	BTF_RULE_IMPORTED_UNITS,
	/*
	 * A subprogram an enumeration declares (rustc: a method of a C-like
	 * enum) names the definitions that refer to it (DW_AT_specification);
	 * v1.31 makes nothing of it, so they have no name, and no FUNC.
	 */
	BTF_RULE_ENUM_SUBPROGRAMS,
	BTF_RULE__NR,
};

struct btf_release;

/* The release named @name ("v1.31", "v1.32"), or NULL. */
const struct btf_release *btf_release__find(const char *name);

/* The release we are when none is asked for: the newest. */
const struct btf_release *btf_release__default(void);

/* "v1.32": what --version prints. */
const char *btf_release__name(const struct btf_release *r);

/* 132: what --numeric_version prints. */
int btf_release__numeric(const struct btf_release *r);

/* Whether release @r follows @rule. */
bool btf_release__has(const struct btf_release *r, enum btf_rule rule);

#endif /* _BTF_RELEASE_H_ */
