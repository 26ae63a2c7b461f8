/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_ENCODER_H_
#define _BTF_ENCODER_H_ 1

/*
 * btf_encoder: turns the DWARF of compile units into BTF.
 *
 * One btf_encoder is owned by exactly one worker thread.  The CUs come in
 * fixed chunks (consecutive CUs, cut by size, the same at every -j: see
 * dwarf_loader.h); for each chunk
 * the worker's encoder builds a struct btf of its own, encoding every type
 * of each CU straight from the DIEs, then deduplicates it on its own.  So a
 * chunk's BTF depends on its CUs alone, and the final BTF, made of the
 * chunks concatenated in order and deduplicated once more, is the same
 * whichever worker encoded which chunk, and the same as with one worker.
 * The last dedup sees some 150,000 types of the corpus vmlinux rather than
 * 3.3 million, and most of the deduplicating runs in parallel.
 *
 * Functions: all encoders share one elf_functions table (elf_functions.h);
 * an encoder merges its own sightings of a function in
 * btf_encoder__save_func(), comparing prototypes across its chunks' BTFs,
 * and btf_encoders__merge() merges the encoders' states once all are done.
 * The type IDs that function states and variables hold are carried through
 * each chunk's dedup (see btf_encoder__end_chunk()).
 *
 * Nothing here is global: everything an encoder changes lives in the
 * encoder, and what encoders share (the configuration, the symbol tables)
 * is read-only while they run, but for the claiming of elf_function nodes,
 * which is atomic.
 *
 * Functions return 0 or a negative errno, as libbpf does; -EPROTO is an
 * internal error (ours, or libbpf not doing what we rely on), never the
 * input's.  The encoder's
 * files, one per job, share btf_encoder_priv.h, which says which does what.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "func_params.h"

struct btf;
struct btf_base;
struct btf_encoder;
struct elf_functions;
struct elf_symtab;

/* The --btf_features names, as pahole spells them. */
enum btf_feature {
	BTF_FEAT_ENCODE_FORCE,
	BTF_FEAT_VAR,
	BTF_FEAT_FLOAT,
	BTF_FEAT_DECL_TAG,
	BTF_FEAT_TYPE_TAG,
	BTF_FEAT_ENUM64,
	BTF_FEAT_OPTIMIZED_FUNC,
	BTF_FEAT_CONSISTENT_FUNC,
	BTF_FEAT_DECL_TAG_KFUNCS,
	BTF_FEAT_REPRODUCIBLE_BUILD,
	BTF_FEAT_DISTILLED_BASE,
	BTF_FEAT_GLOBAL_VAR,
	BTF_FEAT_ATTRIBUTES,
	BTF_FEAT_TRUE_SIGNATURE,
	BTF_FEAT_LAYOUT, /* after true_signature, as upstream lists them */
	BTF_FEAT__NR,
};

#define BTF_FEAT(f) (1u << BTF_FEAT_##f)

/* Built once by pahole.c before any encoder exists; read-only after. */
struct btf_encoder_conf {
	unsigned int features; /* BTF_FEAT() bits */
	int verbose;
	unsigned int jobs;
	/* -j without N: fewer workers than jobs for a small input (pahole.c). */
	bool jobs_auto;
	/* DW_LANG_* values whose CUs are skipped; zero-terminated. */
	const int *lang_exclude;
	/* With --btf_base: the BTF that the output is split BTF on top of. */
	struct btf_base *base;
	/* The function symbols, shared by all encoders (see elf_functions.h). */
	struct elf_functions *functions;
	const struct elf_symtab *symtab;
	/* The registers that pass the first arguments (func_params.h). */
	struct param_regs param_regs;
	/* The size of a pointer: 4 in an ELFCLASS32 file, else 8. */
	int ptr_size;
	/* The ELF file is big-endian (ELFDATA2MSB). */
	bool big_endian;
	/*
	 * Serializes dwarf_getlocations() and dwarf_getlocation_attr(): they
	 * fill libdw's location caches, which are not safe to share between
	 * threads unless libdw was built with --enable-thread-safety.
	 */
	pthread_mutex_t *libdw_lock;
	/* .debug_info as libdw reads it (dwarf_loader__debug_info()), or NULLs. */
	const unsigned char *debug_info, *debug_info_end;
	/*
	 * The units of the file are one CU (dwarf_loader__merged(): an LTO
	 * build), handed out as one chunk: the encoder walks them as one CU,
	 * whose type references cross units.
	 */
	bool merged_cus;
	/*
	 * Chunks are not deduplicated on their own: only the merged BTF is,
	 * as upstream deduplicates the whole file once (see
	 * btf_encoders__merge()).
	 */
	bool whole_dedup;
};

