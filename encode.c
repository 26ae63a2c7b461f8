// SPDX-License-Identifier: GPL-2.0-only
/*
 * One input through `pahole -J` (encode.h): opened, its symbols read, its
 * units encoded by the workers, the encoders merged, the BTF written.
 */
#include <endian.h>
#include <errno.h>
#include <gelf.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_base.h"
#include "btf_distill.h"
#include "btf_encoder.h"
#include "btf_ids.h"
#include "btf_log.h"
#include "btf_writer.h"
#include "dwarf_loader.h"
#include "elf_functions.h"
#include "elf_symtab.h"
#include "encode.h"
#include "lib/btf_types.h"
#include "lib/clock.h"

/* What an input leaves open once it is encoded: see encode_result__delete(). */
struct encode_opened {
	struct dwarf_loader *loader;
	struct elf_symtab *symtab;
	struct elf_functions *functions;
};

struct encode_result {
	const struct btf_encoder_conf *conf;
	const char *path; /* the input's */
	bool check_said; /* libbpf could not read the BTF, and encode_result__check() said so */
	struct btf_encoded enc;
	bool big_endian; /* the ELF file's */
	/* What encode_result__raw() made, and with a layout section its buffer. */
	const void *raw;
	size_t raw_size;
	void *layout;
	struct encode_opened opened; /* the input, left open until the result is deleted */
	struct btf_writer_copy *copy; /* of the input, begun as it is encoded (conf->in_place) */
};

/* What one input brings while it is encoded: what encode__file() opened. */
struct encode_input {
	struct dwarf_loader *loader;
	struct elf_symtab *symtab; /* NULL: no .symtab */
	struct unit_locks unit_locks;
	struct btf_encoder_input in; /* what the encoders read */
	/* The first corrupt DIE an encoder found (btf_encoder__corrupt_at()). */
	uint64_t corrupt_off;
	const char *corrupt_what;
	const char *alt_link; /* the dwz alternate file the file names, or NULL */
	const char *path;
};

/* Prints "pahole: FILE: what" and returns @err. */
static int say(const char *path, int err, const char *what)
{
	fprintf(stderr, "pahole: %s: %s\n", path, what);
	return err;
}

static void encode_input__read_ehdr(struct encode_input *ei)
{
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(dwarf_loader__elf(ei->loader), &ehdr))
		return;
	ei->in.big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	ei->in.ptr_size = ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	ei->in.param_regs = param_regs__for_machine(ehdr.e_machine);
	ei->in.strs_per_unit = ehdr.e_type == ET_REL;
}

/*
 * The dwz alternate file, where the units are one: its DIEs are numbered
 * past .debug_info, which both must fit in a reference (die_attrs.h).
 * Without it an import from it is refused (btf_encoder.c).
 */
static void encode_input__alt(struct encode_input *ei)
{
	struct die_ref_space *space = &ei->in.ref_space;
	uint64_t alt_size;

	space->alt = dwarf_loader__alt(ei->loader, &space->main, &ei->alt_link, &alt_size);
	space->alt_base = ei->in.debug_info_end - ei->in.debug_info;
	if (!ei->in.merged_cus || !ei->in.debug_info ||
	    space->alt_base + alt_size >= REF_OFF_MASK - 1)
		space->alt = NULL;
}

