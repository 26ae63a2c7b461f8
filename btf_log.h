/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_LOG_H_
#define _BTF_LOG_H_ 1

/*
 * btf_log: -V's line per type of the BTF written, in upstream pahole's
 * format ("[1] STRUCT multidim size=172", then a line per member).  Called
 * by the main thread once the BTF is final; only reads @btf.
 */
#include <stdint.h>
#include <stdio.h>

struct btf;

/* Says the types of @btf from ID @first_id on (a split BTF's own: its first) to @out. */
void btf_log__types(const struct btf *btf, uint32_t first_id, FILE *out);

#endif /* _BTF_LOG_H_ */