static inline bool btf_encoder_conf__has(const struct btf_encoder_conf *conf, enum btf_feature f)
{
	return conf->features & (1u << f);
}

struct btf_encoder *btf_encoder__new(const struct btf_encoder_conf *conf);
void btf_encoder__delete(struct btf_encoder *encoder);

/*
 * A worker encodes its chunks of CUs (see dwarf_loader.h) one at a time:
 * btf_encoder__begin_chunk(), btf_encoder__encode_cu() for each CU of the
 * chunk in order, btf_encoder__end_chunk(), which deduplicates the chunk's
 * BTF on its own.
 */
int btf_encoder__begin_chunk(struct btf_encoder *encoder, uint32_t index);
/* Encodes every type, function and variable of the CU whose DIE is @cu_die. */
int btf_encoder__encode_cu(struct btf_encoder *encoder, Dwarf_Die *cu_die, uint32_t cu_index);
int btf_encoder__end_chunk(struct btf_encoder *encoder);

/*
 * What the encoders made: a BTF of libbpf's (@btf), or split BTF on
 * conf->base as the raw bytes to write (@raw, @raw_size), when it was
 * deduplicated on the base as it is read (btf_dedup__split()).  The caller
 * frees both.
 */
struct btf_encoded {
	struct btf *btf;
	void *raw;
	uint32_t raw_size;
};

/*
 * Once every worker is done: concatenates the chunks of all @nr encoders in
 * order, adds the functions and variables, deduplicates and returns the BTF
 * in *@out.
 *
 * Or returns BTF_ENCODERS_AGAIN, with no BTF, when the chunks' own dedups
 * may have given the merged one a result other than upstream's: a chunk's
 * dedup resolved a declaration (a FWD, or an enum without values) whose name
 * more than one struct, union or enum of the merged BTF bears.  libbpf's
 * dedup takes a declaration for whichever definition of its name it meets
 * (equivalence of two type graphs, or the one definition of that name the
 * BTF holds), and a chunk holds only some of the file's definitions; once
 * resolved in its chunk, a declaration stays so, and the types that refer to
 * it can then equal no type of the other chunks.  The caller then encodes
 * again with conf->whole_dedup.
 */
#define BTF_ENCODERS_AGAIN 1
int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, struct btf_encoded *out);

/*
 * What the DWARF holds that pahole v1.31 refuses to encode: it prints "Error
 * while encoding BTF." (or, for an imported unit, nothing at all) and writes
 * no BTF.  btf_encoder__encode_cu() and btf_encoders__merge() return these
 * negated; they lie beyond errno's values and libbpf's (LIBBPF_ERRNO__*), so
 * pahole.c can name the cause.
 */
enum btf_refusal {
	BTF_REFUSED_COMPLEX_FLOAT = 0x10000, /* DW_ATE_complex_float, with float */
	BTF_REFUSED_IMAGINARY_FLOAT, /* DW_ATE_imaginary_float, with float */
	BTF_REFUSED_FLOAT_SIZE, /* DW_ATE_float not of 2, 4, 8, 12 or 16 bytes, with float */
	BTF_REFUSED_ENUM_SIZE, /* an enum not of 1, 2, 4 or 8 bytes */
	BTF_REFUSED_BITFIELD_OFFSET, /* a bit field past bit 0xffffff of its struct */
	BTF_REFUSED_REFERENCE, /* DW_TAG_reference_type */
	BTF_REFUSED_RVALUE_REFERENCE, /* DW_TAG_rvalue_reference_type */
	BTF_REFUSED_PTR_TO_MEMBER, /* DW_TAG_ptr_to_member_type */
	BTF_REFUSED_STRING, /* DW_TAG_string_type */
	BTF_REFUSED_ATOMIC, /* DW_TAG_atomic_type */
	BTF_REFUSED_INTERFACE, /* DW_TAG_interface_type */
	BTF_REFUSED_IMPORTED_UNIT, /* DW_TAG_imported_unit */
	BTF_REFUSED_VAR_NAME, /* a variable name BTF does not take, without encode_force */
};

#endif /* _BTF_ENCODER_H_ */