static int encode_input__open(struct encode_input *ei, const char *path,
			      const struct btf_encoder_conf *conf)
{
	char why[PATH_MAX + 160];
	int err;

	ei->in.conf = conf;
	ei->path = path;
	ei->in.unit_locks = &ei->unit_locks;
	err = dwarf_loader__open(path, &ei->loader, why, sizeof(why));
	if (err) {
		fprintf(stderr, "pahole: %s: %s%s\n", path, why,
			err == -ENODATA ? ", nothing to encode" : "");
		return err;
	}
	err = elf_symtab__new(dwarf_loader__elf(ei->loader), &ei->symtab);
	/* No .symtab: no functions nor variables.  One we cannot read: an error. */
	if (err && err != -ENOENT) {
		fprintf(stderr, "pahole: %s: cannot read the symbol table: %s\n", path,
			err == -EINVAL ? "corrupt .symtab" : strerror(-err));
		return err;
	}
	/* Its names must outlive the ELF file's data, which split BTF lets go early. */
	if (ei->symtab && conf->base && elf_symtab__own_names(ei->symtab))
		return say(path, -ENOMEM, strerror(ENOMEM));
	ei->in.symtab = ei->symtab;
	encode_input__read_ehdr(ei);
	dwarf_loader__debug_info(ei->loader, &ei->in.debug_info, &ei->in.debug_info_end);
	dwarf_loader__debug_abbrev(ei->loader, &ei->in.debug_abbrev, &ei->in.debug_abbrev_end);
	dwarf_loader__debug_strs(ei->loader, &ei->in.debug_str, &ei->in.debug_str_end,
				 &ei->in.debug_line_str, &ei->in.debug_line_str_end);
	dwarf_loader__debug_locs(ei->loader, &ei->in.debug_loc, &ei->in.debug_loc_end,
				 &ei->in.debug_loclists, &ei->in.debug_loclists_end);
	/* A section that is not there is no copy either. */
	ei->in.locs_file_mapped =
		(!ei->in.debug_loc ||
		 dwarf_loader__file_mapped(ei->loader, ei->in.debug_loc, ei->in.debug_loc_end)) &&
		(!ei->in.debug_loclists ||
		 dwarf_loader__file_mapped(ei->loader, ei->in.debug_loclists,
					   ei->in.debug_loclists_end));
	return 0;
}

/*
 * What the units are, asked once the first function table is built: the
 * loader may still be reading the abbreviations to tell
 * (dwarf_loader__merged()).
 */
static void encode_input__units(struct encode_input *ei)
{
	ei->in.merged_cus = dwarf_loader__merged(ei->loader);
	ei->in.global_refs = ei->in.merged_cus || dwarf_loader__partial_units(ei->loader);
	encode_input__alt(ei);
	if (ei->in.conf->verbose && ei->in.merged_cus)
		fprintf(stderr,
			"pahole: %s: its units refer into each other (LTO): one CU, as pahole "
			"v1.31 merges them, shared out by chunks, each taking the DIEs of other "
			"chunks it refers to\n",
			ei->path);
}

static void encode_opened__close(struct encode_opened *o, const struct btf_encoder_conf *conf)
{
	double start = clock__now();

	if (!o->loader)
		return;
	elf_functions__delete(o->functions);
	elf_symtab__delete(o->symtab);
	dwarf_loader__close(o->loader);
	*o = (struct encode_opened){};
	if (conf->verbose)
		fprintf(stderr, "pahole: closing the DWARF: %.3f s\n", clock__now() - start);
}

/* Takes what @ei opened, which @ei then no longer closes. */
static struct encode_opened encode_input__take(struct encode_input *ei)
{
	struct encode_opened o = { ei->loader, ei->symtab, ei->in.functions };

	ei->loader = NULL;
	ei->symtab = NULL;
	ei->in.functions = NULL;
	return o;
}

static void encode_input__close(struct encode_input *ei)
{
	struct encode_opened o = encode_input__take(ei);

	encode_opened__close(&o, ei->in.conf);
}

/*
 * The function table, built anew for each pass: the encoders of a pass
 * claim its nodes.
 */
static int encode_input__functions(struct encode_input *ei)
{
	const struct btf_encoder_conf *conf = ei->in.conf;
	int err;

	elf_functions__delete(ei->in.functions);
	ei->in.functions = NULL;
	if (!ei->symtab)
		return 0;
	err = elf_functions__new(ei->symtab, &ei->in.functions);
	/* As pahole v1.31: kfunc tags are decl tags, off with them. */
	if (!err && btf_encoder_conf__has(conf, BTF_FEAT_DECL_TAG_KFUNCS) &&
	    btf_encoder_conf__has(conf, BTF_FEAT_DECL_TAG))
		err = btf_ids__mark_kfuncs(dwarf_loader__elf(ei->loader), ei->symtab,
					   ei->in.functions);
	return err;
}

/*
 * The workers to start: -jN's N; for -j without N, one per CPU but one per
 * WORKER_INFO_BYTES of .debug_info at most.  A thread of its own costs a
 * small module more CPU (its stack, its malloc arena, the shootdowns of its
 * mappings) than it saves, and a kernel build runs its modules' pahole side
 * by side anyway; the output is the same whatever the count.
 */
