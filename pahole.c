// SPDX-License-Identifier: GPL-2.0-only
/*
 * pahole -J: encodes the DWARF of a vmlinux or module as BTF.
 *
 * The command line is pahole's; this file turns it into the read-only
 * btf_encoder_conf, runs one encoder per worker and writes the result.
 */
#include <argp.h>
#include <assert.h>
#include <errno.h>
#include <error.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <dwarf.h>
#include <gelf.h>

#include "btf_base.h"
#include "btf_distill.h"
#include "btf_encoder.h"
#include "btf_ids.h"
#include "btf_writer.h"
#include "dwarf_loader.h"
#include "elf_functions.h"
#include "elf_symtab.h"
#include "pahole_fallback.h"

#define PAHOLE_VERSION "v1.31"
#define MAX_JOBS 1024

struct btf_feature_desc {
	const char *name;
	bool in_default; /* part of --btf_features=default */
	bool implemented;
};

static const struct btf_feature_desc btf_features[BTF_FEAT__NR] = {
	[BTF_FEAT_ENCODE_FORCE] = { "encode_force", true, true },
	[BTF_FEAT_VAR] = { "var", true, true },
	[BTF_FEAT_FLOAT] = { "float", true, true },
	[BTF_FEAT_DECL_TAG] = { "decl_tag", true, true },
	[BTF_FEAT_TYPE_TAG] = { "type_tag", true, true },
	[BTF_FEAT_ENUM64] = { "enum64", true, true },
	[BTF_FEAT_OPTIMIZED_FUNC] = { "optimized_func", true, true },
	[BTF_FEAT_CONSISTENT_FUNC] = { "consistent_func", true, true },
	[BTF_FEAT_DECL_TAG_KFUNCS] = { "decl_tag_kfuncs", true, true },
	[BTF_FEAT_REPRODUCIBLE_BUILD] = { "reproducible_build", false, true },
	[BTF_FEAT_DISTILLED_BASE] = { "distilled_base", false, true },
	[BTF_FEAT_GLOBAL_VAR] = { "global_var", false, true },
	[BTF_FEAT_ATTRIBUTES] = { "attributes", false, true },
	/* After v1.31 (upstream 1436daf): a kind layout section, not for split BTF. */
	[BTF_FEAT_LAYOUT] = { "layout", false, true },
	/* After v1.31 (upstream 1436daf): clones by their symbols' names, with their true signatures. */
	[BTF_FEAT_TRUE_SIGNATURE] = { "true_signature", false, true },
};

struct lang_name {
	const char *name;
	int lang;
};

/* pahole v1.31's names (case does not matter), and ours of before as aliases. */
static const struct lang_name lang_names[] = {
	{ "c89", DW_LANG_C89 },
	{ "c++", DW_LANG_C_plus_plus },
	{ "c++03", DW_LANG_C_plus_plus_03 },
	{ "c++11", DW_LANG_C_plus_plus_11 },
	{ "c++14", DW_LANG_C_plus_plus_14 },
	{ "objc++", DW_LANG_ObjC_plus_plus },
	{ "asm", DW_LANG_Mips_Assembler },
	{ "c", DW_LANG_C },
	{ "ada83", DW_LANG_Ada83 },
	{ "c_plus_plus", DW_LANG_C_plus_plus },
	{ "cobol74", DW_LANG_Cobol74 },
	{ "cobol85", DW_LANG_Cobol85 },
	{ "fortran77", DW_LANG_Fortran77 },
	{ "fortran90", DW_LANG_Fortran90 },
	{ "pascal83", DW_LANG_Pascal83 },
	{ "modula2", DW_LANG_Modula2 },
	{ "java", DW_LANG_Java },
	{ "c99", DW_LANG_C99 },
	{ "ada95", DW_LANG_Ada95 },
	{ "fortran95", DW_LANG_Fortran95 },
	{ "pli", DW_LANG_PLI },
	{ "objc", DW_LANG_ObjC },
	{ "objc_plus_plus", DW_LANG_ObjC_plus_plus },
	{ "upc", DW_LANG_UPC },
	{ "d", DW_LANG_D },
	{ "python", DW_LANG_Python },
	{ "opencl", DW_LANG_OpenCL },
	{ "go", DW_LANG_Go },
	{ "modula3", DW_LANG_Modula3 },
	{ "haskell", DW_LANG_Haskell },
	{ "c_plus_plus_03", DW_LANG_C_plus_plus_03 },
	{ "c_plus_plus_11", DW_LANG_C_plus_plus_11 },
	{ "ocaml", DW_LANG_OCaml },
	{ "rust", DW_LANG_Rust },
	{ "c11", DW_LANG_C11 },
	{ "swift", DW_LANG_Swift },
	{ "julia", DW_LANG_Julia },
	{ "dylan", DW_LANG_Dylan },
	{ "c_plus_plus_14", DW_LANG_C_plus_plus_14 },
	{ "fortran03", DW_LANG_Fortran03 },
	{ "fortran08", DW_LANG_Fortran08 },
	{ "renderscript", DW_LANG_RenderScript },
	{ "bliss", DW_LANG_BLISS },
	{ "mips_assembler", DW_LANG_Mips_Assembler },
};

