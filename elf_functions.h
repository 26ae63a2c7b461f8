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
#include <stdint.h>

struct elf_symtab;
struct btf_chunk;
struct func_sighting;

/* A parameter of a function prototype: type ID in the owner's BTF. */
struct btf_func_param {
	const char *name;
	uint32_t type;
};

/* A btf_decl_tag annotation: on the whole (component -1) or on one member/parameter. */
struct btf_decl_tag_ref {
	const char *value;
	int component;
};

/*
 * What one encoder knows of a function, merged over the CUs it encoded.
 * params and tags, and the strings they point to, belong to that encoder.
 */
/*
 * How a sighting's prototype differs from the first sighting's, in the words
 * of pahole v1.31's -V (funcs__match): the parameter count ("..." counted),
 * the return type, or parameter @param.
 */
enum func_mismatch_kind {
	FUNC_MISMATCH_COUNT = 1,
	FUNC_MISMATCH_RETURN,
	FUNC_MISMATCH_PARAM,
};

/* A sighting's place: its CU's index << 32 | its place among the CU's functions. */
#define FUNC_POS_NONE UINT64_MAX

struct func_mismatch {
	uint64_t pos; /* of the differing sighting; FUNC_POS_NONE for none */
	uint32_t param;
	uint32_t nr_params; /* the differing sighting's, "..." counted */
	const char *name; /* its name of @param (an encoder's arena), or NULL */
	enum func_mismatch_kind kind;
};

struct btf_func_state {
	struct btf_func_param *params;
	uint32_t nr_params;
	struct btf_decl_tag_ref *tags;
	uint32_t nr_tags;
	uint32_t ret_type;
	uint32_t cu_index; /* the first CU that defined the function */
	const struct btf_chunk *chunk; /* whose BTF the type IDs are in */
	bool initialized;
	bool varargs;
	bool inconsistent_proto; /* prototypes differ between CUs */
	bool optimized_parms; /* a parameter is optimized out */
	bool unexpected_reg; /* a parameter is not where the ABI puts it */
	bool uncertain_parm_loc; /* a parameter's location cannot be known */
	uint64_t pos; /* the first sighting's place */
	uint64_t unexpected_pos; /* the first with an unexpected register, or FUNC_POS_NONE */
	/* The first sighting, by place, that differs from the first. */
	struct func_mismatch mismatch;
	/* With true_signature: every sighting, in CU order (btf_encoder_priv.h). */
	struct func_sighting *sightings, *last_sighting;
};

struct elf_function {
	struct btf_encoder *_Atomic owner;
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

/* Builds the table from the STT_FUNC symbols of @symtab; NULL on ENOMEM. */
struct elf_functions *elf_functions__new(const struct elf_symtab *symtab);
void elf_functions__delete(struct elf_functions *functions);

/* The entry for @name (no suffix), or NULL.  Never changes the table. */
struct elf_functions_entry *elf_functions__find(const struct elf_functions *functions,
						const char *name);

/*
 * Returns @owner's node in @entry's list: an unowned node claimed by
 * compare-and-exchange on its owner, or a new node pushed by
 * compare-and-exchange on the head.  Only @owner's thread may call this for
 * @owner, so there is never more than one node per (owner, name).  NULL on
 * ENOMEM.
 */
struct elf_function *elf_functions__claim(struct elf_functions_entry *entry,
					  struct btf_encoder *owner);

size_t elf_functions__nr_entries(const struct elf_functions *functions);
struct elf_functions_entry *elf_functions__entry(const struct elf_functions *functions, size_t i);

/* Marks @name as a kfunc when it is in the table; @flags are those of its last set entry. */
void elf_functions__mark_kfunc(struct elf_functions *functions, const char *name, uint32_t flags);

#endif /* _ELF_FUNCTIONS_H_ */