#define WORKER_INFO_BYTES (4u << 20)

static unsigned int encode_workers(const struct btf_encoder_input *in)
{
	const struct btf_encoder_conf *conf = in->conf;
	size_t info = in->debug_info_end - in->debug_info;
	size_t most = info / WORKER_INFO_BYTES + 1;

	if (!conf->jobs_auto || !in->debug_info || most >= conf->jobs)
		return conf->jobs;
	/* One worker shares the main thread's arena, as with -j1 (see pahole.c's main()). */
	if (most == 1)
		mallopt(M_ARENA_MAX, 1);
	return most;
}

/* The workers' doing with a chunk (dwarf_loader.h), in an encoder's words (btf_encoder.h). */
static int encode_begin(void *ctx, const struct dwarf_chunk *chunk)
{
	return btf_encoder__begin_chunk(ctx, chunk->index);
}

static int encode_unit(void *ctx, const struct dwarf_chunk *chunk, unsigned int i)
{
	return btf_encoder__encode_cu(ctx, &chunk->cu_die[i], chunk->cu_index[i]);
}

static int encode_part_new(void *user, void *worker_ctx, void **ctx)
{
	const struct btf_encoder_input *in = user;

	return btf_encoder__new_part(in, worker_ctx, (struct btf_encoder **)ctx);
}

static int encode_part_end(void *ctx)
{
	return btf_encoder__end_part(ctx);
}

static int encode_end(void *ctx, const struct dwarf_chunk *chunk, void *const *parts,
		      unsigned int nr_parts)
{
	unsigned int i;
	int err = 0;

	(void)chunk;
	for (i = 0; i < nr_parts && !err; i++)
		err = btf_encoder__take_part(ctx, parts[i]);
	return err ?: btf_encoder__end_chunk(ctx);
}

/* Of the encoders' corrupt DIEs, the first in the file: the same at every -j. */
static void encode_input__note_corrupt(struct encode_input *ei, struct btf_encoder **encoders,
				       unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		const char *what;
		uint64_t off;

		if (encoders[i] && btf_encoder__corrupt_at(encoders[i], &off, &what) &&
		    (!ei->corrupt_what || off < ei->corrupt_off)) {
			ei->corrupt_off = off;
			ei->corrupt_what = what;
		}
	}
}

/* One pass: the encoders made, the units encoded by the workers, the encoders merged. */
static int encode_input__pass(struct encode_input *ei, struct btf_encoded *out)
{
	unsigned int nr = encode_workers(&ei->in), i;
	struct btf_encoder **encoders;
	double start = clock__now();
	int err = 0;

	struct dwarf_chunk_ops ops = {
		.begin = encode_begin,
		.unit = encode_unit,
		.part_new = encode_part_new,
		.part_end = encode_part_end,
		.end = encode_end,
		.user = &ei->in,
		.split = ei->in.conf->split_chunks,
	};
	void **parts = NULL;
	unsigned int nr_parts = 0, total = nr;

	encoders = calloc(nr, sizeof(*encoders));
	if (!encoders)
		return -ENOMEM;
	ei->in.one_build = btf_sink__one_build(&ei->in, nr);
	err = btf_sink__new(&ei->in, &ei->in.sink);
	for (i = 0; i < nr && !err; i++)
		err = btf_encoder__new(&ei->in, &encoders[i]);
	if (!err)
		err = dwarf_loader__for_each_chunk(ei->loader, nr, &ops, (void **)encoders,
						   &ei->in.conf->cu_filter, ei->in.conf->verbose,
						   &parts, &nr_parts);
	/* The parts' encoders after the workers': merged, and deleted, with them. */
	if (nr_parts) {
		struct btf_encoder **all = realloc(encoders, (nr + nr_parts) * sizeof(*all));

		if (all) {
			encoders = all;
			memcpy(encoders + nr, parts, nr_parts * sizeof(*parts));
			total = nr + nr_parts;
		} else {
			for (i = 0; i < nr_parts; i++)
				btf_encoder__delete(parts[i]);
			err = err ?: -ENOMEM;
		}
	}
	free(parts);
	if (ei->in.conf->verbose)
		fprintf(stderr, "pahole: encoding the CUs with %u workers (%u parts): %.3f s\n", nr,
			nr_parts, clock__now() - start);
	if (err == -EBADMSG)
		encode_input__note_corrupt(ei, encoders, total);
	/* Split BTF is never encoded again (BTF_ENCODERS_AGAIN): its merge needs no DWARF. */
	if (!err && ei->in.conf->base)
		dwarf_loader__release(ei->loader);
	if (!err)
		err = btf_encoders__merge(encoders, total, nr, out);
	for (i = 0; i < total; i++)
		btf_encoder__delete(encoders[i]);
	free(encoders);
	btf_sink__delete(ei->in.sink);
	ei->in.sink = NULL;
	return err;
}