#define NR_LANGS (sizeof(lang_names) / sizeof(lang_names[0]))

/* What the command line says, before it becomes a btf_encoder_conf. */
struct args {
	const char *input;
	const char *detached;
	const char *btf_base;
	/*
	 * The features, as each option met so far leaves them (see
	 * args__features()); features_listed once a list has been met.
	 */
	unsigned int features;
	bool features_listed;
	bool encode;
	unsigned int jobs;
	bool jobs_auto; /* -j without N */
	int verbose;
	int lang_exclude[NR_LANGS + 1];
	char bad_feature[128]; /* why a list was refused */
};

enum {
	OPT_DETACHED = 256,
	OPT_FEATURES,
	OPT_FEATURES_STRICT,
	OPT_SUPPORTED,
	OPT_GEN_FLOATS,
	OPT_SKIP_ENUM64,
	OPT_SKIP_TYPE_TAG,
	OPT_SKIP_DECL_TAG,
	OPT_SKIP_VARS,
	OPT_GEN_OPTIMIZED,
	OPT_SKIP_INCONSISTENT,
	OPT_GEN_ALL,
	OPT_LANG_EXCLUDE,
	OPT_BTF_BASE,
	OPT_VERSION,
};

static const struct argp_option options[] = {
	{ "btf_encode", 'J', NULL, 0, "Encode the DWARF of FILE as BTF", 0 },
	{ "btf_encode_detached", OPT_DETACHED, "FILE", 0,
	  "Write the raw BTF to FILE instead of a .BTF section of the input", 0 },
	{ "btf_base", OPT_BTF_BASE, "FILE", 0, "Encode split BTF on the base BTF in FILE", 0 },
	{ "jobs", 'j', "N", OPTION_ARG_OPTIONAL,
	  "Encode with N threads (without N: one per online CPU)", 0 },
	{ "btf_features", OPT_FEATURES, "LIST", 0,
	  "Comma-separated BTF features to encode; \"default\" for the default set", 0 },
	{ "btf_features_strict", OPT_FEATURES_STRICT, "LIST", 0,
	  "As --btf_features, but an unknown feature is an error", 0 },
	{ "supported_btf_features", OPT_SUPPORTED, NULL, 0, "List the supported BTF features", 0 },
	{ "btf_gen_floats", OPT_GEN_FLOATS, NULL, 0, "Encode floating-point types (float)", 0 },
	{ "btf_gen_optimized", OPT_GEN_OPTIMIZED, NULL, 0,
	  "Encode functions with optimized-away parameters (optimized_func)", 0 },
	{ "btf_gen_all", OPT_GEN_ALL, NULL, 0, "Enable all the legacy features", 0 },
	{ "skip_encoding_btf_enum64", OPT_SKIP_ENUM64, NULL, 0,
	  "Encode 64-bit enums as ENUM, not ENUM64", 0 },
	{ "skip_encoding_btf_type_tag", OPT_SKIP_TYPE_TAG, NULL, 0, "Do not encode TYPE_TAGs", 0 },
	{ "skip_encoding_btf_decl_tag", OPT_SKIP_DECL_TAG, NULL, 0, "Do not encode DECL_TAGs", 0 },
	{ "skip_encoding_btf_vars", OPT_SKIP_VARS, NULL, 0, "Do not encode variables", 0 },
	{ "skip_encoding_btf_inconsistent_proto", OPT_SKIP_INCONSISTENT, NULL, 0,
	  "Leave out functions with inconsistent prototypes (consistent_func)", 0 },
	{ "lang_exclude", OPT_LANG_EXCLUDE, "LANGS", 0,
	  "Skip the CUs of these comma-separated languages (e.g. rust)", 0 },
	{ "format_path", 'F', "FORMATS", 0, "Accepted for compatibility; DWARF is always read", 0 },
	{ "verbose", 'V', NULL, 0, "Say more about what is left out and why", 0 },
	{ "version", OPT_VERSION, NULL, 0, "Print the version (" PAHOLE_VERSION ")", 0 },
	{ 0 },
};

