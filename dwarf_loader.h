/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DWARF_LOADER_H_
#define _DWARF_LOADER_H_ 1

/*
 * dwarf_loader: opens the DWARF of an ELF file and hands its compile units
 * to worker threads.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>

struct dwarf_loader;

/*
 * Opens @path, and the alternate file it names (dwarf_alt.h).  On failure
 * returns a negative errno and writes in @why (@len bytes) the problem:
 *   -ENOENT etc.	the file could not be opened or read (errno of open())
 *   -EISDIR		a directory
 *   -ENOEXEC		not an ELF file, or an ELF libelf cannot read
 *   -ENODATA		an ELF without DWARF (not an error for kernel builds)
 * or, for its alternate file, that file and why it cannot be read.
 */
int dwarf_loader__open(const char *path, struct dwarf_loader **out, char *why, size_t len);
void dwarf_loader__close(struct dwarf_loader *loader);

/*
 * Frees the DWARF and the ELF handles before the loader is closed, once no
 * DIE is read again (and nothing points into the ELF file's data): for a
 * module, libdwfl's relocated copy of its DWARF is most of what the
 * process holds, and the merge of split BTF needs none of it.
 * dwarf_loader__elf() is NULL after it.  Main thread, workers done.
 */
void dwarf_loader__release(struct dwarf_loader *loader);

/* The libelf handle of the file, for reading its symbols and sections. */
struct Elf *dwarf_loader__elf(const struct dwarf_loader *loader);

/*
 * The bytes of .debug_info that libdw reads (relocated for a module,
 * decompressed), for die_reader; NULLs when not found.
 */
void dwarf_loader__debug_info(const struct dwarf_loader *loader, const unsigned char **start,
			      const unsigned char **end);
/* .debug_abbrev likewise, for die_reader's plans; NULLs when not there. */
void dwarf_loader__debug_abbrev(const struct dwarf_loader *loader, const unsigned char **start,
				const unsigned char **end);
/* .debug_str and .debug_line_str likewise, for names; NULLs for one not there. */
void dwarf_loader__debug_strs(const struct dwarf_loader *loader, const char **str,
			      const char **str_end, const char **line_str,
			      const char **line_str_end);
/* .debug_loc and .debug_loclists likewise, for dwarf_locs; NULLs for one not there. */
void dwarf_loader__debug_locs(const struct dwarf_loader *loader, const unsigned char **loc,
			      const unsigned char **loc_end, const unsigned char **loclists,
			      const unsigned char **loclists_end);

/*
 * Whether @start..@end lies in the file's own read-only mapping, as
 * .debug_info does where its pages are dropped behind the chunks: then a
 * page of it may be dropped (lib/populate.h's populate__drop()) and comes
 * back from the file if read again; not so in a relocated, converted or
 * decompressed copy.
 */
bool dwarf_loader__file_mapped(const struct dwarf_loader *loader, const void *start,
			       const void *end);

/*
 * Whether the file's units are one CU, as pahole v1.31 decides: a kernel
 * built with LTO (its "Linux" ELF note LINUX_ELFNOTE_LTO_INFO says so), or,
 * without that note, DWARF whose units refer into each other
 * (DW_FORM_ref_addr, as LTO and dwz make).  Then the chunks are one CU,
 * each encoded by a worker as a CU of its own that takes the DIEs of other
 * chunks' units it refers to (btf_encoder_foreign.c).  A large file's
 * unit headers (and, without the note, abbreviation tables) are read by a
 * thread that dwarf_loader__open() starts: the first call waits for it
 * (dwarf_loader__for_each_chunk() and dwarf_loader__partial_units() too),
 * so that reading the symbols may come between, which calls no libdw.
 * Main thread.
 */
bool dwarf_loader__merged(struct dwarf_loader *loader);

/* Whether the file has partial units (DW_TAG_partial_unit: dwz's). */
bool dwarf_loader__partial_units(struct dwarf_loader *loader);

/*
 * The dwz alternate file (dwarf_alt.h) whose partial units the file
 * imports, which are then handed out first in the first chunk of merged
 * units; NULL when there is none or it was not found.  *@main: the file's
 * own; *@link: the alternate file it names, or NULL; *@info_size: the size of the
 * alternate file's .debug_info (0: none).
 */
Dwarf *dwarf_loader__alt(const struct dwarf_loader *loader, Dwarf **main, const char **link,
			 uint64_t *info_size);

/*
 * The partial units (DW_TAG_partial_unit, dwz's) the last
 * dwarf_loader__for_each_chunk() left out: read only where the units are
 * one CU, as both releases read them.
 */
unsigned int dwarf_loader__partial_skipped(const struct dwarf_loader *loader);

