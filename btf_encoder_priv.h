/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_ENCODER_PRIV_H_
#define _BTF_ENCODER_PRIV_H_ 1

/*
 * What the files of the encoder share, and no one else (btf_encoder.h is
 * the interface).  One job per file; each calls only files below it in
 * this list, never one above (tests/test_layers.sh checks the objects'
 * symbols against this list, so it holds):
 *
 *   btf_merge.c           after the join: the chunks of all encoders in
 *                         order, the FUNCs and VARs added, one dedup;
 *   btf_merge_funcs.c     after the join: each function's states merged across
 *                         encoders, the inconsistent dropped, the FUNCs added
 *                         (with true_signature, the FUNC it changes);
 *   btf_merge_vars.c      after the join: the VARs, a DATASEC per section;
 *   btf_encoder_chunk.c   a worker's chunk: begun, then deduplicated on its
 *                         own with the IDs that functions and variables hold
 *                         carried through;
 *   btf_encoder_sink.c    the chunks appended in order to one BTF as they
 *                         end, by any worker, under the sink's lock;
 *   btf_encoder.c         a CU's DIEs to BTF types: one handler per DWARF tag
 *                         (die_ops[]), names, members, enumerators; a CU
 *                         begun and finished;
 *   btf_encoder_vars.c    a CU's variables, collected and resolved;
 *   btf_encoder_funcs.c   a CU's functions: parameters and ABI locations, and
 *                         the worker's merge of its own sightings
 *                         (btf_encoder__save_func);
 *   btf_encoder_sigs.c    with true_signature: each function also judged by
 *                         upstream's later rules;
 *   btf_encoder_foreign.c where the units are one CU shared out by chunks:
 *                         the DIEs of other chunks' units that the chunk
 *                         refers to, checked and encoded into it;
 *   btf_encoder_refs.c    the CU's type references: noted while the types are
 *                         added, resolved once the CU is walked;
 *   btf_encoder_tags.c    decl tags: recorded per CU, owned, added;
 *   btf_encoder_match.c   two function states compared, for both merges;
 *   btf_encoder_walk.c    the per-CU state, corruption, the CU's function at a DIE,
 *                         a struct's members ordered by offset.
 *
 * Every btf_encoder__*() takes the encoder of the calling worker and touches
 * nothing another worker does, but for the claiming of elf_function nodes,
 * which is atomic; btf_encoders__*() run in one thread once all workers are
 * done.  What libdw shares across units is read only as dwarf_loader.c says.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <elfutils/libdw.h>

#include "btf_encoder.h"
#include "btf_func_state.h"
#include "die_attrs.h"
#include "die_reader.h"
#include "dwarf_locs.h"
#include "elf_functions.h"
#include "func_sigs.h"
#include "lib/arena.h"
#include "lib/btf_build.h"
#include "lib/darray.h"
#include "lib/off_map.h"
#include "lib/ptr_map.h"

/*
 * The types of one chunk of CUs (see dwarf_loader.h), deduplicated on their
 * own once the chunk is encoded.  A chunk depends on its CUs alone, so the
 * chunks concatenated in order give the same BTF at every -j.
 */
struct btf_chunk {
	uint32_t index;
	/*
	 * Once it ended; till then the encoder's build.  With one_build the
	 * encoder's build, which holds the chunks before it too, not the
	 * chunk's own (@shared).
	 */
	struct btf_build *built;
	bool shared;
	uint32_t first_id; /* its first type: 1, as chunks are standalone BTF, but with one_build */
	uint32_t nr_types; /* after dedup */
	uint32_t merged_id; /* where first_id went in the merged BTF */
	/* Deduplicated, no two of its pointers point to one type (btf_dedup__ptrs_unique()). */
	bool ptrs_unique;
};

