/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_DEDUP_SIG_H_
#define _BTF_DEDUP_SIG_H_ 1

/*
 * btf_sig: what the dedup (btf_dedup_split.c) asks of one type at a time,
 * as libbpf does: its signature, the hash its candidates are found by, and
 * whether two types are equal as they stand (their referenced IDs compared
 * as numbers, resolved or not as the caller has them).  Pure functions of
 * the types' bytes, callable from any thread.  The kinds' table
 * (lib/btf_kinds.h) names which hash and equality each kind takes.
 */
#include <stdbool.h>
#include <stdint.h>

struct btf_type;

/* Signatures: of the name, info and size; and of what else the kind holds. */
uint64_t btf_sig__hash_common(const struct btf_type *t);
uint64_t btf_sig__hash_int_tag(const struct btf_type *t);
/* The name alone: an enum without values meets those with. */
uint64_t btf_sig__hash_enum(const struct btf_type *t);
/* All an enum holds: equal enums (btf_sig__equal_enum()) have one. */
uint64_t btf_sig__hash_enum_values(const struct btf_type *t);
/* The members' names and offsets, not their types. */
uint64_t btf_sig__hash_struct(const struct btf_type *t);
/* libbpf 1.7's btf_hash_typedef(): the name and info, not the type it names. */
uint64_t btf_sig__hash_typedef(const struct btf_type *t);
uint64_t btf_sig__hash_array(const struct btf_type *t);
uint64_t btf_sig__hash_proto(const struct btf_type *t);

/* Equal as they stand, referenced IDs included. */
bool btf_sig__equal_common(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__equal_int_tag(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__equal_enum(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__equal_array(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__equal_proto(const struct btf_type *a, const struct btf_type *b);

/* An enum or enum64 without values: a declaration. */
bool btf_sig__is_enum_decl(const struct btf_type *t);
/* An enum without values is of a kind with any enum (or enum64) of its name. */
bool btf_sig__compat_enum(const struct btf_type *a, const struct btf_type *b);
/* Equal but for the types referred to (members', the typedef's, parameters'). */
bool btf_sig__shallow_equal_struct(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__shallow_equal_typedef(const struct btf_type *a, const struct btf_type *b);
bool btf_sig__compat_proto(const struct btf_type *a, const struct btf_type *b);

#endif /* _BTF_DEDUP_SIG_H_ */