static int parse_jobs(const char *arg, unsigned int *jobs)
{
	char *end;
	long n;

	if (!arg) {
		n = sysconf(_SC_NPROCESSORS_ONLN);
		*jobs = n > 0 ? (n > MAX_JOBS ? MAX_JOBS : n) : 1;
		return 0;
	}
	errno = 0;
	n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < 1 || n > MAX_JOBS)
		return -EINVAL;
	*jobs = n;
	return 0;
}

static int parse_lang_exclude(char *list, int *out)
{
	char *save = NULL, *tok;
	int nr = 0;
	size_t i;

	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_LANGS && strcasecmp(lang_names[i].name, tok); i++)
			;
		if (i == NR_LANGS)
			return -EINVAL;
		if (nr < (int)NR_LANGS)
			out[nr++] = lang_names[i].lang;
	}
	out[nr] = 0;
	return 0;
}

/*
 * Applies a --btf_features list, as pahole v1.31 does while it reads its
 * options in order: the first list turns every feature off, then each list
 * turns on what it names ("default" the default set, "+name" the default set
 * and name); the older options set or clear one feature each where they
 * stand, so one after a list counts and one before the first list does not.
 * Unknown names are ignored, as pahole does, unless @strict; so is "all",
 * which --btf_gen_all passes: v1.31's --btf_gen_all turns every feature off.
 */