/* A variable with a static address, as the encoder saw it in a CU. */
struct btf_var_state {
	const struct btf_chunk *chunk; /* whose BTF type is in */
	const char *name;
	struct btf_decl_tag_ref *tags;
	uint32_t nr_tags;
	uint64_t addr;
	uint32_t type; /* in the encoder's BTF once its CU is resolved */
	uint32_t cu_index;
	bool external;
};

/*
 * A parameter of a function of the current CU: its prototype's part, where
 * it lives, and with true_signature what upstream's later rules read of it.
 */
struct cu_param {
	struct btf_func_param proto;
	Dwarf_Attribute loc_attr; /* DW_AT_location */
	bool has_location;
	bool has_const_value;
	struct sig_param sig; /* with true_signature */
	/*
	 * v1.31's register (param_loc__reg()) where the walk of true_signature's
	 * rules read it on the way: of the location whose value is at
	 * @loc31_of; NULL where none was read so.
	 */
	const unsigned char *loc31_of;
	int loc31_reg;
};

/*
 * With true_signature: a sighting of a function as upstream after v1.31
 * judges it (func_sigs.h), in each of its two modes.  The sightings of a
 * name, kept in CU order by each encoder, decide at the merge which FUNC the
 * feature adds, and whether the default one goes (btf_encoder_sigs.c).
 */
enum {
	SIG_DEFAULT,
	SIG_TRUE,
	SIG__NR
};

struct func_sighting {
	struct func_sighting *next; /* the encoder's next one of the name */
	const struct btf_chunk *chunk; /* whose BTF the type IDs are in */
	uint64_t pos; /* as btf_func_state.pos */
	uint64_t addr; /* DW_AT_low_pc, or 0 */
	uint32_t ret_type;
	struct btf_decl_tag_ref *tags;
	uint32_t nr_tags;
	bool varargs, changed, reordered, uncertain;
	struct func_sig_mode {
		struct btf_func_param *params; /* shared by the modes when they agree */
		uint32_t nr_params;
		bool unexpected, optimized_parms;
	} mode[SIG__NR];
};

/* A function defined in the CU being encoded, saved once the CU is resolved. */
struct cu_func {
	struct elf_functions_entry *entry;
	uint32_t ret_type;
	uint32_t first_param, nr_params; /* in btf_encoder_cu.params */
	uint32_t first_tag, nr_tags; /* in btf_encoder_cu.tags */
	bool varargs;
	bool optimized_parms, unexpected_reg, uncertain_parm_loc;
	bool raw_unexpected; /* a register unexpected, before a struct forgives it */
	/* The CU-relative offsets of its DIE and of its DW_AT_abstract_origin (or 0). */
	uint32_t die_off, origin_off;
	uint32_t name_off; /* of the DIE its name comes from, if not its own (or 0) */
	/* With true_signature: */
	uint64_t addr; /* DW_AT_low_pc, or 0 */
	bool changed; /* sig_func__changed() */
	bool clang; /* its unit's producer is clang (units may be one: LTO) */
	bool reordered; /* a parameter is not at its abstract origin's place */
};

/* The DIE offsets a unit spans, as references number them. */
struct unit_range {
	uint32_t start, end;
};

struct foreign_unit;

/* A member of a struct, read before the struct is added. */
struct pending_member {
	int name_off; /* in the chunk's strings, 0 for none */
	uint32_t type;
	uint32_t bit_off, bit_size; /* as btf__add_field() takes them */
};

/* A func of the CU by its DIE offset: e->cu.funcs.data[idx]. */
struct cu_func_off {
	uint32_t off, idx;
};

/*
 * Per-CU state: a unit, or with merged_cus all the units of the chunk.
 * btf_encoder_cu__reset() when a CU begins, btf_encoder_cu__free() with the
 * encoder (btf_encoder_walk.c).
 */
