// SPDX-License-Identifier: GPL-2.0-only
/*
 * pahole -J: encodes the DWARF of a vmlinux or module as BTF.
 *
 * The command line is pahole's; this file turns it into the read-only
 * btf_encoder_conf, sets up the process (signals, libbpf's messages, the
 * base BTF) and hands the input to encode.h; what is not -J goes to
 * dwarves' pahole (pahole_fallback.h).
 */
#include <argp.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <malloc.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <dwarf.h>

#include "btf_base.h"
#include "btf_encoder.h"
#include "btf_release.h"
#include "encode.h"
#include "pahole_exit.h"
#include "pahole_fallback.h"

#define MAX_JOBS 1024
/* The commit we were built from (CMakeLists.txt), or "". */
#ifndef PAHOLE_COMMIT
#define PAHOLE_COMMIT ""
#endif

struct btf_feature_desc {
	const char *name;
	bool implemented;
};

static const struct btf_feature_desc btf_features[BTF_FEAT__NR] = {
	[BTF_FEAT_ENCODE_FORCE] = { "encode_force", true },
	[BTF_FEAT_VAR] = { "var", true },
	[BTF_FEAT_FLOAT] = { "float", true },
	[BTF_FEAT_DECL_TAG] = { "decl_tag", true },
	[BTF_FEAT_TYPE_TAG] = { "type_tag", true },
	[BTF_FEAT_ENUM64] = { "enum64", true },
	[BTF_FEAT_OPTIMIZED_FUNC] = { "optimized_func", true },
	[BTF_FEAT_CONSISTENT_FUNC] = { "consistent_func", true },
	[BTF_FEAT_DECL_TAG_KFUNCS] = { "decl_tag_kfuncs", true },
	[BTF_FEAT_REPRODUCIBLE_BUILD] = { "reproducible_build", true },
	[BTF_FEAT_DISTILLED_BASE] = { "distilled_base", true },
	[BTF_FEAT_GLOBAL_VAR] = { "global_var", true },
	[BTF_FEAT_ATTRIBUTES] = { "attributes", true },
	/* After v1.31 (upstream 1436daf): a kind layout section, not for split BTF. */
	[BTF_FEAT_LAYOUT] = { "layout", true },
	/* After v1.31 (upstream 1436daf): clones by their symbols' names, with their true signatures. */
	[BTF_FEAT_TRUE_SIGNATURE] = { "true_signature", true },
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
	const struct btf_release *release;
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
	int lang_include[NR_LANGS + 1];
	const char *cu_exclude;
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
	OPT_NUMERIC_VERSION,
	OPT_DEVEL_VERSION,
	OPT_COMPAT,
	OPT_ENCODE_FORCE,
	OPT_ATTRIBUTES,
	OPT_REPRODUCIBLE,
	OPT_LANG,
	OPT_NO_EFFECT,
};

