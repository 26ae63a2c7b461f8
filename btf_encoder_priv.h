/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_ENCODER_PRIV_H_
#define _BTF_ENCODER_PRIV_H_ 1

/*
 * What the files of the encoder share, and no one else (btf_encoder.h is
 * the interface).  One job per file, in the order the work flows:
 *
 *   btf_encoder.c        a CU's DIEs to BTF types: one handler per DWARF tag
 *                        (die_ops[]), names, members, enumerators, decl tags;
 *   btf_encoder_refs.c   the CU's type references: noted while the types are
 *                        added, resolved once the CU is walked;
 *   btf_encoder_funcs.c  functions: their parameters and ABI locations, the
 *                        merge of an encoder's sightings (btf_encoder__save_func)
 *                        and of all encoders' (btf_encoders__add_saved_funcs);
 *   btf_encoder_sigs.c   with true_signature: each function also judged by
 *                        upstream's later rules, and at the merge the FUNCs
 *                        that the feature changes;
 *   btf_encoder_vars.c   variables: collected per CU, added with their DATASECs;
 *   btf_chunks.c         chunks: each deduplicated on its own with the IDs
 *                        that functions and variables hold carried through,
 *                        then all concatenated in order and deduplicated once.
 *
 * Every function here takes the encoder of the calling worker and touches
 * nothing another worker does, but for the merge functions
 * (btf_encoders__*), which run in one thread once all workers are done,
 * and for the claiming of elf_function nodes, which is atomic.  What
 * libdw shares across units is read only as dwarf_loader.c says.
 */
#include <stdbool.h>
#include <stdint.h>
#include <elfutils/libdw.h>

#include "btf_encoder.h"
#include "die_attrs.h"
#include "die_reader.h"
#include "elf_functions.h"
#include "func_sigs.h"
#include "lib/arena.h"
#include "lib/darray.h"
#include "lib/ptr_map.h"

/*
 * The types of one chunk of CUs (see dwarf_loader.h), deduplicated on their
 * own once the chunk is encoded.  A chunk depends on its CUs alone, so the
 * chunks concatenated in order give the same BTF at every -j.
 */