struct btf_encoder_cu {
	/*
	 * What each DIE offset of the CU stands for (a type reference: an ID
	 * or another DIE), indexed by offset, and the offsets set, to clear
	 * them for the next CU.
	 */
	uint32_t *map;
	size_t map_size;
	/*
	 * With global references, keyed by .debug_info offset + 1 instead (a
	 * dense map would take 4 bytes per byte of .debug_info), but where the
	 * units are one, the offsets of the chunk's own units, [map_base,
	 * map_limit), which are dense from map_base.
	 */
	struct ptr_map sparse_map;
	uint32_t map_base, map_limit;
	DARRAY(uint32_t) refs;
	DARRAY(struct cu_func) funcs;
	DARRAY(struct cu_param) params;
	/* The prototype of the function being saved (btf_encoder__save_func()). */
	DARRAY(struct btf_func_param) proto;
	struct sig_abi sig_abi; /* with true_signature: the unit's */
	DARRAY(struct btf_decl_tag_ref) tags;
	/* The members of the structs being read, innermost last (encode_struct). */
	DARRAY(struct pending_member) members;
	/*
	 * What the type-ID fields of the CU's types refer to, in the order
	 * btf_type__visit_ids() meets them, and the next one to resolve.
	 */
	DARRAY(uint32_t) type_refs;
	size_t next_ref;
	bool indexed; /* an array needs the CU's "int" */
	uint32_t index;
	uint32_t first_id;
	size_t first_var; /* the CU's first entry in vars */
	int depth;
	uint32_t int_ref; /* DIE ref of the CU's "int", or 0 */
	Dwarf_Die die; /* the CU's */
	struct die_reader reader;
	struct die_ref_ctx ref_ctx; /* how the current unit's references are numbered */
	struct die_strs strs; /* where its names are: btf_encoder__set_strs() */
	/* The partial units this CU imported (their offsets), each walked once. */
	DARRAY(uint64_t) imported;
	int import_depth;
	/*
	 * The funcs by DIE offset, for btf_encoder__cu_func_at(): in DIE order
	 * as they are met, sorted by btf_encoder__index_funcs() if an import
	 * put them out of it.
	 */
	DARRAY(struct cu_func_off) func_index;
	bool funcs_unsorted;
	bool open; /* merged_cus: the chunk's units walked so far await finishing */
	/*
	 * Without BTF_RULE_ENUM_SUBPROGRAMS: the offsets of the subprograms
	 * that enumerations declare, whose definitions go unnamed.
	 */
	DARRAY(uint32_t) enum_subprograms;
	/* With merged_cus: the chunk's units, [start, end) as references number DIEs. */
	DARRAY(struct unit_range) units;
	/*
	 * With merged_cus: the references the types noted, and the DIEs the
	 * map took for others, that name a DIE outside [map_base, map_limit)
	 * (btf_encoder__ref(), btf_encoder__map()): those the chunk may have
	 * to take from another's units.
	 */
	DARRAY(uint32_t) remote_refs;
	bool foreign; /* a DIE of another chunk's unit is being encoded: its types alone */
	/*
	 * The unit is Rust's, whose structs' data members pahole lists by
	 * offset, not in DWARF's order (btf_encoder__sort_members()).
	 */
	bool members_by_offset;
	int err;
};

