/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ELF_FUNCTIONS_H_
#define _ELF_FUNCTIONS_H_ 1

/*
 * elf_functions: the function symbols of the input, shared by all encoders.
 *
 * The table is built once, before any worker starts, and its keys never
 * change afterwards.  A key is a function name without the suffix that
 * compilers give clones ("foo" for "foo.isra.0").  Each key heads a list of
 * struct elf_function, one node per encoder that looked the name up; the
 * node carries that encoder's view of the function (its func state, in the
 * encoder's own BTF).  Nodes are claimed and pushed with compare-and-exchange,
 * so lookups take no lock: see elf_functions__claim().
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf_func_state.h" /* what a node holds */

struct elf_symtab;

/*
 * One encoder's node for a name.  @owner, opaque to the table (an encoder,
 * compared by address alone), is set once, by the owner's thread
 * (elf_functions__claim()); @next is set before the node is pushed and never
 * after; @state is written by the owner's thread alone while the workers
 * run, and read by the merge (btf_merge_funcs.c) once all are done.
 */
struct elf_function {
	const void *_Atomic owner;
	struct elf_function *next;
	struct btf_func_state state;
};

/* A symbol of a name: "foo.isra.0" of foo, say, and its st_value. */
struct elf_function_sym {
	const char *name;
	uint64_t addr;
};

/* Per-name facts from the symbol table, fixed before the workers start. */
struct elf_functions_entry {
	const char *name;
	struct elf_function *_Atomic head;
	const struct elf_function_sym *syms; /* its symbols, in symbol table order */
	uint32_t nr_syms;
	bool ambiguous_addr; /* symbols of this name are at several addresses */
	bool kfunc; /* in a kfunc set of .BTF_ids */
	uint32_t kfunc_flags; /* KF_* of its last entry in a kfunc set (btf_ids.h) */
};

struct elf_functions;

/* Builds the table from the STT_FUNC symbols of @symtab into *@out: 0 or -ENOMEM. */
int elf_functions__new(const struct elf_symtab *symtab, struct elf_functions **out);
void elf_functions__delete(struct elf_functions *functions);

/* The entry for @name (no suffix), or NULL.  Never changes the table. */
struct elf_functions_entry *elf_functions__find(const struct elf_functions *functions,
						const char *name);

/*
 * Gives @owner's node in @entry's list in *@out: an unowned node claimed by
 * compare-and-exchange on its owner, or a new node pushed by
 * compare-and-exchange on the head.  Only @owner's thread may call this for
 * @owner, so there is never more than one node per (owner, name).  0 or
 * -ENOMEM.
 */
int elf_functions__claim(struct elf_functions_entry *entry, const void *owner,
			 struct elf_function **out);

/*
 * After the workers, before the nodes are all read: maps, in one call, the
 * pages of the first nodes that no worker touched, as the zero page (no
 * memory), instead of a fault each.
 */
void elf_functions__map_nodes(const struct elf_functions *functions);

size_t elf_functions__nr_entries(const struct elf_functions *functions);
struct elf_functions_entry *elf_functions__entry(const struct elf_functions *functions, size_t i);

/* Marks @name as a kfunc when it is in the table; @flags are those of its last set entry. */
void elf_functions__mark_kfunc(struct elf_functions *functions, const char *name, uint32_t flags);

#endif /* _ELF_FUNCTIONS_H_ */
