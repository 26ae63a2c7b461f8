/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_BTF_KINDS_H_
#define _LIB_BTF_KINDS_H_ 1

/*
 * The BTF kinds, one row each: the one place a kind's facts are written,
 * as the kernel's kernel/bpf/btf.c keeps a kind's operations in one row of
 * kind_ops[].  A file that acts by kind builds its own table from these
 * rows (defining BTF_KIND() to pick its columns), so that a new kind is a
 * row here and a handler where it acts, and no file's table can miss it.
 *
 *   BTF_KIND(KIND, NAME, EXTRA, ITEM, NAMED, IDS, LOG, MATCH, HASH, EQUAL, EQUIV, DEDUP, IDENTICAL)
 *
 *   KIND       BTF_KIND_KIND
 *   NAME       as -V prints it (upstream's)
 *   EXTRA      the bytes after struct btf_type, fixed
 *   ITEM       the bytes of each of its btf_vlen() items
 *   NAMED      whether each item starts with a name offset
 *   IDS        where its type IDs are, in field order (lib/btf_types.c,
 *              visit_IDS): none, type (t->type), array, members, proto
 *              (the return type, then each parameter's), datasec
 *   LOG        how -V says it (btf_log.c, log_LOG)
 *   MATCH      how two prototypes' types are compared, as pahole v1.31's
 *              types__match() (btf_encoder_match.c, match_MATCH)
 *   HASH, EQUAL, EQUIV, DEDUP, IDENTICAL
 *              its part in the dedup of split BTF (btf_dedup_split.c):
 *              its signature (hash_HASH), its equality as a reference type
 *              (equal_EQUAL), its part of type-graph equivalence
 *              (EQUIV_EQUIV, a case of equiv_node()), its pass
 *              (dedup_DEDUP: none for a reference type), and libbpf 1.6's
 *              identical types (identical_IDENTICAL)
 *
 * "none": the kind has no part there (the table's entry is NULL, or
 * EQUIV_none).
 */
#define BTF_KINDS(BTF_KIND)                                                                        \
	BTF_KIND(UNKN, "UNKNOWN", 0, 0, 0, none, none, none, none, none, none, none, void)         \
	BTF_KIND(INT, "INT", 4, 0, 0, none, int, int, int_tag, none, int, prim, int)               \
	BTF_KIND(PTR, "PTR", 0, 0, 0, type, ref, ref, common, common, ref, none, ref)              \
	BTF_KIND(ARRAY, "ARRAY", sizeof(struct btf_array), 0, 0, array, array, array, array,       \
		 array, array, none, array)                                                        \
	BTF_KIND(STRUCT, "STRUCT", 0, sizeof(struct btf_member), 1, members, composite, name,      \
		 struct, none, struct, composite, struct)                                          \
	BTF_KIND(UNION, "UNION", 0, sizeof(struct btf_member), 1, members, composite, name,        \
		 struct, none, struct, composite, struct)                                          \
	BTF_KIND(ENUM, "ENUM", 0, sizeof(struct btf_enum), 1, none, enum, name, enum, none, enum,  \
		 enum, enum)                                                                       \
	BTF_KIND(FWD, "FWD", 0, 0, 0, none, fwd, none, common, none, common, prim, common)         \
	BTF_KIND(TYPEDEF, "TYPEDEF", 0, 0, 0, type, ref, name, common, common, ref, none, ref)     \
	BTF_KIND(VOLATILE, "VOLATILE", 0, 0, 0, type, ref, ref, common, common, ref, none, ref)    \
	BTF_KIND(CONST, "CONST", 0, 0, 0, type, ref, ref, common, common, ref, none, ref)          \
	BTF_KIND(RESTRICT, "RESTRICT", 0, 0, 0, type, ref, ref, common, common, ref, none, ref)    \
	BTF_KIND(FUNC, "FUNC", 0, 0, 0, type, ref, none, common, common, ref, none, ref)           \
	BTF_KIND(FUNC_PROTO, "FUNC_PROTO", 0, sizeof(struct btf_param), 1, proto, proto, proto,    \
		 proto, proto, proto, none, proto)                                                 \
	BTF_KIND(VAR, "VAR", sizeof(struct btf_var), 0, 0, type, var, none, none, none, none,      \
		 none, none)                                                                       \
	BTF_KIND(DATASEC, "DATASEC", 0, sizeof(struct btf_var_secinfo), 0, datasec, datasec, none, \
		 none, none, none, none, none)                                                     \
	BTF_KIND(FLOAT, "FLOAT", 0, 0, 0, none, float, float, common, none, common, prim, common)  \
	BTF_KIND(DECL_TAG, "DECL_TAG", sizeof(struct btf_decl_tag), 0, 0, type, decl_tag, none,    \
		 int_tag, int_tag, none, none, none)                                               \
	BTF_KIND(TYPE_TAG, "TYPE_TAG", 0, 0, 0, type, ref, ref, common, common, ref, none, ref)    \
	BTF_KIND(ENUM64, "ENUM64", 0, sizeof(struct btf_enum64), 1, none, enum64, name, enum,      \
		 none, enum, enum, enum)

/*
 * The IDS column as a value (BTF_IDS_##IDS), for the files that read a
 * kind's IDs in a loop of their own, each layout a case, rather than
 * through a call per field.
 */
enum btf_kind_ids {
	BTF_IDS_none,
	BTF_IDS_type,
	BTF_IDS_array,
	BTF_IDS_members,
	BTF_IDS_proto,
	BTF_IDS_datasec
};

#endif /* _LIB_BTF_KINDS_H_ */