struct btf_encoder {
	const struct btf_encoder_input *in; /* the input's facts; in->conf the options */
	/*
	 * Sightings judged by upstream's later rules (btf_encoder_sigs.c):
	 * v1.32's FUNCs or true_signature; asked for every function and
	 * parameter, so worked out once.
	 */
	bool sigs;
	struct btf_build build; /* the current chunk's types, in our buffers until it ends */
	struct btf_dedup_mem *dedup; /* what its dedup works in, chunk after chunk */
	struct btf_chunk *chunk;
	DARRAY(struct btf_chunk *) chunks;
	/* What the current chunk's types are referred to from, to carry through its dedup. */
	DARRAY(struct btf_func_state *) chunk_states;
	DARRAY(struct func_sighting *) chunk_sightings; /* with true_signature */
	/* Their type IDs, listed to go through the dedup (btf_dedup__whole()). */
	DARRAY(uint32_t) carried;
	size_t carried_next;
	size_t chunk_first_var;
	DARRAY(struct btf_var_state) vars;
	struct arena arena; /* what saved functions and variables point to */
	/* The names of the declarations its chunks' dedups resolved, in the arena. */
	DARRAY(const char *) resolved_decls;
	/* The DWARF's strings -> their offsets in the chunk's BTF: by offset in .debug_str, else by pointer. */
	struct off_map debug_strs;
	struct ptr_map strs;
	struct dwarf_locs locs; /* the parameters' locations, read without libdw's cache */
	struct btf_encoder_cu cu;
	/*
	 * With merged_cus: the units of other chunks met, their type DIEs
	 * listed (btf_encoder_foreign.c), by their start + 1; the reader of
	 * their DIEs, and the unit it reads (its start + 1, 0 for none).
	 */
	DARRAY(struct foreign_unit) foreign_units;
	struct ptr_map foreign_index;
	struct die_reader foreign_reader;
	uint64_t foreign_reader_unit;
	/*
	 * A part's encoder (btf_encoder__new_part()): the worker's encoder that
	 * lent it what it works in, till btf_encoder__end_part(); else NULL.
	 */
	struct btf_encoder *lender;
	/* Where the strings of a part taken went (btf_encoder__take_part()). */
	struct btf_build_strmap part_strs;
	/* The first corrupt DIE found (btf_encoder__corrupt()), for the error line. */
	uint64_t corrupt_off;
	const char *corrupt_what; /* NULL: none found */
};

static inline bool btf_encoder__has(const struct btf_encoder *e, enum btf_feature f)
{
	return btf_encoder_conf__has(e->in->conf, f);
}

/* Where type @id of @c's BTF is in the merged BTF (base types stay where they are). */
static inline uint32_t btf_chunk__merged_id(const struct btf_chunk *c, uint32_t id)
{
	return id < c->first_id ? id : id - c->first_id + c->merged_id;
}

/*
 * The offset that stands for @die in the CU's references: in its unit, or
 * in .debug_info where the units are one.
 */
static inline uint32_t btf_encoder__die_off(const struct btf_encoder *e, Dwarf_Die *die)
{
	return e->in->global_refs ? die_ref_space__off(&e->in->ref_space, die) :
				    dwarf_cuoffset(die);
}

/* ---- btf_encoder_walk.c: the CU ---- */

/*
 * Reading a DIE of the current CU through its die_reader: its attributes
 * (by die_reader's plans), its first child, its next sibling.  Inline: the
 * walk calls them for each of a kernel's 14 million DIEs.
 */
static inline void btf_encoder__attrs(struct btf_encoder *e, Dwarf_Die *die, struct die_attrs *a)
{
	die_attrs__clear(a);
	a->refs = e->cu.ref_ctx;
	a->strs = &e->cu.strs;
	die_attrs__get(&e->cu.reader, die, a);
}

static inline int btf_encoder__child(struct btf_encoder *e, Dwarf_Die *die, Dwarf_Die *child)
{
	return die_reader__child(&e->cu.reader, die, child);
}

static inline int btf_encoder__tag(const struct btf_encoder *e, Dwarf_Die *die)
{
	return die_reader__tag(&e->cu.reader, die);
}

static inline int btf_encoder__sibling(struct btf_encoder *e, Dwarf_Die *die)
{
	return die_reader__sibling(&e->cu.reader, die);
}

/*
 * Notes that the CU's DWARF is corrupt at .debug_info offset @off, @what
 * being wrong there (btf_encoder__corrupt_at()): -EBADMSG, or -ENOMEM when
 * libdw's failure was for want of memory.
 */
int btf_encoder__corrupt(struct btf_encoder *e, uint64_t off, const char *what);
/*
 * Orders the members read from @first on by offset, stably, as pahole does
 * a Rust unit's (see btf_encoder_walk.c); 0 or -ENOMEM.
 */