static const struct argp_option options[] = {
	{ "btf_encode", 'J', NULL, 0, "Encode the DWARF of FILE as BTF", 0 },
	{ "btf_encode_detached", OPT_DETACHED, "FILE", 0,
	  "Write the raw BTF to FILE instead of a .BTF section of the input", 0 },
	{ "btf_base", OPT_BTF_BASE, "FILE", 0, "Encode split BTF on the base BTF in FILE", 0 },
	{ "jobs", 'j', "N", OPTION_ARG_OPTIONAL,
	  "Encode with N threads (without N: one per online CPU)", 0 },
	{ "btf_features", OPT_FEATURES, "LIST", 0,
	  "Comma-separated BTF features to encode; \"default\" for the default set, \"all\" for all "
	  "but distilled_base (v1.32)",
	  0 },
	{ "features", OPT_FEATURES, "LIST", OPTION_ALIAS, NULL, 0 },
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
	{ "btf_encode_force", OPT_ENCODE_FORCE, NULL, 0,
	  "Leave out the variables whose names BTF does not take (encode_force)", 0 },
	{ "btf_attributes", OPT_ATTRIBUTES, NULL, 0,
	  "Encode attributes: tags with kind_flag set (attributes)", 0 },
	{ "reproducible_build", OPT_REPRODUCIBLE, NULL, 0,
	  "The same BTF from the same input (reproducible_build; always so)", 0 },
	{ "lang_exclude", OPT_LANG_EXCLUDE, "LANGS", 0,
	  "Skip the CUs of these comma-separated languages (e.g. rust)", 0 },
	{ "lang", OPT_LANG, "LANGS", 0, "Encode only the CUs of these comma-separated languages",
	  0 },
	{ "cu_exclude", 'X', "PREFIX", 0, "Skip the CUs whose name begins with PREFIX", 0 },
	{ "quiet", 'q', NULL, 0, "Accepted for compatibility: -J says nothing unless asked", 0 },
	{ "skip_emitting_atomic_typedefs", OPT_NO_EFFECT, NULL, 0,
	  "Accepted for compatibility: it changes no BTF", 0 },
	{ "format_path", 'F', "FORMATS", 0, "Accepted for compatibility; DWARF is always read", 0 },
	{ "verbose", 'V', NULL, 0, "Say more about what is left out and why", 0 },
	{ "version", OPT_VERSION, NULL, 0, "Print the version of the release we are (v1.32)", 0 },
	{ "numeric_version", OPT_NUMERIC_VERSION, NULL, 0, "Print the version as a number (132)",
	  0 },
	{ "devel_version", OPT_DEVEL_VERSION, NULL, 0,
	  "Print the version and the commit this pahole was built from", 0 },
	{ "compat", OPT_COMPAT, "RELEASE", 0,
	  "Be pahole RELEASE (v1.31 or v1.32): its BTF, its version; PAHOLE_COMPAT says it too",
	  0 },
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
 * Unknown names are ignored, as pahole does, unless @strict.  "all", which
 * --btf_gen_all passes, is every feature but distilled_base (which needs a
 * base) in v1.32; v1.31 knows no "all", so its --btf_gen_all turns every
 * feature off (BTF_RULE_FEATURES_ALL).
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

		if (!strcmp(tok, "all") && btf_release__has(a->release, BTF_RULE_FEATURES_ALL)) {
			a->features |= BTF_FEATURES_ALL;
			continue;
		}

		if (*tok == '+' || dflt) {
			a->features |= BTF_FEATURES_DEFAULT;
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
	case OPT_LANG:
		if (parse_lang_exclude(arg, key == OPT_LANG ? a->lang_include : a->lang_exclude))
			argp_failure(state, 64, 0, "unknown language in --%s=%s",
				     key == OPT_LANG ? "lang" : "lang_exclude", arg);
		break;
	case 'X':
		a->cu_exclude = arg;
		break;
	case OPT_ENCODE_FORCE:
		a->features |= BTF_FEAT(ENCODE_FORCE);
		break;
	case OPT_ATTRIBUTES:
		a->features |= BTF_FEAT(ATTRIBUTES);
		break;
	case OPT_REPRODUCIBLE:
		a->features |= BTF_FEAT(REPRODUCIBLE_BUILD);
		break;
	case 'F':
	case 'q':
	case OPT_NO_EFFECT:
		break;
	case 'V':
		a->verbose++;
		break;
	case OPT_VERSION:
		printf("%s\n", btf_release__name(a->release));
		exit(0);
	case OPT_NUMERIC_VERSION:
		printf("%d\n", btf_release__numeric(a->release));
		exit(0);
	case OPT_DEVEL_VERSION:
		/* As upstream's "v1.32-189-g437fced33da3": the release, then our commit. */
		printf("%s%s%s\n", btf_release__name(a->release), *PAHOLE_COMMIT ? "-g" : "",
		       PAHOLE_COMMIT);
		exit(0);
	case OPT_COMPAT:
		/* Read before the options (args__release()); argp takes abbreviations too. */
		if (btf_release__find(arg) != a->release) {
			fprintf(stderr, "pahole: --compat=%s: no such release (v1.31 or v1.32)\n",
				arg);
			exit(2);
		}
		break;
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

/*
 * The release we are, before any other option is read, as what "all" means
 * and what --version prints depend on it: --compat (the last one) wins over
 * PAHOLE_COMPAT, which kernel builds set as they pass pahole as a bare path;
 * unset or empty, the default.  0, or 2 with one line for an unknown release.
 */
static int args__release(struct args *a, int argc, char *argv[])
{
	const char *name = getenv("PAHOLE_COMPAT"), *what = "PAHOLE_COMPAT";
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strncmp(argv[i], "--compat=", 9)) {
			name = argv[i] + 9;
			what = "--compat";
		} else if (!strcmp(argv[i], "--compat") && i + 1 < argc) {
			name = argv[++i];
			what = "--compat";
		}
	}
	a->release = name && *name ? btf_release__find(name) : btf_release__default();
	if (a->release)
		return 0;
	fprintf(stderr, "pahole: %s=%s: no such release (v1.31 or v1.32)\n", what, name);
	return 2;
}

