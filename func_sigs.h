/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _FUNC_SIGS_H_
#define _FUNC_SIGS_H_ 1

/*
 * Where parameters arrive, by the rules of upstream pahole after v1.31
 * (acmel/dwarves 1436daf, its dwarf_loader.c), which its true_signature
 * feature rests on.  They differ from v1.31's (func_params.h), which our
 * default output keeps: a parameter's registers are counted by its size (an
 * aggregate of up to two words takes two, a larger one none: it goes in
 * memory), the locations are read for constants and stack slots too, and a
 * struct passed in pieces of which one register holds a single member is
 * taken for that member.
 *
 * With true_signature, a function whose calling convention the compiler
 * changed (clang's DW_CC_nocall; gcc marks none) gets the signature it is
 * called with: its optimized-out parameters dropped, a struct that arrives as
 * one member renamed "param__member" and typed as the member.
 *
 * The readers take the DIEs of the caller's CU and its own dwarf_locs for
 * the locations; everything else is pure and safe from any thread.
 */
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "die_attrs.h"
#include "dwarf_locs.h"
#include "func_params.h"

/* The ABI facts of a CU that the rules take. */
struct sig_abi {
	const struct param_regs *regs;
	int addr_size;
	bool two_regs; /* an aggregate of two words takes two registers (not s390) */
	bool clang; /* the CU's DW_AT_producer names clang */
};

/* What the DWARF says of one parameter of a function. */
struct sig_param {
	uint32_t die_off; /* its DIE's, as the encoder numbers DIEs (REF_OFF_MASK) */
	uint32_t origin_off; /* of its DW_AT_abstract_origin, or 0 */
	uint32_t byte_size; /* of its type, as upstream reads it */
	int loc_reg; /* the DW_OP_reg* it arrives in, or -1 */
	/* The byte offsets of the pieces in the first and in the second register. */
	uint64_t first_fields, second_fields;
	const char *member; /* the member of its struct that its one piece holds, or NULL */
	uint32_t member_type; /* that member's type: a reference (die_attrs.h), then a BTF ID */
	bool has_loc, has_const_value, loc_const, loc_stack, in_memory;
};

/* The analysis of a parameter, in one mode. */
struct sig_param_out {
	bool optimized;
	bool unexpected;
	/* With true_signature: named "param__member", and typed as the member. */
	bool member_named, member_typed;
};

/*
 * A parameter DIE's own attributes that the rules read, each the first of
 * its name, as dwarf_attr() finds it; NULL where the DIE has none.
 */
struct sig_param_own {
	Dwarf_Attribute *origin; /* DW_AT_abstract_origin */
	Dwarf_Attribute *type;
	Dwarf_Attribute *location;
	bool has_const_value;
};

/* @own of @die read by libdw, the attributes kept in @attrs. */
void sig_param_own__read(struct sig_param_own *own, Dwarf_Die *die, Dwarf_Attribute attrs[3]);

struct die_reader;

/*
 * Reads @die (a DW_TAG_formal_parameter), whose own attributes are @own,
 * into @p, all of it but the offsets: 0 or -ENOMEM.  The DIEs of @r's unit
 * (the types its size is found through) are read by @r.  @also, unless
 * NULL, is given each location of the list as it is read (func_params.h),
 * so that v1.31's rule needs no walk of its own.
 */
int sig_param__read(struct sig_param *p, Dwarf_Die *die, const struct sig_param_own *own,
		    struct die_reader *r, const struct sig_abi *abi, const struct die_ref_ctx *ctx,
		    struct dwarf_locs *locs, struct param_loc_walk *also);

/*
 * Passes what concrete parameter @from knows on to its abstract origin @to,
 * as upstream shares them: the concrete instance has the locations.
 */
void sig_param__share(struct sig_param *to, const struct sig_param *from);

/*
 * Whether DIE @die of a function, which has DW_AT_abstract_origin when
 * @has_origin, has a changed calling convention: DW_CC_nocall, on it or on
 * its origin (followed as @ctx allows: into another unit only where the
 * units are one); never for an abstract instance (DW_AT_inline).  Only
 * clang says it.
 */
bool sig_func__changed(Dwarf_Die *die, bool has_origin, const struct die_ref_ctx *ctx);

/*
 * Analyzes the @n parameters @p of a function into @out: by upstream's
 * default rules, or with @true_sig (true_signature on a function whose
 * convention changed) by its true-signature ones.
 */
void sig_params__analyze(const struct sig_abi *abi, const struct sig_param *p, uint32_t n,
			 bool changed, bool true_sig, struct sig_param_out *out);

#endif /* _FUNC_SIGS_H_ */