int btf_encoder__sort_members(struct btf_encoder *e, size_t first);
/* Sorts e->cu.func_index once the CU's funcs are all met; 0 or -ENOMEM. */
int btf_encoder__index_funcs(struct btf_encoder *e);
/* The CU's function whose DIE is at @off, or NULL (after btf_encoder__index_funcs()). */
struct cu_func *btf_encoder__cu_func_at(struct btf_encoder *e, uint32_t off);
/* Forgets the previous CU's state but the map (btf_encoder__clear_map()). */
void btf_encoder_cu__reset(struct btf_encoder_cu *cu);
void btf_encoder_cu__free(struct btf_encoder_cu *cu);

/* ---- btf_encoder_match.c: function states compared ---- */

/*
 * A chunk's BTF to read: the encoder's build while it is the current one,
 * else its own (with one_build the encoder's, which holds every chunk).
 */
static inline const struct btf_build *btf_encoder__chunk_btf(const struct btf_encoder *e,
							     const struct btf_chunk *c)
{
	if (c->built)
		return c->built;
	return &e->build;
}

/*
 * Whether two prototypes differ: each in its chunk's BTF (@b1, @b2), or both
 * in the merged BTF (@merged, @b1 and @b2 one); if so, *@mm says how, as
 * pahole v1.31 compares them: the count, the return type, then each
 * parameter.  With @later, as upstream after v1.31 compares them (a
 * function pointer's parameters too).
 */
bool btf_func_state__differs(const struct btf_build *b1, const struct btf_func_state *s1,
			     const struct btf_build *b2, const struct btf_func_state *s2,
			     bool merged, struct func_mismatch *mm, bool later);
/* Ors @src's flags (inconsistent, optimized, unexpected, uncertain) into @dst. */
void btf_func_state__merge_flags(struct btf_func_state *dst, const struct btf_func_state *src);

/* ---- btf_encoder_tags.c: decl tags ---- */

/*
 * The values of the annotations named @name in the DW_AT_GNU_annotation
 * chain from @first, @max at most, into @values; with @stop the chain ends
 * at an annotation of another name.  Their count.
 */
int btf_encoder__gnu_annotations(struct btf_encoder *e, const Dwarf_Attribute *first,
				 const char *name, bool stop, const char **values, int max);
/* Records decl tag @value (if any, and wanted) for @component (-1: the whole). */
int btf_encoder__push_decl_tag(struct btf_encoder *e, const char *value, int component);
/* btf_encoder__push_gnu_decl_tags() of a DIE that has gcc's annotations. */
int btf_encoder__push_annotated_decl_tags(struct btf_encoder *e, const struct die_attrs *a,
					  int component);

/*
 * Records gcc's btf_decl_tag annotations of a DIE whose attributes are @a,
 * for @component.  Inline: most DIEs have none.
 */
static inline int btf_encoder__push_gnu_decl_tags(struct btf_encoder *e, const struct die_attrs *a,
						  int component)
{
	return a->has_gnu_annotation ? btf_encoder__push_annotated_decl_tags(e, a, component) : 0;
}
/* btf_encoder__collect_decl_tags() of a DIE that may have children. */
int btf_encoder__collect_child_decl_tags(struct btf_encoder *e, Dwarf_Die *die, int component);

/*
 * Records the btf_decl_tag annotations among @die's children for
 * @component.  Inline: a DIE just read without children, the corpus 6.1's
 * 6 M struct members, has none, and takes no call.
 */
static inline int btf_encoder__collect_decl_tags(struct btf_encoder *e, Dwarf_Die *die,
						 int component)
{
	if (die_reader__childless(&e->cu.reader, die))
		return 0;
	return btf_encoder__collect_child_decl_tags(e, die, component);
}
/* Copies @n decl tags of the current CU, from @first on, into the arena. */
int btf_encoder__own_tags(struct btf_encoder *e, struct btf_decl_tag_ref **dst, size_t first,
			  uint32_t n);