static int args__features(struct args *a, const char *arg, bool strict)
{
	char *list, *save = NULL, *tok;
	int f;

	if (!a->features_listed)
		a->features = 0;
	a->features_listed = true;
	list = strdup(arg);
	if (!list) {
		snprintf(a->bad_feature, sizeof(a->bad_feature), "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		bool dflt = !strcmp(tok, "default");

		if (*tok == '+' || dflt) {
			for (f = 0; f < BTF_FEAT__NR; f++)
				if (btf_features[f].in_default)
					a->features |= 1u << f;
			if (dflt)
				continue;
			tok++;
		}
		for (f = 0; f < BTF_FEAT__NR && strcmp(btf_features[f].name, tok); f++)
			;
		if (f < BTF_FEAT__NR) {
			a->features |= 1u << f;
		} else if (strict) {
			snprintf(a->bad_feature, sizeof(a->bad_feature),
				 "unknown BTF feature '%s' in --btf_features_strict", tok);
			free(list);
			return -EINVAL;
		}
	}
	free(list);
	return 0;
}

static error_t parse_opt(int key, char *arg, struct argp_state *state)
{
	struct args *a = state->input;

	switch (key) {
	case 'J':
		a->encode = true;
		break;
	case OPT_DETACHED:
		a->encode = true;
		a->detached = arg;
		break;
	case OPT_BTF_BASE:
		a->btf_base = arg;
		break;
	case 'j':
		a->jobs_auto = !arg;
		if (parse_jobs(arg, &a->jobs))
			argp_failure(state, 64, 0, "invalid number of jobs '%s' (1..%d)", arg,
				     MAX_JOBS);
		break;
	case OPT_FEATURES_STRICT:
	case OPT_FEATURES:
	case OPT_GEN_ALL:
		if (args__features(a, key == OPT_GEN_ALL ? "all" : arg, key == OPT_FEATURES_STRICT))
			argp_failure(state, EXIT_FAILURE, 0, "%s", a->bad_feature);
		break;
	case OPT_SUPPORTED: {
		const char *sep = "";
		int f;

		for (f = 0; f < BTF_FEAT__NR; f++) {
			if (btf_features[f].implemented) {
				printf("%s%s", sep, btf_features[f].name);
				sep = ",";
			}
		}
		printf("\n");
		exit(0);
	}
	case OPT_GEN_FLOATS:
		a->features |= BTF_FEAT(FLOAT);
		break;
	case OPT_GEN_OPTIMIZED:
		a->features |= BTF_FEAT(OPTIMIZED_FUNC);
		break;
	case OPT_SKIP_INCONSISTENT:
		a->features |= BTF_FEAT(CONSISTENT_FUNC);
		break;
	case OPT_SKIP_ENUM64:
		a->features &= ~BTF_FEAT(ENUM64);
		break;
	case OPT_SKIP_TYPE_TAG:
		a->features &= ~BTF_FEAT(TYPE_TAG);
		break;
	case OPT_SKIP_DECL_TAG:
		a->features &= ~BTF_FEAT(DECL_TAG);
		break;
	case OPT_SKIP_VARS:
		a->features &= ~BTF_FEAT(VAR);
		break;
	case OPT_LANG_EXCLUDE:
		if (parse_lang_exclude(arg, a->lang_exclude))
			argp_failure(state, 64, 0, "unknown language in --lang_exclude=%s", arg);
		break;
	case 'F':
		break;
	case 'V':
		a->verbose++;
		break;
	case OPT_VERSION:
		printf("%s\n", PAHOLE_VERSION);
		exit(0);
	case ARGP_KEY_ARG:
		if (a->input)
			argp_failure(state, 64, 0, "only one FILE can be encoded at a time");
		a->input = arg;
		break;
	case ARGP_KEY_END:
		if (!a->input)
			argp_failure(state, 64, 0, "no FILE to encode");
		if (!a->encode)
			argp_failure(state, 64, 0, "only BTF encoding (-J) is supported");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Without --btf_features: what pahole's older options leave on by default. */
#define ARGS_FEATURES_INITIAL \
	(BTF_FEAT(VAR) | BTF_FEAT(DECL_TAG) | BTF_FEAT(TYPE_TAG) | BTF_FEAT(ENUM64))

static void args__conf(const struct args *a, struct btf_encoder_conf *conf)
{
	conf->verbose = a->verbose;
	conf->jobs = a->jobs ?: 1;
	conf->jobs_auto = a->jobs_auto;
	conf->lang_exclude = a->lang_exclude;
	conf->features = a->features;
}

/*
 * What to say when SIGINT or SIGTERM stops us: set once before the handler
 * is installed, read only by it (a handler can be given no object).
 */
static char interrupted_msg[PATH_MAX + 64];

static void on_signal(int sig)
{
	ssize_t n;

	(void)sig;
	btf_writer__cleanup();
	n = write(STDERR_FILENO, interrupted_msg, strlen(interrupted_msg));
	(void)n;
	_exit(EXIT_FAILURE);
}

/*
 * An abort() in a library: libdw asserts where an allocation it needed
 * failed (and glibc, out of memory itself, can only say "Unexpected
 * error.").  No output exists yet to leave behind; say in one line whether
 * memory is what ran out (a page cannot be mapped), exit 1, not by the signal.
 */
static char aborted_msg[2][PATH_MAX + 96];

static void on_abort(int sig)
{
	void *page =
		mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	const char *msg = aborted_msg[page != MAP_FAILED];
	ssize_t n;

	(void)sig;
	btf_writer__cleanup();
	n = write(STDERR_FILENO, msg, strlen(msg));
	(void)n;
	_exit(EXIT_FAILURE);
}

#ifndef PAHOLE_KEEP_ASSERT
/*
 * An assert() that fails in a library (libdw asserts where an allocation it
 * needed failed): glibc would print a line of its own ("Unexpected error."
 * when it has no memory to format one) and abort.  assert.h declares this
 * as what assert() calls, and the program's definition stands for glibc's
 * in every library: one line of ours, then abort() as before, which
 * on_abort() ends quietly.  (The fuzzer keeps glibc's, to see the abort.)
 */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
	(void)assertion, (void)file, (void)line, (void)function;
	abort();
}
#endif

/*
 * What libdw and libdwfl print before they exit where they run out of memory
 * (glibc's error(), e.g. "libdw: Cannot allocate memory") goes after the
 * input's name, as every line of ours, not the program's path.  Set before
 * any library call, like the signal state: read-only after.
 */
static char error_prefix[PATH_MAX + 16];

static void print_error_prefix(void)
{
	fflush(stdout);
	fputs(error_prefix, stderr);
}

static void catch_signals(const char *input)
{
	struct sigaction sa = { .sa_handler = on_signal };

	snprintf(interrupted_msg, sizeof(interrupted_msg),
		 "pahole: %s: interrupted by a signal, nothing written\n", input);
	snprintf(error_prefix, sizeof(error_prefix), "pahole: %s: ", input);
	snprintf(aborted_msg[0], sizeof(aborted_msg[0]),
		 "pahole: %s: out of memory (a library it runs on gave up), nothing written\n",
		 input);
	snprintf(aborted_msg[1], sizeof(aborted_msg[1]),
		 "pahole: %s: a library it runs on aborted (SIGABRT), nothing written\n", input);
	error_print_progname = print_error_prefix;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_abort;
	sigaction(SIGABRT, &sa, NULL);
	/* Past a file size limit, write() fails with EFBIG: said, as any write error. */
	signal(SIGXFSZ, SIG_IGN);
}

static void conf__set_param_regs(struct btf_encoder_conf *conf, Elf *elf)
{
	GElf_Ehdr ehdr;

	if (!gelf_getehdr(elf, &ehdr))
		return;
	conf->big_endian = ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
	conf->ptr_size = ehdr.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
	conf->param_regs = param_regs__for_machine(ehdr.e_machine);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int encode_chunk(void *ctx, const struct dwarf_chunk *chunk)
{
	struct btf_encoder *encoder = ctx;
	unsigned int i;
	int err = btf_encoder__begin_chunk(encoder, chunk->index);

	for (i = 0; i < chunk->nr && !err; i++)
		err = btf_encoder__encode_cu(encoder, (Dwarf_Die *)&chunk->cu_die[i],
					     chunk->cu_index[i]);
	return err ?: btf_encoder__end_chunk(encoder);
}

/*
 * The workers to start: -jN's N; for -j without N, one per CPU but one per
 * WORKER_INFO_BYTES of .debug_info at most.  A thread of its own costs a
 * small module more CPU (its stack, its malloc arena, the shootdowns of its
 * mappings) than it saves, and a kernel build runs its modules' pahole side
 * by side anyway; the output is the same whatever the count.
 */
#define WORKER_INFO_BYTES (4u << 20)

static unsigned int encode_workers(const struct btf_encoder_conf *conf)
{
	size_t info = conf->debug_info_end - conf->debug_info;
	size_t most = info / WORKER_INFO_BYTES + 1;

	if (!conf->jobs_auto || !conf->debug_info || most >= conf->jobs)
		return conf->jobs;
	/* One worker shares the main thread's arena, as with -j1 (see main()). */
	if (most == 1)
		mallopt(M_ARENA_MAX, 1);
	return most;
}

static int encode(struct dwarf_loader *loader, const struct btf_encoder_conf *conf,
		  struct btf_encoded *out)
{
	unsigned int nr = encode_workers(conf), i;
	struct btf_encoder **encoders;
	double start = now();
	int err = 0;

	encoders = calloc(nr, sizeof(*encoders));
	if (!encoders)
		return -ENOMEM;
	for (i = 0; i < nr && !err; i++) {
		encoders[i] = btf_encoder__new(conf);
		if (!encoders[i])
			err = -ENOMEM;
	}
	if (!err)
		err = dwarf_loader__for_each_chunk(loader, nr, encode_chunk, (void **)encoders,
						   conf->lang_exclude, conf->verbose);
	if (conf->verbose)
		fprintf(stderr, "pahole: encoding the CUs with %u workers: %.3f s\n", nr,
			now() - start);
	/* Split BTF is never encoded again (BTF_ENCODERS_AGAIN): its merge needs no DWARF. */
	if (!err && conf->base)
		dwarf_loader__release(loader);
	if (!err)
		err = btf_encoders__merge(encoders, nr, out);
	for (i = 0; i < nr; i++)
		btf_encoder__delete(encoders[i]);
	free(encoders);
	return err;
}

/* Whether to write a kind layout section: the layout feature, and not split BTF. */
static bool with_layout(const struct btf_encoder_conf *conf)
{
	return btf_encoder_conf__has(conf, BTF_FEAT_LAYOUT) && !conf->base;
}

/*
 * Writes .BTF, the @size bytes at @raw, into the ELF file @path; with
 * distilled_base, split BTF goes there relative to a distilled base that is
 * written as .BTF.base (from @btf, libbpf's split BTF).
 */
static int write_elf(const char *path, const void *raw, size_t size, struct btf *btf,
		     const struct btf_encoder_conf *conf, const char **cause)
{
	struct btf_section secs[2] = { { .name = ".BTF", raw, size }, { .name = ".BTF.base" } };
	struct btf *base = NULL, *split = NULL;
	size_t nr = 1;
	__u32 n;
	int err;

	if (btf && conf->base && btf_encoder_conf__has(conf, BTF_FEAT_DISTILLED_BASE)) {
		err = btf_distill__run(btf, &base, &split);
		if (err) {
			*cause = "cannot distill the base BTF";
			return err;
		}
		secs[0].data = btf__raw_data(split, &n);
		secs[0].size = n;
		secs[1].data = btf__raw_data(base, &n);
		secs[1].size = n;
		nr = 2;
	}
	err = secs[0].data && (nr == 1 || secs[1].data) ? btf_writer__elf(path, secs, nr, cause) :
							  (*cause = strerror(ENOMEM), -ENOMEM);
	btf__free(split);
	btf__free(base);
	return err;
}

static const char *encode_error(int err)
{
	switch (err) {
	case -ELOOP: /* libbpf's btf__dedup() on a cycle of references */
		return "corrupt DWARF: a cycle of typedef, qualifier or pointer types";
	case -EBADMSG:
		return "corrupt DWARF: a DIE libdw cannot read, or a type reference to no type";
	case -EPROTO: /* btf_encoder.h: ours, not the input's */
		return "internal error: pahole or the libbpf it runs on did not do what pahole "
		       "expects (-V says where); please report it";
	case -EINVAL: /* libbpf's btf__add_*() */
		return "corrupt DWARF: a type BTF cannot hold (a size, name or value out of range)";
	/* Sound DWARF that pahole v1.31 will not encode either (btf_encoder.h). */
	case -BTF_REFUSED_COMPLEX_FLOAT:
		return "BTF has no kind for a complex floating-point type (DW_ATE_complex_float), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_IMAGINARY_FLOAT:
		return "BTF has no kind for an imaginary floating-point type "
		       "(DW_ATE_imaginary_float), as pahole v1.31 refuses";
	case -BTF_REFUSED_FLOAT_SIZE:
		return "BTF has no floating-point type of that size (only 2, 4, 8, 12 or 16 bytes), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_ENUM_SIZE:
		return "BTF has no enum of that size (only 1, 2, 4 or 8 bytes), as pahole v1.31 refuses";
	case -BTF_REFUSED_BITFIELD_OFFSET:
		return "BTF cannot place a bit field more than 2 MiB into its struct (its offset "
		       "has 24 bits), as pahole v1.31 refuses";
	case -BTF_REFUSED_REFERENCE:
		return "BTF has no kind for a C++ reference (DW_TAG_reference_type), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_RVALUE_REFERENCE:
		return "BTF has no kind for a C++ rvalue reference (DW_TAG_rvalue_reference_type), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_PTR_TO_MEMBER:
		return "BTF has no kind for a C++ pointer to member (DW_TAG_ptr_to_member_type), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_STRING:
		return "BTF has no kind for a string type (DW_TAG_string_type, Fortran's CHARACTER), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_ATOMIC:
		return "BTF has no kind for an _Atomic type (DW_TAG_atomic_type), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_INTERFACE:
		return "BTF has no kind for an interface type (DW_TAG_interface_type), "
		       "as pahole v1.31 refuses";
	case -BTF_REFUSED_IMPORTED_UNIT:
		return "a unit imports a partial unit (DW_TAG_imported_unit, as dwz makes), "
		       "which pahole v1.31 cannot read: it writes nothing";
	case -BTF_REFUSED_VAR_NAME:
		return "a variable's name is no BTF name (letters, digits, '_' or '.', at most 128), "
		       "as pahole v1.31 refuses without --btf_features=encode_force";
	default:
		return strerror(-err);
	}
}

static int silent_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* With -V, libbpf's warnings and information (each says "libbpf: " itself). */
static int verbose_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

/*
 * Opens the ELF file @path and encodes it with @conf (whose base BTF, if
 * any, is already read): 0 and the BTF in *@out, -ENODATA for a file
 * without DWARF, or a negative errno.  Says why in one line on stderr
 * unless it succeeded.
 */
static int encode_file(const char *path, struct btf_encoder_conf *conf, struct btf_encoded *out)
{
	pthread_mutex_t libdw_lock = PTHREAD_MUTEX_INITIALIZER;
	struct elf_symtab *symtab = NULL;
	struct dwarf_loader *loader;
	double start = now();
	const char *cause;
	int err;

	err = dwarf_loader__open(path, &loader, &cause);
	if (err) {
		fprintf(stderr, "pahole: %s: %s%s\n", path, cause,
			err == -ENODATA ? ", nothing to encode" : "");
		return err;
	}
	symtab = elf_symtab__new(dwarf_loader__elf(loader));
	/* No .symtab: no functions nor variables.  One we cannot read: an error. */
	if (!symtab && errno != ENOENT) {
		err = -errno;
		fprintf(stderr, "pahole: %s: cannot read the symbol table: %s\n", path,
			err == -EINVAL ? "corrupt .symtab" : strerror(-err));
		dwarf_loader__close(loader);
		return err;
	}
	/* Its names must outlive the ELF file's data, which split BTF lets go early. */
	if (symtab && conf->base && elf_symtab__own_names(symtab)) {
		fprintf(stderr, "pahole: %s: %s\n", path, strerror(ENOMEM));
		elf_symtab__delete(symtab);
		dwarf_loader__close(loader);
		return -ENOMEM;
	}
	conf->symtab = symtab;
	conf__set_param_regs(conf, dwarf_loader__elf(loader));
	conf->libdw_lock = &libdw_lock;
	conf->whole_dedup = false;
	conf->merged_cus = dwarf_loader__merged(loader);
	dwarf_loader__debug_info(loader, &conf->debug_info, &conf->debug_info_end);
	if (conf->verbose && conf->merged_cus)
		fprintf(stderr,
			"pahole: %s: its units refer into each other (LTO): encoded as one "
			"CU, by one worker, as pahole v1.31 merges them\n",
			path);
	/*
	 * Twice when the chunks' own dedups may have given what one dedup of
	 * the whole file would not (see btf_encoders__merge()); the encoders
	 * claimed the function table's nodes, so it is built again.
	 */
	for (;;) {
		err = 0;
		if (symtab) {
			elf_functions__delete(conf->functions);
			conf->functions = elf_functions__new(symtab);
			if (!conf->functions)
				err = -ENOMEM;
			/* As pahole v1.31: kfunc tags are decl tags, off with them. */
			else if (btf_encoder_conf__has(conf, BTF_FEAT_DECL_TAG_KFUNCS) &&
				 btf_encoder_conf__has(conf, BTF_FEAT_DECL_TAG))
				err = btf_ids__mark_kfuncs(dwarf_loader__elf(loader), symtab,
							   conf->functions);
		}
		if (conf->verbose && !conf->whole_dedup)
			fprintf(stderr, "pahole: reading the ELF symbols and DWARF units: %.3f s\n",
				now() - start);
		err = err ?: encode(loader, conf, out);
		if (err != BTF_ENCODERS_AGAIN || conf->whole_dedup)
			break;
		conf->whole_dedup = true;
	}
	conf->whole_dedup = false;
	conf->merged_cus = false;
	conf->debug_info = conf->debug_info_end = NULL;
	if (err)
		fprintf(stderr, "pahole: %s: encoding BTF failed: %s\n", path, encode_error(err));
	elf_functions__delete(conf->functions);
	elf_symtab__delete(symtab);
	conf->functions = NULL;
	conf->symtab = NULL;
	conf->libdw_lock = NULL;
	start = now();
	dwarf_loader__close(loader);
	pthread_mutex_destroy(&libdw_lock);
	if (conf->verbose)
		fprintf(stderr, "pahole: closing the DWARF: %.3f s\n", now() - start);
	return err;
}

int main(int argc, char *argv[])
{
	static const struct argp argp = {
		options, parse_opt,
		"FILE",	 "Encode the DWARF of a vmlinux or kernel module as BTF.",
		NULL,	 NULL,
		NULL,
	};
	struct btf_encoder_conf conf = {};
	struct args args = { .features = ARGS_FEATURES_INITIAL };
	struct btf_encoded enc = {};
	const char *cause;
	const void *raw;
	__u32 raw_size;
	void *layout = NULL;
	size_t layout_size = 0;
	int err;

	/* Anything but encoding BTF is dwarves' pahole's (pahole_fallback.h). */
	if (!pahole_fallback__ours(argc, argv))
		return pahole_fallback__exec(argv);
	if (argp_parse(&argp, argc, argv, 0, NULL, &args) != 0)
		return EXIT_FAILURE;
	args__conf(&args, &conf);
	libbpf_set_print(conf.verbose ? verbose_libbpf_print : silent_libbpf_print);
	catch_signals(args.input);
	/*
	 * With one worker, it and the main thread share glibc's main arena: a
	 * worker thread would get an arena of its own, and what the main thread
	 * frees (reading the symbols) would not serve it (8 MB more at -j1).
	 */
	if (conf.jobs == 1)
		mallopt(M_ARENA_MAX, 1);
	if (args.btf_base && btf_base__open(args.btf_base, &conf.base, &cause)) {
		fprintf(stderr, "pahole: %s: cannot read base BTF: %s\n", args.btf_base, cause);
		return EXIT_FAILURE;
	}
	err = encode_file(args.input, &conf, &enc);
	/* As pahole v1.31: DWARF without a single type gives no BTF at all. */
	if (!err && !conf.base && btf__type_cnt(enc.btf) == 1) {
		fprintf(stderr, "pahole: %s: warning: no types in the DWARF, nothing written\n",
			args.input);
	} else if (!err) {
		const char *out = args.detached ?: args.input;
		double start = now();

		raw = enc.raw;
		raw_size = enc.raw_size;
		if (enc.btf) {
			/* As pahole: the BTF is in the byte order of the ELF file it describes. */
			btf__set_endianness(enc.btf,
					    conf.big_endian ? BTF_BIG_ENDIAN : BTF_LITTLE_ENDIAN);
			raw = btf__raw_data(enc.btf, &raw_size);
		}
		if (raw && with_layout(&conf))
			raw = layout = btf_writer__add_layout(raw, raw_size, &layout_size);
		if (!raw)
			err = -ENOMEM, cause = strerror(ENOMEM);
		else if (args.detached)
			err = btf_writer__raw(out, raw, layout ? layout_size : raw_size, &cause);
		else
			err = write_elf(out, raw, layout ? layout_size : raw_size, enc.btf, &conf,
					&cause);
		if (err)
			fprintf(stderr, "pahole: %s: cannot write BTF: %s\n", out, cause);
		else if (conf.verbose)
			fprintf(stderr, "pahole: writing %s: %.3f s\n", out, now() - start);
	}
	free(layout);
	free(enc.raw);
	btf__free(enc.btf);
	btf_base__delete(conf.base);
	/* A file without DWARF is no error: kernel builds meet such objects. */
	return err && err != -ENODATA ? EXIT_FAILURE : EXIT_SUCCESS;
}
