/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_BASE_H_
#define _BTF_BASE_H_ 1

/*
 * btf_base: the BTF that --btf_base names (a vmlinux's), read once and never
 * changed.
 *
 * A kernel build encodes every module on the same base, thousands of times,
 * so what one run spends on the base is most of a small module's cost.
 * libbpf would parse the base, then copy it and hash all its strings the
 * first time a string is looked up in it (it makes the base modifiable), and
 * hash all its types again in every dedup of split BTF.  Here the file is
 * mapped, its types indexed and checked in one pass, its strings looked up
 * all at once in another (btf_base__find_strs()), and nothing is copied; btf_dedup__split() (btf_dedup.h) reads it
 * as it is.
 *
 * Opened and freed by the main thread; read-only in between, so any thread
 * may read it, but for btf_base__libbpf(), which only the main thread calls.
 */
#include <stdbool.h>
#include <stdint.h>

struct btf;
struct btf_type;
struct btf_base;
struct str_set;

/*
 * Reads the base BTF in @path: raw BTF, or an ELF file's .BTF section, as
 * libbpf's btf__parse() takes them, in either byte order, with libbpf 1.1's
 * 24-byte header or libbpf 1.8's 32-byte one (its layout section skipped).  0 and the base in *@out, or a negative
 * errno and in *@cause why, in words true to the file ("truncated or
 * corrupt BTF", "an ELF file without a .BTF section", ...).
 *
 * Types are checked as they are indexed: every kind known, every type ID
 * and string offset within the BTF; a base that fails is corrupt.
 */
int btf_base__open(const char *path, struct btf_base **out, const char **cause);
void btf_base__delete(struct btf_base *base);

/* The number of types with void: the first type ID of split BTF on it. */
uint32_t btf_base__type_cnt(const struct btf_base *base);

/* Type @id (0 < @id < btf_base__type_cnt()). */
const struct btf_type *btf_base__type(const struct btf_base *base, uint32_t id);

/*
 * The types' bytes in *@types and each type's offset in them in *@offs
 * (type @id at *@types + (*@offs)[@id]): for a walk over every type of a
 * vmlinux's base, which a call per type would slow.
 */
void btf_base__index(const struct btf_base *base, const char **types, const uint32_t **offs);

/* The length of the string section: the first string offset of split BTF on it. */
uint32_t btf_base__str_len(const struct btf_base *base);

/* The string at @off (< btf_base__str_len()). */
const char *btf_base__str(const struct btf_base *base, uint32_t off);

/*
 * For each string of @strs (a str_set, lib/str_set.h), the offset of the
 * first string of the section equal to it, as libbpf's btf__find_str()
 * answers for a base (a string that only ends another one is not found),
 * or -ENOENT: in @offs, indexed by the string's offset in @strs->data.
 * One pass over the section, whatever the number of strings; 0 or -ENOMEM.
 */
int btf_base__find_strs(const struct btf_base *base, const struct str_set *strs, int32_t *offs);

/*
 * The base as libbpf's struct btf in *@out, made on the first call from
 * what is indexed (in our byte order, libbpf 1.1's header): for what
 * libbpf must see as a base (distilled_base).  0, or the negative errno
 * libbpf gave.  Main thread only; freed with @base.
 */
int btf_base__libbpf(struct btf_base *base, struct btf **out);

#endif /* _BTF_BASE_H_ */