/* After the join: decl tag @value on type @id of @btf, as libbpf's btf__add_decl_tag(). */
int btf_encoders__add_decl_tag(struct btf_build *btf, const char *value, uint32_t id,
			       int component);
/* After the join: decl tags @tags[0..@nr) on type @id of @btf. */
int btf_encoders__add_decl_tags(struct btf_build *btf, uint32_t id,
				const struct btf_decl_tag_ref *tags, size_t nr);

/* ---- btf_encoder_refs.c: the CU's type references ---- */

/* Records that @die stands for type reference @ref. */
/*
 * Sizes the dense map of DIE offsets for a unit of @size bytes before its
 * DIEs fill it, its pages mapped in one call (lib/populate.h), not a fault
 * each as they are met (most of a worker's in its first chunk).  Out of
 * memory, the map stays as it is.
 */
void btf_encoder__map_unit(struct btf_encoder *e, size_t size);
int btf_encoder__map(struct btf_encoder *e, Dwarf_Die *die, uint32_t ref);
/* Forgets the previous CU's map. */
void btf_encoder__clear_map(struct btf_encoder *e);
/*
 * Where the units are one: notes @ref, a reference to a DIE outside the
 * span of the chunk's own units, as one btf_encoder__encode_foreign() may
 * have to follow into another chunk's unit (the others are the chunk's).
 */
int btf_encoder__note_remote(struct btf_encoder *e, uint32_t ref);

/*
 * Notes what the next type-ID field added for the CU refers to: each
 * btf__add_*() of the walk is given 0 for a type ID, one field after the
 * other, and btf_encoder__resolve_cu() sets them in the same order.
 * Inline: one for each member and parameter, 9.5 M of the corpus 6.1.
 */
static inline int btf_encoder__ref(struct btf_encoder *e, uint32_t ref)
{
	uint32_t *slot = darray__push(&e->cu.type_refs);

	if (!slot)
		return -ENOMEM;
	*slot = ref;
	return e->in->merged_cus ? btf_encoder__note_remote(e, ref) : 0;
}
/* Drops the references of items past a wrapped vlen, noted from @first on. */
void btf_encoder__wrap_refs(struct btf_encoder *e, size_t first);
/* Takes libbpf's new ID (or negative errno) @id for @die: 0 or a negative errno. */
int btf_encoder__added(struct btf_encoder *e, Dwarf_Die *die, int id);
/*
 * Whether reference @ref, or what the DIE it names stands for, names a DIE
 * no type of the CU stands for yet: its offset then in *@off.
 */
bool btf_encoder__ref_unmapped(const struct btf_encoder *e, uint32_t ref, uint32_t *off);
/* The BTF ID that @ref stands for once the CU is walked: 0 (void) for none. */
uint32_t btf_encoder__resolve_ref(struct btf_encoder *e, uint32_t ref);
/* Sets the type-ID fields of the CU's types. */
int btf_encoder__resolve_cu(struct btf_encoder *e);

/* ---- btf_encoder_sigs.c: true signatures ---- */

/* Reads the unit's ABI facts, when true_signature is on. */
void btf_encoder__sig_begin_unit(struct btf_encoder *e, Dwarf_Die *cu_die);
/* Reads what the rules need of function @die into @f. */
void btf_encoder__sig_collect_func(struct btf_encoder *e, Dwarf_Die *die, const struct die_attrs *a,
				   struct cu_func *f);
/*
 * Reads parameter @die, the last of e->cu.params and the @index-th of its
 * function, when true_signature is on.
 */
int btf_encoder__sig_collect_param(struct btf_encoder *e, Dwarf_Die *die, struct die_attrs *a,
				   uint32_t index);