/*
 * CUs are handed out in chunks of consecutive units, cut where their share
 * of the bytes of .debug_info is reached: a DWARF_LOADER_CHUNKS-th of the
 * section, and DWARF_LOADER_TAIL_SPLIT times less over its last
 * DWARF_LOADER_TAIL-th, so that the last chunks taken are short and the
 * workers finish together.  Fewer, larger chunks leave less for the final
 * dedup.  At most DWARF_LOADER_CHUNK_MAX units make a chunk, or
 * DWARF_LOADER_CHUNK_UNITS when the size of the section is not known
 * (compressed).  The chunks depend on the file alone, the same whatever the
 * number of workers, so what is made of a chunk can depend on nothing else.
 * Merged units (dwarf_loader__merged()) are chunked alike (the alternate
 * file's partial units the file imports go first in the first chunk).
 */
#define DWARF_LOADER_CHUNKS 20
#define DWARF_LOADER_TAIL 8
#define DWARF_LOADER_TAIL_SPLIT 4
#define DWARF_LOADER_CHUNK_MAX 256
#define DWARF_LOADER_CHUNK_UNITS 64

struct dwarf_chunk {
	uint32_t index; /* chunks are numbered in .debug_info order */
	Dwarf_Off start, end; /* its units' span of .debug_info */
	unsigned int nr; /* the CUs to encode, in order */
	Dwarf_Die *cu_die;
	uint32_t *cu_index;
	Dwarf_Off *cu_end; /* where each ends in .debug_info, 0 when not known */
	unsigned int capacity; /* of the three arrays */
};

/*
 * What the workers do with a chunk; each call 0 or a negative errno, which
 * stops all.  A worker begins each chunk it takes with its own context
 * (@begin) and encodes its units (@unit), in order; a worker whose queue is
 * empty may take the back of the units another has not begun yet, of any
 * chunk (a part: its units in order too, each given once), with a context
 * of its own made for that part alone (@part_new, then @begin, @unit and
 * @part_end with it).  Once the chunk's units are all encoded, the worker
 * that began it ends it (@end) with the parts' contexts, in unit order.
 * The parts are the workers' doing, so what is made of a chunk must not
 * depend on them: only the chunks are the same at every -j.
 */
struct dwarf_chunk_ops {
	int (*begin)(void *ctx, const struct dwarf_chunk *chunk);
	int (*unit)(void *ctx, const struct dwarf_chunk *chunk, unsigned int i);
	/*
	 * A new context in *@ctx, from @user, for the worker whose own is
	 * @worker_ctx (which may lend it what it works in); kept whatever
	 * follows (see dwarf_loader__for_each_chunk()).
	 */
	int (*part_new)(void *user, void *worker_ctx, void **ctx);
	int (*part_end)(void *ctx);
	int (*end)(void *ctx, const struct dwarf_chunk *chunk, void *const *parts,
		   unsigned int nr_parts);
	void *user;
	/*
	 * A test's: every even chunk of two units and more in two parts, the
	 * worker that began it encoding the second as another would, and the
	 * workers taking the back of any range of two units and more, however
	 * small, before each chunk they take (the same output).
	 */
	bool split;
};

/*
 * Which CUs are encoded (--lang, --lang_exclude, -X): the others are left
 * out of the chunks.  Read-only; any field may be NULL.
 */
struct dwarf_cu_filter {
	const int *lang_exclude; /* DW_LANG_* values left out, zero-terminated */
	const int *lang_include; /* non-empty: only these, zero-terminated */
	const char *name_exclude; /* a CU whose name begins so, or without a name */
};

/*
 * Why @filter (NULL: none) leaves out the unit whose DIE is @cu_die, in
 * words for -V, or NULL when it is encoded (dwarf_cu_filter.c).
 */
const char *dwarf_cu_filter__why(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die);
/* The same, its language @lang known (dwarf_srclang()): the unit's DIE is read for -X alone. */
const char *dwarf_cu_filter__why_lang(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die,
				      int lang);
/* Whether @filter leaves out the unit whose DIE is @cu_die. */
bool dwarf_cu_filter__excludes(const struct dwarf_cu_filter *filter, Dwarf_Die *cu_die);

/*
 * Runs @nr_workers threads; worker i takes chunks from the shared queue with
 * @worker_ctx[i], leaving out the CUs that @filter leaves out (same chunks
 * whichever they are: see the chunk sizes above), and parts of others'
 * chunks as @ops says; where the units are one (dwarf_loader__merged()),
 * a chunk's units refer to each other, and no chunk is parted.  The parts'
 * contexts, every one @ops->part_new made, even on failure, in *@parts (to
 * free; NULL for none) and *@nr_parts, for the caller to merge or free.
 */
int dwarf_loader__for_each_chunk(struct dwarf_loader *loader, unsigned int nr_workers,
				 const struct dwarf_chunk_ops *ops, void **worker_ctx,
				 const struct dwarf_cu_filter *filter, int verbose, void ***parts,
				 unsigned int *nr_parts);

#endif /* _DWARF_LOADER_H_ */
