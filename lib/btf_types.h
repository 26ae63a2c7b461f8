/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_BTF_TYPES_H_
#define _LIB_BTF_TYPES_H_ 1

/* Operations on raw BTF types, one table entry per kind (lib/btf_types.c). */
#include <stddef.h>
#include <stdint.h>

struct btf_type;

/* Calls @visit on each type-ID field of @t; stops at and returns the first non-zero. */
int btf_type__visit_ids(struct btf_type *t, int (*visit)(uint32_t *id, void *ctx), void *ctx);

/* The size in bytes of @t with everything that follows it. */
size_t btf_type__size(const struct btf_type *t);

/* Adds @delta to every non-empty string offset of @t. */
void btf_type__shift_strs(struct btf_type *t, uint32_t delta);

#endif /* _LIB_BTF_TYPES_H_ */