/* Once the CU is resolved: passes the concrete parameters' facts on to their origins. */
void btf_encoder__sig_share(struct btf_encoder *e);
/* Saves the sighting @f (the @nr-th function of the CU) into @node. */
int btf_encoder__sig_save(struct btf_encoder *e, struct elf_function *node, const struct cu_func *f,
			  uint32_t nr);

/* ---- btf_encoder_funcs.c: a CU's functions ---- */

/* Collects the function of subprogram @die, when the ELF has it. */
int btf_encoder__collect_func(struct btf_encoder *e, Dwarf_Die *die);
/* Once the CU is resolved: checks and saves its functions' sightings. */
int btf_encoder__save_cu_funcs(struct btf_encoder *e);

/* ---- btf_encoder_vars.c: a CU's variables ---- */

/* The die_ops[] handler of DW_TAG_variable. */
int btf_encoder__encode_variable(struct btf_encoder *e, Dwarf_Die *die);
/* Once the CU is walked: the BTF IDs of its variables' types. */
void btf_encoder__resolve_cu_vars(struct btf_encoder *e);

/*
 * The DWARF tags the encoder knows, one row each: the one place a tag's
 * facts are written.  DIE_TAG(TAG, ENCODE, REFUSAL, TYPE):
 *   TAG      DW_TAG_TAG
 *   ENCODE   what it becomes: its handler in btf_encoder.c,
 *            btf_encoder__encode_ENCODE (none: nothing, its children
 *            neither)
 *   REFUSAL  the btf_refusal (btf_encoder.h) with which pahole v1.31
 *            refuses a file that has it anywhere, or NONE
 *   TYPE     whether a type reference may name it (btf_encoder_refs.c)
 * A tag without a row encodes nothing, refuses nothing, and is no type.
 */
#define DIE_TAGS(DIE_TAG)                                                \
	DIE_TAG(base_type, base_type, NONE, 1)                           \
	DIE_TAG(pointer_type, pointer, NONE, 1)                          \
	DIE_TAG(reference_type, refused, REFERENCE, 1)                   \
	DIE_TAG(rvalue_reference_type, refused, RVALUE_REFERENCE, 1)     \
	DIE_TAG(const_type, modifier, NONE, 1)                           \
	DIE_TAG(volatile_type, modifier, NONE, 1)                        \
	DIE_TAG(restrict_type, modifier, NONE, 1)                        \
	DIE_TAG(typedef, modifier, NONE, 1)                              \
	DIE_TAG(atomic_type, refused, ATOMIC, 1)                         \
	DIE_TAG(immutable_type, transparent, NONE, 1)                    \
	DIE_TAG(unspecified_type, void, NONE, 1)                         \
	DIE_TAG(structure_type, struct, NONE, 1)                         \
	DIE_TAG(class_type, struct, NONE, 1)                             \
	DIE_TAG(union_type, struct, NONE, 1)                             \
	DIE_TAG(enumeration_type, enum, NONE, 1)                         \
	DIE_TAG(array_type, array, NONE, 1)                              \
	DIE_TAG(subroutine_type, subroutine_type, NONE, 1)               \
	DIE_TAG(subprogram, subprogram, NONE, 0)                         \
	DIE_TAG(variable, variable, NONE, 0)                             \
	DIE_TAG(lexical_block, scope, NONE, 0)                           \
	DIE_TAG(namespace, scope, NONE, 0)                               \
	DIE_TAG(ptr_to_member_type, refused, PTR_TO_MEMBER, 1)           \
	DIE_TAG(string_type, refused, STRING, 1)                         \
	DIE_TAG(interface_type, refused, INTERFACE, 1)                   \
	/* v1.32 reads it (BTF_RULE_IMPORTED_UNITS); v1.31 refuses it */ \
	DIE_TAG(imported_unit, imported_unit, IMPORTED_UNIT, 0)          \
	DIE_TAG(set_type, unsupported, NONE, 1)                          \
	DIE_TAG(subrange_type, unsupported, NONE, 1)                     \
	DIE_TAG(file_type, unsupported, NONE, 1)                         \
	DIE_TAG(packed_type, transparent, NONE, 1)                       \
	DIE_TAG(shared_type, transparent, NONE, 1)                       \
	DIE_TAG(coarray_type, unsupported, NONE, 1)                      \
	DIE_TAG(generic_subrange, unsupported, NONE, 1)                  \
	DIE_TAG(dynamic_type, unsupported, NONE, 1)

