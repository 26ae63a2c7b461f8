/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_FUNC_STATE_H_
#define _BTF_FUNC_STATE_H_ 1

/*
 * btf_func_state: what one encoder knows of a function, merged over the
 * CUs it encoded: the state an elf_function node holds (elf_functions.h).
 *
 * Written by the encoder that owns the node, in its worker thread
 * (btf_encoder_funcs.c, btf_encoder_sigs.c), while the workers run; read
 * after the join by the merge (btf_merge_funcs.c).  The type IDs are in
 * the BTF of the owner's chunk (@chunk); the strings and arrays belong to
 * the owner's arena.  Only the encoder's files and the table see it: not
 * the pipeline (encode.c, pahole.c), whose contract is btf_encoder.h.
 */
#include <stdbool.h>
#include <stdint.h>

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

/*
 * What one encoder knows of a function, merged over the CUs it encoded.
 * params and tags, and the strings they point to, belong to that encoder.
 */
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

#endif /* _BTF_FUNC_STATE_H_ */