/* The refusals' words, as btf_encoder.h declares them. */
static const char *const refusal_words[] = {
#define REFUSAL_WORDS(name, words) [BTF_REFUSED_##name - BTF_REFUSED__BEFORE - 1] = words,
	BTF_REFUSALS(REFUSAL_WORDS)
#undef REFUSAL_WORDS
};

/* Errors of ours and libbpf's that are no refusal, in words (else strerror()). */
static const struct {
	int err;
	const char *words;
} error_words[] = {
	/* libbpf's btf__dedup() on a cycle of references */
	{ -ELOOP, "corrupt DWARF: a cycle of typedef, qualifier or pointer types" },
	{ -EBADMSG, "corrupt DWARF: a DIE libdw cannot read" },
	/* btf_encoder.h: ours, not the input's */
	{ -EPROTO, "internal error: pahole or the libbpf it runs on did not do what pahole "
		   "expects (-V says where); please report it" },
	/* libbpf's btf__add_*() */
	{ -EINVAL, "corrupt DWARF: a type BTF cannot hold (a size, name or value out of range)" },
};

/* Why encoding failed, in words; @buf holds what needs formatting. */
static const char *encode_error(const struct encode_input *ei, int err, char *buf, size_t len)
{
	const char *words = NULL;
	size_t i;

	if (-err > BTF_REFUSED__BEFORE && -err < BTF_REFUSED__END)
		words = refusal_words[-err - BTF_REFUSED__BEFORE - 1];
	for (i = 0; !words && i < sizeof(error_words) / sizeof(error_words[0]); i++)
		if (error_words[i].err == err)
			words = error_words[i].words;
	if (err == -EBADMSG && ei->corrupt_what)
		snprintf(buf, len, "corrupt DWARF at .debug_info offset %#llx: %s",
			 (unsigned long long)ei->corrupt_off, ei->corrupt_what);
	else if (err == -BTF_REFUSED_IMPORTED_ALT && ei->alt_link)
		snprintf(buf, len, "%s (it names %s)", words, ei->alt_link);
	else
		return words ?: strerror(-err);
	return buf;
}

/*
 * The passes: a second, deduplicated as a whole, when the chunks' own
 * dedups may have given what one dedup of the whole file would not (see
 * btf_encoders__merge()).
 */
static int encode_input__encode(struct encode_input *ei, struct btf_encoded *out)
{
	double start = clock__now();
	int err;

	err = encode_input__functions(ei);
	encode_input__units(ei);
	/* The input a libbpf is to compare with ours is the whole file's, as upstream's (btf_encoder.h). */
	ei->in.whole_dedup = ei->in.conf->dedup_input && !ei->in.conf->base;
	if (ei->in.conf->verbose)
		fprintf(stderr, "pahole: reading the ELF symbols and DWARF units: %.3f s\n",
			clock__now() - start);
	for (;;) {
		err = err ?: encode_input__pass(ei, out);
		if (err != BTF_ENCODERS_AGAIN || ei->in.whole_dedup)
			return err;
		ei->in.whole_dedup = true;
		err = encode_input__functions(ei);
	}
}

/*
 * -V: the types written, in upstream's words (btf_log.h).  Not those of
 * split BTF deduplicated by our own code (btf_dedup__split()): to read its
 * raw bytes libbpf 1.1 would need btf__new_split(), which its btf.h declares
 * and its shared library does not export.
 */