/* Whether a type reference may name a DIE of @tag (DIE_TAGS' last column): btf_encoder_refs.c. */
bool die_tag__is_type(int tag);

/* ---- btf_encoder_foreign.c: the DIEs of other chunks' units ---- */

/*
 * With merged_cus, once the chunk's units are walked: the DIEs of other
 * chunks' units that its types, functions and variables refer to, encoded
 * into it by @encode (btf_encoder.c's, one DIE and what it nests), each
 * checked to be a type DIE of its unit; those of units the CU filter
 * leaves out stay void.  0 or a negative errno (-EBADMSG: corrupt).
 */
int btf_encoder__encode_foreign(struct btf_encoder *e,
				int (*encode)(struct btf_encoder *e, Dwarf_Die *die));
/*
 * Notes that the unit of @cu_die is the chunk's (with merged_cus), so that
 * references into it are not taken for another chunk's; out of memory, a
 * unit not noted has its DIEs taken again where referred to: the same BTF.
 */
void btf_encoder__note_unit(struct btf_encoder *e, Dwarf_Die *cu_die);
/* Whether @off, a DIE of another chunk's unit, is a subprogram an enumeration declares. */
bool btf_encoder__foreign_enum_subprogram(struct btf_encoder *e, uint32_t off);
/* Frees what the encoder keeps of other chunks' units. */
void btf_encoder__free_foreign(struct btf_encoder *e);

/* ---- btf_encoder.c: a CU's types ---- */

/* Resolves the CU walked so far and saves its functions and variables. */
int btf_encoder__finish_cu(struct btf_encoder *e);

/* ---- btf_encoder_sink.c: the chunks appended as they end ---- */

/*
 * Hands the ended chunk @c (compacted) to the sink, which appends it, and
 * the chunks after it that ended before, unless it waits for an earlier
 * chunk or another worker is appending; 0 or a negative errno (the sink's
 * first failure).  Any worker, under the sink's lock.  A chunk in a shared
 * build (one_build) is noted, not copied: it must follow the last one there.
 */
int btf_sink__put(struct btf_sink *sink, struct btf_chunk *c);
/*
 * After the join: the merged BTF, holding the @n chunks (in index order) in
 * order, each chunk's own BTF freed, in *@out: the sink's, freed with it
 * (or sooner, by btf_build__free()); 0, the sink's first failure, or
 * -EPROTO for a chunk it lacks.
 */
int btf_sink__take(struct btf_sink *sink, struct btf_chunk **chunks, size_t n,
		   struct btf_build **out);

/* ---- btf_merge_vars.c, btf_merge_funcs.c: after the join ---- */

/*
 * Adds the VARs and DATASECs of all @nr encoders' variables to @btf; a name
 * BTF does not take is -BTF_REFUSED_VAR_NAME, that name in @out->bad_name.
 */
int btf_encoders__add_vars(struct btf_encoder **encoders, unsigned int nr, struct btf_build *btf,
			   struct btf_encoded *out);
/*
 * Adds the FUNCs of all encoders' saved function states to @btf.  In v1.32
 * mode the choice of each name's FUNC, which only reads @btf, is made on
 * @nr_threads threads (par_for.h) before the FUNCs are added, in one: its
 * time in *@choosing (0 in v1.31 mode), for -V.
 */
int btf_encoders__add_saved_funcs(const struct btf_encoder_input *in, struct btf_build *btf,
				  unsigned int nr_threads, double *choosing);

#endif /* _BTF_ENCODER_PRIV_H_ */