struct btf_chunk {
	uint32_t index;
	struct btf *btf;
	uint32_t first_id; /* its first type: 1, as chunks are standalone BTF */
	uint32_t nr_types; /* after dedup */
	uint32_t merged_id; /* where first_id went in the merged BTF */
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

/* Where a parameter of a function of the current CU lives. */
struct cu_param_loc {
	Dwarf_Attribute attr; /* DW_AT_location */
	bool has_location;
	bool has_const_value;
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
	uint32_t first_param, nr_params; /* in btf_encoder.cu.params */
	uint32_t first_tag, nr_tags; /* in btf_encoder.cu.tags */
	bool varargs;
	bool optimized_parms, unexpected_reg, uncertain_parm_loc;
	bool raw_unexpected; /* a register unexpected, before a struct forgives it */
	/* The CU-relative offsets of its DIE and of its DW_AT_abstract_origin (or 0). */
	uint32_t die_off, origin_off;
	/* With true_signature: */
	uint64_t addr; /* DW_AT_low_pc, or 0 */
	bool changed; /* sig_func__changed() */
	bool clang; /* its unit's producer is clang (units may be one: LTO) */
	bool reordered; /* a parameter is not at its abstract origin's place */
};

/* A member of a struct, read before the struct is added. */
struct pending_member {
	int name_off; /* in the chunk's strings, 0 for none */
	uint32_t type;
	uint32_t bit_off, bit_size; /* as btf__add_field() takes them */
};

struct btf_encoder {
	const struct btf_encoder_conf *conf;
	struct btf *btf; /* the current chunk's */
	struct btf_chunk *chunk;
	DARRAY(struct btf_chunk *) chunks;
	/* What the current chunk's types are referred to from, to carry through its dedup. */
	DARRAY(struct btf_func_state *) chunk_states;
	DARRAY(struct func_sighting *) chunk_sightings; /* with true_signature */
	/* Their type IDs, listed to go through the dedup (btf_dedup__carry()). */
	DARRAY(uint32_t) carried;
	size_t carried_next;
	size_t chunk_first_var;
	DARRAY(struct btf_var_state) vars;
	struct arena arena; /* what saved functions and variables point to */
	/* The names of the declarations its chunks' dedups resolved, in the arena. */
	DARRAY(const char *) resolved_decls;
	struct ptr_map strs; /* the DWARF's strings -> their offsets in the chunk's BTF */
	/*
	 * Per-CU state, reset when a CU begins (btf_encoder.c): a unit, or
	 * with merged_cus all the units of the chunk.
	 */
	struct {
		/*
		 * What each DIE offset of the CU stands for (a type reference:
		 * an ID or another DIE), indexed by offset, and the offsets set,
		 * to clear them for the next CU.
		 */
		uint32_t *map;
		size_t map_size;
		/*
		 * With merged_cus, keyed by .debug_info offset + 1 instead: a
		 * dense map would take 4 bytes per byte of .debug_info.
		 */
		struct ptr_map sparse_map;
		DARRAY(uint32_t) refs;
		DARRAY(struct cu_func) funcs;
		DARRAY(struct btf_func_param) params;
		DARRAY(struct cu_param_loc) locs; /* parallel to params */
		DARRAY(struct sig_param) sig_params; /* with true_signature: parallel to params */
		struct sig_abi sig_abi; /* with true_signature: the unit's */
		DARRAY(struct btf_decl_tag_ref) tags;
		/* The members of the structs being read, innermost last (encode_struct). */
		DARRAY(struct pending_member) members;
		/*
		 * What the type-ID fields of the CU's types refer to, in the
		 * order btf_type__visit_ids() meets them, and the next one to
		 * resolve.
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
		bool open; /* merged_cus: the chunk's units walked so far await finishing */
		uint64_t bad_off; /* where the DWARF was found corrupt */
		int err;
	} cu;
};

static inline bool btf_encoder__has(const struct btf_encoder *e, enum btf_feature f)
{
	return btf_encoder_conf__has(e->conf, f);
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
	return e->conf->merged_cus ? dwarf_dieoffset(die) : dwarf_cuoffset(die);
}

/* ---- btf_encoder.c: walking the CU ---- */

/* die_attrs__read() of a DIE of the current CU, by die_reader's plans. */
void btf_encoder__attrs(struct btf_encoder *e, Dwarf_Die *die, struct die_attrs *a);
/* die_reader__child() and die_reader__sibling() in the current CU. */
int btf_encoder__child(struct btf_encoder *e, Dwarf_Die *die, Dwarf_Die *child);
int btf_encoder__sibling(struct btf_encoder *e, Dwarf_Die *die);
/* Notes that the CU's DWARF is corrupt near @die; -EBADMSG. */
int btf_encoder__corrupt(struct btf_encoder *e, Dwarf_Die *die);
/* Resolves the CU walked so far and saves its functions and variables. */
int btf_encoder__finish_cu(struct btf_encoder *e);
/* Records decl tag @value (if any, and wanted) for @component (-1: the whole). */
int btf_encoder__push_decl_tag(struct btf_encoder *e, const char *value, int component);
/* Records gcc's btf_decl_tag annotations of a DIE whose attributes are @a, for @component. */
int btf_encoder__push_gnu_decl_tags(struct btf_encoder *e, const struct die_attrs *a,
				    int component);
/* Records the btf_decl_tag annotations among @die's children for @component. */
int btf_encoder__collect_decl_tags(struct btf_encoder *e, Dwarf_Die *die, int component);

/* ---- btf_encoder_refs.c: the CU's type references ---- */

/* Records that @die stands for type reference @ref. */
int btf_encoder__map(struct btf_encoder *e, Dwarf_Die *die, uint32_t ref);
/* Forgets the previous CU's map. */
void btf_encoder__clear_map(struct btf_encoder *e);
/*
 * Notes what the next type-ID field added for the CU refers to: each
 * btf__add_*() of the walk is given 0 for a type ID, one field after the
 * other, and btf_encoder__resolve_cu() sets them in the same order.
 */
int btf_encoder__ref(struct btf_encoder *e, uint32_t ref);
/* Drops the references of items past a wrapped vlen, noted from @first on. */
void btf_encoder__wrap_refs(struct btf_encoder *e, size_t first);
/* Takes libbpf's new ID (or negative errno) @id for @die: 0 or a negative errno. */
int btf_encoder__added(struct btf_encoder *e, Dwarf_Die *die, int id);
/* The BTF ID that @ref stands for once the CU is walked: 0 (void) for none. */
uint32_t btf_encoder__resolve_ref(struct btf_encoder *e, uint32_t ref);
/* Sets the type-ID fields of the CU's types. */
int btf_encoder__resolve_cu(struct btf_encoder *e);

/* ---- btf_encoder_funcs.c: functions ---- */

/* Collects the function of subprogram @die, when the ELF has it. */
int btf_encoder__collect_func(struct btf_encoder *e, Dwarf_Die *die);
/* Once the CU is resolved: checks and saves its functions' sightings. */
int btf_encoder__save_cu_funcs(struct btf_encoder *e);
/* Copies @n decl tags of the current CU, from @first on, into the arena. */
int btf_encoder__own_tags(struct btf_encoder *e, struct btf_decl_tag_ref **dst, size_t first,
			  uint32_t n);
/* Adds decl tags @tags[0..@nr) on type @id. */
int decl_tags__add(struct btf *btf, uint32_t id, const struct btf_decl_tag_ref *tags, size_t nr);
/* The CU's function whose DIE is at @off, or NULL. */
struct cu_func *btf_encoder__cu_func_at(struct btf_encoder *e, uint32_t off);
/* Merge: adds the FUNCs of all encoders' saved function states to @btf. */
int btf_encoders__add_saved_funcs(const struct btf_encoder_conf *conf, struct btf *btf);
/*
 * Whether two states' prototypes differ, as upstream after v1.31 compares
 * them (a function pointer's parameters too), both in the merged @btf.
 */
bool btf_func_states__differ(const struct btf *btf, const struct btf_func_state *a,
			     const struct btf_func_state *b);
/*
 * Adds the FUNC of state @s (merged type IDs) named @name, its prototype and
 * decl tags, and as a kfunc its tags and arena attributes when @as_kfunc.
 */
int btf_func_state__add(struct btf *btf, const struct btf_encoder_conf *conf,
			const struct elf_functions_entry *entry, const char *name,
			const struct btf_func_state *s, bool as_kfunc);

/* ---- btf_encoder_sigs.c: true signatures ---- */

/* Reads the unit's ABI facts, when true_signature is on. */
void btf_encoder__sig_begin_unit(struct btf_encoder *e, Dwarf_Die *cu_die);
/* Reads what the rules need of function @die into @f. */
void btf_encoder__sig_collect_func(struct btf_encoder *e, Dwarf_Die *die, struct cu_func *f);
/* Reads parameter @die of the function being collected: 0 or -ENOMEM. */
int btf_encoder__sig_collect_param(struct btf_encoder *e, Dwarf_Die *die);
/* Once the CU is resolved: passes the concrete parameters' facts on to their origins. */
void btf_encoder__sig_share(struct btf_encoder *e);
/* Saves the sighting @f (the @nr-th function of the CU) into @node. */
int btf_encoder__sig_save(struct btf_encoder *e, struct elf_function *node, const struct cu_func *f,
			  uint32_t nr);
/*
 * Merge: adds the FUNC that true_signature gives @entry where upstream's
 * default would give another: 1 when that one takes the place of ours, 0
 * when ours stands too (or the feature is off), or a negative errno.
 */
int btf_encoders__add_true_sig(const struct btf_encoder_conf *conf, struct btf *btf,
			       const struct elf_functions_entry *entry);

/* ---- btf_encoder_vars.c: variables ---- */

/* The die_ops[] handler of DW_TAG_variable. */
int btf_encoder__encode_variable(struct btf_encoder *e, Dwarf_Die *die);
/* Once the CU is walked: the BTF IDs of its variables' types. */
void btf_encoder__resolve_cu_vars(struct btf_encoder *e);
/* Merge: adds the VARs and DATASECs of all encoders' variables to @btf. */
int btf_encoders__add_vars(struct btf_encoder **encoders, unsigned int nr, struct btf *btf);

#endif /* _BTF_ENCODER_PRIV_H_ */