static void encode_result__log(struct encode_result *r)
{
	const struct btf *base;

	if (btf_encoded__check(&r->enc) || !r->enc.btf)
		return;
	base = btf__base_btf(r->enc.btf);
	btf_log__types(r->enc.btf, base ? btf__type_cnt(base) : 1, stdout);
}

int encode__file(const char *path, const struct btf_encoder_conf *conf, struct encode_result **out)
{
	struct encode_input ei = {};
	struct encode_result *r;
	char buf[256];
	int err;

	*out = NULL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return say(path, -ENOMEM, strerror(ENOMEM));
	r->conf = conf;
	r->path = path;
	unit_locks__init(&ei.unit_locks);
	err = encode_input__open(&ei, path, conf);
	/* Once the file is known to have DWARF: a vmlinux takes about as long to copy as to encode. */
	if (!err && conf->in_place)
		r->copy = btf_writer__copy_start(path);
	if (!err) {
		err = encode_input__encode(&ei, &r->enc);
		if (err == -BTF_REFUSED_VAR_NAME)
			/* In upstream's words, which its tests grep, and one line. */
			fprintf(stderr,
				"pahole: %s: encoding BTF failed: PAHOLE: Error: Found invalid "
				"variable name when encoding btf (sym: '%s'): %s\n",
				path, r->enc.bad_name, encode_error(&ei, err, buf, sizeof(buf)));
		else if (err)
			fprintf(stderr, "pahole: %s: encoding BTF failed: %s\n", path,
				encode_error(&ei, err, buf, sizeof(buf)));
	}
	if (!err && dwarf_loader__partial_skipped(ei.loader) &&
	    !btf_encoder_conf__follows(conf, BTF_RULE_IMPORTED_UNITS))
		fprintf(stderr,
			"pahole: %s: warning: partial units (DW_TAG_partial_unit, as dwz makes) "
			"are left out, as pahole v1.31 leaves them out: their types are not "
			"in the BTF\n",
			path);
	r->big_endian = ei.in.big_endian;
	/* Nothing of the result reads it, but its closing can be left to the exit (encode.h). */
	if (err)
		encode_input__close(&ei);
	else
		r->opened = encode_input__take(&ei);
	unit_locks__destroy(&ei.unit_locks);
	/* As pahole v1.31: DWARF without a single type gives no BTF at all. */
	if (!err && (r->enc.empty || (!conf->base && !r->enc.nr_types))) {
		fprintf(stderr, "pahole: %s: warning: no types in the DWARF, nothing written\n",
			path);
		err = -ENODATA;
	}
	if (err) {
		encode_result__delete(r);
		return err;
	}
	*out = r;
	return 0;
}

/*
 * Waits for libbpf's reading of the BTF (btf_encoded.check): the BTF
 * libbpf cannot read is not written, and said in encode__file()'s words.
 */
static int encode_result__check(void *ctx)
{
	struct encode_result *r = ctx;
	struct encode_input none = {};
	int err = btf_encoded__check(&r->enc);
	char buf[256];

	if (err) {
		fprintf(stderr, "pahole: %s: encoding BTF failed: %s\n", r->path,
			encode_error(&none, err, buf, sizeof(buf)));
		r->check_said = true;
	}
	return err;
}

/*
 * encode_result__raw() but for libbpf's reading of a vmlinux's BTF, which
 * may go on (the writing waits for it: encode_result__check()), as the
 * bytes are ours where they are in the file's byte order.
 */
