/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_IDS_H_
#define _BTF_IDS_H_ 1

/*
 * The kfunc sets in .BTF_ids, laid out as the kernel's include/linux/btf_ids.h
 * makes them: a set8 starts at a symbol __BTF_ID__set8__<set>, with a u32
 * count and u32 set flags, and BTF_SET8_END sizes that symbol to cover the
 * set; each member is a symbol __BTF_ID__func__<name>__<n> at a u32 id
 * followed by u32 kfunc flags.  The same symbols in a BTF_ID_LIST (a bare u32
 * each, under a label of the kernel's own name) are no kfuncs.
 */
#include <libelf.h>

struct elf_functions;
struct elf_symtab;

#define BTF_SET8_KFUNCS (1u << 0)
#define KF_FASTCALL (1u << 12)
/* The pointer into a BPF arena: the return value, the first or second argument. */
#define KF_ARENA_RET (1u << 13)
#define KF_ARENA_ARG1 (1u << 14)
#define KF_ARENA_ARG2 (1u << 15)

/* Marks the functions of every set flagged BTF_SET8_KFUNCS as kfuncs. */
int btf_ids__mark_kfuncs(Elf *elf, const struct elf_symtab *symtab,
			 struct elf_functions *functions);

#endif /* _BTF_IDS_H_ */