static void args__conf(const struct args *a, struct btf_encoder_conf *conf)
{
	conf->release = a->release;
	conf->verbose = a->verbose;
	conf->jobs = a->jobs ?: 1;
	conf->jobs_auto = a->jobs_auto;
	conf->in_place = !a->detached;
	conf->cu_filter = (struct dwarf_cu_filter){
		.lang_exclude = a->lang_exclude,
		.lang_include = a->lang_include,
		.name_exclude = a->cu_exclude,
	};
	conf->features = a->features;
	conf->dedup_input = getenv("PAHOLE_DEDUP_INPUT");
	conf->split_chunks = getenv("PAHOLE_SPLIT_CHUNKS") != NULL;
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

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define PAHOLE_FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define PAHOLE_FREE_AT_EXIT 1
#endif
#endif
#ifndef PAHOLE_FREE_AT_EXIT
#define PAHOLE_FREE_AT_EXIT 0
#endif

int main(int argc, char *argv[])
{
	static const struct argp argp = {
		options, parse_opt,
		"FILE",	 "Encode the DWARF of a vmlinux or kernel module as BTF.",
		NULL,	 NULL,
		NULL,
	};
	struct btf_encoder_conf conf = {};
	struct args args = { .features = BTF_FEATURES_UNLISTED };
	struct encode_result *result;
	const char *cause;
	int err;

	/* Anything but encoding BTF is dwarves' pahole's (pahole_fallback.h). */
	if (!pahole_fallback__ours(argc, argv))
		return pahole_fallback__exec(argv);
	err = args__release(&args, argc, argv);
	if (err)
		return err;
	if (argp_parse(&argp, argc, argv, 0, NULL, &args) != 0)
		return EXIT_FAILURE;
	args__conf(&args, &conf);
	libbpf_set_print(conf.verbose ? verbose_libbpf_print : silent_libbpf_print);
	pahole_exit__catch(args.input);
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
	err = encode__file(args.input, &conf, &result);
	if (!err)
		err = encode_result__write(result, args.detached ?: args.input, args.detached);
	/*
	 * The result, the input and the base are the exit's to let go: freed
	 * one allocation at a time they cost a vmlinux 15 ms, and each module
	 * its base's.  Sanitizer builds free them, so that a leak shows.
	 */
	if (PAHOLE_FREE_AT_EXIT) {
		encode_result__delete(result);
		btf_base__delete(conf.base);
	}
	/* A file without DWARF, or without types, is no error: kernel builds meet such objects. */
	return err && err != -ENODATA ? EXIT_FAILURE : EXIT_SUCCESS;
}
