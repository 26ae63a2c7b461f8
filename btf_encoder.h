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
 * chunks appended in order (as they end: btf_sink__new()) and deduplicated
 * once more, is the same
 * whichever worker encoded which chunk, and the same as with one worker.
 * The last dedup sees some 150,000 types of the corpus vmlinux rather than
 * 3.3 million, and most of the deduplicating runs in parallel.  Split BTF
 * (a module's) is deduplicated once, on its base, as upstream does: its
 * chunks are only appended, and one worker builds them all, one after the
 * other, in one BTF that the merge takes as it is (one_build).
 *
 * Functions: all encoders share one elf_functions table (elf_functions.h);
 * an encoder merges its own sightings of a function in
 * btf_encoder__save_func(), comparing prototypes across its chunks' BTFs,
 * and btf_encoders__merge() merges the encoders' states once all are done.
 * The type IDs that function states and variables hold are carried through
 * each chunk's dedup (see btf_encoder__end_chunk()).
 *
 * Nothing here is global: everything an encoder changes lives in the
 * encoder, and what encoders share (the options, btf_encoder_conf, and the
 * input's facts, btf_encoder_input, with its symbol tables) is read-only
 * while they run, but for the claiming of elf_function nodes, which is
 * atomic.
 *
 * Names: btf_encoder__*() take a worker's encoder and run in its thread;
 * btf_encoders__*() run after the join, in one thread.  Functions return 0
 * or a negative errno, as libbpf does; -EPROTO is an internal error (ours,
 * or libbpf not doing what we rely on), never the input's.  The encoder's
 * files, one per job, share btf_encoder_priv.h, which says which does what
 * and in what order they may call each other.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "btf_release.h"
#include "die_attrs.h"
#include "dwarf_loader.h"
#include "func_params.h"
#include "unit_locks.h"

struct btf;
struct btf_base;
struct btf_chunk;
struct btf_encoder;
struct btf_sink;
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

/*
 * The bits of the default set (--btf_features=default), and what pahole's
 * older options leave on when no --btf_features list is given.
 */
#define BTF_FEATURES_DEFAULT                                                             \
	(BTF_FEAT(ENCODE_FORCE) | BTF_FEAT(VAR) | BTF_FEAT(FLOAT) | BTF_FEAT(DECL_TAG) | \
	 BTF_FEAT(TYPE_TAG) | BTF_FEAT(ENUM64) | BTF_FEAT(OPTIMIZED_FUNC) |              \
	 BTF_FEAT(CONSISTENT_FUNC) | BTF_FEAT(DECL_TAG_KFUNCS))
/* "all": every feature but distilled_base, which needs a base (v1.32). */
#define BTF_FEATURES_ALL (((1u << BTF_FEAT__NR) - 1) & ~BTF_FEAT(DISTILLED_BASE))
#define BTF_FEATURES_UNLISTED \
	(BTF_FEAT(VAR) | BTF_FEAT(DECL_TAG) | BTF_FEAT(TYPE_TAG) | BTF_FEAT(ENUM64))

/*
 * The options: what the command line decides.  Built by pahole.c before
 * anything is read; read-only after, by every thread.
 */
struct btf_encoder_conf {
	/* The upstream release whose BTF we write (btf_release.h); never NULL. */
	const struct btf_release *release;
	unsigned int features; /* BTF_FEAT() bits */
	int verbose;
	unsigned int jobs;
	/* -j without N: fewer workers than jobs for a small input (encode.c). */
	bool jobs_auto;
	bool in_place; /* the BTF goes into the input's ELF file, not one of its own */
	/* The CUs encoded (--lang, --lang_exclude, -X). */
	struct dwarf_cu_filter cu_filter;
	/* With --btf_base: the BTF that the output is split BTF on top of. */
	struct btf_base *base;
	/*
	 * PAHOLE_DEDUP_INPUT, a developer's check (tests/dedup_check.sh): the
	 * raw BTF that the last dedup is given is written to this file first,
	 * for a libbpf to deduplicate it too.  Without a base the chunks are
	 * then not deduplicated on their own (whole_dedup), so that the file
	 * holds what upstream hands libbpf: a libbpf's dedup of it is what
	 * ours, run without this, must give.  NULL: none.
	 */
	const char *dedup_input;
	/*
	 * PAHOLE_SPLIT_CHUNKS, a test's (tests/test_jobs.sh): every chunk of
	 * two CUs and more encoded in two parts, the second by an encoder of
	 * its own, as a worker that takes the back of another's chunk does
	 * (dwarf_loader.h): the output must be the same.
	 */
	bool split_chunks;
};

/*
 * What one input brings: set up by encode.c once the file is open, before
 * any encoder exists; read-only while workers run.  Between two passes
 * over the same input (BTF_ENCODERS_AGAIN), encode.c sets whole_dedup and
 * builds the function table again, with no encoder alive.
 */
struct btf_encoder_input {
	const struct btf_encoder_conf *conf;
	/* The function symbols, shared by all encoders (see elf_functions.h). */
	struct elf_functions *functions;
	const struct elf_symtab *symtab; /* NULL: the file has no .symtab */
	/* The registers that pass the first arguments (func_params.h). */
	struct param_regs param_regs;
	/* The size of a pointer: 4 in an ELFCLASS32 file, else 8. */
	int ptr_size;
	/* The ELF file is big-endian (ELFDATA2MSB). */
	bool big_endian;
	/*
	 * Serialize, unit by unit, dwarf_getlocations(), dwarf_getlocation(),
	 * dwarf_getlocation_attr() and dwarf_lowpc(): they fill libdw's caches
	 * of the unit (unit_locks.h).  Most locations are read without them
	 * (dwarf_locs.h).
	 */
	struct unit_locks *unit_locks;
	/* .debug_info as libdw reads it (dwarf_loader__debug_info()), or NULLs. */
	const unsigned char *debug_info, *debug_info_end;
	/* .debug_abbrev likewise (dwarf_loader__debug_abbrev()), or NULLs. */
	const unsigned char *debug_abbrev, *debug_abbrev_end;
	/* .debug_loc and .debug_loclists likewise (dwarf_loader__debug_locs()). */
	const unsigned char *debug_loc, *debug_loc_end, *debug_loclists, *debug_loclists_end;
	/* Both in the file's mapping (dwarf_loader__file_mapped()): their pages may be dropped. */
	bool locs_file_mapped;
	/* .debug_str and .debug_line_str as libdw reads them (NULL: none), for names. */
	const char *debug_str, *debug_str_end, *debug_line_str, *debug_line_str_end;
	/*
	 * Each unit's names are its own in those sections, as in a relocatable
	 * file (a module): only a final link merges its objects' strings.  A
	 * name's place then never comes again in another unit, and a cache by
	 * place (btf_encoder__str()) misses more than it saves.
	 */
	bool strs_per_unit;
	/*
	 * The units of the file are one CU (dwarf_loader__merged(): an LTO
	 * build): each chunk's units are walked as one CU, whose type
	 * references cross units, also into other chunks' units, whose DIEs
	 * it then takes (btf_encoder_foreign.c).
	 */
	bool merged_cus;
	/* With merged_cus: the dwz alternate file read with the file (die_attrs.h). */
	struct die_ref_space ref_space;
	/*
	 * References are .debug_info offsets, in a sparse DIE map: the units
	 * are one (merged_cus), or the file has partial units
	 * (dwarf_loader__partial_units()), which a unit may import.
	 */
	bool global_refs;
	/*
	 * The second pass (BTF_ENCODERS_AGAIN): chunks are not deduplicated
	 * on their own, only the merged BTF is, as upstream deduplicates the
	 * whole file once (see btf_encoders__merge()).
	 */
	bool whole_dedup;
	/*
	 * Split BTF encoded by one worker: its chunks are built one after the
	 * other in its one build, whose strings (and their cache) serve them
	 * all, and which the merge takes whole, no chunk copied (the split
	 * dedup names the strings in the order the types meet them, whatever
	 * order the build holds them in).  Set by encode.c for the pass.
	 */
	bool one_build;
	/*
	 * Where the chunks go as they end (btf_sink__new(), one per pass):
	 * the one object here that workers change, under its own lock.
	 */
	struct btf_sink *sink;
};

static inline bool btf_encoder_conf__has(const struct btf_encoder_conf *conf, enum btf_feature f)
{
	return conf->features & (1u << f);
}

/* Whether the release we write follows @rule. */
static inline bool btf_encoder_conf__follows(const struct btf_encoder_conf *conf,
					     enum btf_rule rule)
{
	return btf_release__has(conf->release, rule);
}

/* ---- a worker's encoder ---- */

/* A new encoder in *@out, for a worker: 0 or -ENOMEM. */
int btf_encoder__new(const struct btf_encoder_input *in, struct btf_encoder **out);
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
 * A part of another worker's chunk (dwarf_loader.h): a new encoder
 * (btf_encoder__new_part(), to which the encoder of the worker that takes
 * the part, @lender, lends what it works in if it has no chunk begun) begins
 * the chunk and encodes the part's CUs, then btf_encoder__end_part(); the
 * chunk's encoder, before btf_encoder__end_chunk(), takes the parts in CU
 * order with btf_encoder__take_part(): their types appended to its own, as
 * if it had encoded their CUs itself, and their variables; their function
 * states stay theirs (as another worker's would), moved into its chunk.
 * The part's encoder then encodes nothing more, but is merged
 * (btf_encoders__merge()) and deleted with the others.  Not where the units
 * are one (btf_encoder_input.merged_cus).
 */
int btf_encoder__new_part(const struct btf_encoder_input *in, struct btf_encoder *lender,
			  struct btf_encoder **out);
int btf_encoder__end_part(struct btf_encoder *part);
int btf_encoder__take_part(struct btf_encoder *encoder, struct btf_encoder *part);

/*
 * Where @encoder found the DWARF corrupt, once one of its calls returned
 * -EBADMSG: the DIE's offset in .debug_info and what is wrong there.  False
 * when it found nothing corrupt.
 */
bool btf_encoder__corrupt_at(const struct btf_encoder *encoder, uint64_t *off, const char **what);

/* ---- the encoders' work merged: begun while they run, ended after the join ---- */

/*
 * The BTF that a pass's chunks are appended to, in order, as the workers end
 * them (btf_encoder__end_chunk()), and that btf_encoders__merge() then
 * completes: of its own, or with btf_encoder_conf.base split BTF on it.
 * Made before the workers start, deleted after the merge; 0 or a negative
 * errno.
 */
int btf_sink__new(const struct btf_encoder_input *in, struct btf_sink **out);
void btf_sink__delete(struct btf_sink *sink);
/* Whether a pass of @nr_workers builds its chunks in one build (btf_encoder_input.one_build). */
bool btf_sink__one_build(const struct btf_encoder_input *in, unsigned int nr_workers);

/*
 * What the encoders made: a BTF of libbpf's (@btf), or split BTF on the
 * base (btf_encoder_conf.base) as the raw bytes to write (@raw, @raw_size, in this
 * machine's byte order: encode.c swaps them for a file of the other), when it was
 * deduplicated on the base as it is read (btf_dedup__split()).  The caller
 * frees both.
 */
struct btf_encoded {
	struct btf *btf;
	void *raw;
	uint32_t raw_size;
	/*
	 * A vmlinux's BTF: its raw bytes, which libbpf reads (btf__new(), the
	 * contract) in a thread of its own while they are written: @btf is
	 * NULL until btf_encoded__check() has waited for it.
	 */
	struct btf_check *check;
	uint32_t nr_types; /* the types written (void not counted) */
	/* No CU gave a type (all left out, say): nothing to write. */
	bool empty;
	/* With -BTF_REFUSED_VAR_NAME: the name refused, cut at 128 bytes. */
	char bad_name[129];
};

/*
 * Waits for libbpf's reading of @enc's raw bytes, if it runs: then
 * enc->btf is libbpf's BTF of them.  0, or the negative errno of
 * btf__new(), which took them for no valid BTF.  Any thread, once.
 */
int btf_encoded__check(struct btf_encoded *enc);

/*
 * Once every worker is done: takes the chunks of all @nr encoders (the
 * workers' and their parts', btf_encoder__take_part()) from the sink, adds
 * the functions and variables, deduplicates and returns the BTF in *@out;
 * @nr_workers threads share what runs in parallel, as the workers did.
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
 * again with btf_encoder_input.whole_dedup.
 */
#define BTF_ENCODERS_AGAIN 1
int btf_encoders__merge(struct btf_encoder **encoders, unsigned int nr, unsigned int nr_workers,
			struct btf_encoded *out);

/*
 * What the DWARF holds that pahole v1.31 refuses to encode: it prints "Error
 * while encoding BTF." (or, for an imported unit, nothing at all) and writes
 * no BTF.  btf_encoder__encode_cu() and btf_encoders__merge() return these
 * negated; they lie beyond errno's values and libbpf's (LIBBPF_ERRNO__*), so
 * encode.c can name the cause.  Each is declared once, here, with what
 * refuses it and the words the user reads: X(NAME, WORDS).
 */
#define BTF_REFUSALS(X)                                                                                \
	/* DW_ATE_complex_float, with float */                                                         \
	X(COMPLEX_FLOAT, "BTF has no kind for a complex floating-point type "                          \
			 "(DW_ATE_complex_float), as pahole v1.31 refuses")                            \
	/* DW_ATE_imaginary_float, with float */                                                       \
	X(IMAGINARY_FLOAT, "BTF has no kind for an imaginary floating-point type "                     \
			   "(DW_ATE_imaginary_float), as pahole v1.31 refuses")                        \
	/* DW_ATE_float not of 2, 4, 8, 12 or 16 bytes, with float */                                  \
	X(FLOAT_SIZE, "BTF has no floating-point type of that size (only 2, 4, 8, 12 or 16 "           \
		      "bytes), as pahole v1.31 refuses")                                               \
	/* an enum not of 1, 2, 4 or 8 bytes */                                                        \
	X(ENUM_SIZE, "BTF has no enum of that size (only 1, 2, 4 or 8 bytes), as pahole "              \
		     "v1.31 refuses")                                                                  \
	/* a bit field past bit 0xffffff of its struct */                                              \
	X(BITFIELD_OFFSET, "BTF cannot place a bit field more than 2 MiB into its struct "             \
			   "(its offset has 24 bits), as pahole v1.31 refuses")                        \
	X(REFERENCE, "BTF has no kind for a C++ reference (DW_TAG_reference_type), as pahole "         \
		     "v1.31 refuses")                                                                  \
	X(RVALUE_REFERENCE, "BTF has no kind for a C++ rvalue reference "                              \
			    "(DW_TAG_rvalue_reference_type), as pahole v1.31 refuses")                 \
	X(PTR_TO_MEMBER, "BTF has no kind for a C++ pointer to member "                                \
			 "(DW_TAG_ptr_to_member_type), as pahole v1.31 refuses")                       \
	X(STRING, "BTF has no kind for a string type (DW_TAG_string_type, Fortran's "                  \
		  "CHARACTER), as pahole v1.31 refuses")                                               \
	X(ATOMIC, "BTF has no kind for an _Atomic type (DW_TAG_atomic_type), as pahole "               \
		  "v1.31 refuses")                                                                     \
	X(INTERFACE, "BTF has no kind for an interface type (DW_TAG_interface_type), as "              \
		     "pahole v1.31 refuses")                                                           \
	X(IMPORTED_UNIT, "a unit imports a partial unit (DW_TAG_imported_unit, as dwz "                \
			 "makes), which pahole v1.31 cannot read: it writes nothing")                  \
	/* ... of a partial unit in a dwz alternate file we could not number (encode.c) */             \
	X(IMPORTED_ALT, "a unit imports a partial unit of an alternate or supplementary file "         \
			"(.gnu_debugaltlink, .debug_sup) whose DIEs cannot be numbered past "          \
			".debug_info: too large, or the file names none")                              \
	/* a variable name BTF does not take, without encode_force (encode.c adds upstream's words) */ \
	X(VAR_NAME, "a variable's name is no BTF name (letters, digits, '_' or '.', at most "          \
		    "128), as pahole v1.31 refuses without --btf_encode_force")

enum btf_refusal {
	BTF_REFUSED_NONE = 0, /* no refusal (btf_encoder_priv.h's DIE_TAGS) */
	BTF_REFUSED__BEFORE = 0xffff,
#define BTF_REFUSAL_ENUM(name, words) BTF_REFUSED_##name,
	BTF_REFUSALS(BTF_REFUSAL_ENUM)
#undef BTF_REFUSAL_ENUM
	BTF_REFUSED__END,
};

#endif /* _BTF_ENCODER_H_ */