static int encode_result__raw_unchecked(struct encode_result *r, const void **raw, size_t *size)
{
	bool swapped = r->big_endian != (BYTE_ORDER == BIG_ENDIAN);
	const void *data = r->enc.raw;
	__u32 n = r->enc.raw_size;
	int err;

	if (r->raw)
		goto out;
	/* libbpf swaps a vmlinux's BTF into the file's byte order. */
	if (r->enc.check && swapped) {
		err = encode_result__check(r);
		if (err)
			return err;
	}
	/* Split BTF of our own dedup is in our byte order; the file's may be the other. */
	if (data && !r->enc.check && !r->enc.btf && swapped) {
		err = btf_raw__swap_out(r->enc.raw, n);
		if (err)
			return err;
	}
	if (r->enc.btf) {
		/* As pahole: the BTF is in the byte order of the ELF file it describes. */
		btf__set_endianness(r->enc.btf, r->big_endian ? BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN);
		data = btf__raw_data(r->enc.btf, &n);
		if (!data)
			return -ENOMEM;
	}
	r->raw = data;
	r->raw_size = n;
	/* A kind layout section: the layout feature, and not split BTF. */
	if (btf_encoder_conf__has(r->conf, BTF_FEAT_LAYOUT) && !r->conf->base) {
		err = btf_writer__add_layout(data, n, &r->layout, &r->raw_size);
		r->raw = err ? NULL : r->layout;
		if (err)
			return err;
	}
out:
	*raw = r->raw;
	*size = r->raw_size;
	return 0;
}

int encode_result__raw(struct encode_result *r, const void **raw, size_t *size)
{
	int err = encode_result__check(r);

	return err ?: encode_result__raw_unchecked(r, raw, size);
}

/*
 * Writes into the ELF file @path its .BTF; with distilled_base, split BTF
 * on a distilled base, which goes to .BTF.base (from libbpf's split BTF).
 */
static int encode_result__write_elf(struct encode_result *r, const char *path,
				    const struct btf_writer_check *check,
				    struct btf_writer_copy *copy, const char **cause)
{
	struct btf_section secs[2] = { { .name = ".BTF" }, { .name = ".BTF.base" } };
	struct btf *base = NULL, *split = NULL;
	size_t nr = 1;
	__u32 n;
	int err;

	if (!r->enc.btf || !r->conf->base ||
	    !btf_encoder_conf__has(r->conf, BTF_FEAT_DISTILLED_BASE)) {
		err = encode_result__raw_unchecked(r, &secs[0].data, &secs[0].size);
		if (err) {
			*cause = r->check_said ? NULL : strerror(-err);
			return err;
		}
		return btf_writer__elf(path, secs, nr, check, copy, cause);
	}
	err = btf_distill__run(r->enc.btf, &base, &split);
	if (err) {
		*cause = "cannot distill the base BTF";
		return err;
	}
	secs[0].data = btf__raw_data(split, &n);
	secs[0].size = n;
	secs[1].data = btf__raw_data(base, &n);
	secs[1].size = n;
	err = secs[0].data && secs[1].data ? btf_writer__elf(path, secs, 2, check, copy, cause) :
					     (*cause = strerror(ENOMEM), -ENOMEM);
	btf__free(split);
	btf__free(base);
	return err;
}

int encode_result__write(struct encode_result *r, const char *path, bool detached)
{
	/* libbpf reads a vmlinux's BTF while it is written; no file is replaced before it has. */
	const struct btf_writer_check check = { encode_result__check, r };
	double start = clock__now();
	const char *cause = NULL;
	const void *raw;
	size_t size;
	int err;

	if (detached) {
		err = encode_result__raw_unchecked(r, &raw, &size);
		if (err && !r->check_said)
			cause = strerror(-err);
		err = err ?: btf_writer__raw(path, raw, size, &check, &cause);
	} else {
		err = encode_result__write_elf(r, path, &check, r->copy, &cause);
	}
	/* Used or not (a failure before the ELF file's writing), the copy goes now, not at exit. */
	btf_writer__copy_drop(r->copy);
	r->copy = NULL;
	if (err && cause)
		fprintf(stderr, "pahole: %s: cannot write BTF: %s\n", path, cause);
	else if (!err && r->conf->verbose)
		fprintf(stderr, "pahole: writing %s: %.3f s\n", path, clock__now() - start);
	/* -V: the types written, once libbpf has read them. */
	if (!err && r->conf->verbose) {
		start = clock__now();
		encode_result__log(r);
		fprintf(stderr, "pahole: listing the types (-V): %.3f s\n", clock__now() - start);
	}
	return err;
}

void encode_result__delete(struct encode_result *r)
{
	if (!r)
		return;
	btf_writer__copy_drop(r->copy);
	encode_opened__close(&r->opened, r->conf);
	btf_encoded__check(&r->enc);
	free(r->layout);
	free(r->enc.raw);
	btf__free(r->enc.btf);
	free(r);
}
