/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_BTF_TYPES_H_
#define _LIB_BTF_TYPES_H_ 1

/* Operations on raw BTF types, one table entry per kind (lib/btf_types.c). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;
struct btf_header;
struct btf_type;

/*
 * Type @id of @btf, to be changed in place: the one way this program writes
 * into types that libbpf holds (btf__type_by_id() hands them out const).
 * It relies on what libbpf's btf.h does not promise: that the pointer is
 * into the BTF's own type data, which btf__raw_data(), btf__dedup() and
 * btf__type_by_id() read afterwards, with nothing derived from the type
 * cached on the side; true of every libbpf since 0.x, where btf__add_*()
 * itself writes there (tests/libbpf_contract.c fails if that changes).
 * Only for a BTF that btf__new_empty*() or btf__new() made, that the caller
 * owns, until the next btf__add_*() (which may move the types).
 */
struct btf_type *btf_type__mut(struct btf *btf, uint32_t id);

/* Calls @visit on each type-ID field of @t; stops at and returns the first non-zero. */
int btf_type__visit_ids(struct btf_type *t, int (*visit)(uint32_t *id, void *ctx), void *ctx);

/* The same, read-only: @visit is given each field's value. */
int btf_type__read_ids(const struct btf_type *t, int (*visit)(uint32_t id, void *ctx), void *ctx);

/*
 * For BTF kind @kind (< NR_BTF_KINDS): the bytes after struct btf_type,
 * fixed (*@extra) and per vlen item (*@item).
 */
void btf_kind__sizes(unsigned int kind, uint8_t *extra, uint8_t *item);

/* The size in bytes of @t with everything that follows it. */
size_t btf_type__size(const struct btf_type *t);

/*
 * The types of the @len bytes at @types (4-byte aligned), one after
 * another, each of a known kind and whole: the offset of each in
 * @offs[*@nr...] (room for @cap), *@nr advanced past them, and in *@max_id
 * and *@max_str the largest type ID they refer to (those that
 * btf_type__visit_ids() visits) and string offset (btf_type__visit_strs()'s):
 * references checked in bulk.  0, or -EINVAL where a type is not so,
 * or @offs is full.  @offs's pages are mapped as it fills (populate.h).
 */
int btf_types__index(const void *types, uint32_t len, uint32_t *offs, uint32_t cap, uint32_t *nr,
		     uint32_t *max_id, uint32_t *max_str);

/* The largest of @max and the type IDs @t refers to: as btf_types__index() reads them. */
uint32_t btf_type__max_id(const struct btf_type *t, uint32_t max);

/*
 * Calls @visit on each string offset of @t, its name's first, then its
 * members', enumerators' or parameters' in order (as libbpf visits them);
 * stops at and returns the first non-zero.
 */
int btf_type__visit_strs(struct btf_type *t, int (*visit)(uint32_t *off, void *ctx), void *ctx);

/* Adds @delta to every non-empty string offset of @t. */
void btf_type__shift_strs(struct btf_type *t, uint32_t delta);

/*
 * Swaps the byte order of the @len bytes of types at @types (each field of
 * every kind is 32 bits): into this machine's order with @to_native, else
 * out of it.  0, or -EINVAL at a type of an unknown kind or past @len.
 */
int btf_types__swap(void *types, size_t len, bool to_native);

/* The 24 bytes of @hdr (libbpf 1.1's struct btf_header) in the other byte order. */
void btf_header__swap(struct btf_header *hdr);

/*
 * Raw BTF of @size bytes in this machine's byte order, with a header of 24
 * bytes (as btf__raw_data() writes it), swapped in place into the other
 * order: the header and the types, not the strings.  0 or -EINVAL.
 */
int btf_raw__swap_out(void *raw, size_t size);

#endif /* _LIB_BTF_TYPES_H_ */
