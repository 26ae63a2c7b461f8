/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _FUNC_PARAMS_H_
#define _FUNC_PARAMS_H_ 1

/*
 * Where a function's parameters are expected to arrive, by the rules pahole
 * v1.31 applies (its dwarf_loader.c and btf_encoder.c), which kernels and BPF
 * tools are built against.  They are not the ABI's: the i-th parameter, for i
 * below the architecture's count of argument registers, is expected in the
 * i-th of them whatever its type and size, so a struct taking two registers
 * or none shifts the expectation of those after it.  pahole forgives that
 * shift only when a parameter is a struct (not a union), and suspects a packed
 * struct only past the argument registers.  Those rules are here, in one
 * place, for the encoder to apply to each function it saves.
 *
 * Everything here is read-only on what it is given and safe from any thread;
 * param_loc__reg() reads with the caller's own dwarf_locs.
 */
#include <stdbool.h>
#include <stdint.h>

#include <bpf/btf.h>
#include <elfutils/libdw.h>

#include "dwarf_locs.h"

struct btf_build;

/* The argument registers of an architecture, as pahole v1.31 knows them. */
struct param_regs {
	int nr; /* parameters checked at all; 0: none */
	/* DWARF register of each, or -1 where pahole names none. */
	int regs[8];
	/* An aggregate of two words takes two registers (all but s390, for upstream after v1.31). */
	bool two_regs;
};

/* The argument registers of ELF machine @e_machine (EM_*); nr 0 for any other. */
struct param_regs param_regs__for_machine(int e_machine);

/*
 * The DW_OP_reg* atom pahole v1.31 expects parameter @i in, in *@expected (-1
 * where it names no register); false past the argument registers, where it
 * checks no location.
 */
bool param_regs__expected(const struct param_regs *r, uint32_t i, int *expected);

/*
 * The register a parameter with location @attr arrives in, as a DW_OP_reg*
 * atom, or -1 (in memory, or optimized out): the register of the first
 * location, or one named by DW_OP_entry_value at any location, stopping at
 * @expected; in *@reg.  0, or -ENOMEM.
 */
int param_loc__reg(struct dwarf_locs *locs, Dwarf_Attribute *attr, int expected, int *reg);

/*
 * param_loc__reg() one location at a time, for a walk of the list made for
 * other ends too (func_sigs.c's, which reads every location): each location
 * in the list's order to param_loc_walk__take(), which heeds none after
 * @done; @reg is then what param_loc__reg() gives.
 */
struct param_loc_walk {
	int expected, reg;
	bool done;
};

void param_loc_walk__init(struct param_loc_walk *w, int expected);
/* The @nr-th location of the list (counting empty ones), of @n operations. */
void param_loc_walk__take(struct param_loc_walk *w, const struct loc_op *ops, size_t n, int nr);

/* Whether type @id of @btf (a chunk being built) is a struct, seen through typedefs and const only. */
bool param_type__is_struct(const struct btf_build *btf, uint32_t id);

/*
 * Whether type @id of @btf is itself (no typedef) a named struct that pahole
 * infers to be packed: no hole and no tail padding, and a member off its
 * natural alignment or a size that is no multiple of it.  @ptr_size is the
 * CU's address size.
 */
bool param_type__is_packed_struct(const struct btf_build *btf, uint32_t id, int ptr_size);

#endif /* _FUNC_PARAMS_H_ */
