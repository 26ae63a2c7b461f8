// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_encode: a libFuzzer target for the whole encode path of `pahole -J`.
 *
 * The input is an ELF file.  It is written to a memfd (or an O_TMPFILE) and
 * opened as /proc/self/fd/N, then encoded in-process by pahole.c's own
 * encode_file(), as main() does (pahole.c is included here, its main()
 * renamed; its args__conf() and feature table make the configuration):
 * dwarf_loader__open, elf_symtab__new, elf_functions__new,
 * btf_ids__mark_kfuncs, encode() (one btf_encoder per worker, the workers,
 * btf_encoders__merge); then btf__raw_data.  Nothing is written; everything
 * is freed, so that LeakSanitizer sees what an encode leaks.  The BTF encoded
 * must be BTF that libbpf reads back (btf__new): if it is not, the target
 * aborts.  pahole's one-line error on a bad input goes to stderr: fuzz with
 * -close_fd_mask=2 to silence it (sanitizer reports still show).
 *
 * Two bytes of e_ident's padding, which libelf ignores, pick the variant, so
 * that the fuzzer can flip them and a reproducer carries its variant:
 *   e_ident[EI_PAD] (byte 9)      bit 0: -j2 (two workers) instead of -j1
 *   e_ident[EI_PAD + 1] (byte 10) bit 0: --btf_features=default,global_var
 *                                 bit 1: no --btf_features (pahole's older
 *                                        defaults); wins over bit 0
 *                                 bit 2: split BTF on a small base BTF
 *                                        (as --btf_base does for modules)
 *                                 bit 3: and true_signature (with
 *                                        --btf_features)
 * Zero bytes, as compilers write them, give -j1 --btf_features=default.
 *
 * Build (clang only):
 *	CC=clang cmake -B build-fuzz -DBUILD_FUZZER=ON && cmake --build build-fuzz
 * Fuzz (new inputs go to the first directory; make fuzz-check does this):
 *	build-fuzz/tests/fuzz/fuzz_encode CORPUS build-fuzz/tests/fuzz/seeds
 * Run some files once each (e.g. a reproducer):
 *	build-fuzz/tests/fuzz/fuzz_encode FILE...
 */
#define main pahole_main
#define PAHOLE_KEEP_ASSERT /* an abort in a library is a finding */
#include "../../pahole.c"
#undef main

#include <elf.h>
#include <stdint.h>
#include <sys/mman.h>

/* A small base BTF for the split variant: a few types modules share with vmlinux. */
static struct btf_base *fuzz_base;

static struct btf *make_base_btf(void)
{
	struct btf *btf = btf__new_empty();
	int i_int, i_ulong, i_char, s_list;

	if (!btf)
		return NULL;
	i_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	i_ulong = btf__add_int(btf, "long unsigned int", 8, 0);
	i_char = btf__add_int(btf, "char", 1, BTF_INT_SIGNED | BTF_INT_CHAR);
	btf__add_int(btf, "unsigned int", 4, 0);
	btf__add_int(btf, "long int", 8, BTF_INT_SIGNED);
	btf__add_ptr(btf, i_char);
	btf__add_typedef(btf, "size_t", i_ulong);
	btf__add_typedef(btf, "u32", i_int);
	s_list = btf__add_struct(btf, "list_head", 16);
	btf__add_field(btf, "next", s_list + 1, 0, 0);
	btf__add_field(btf, "prev", s_list + 1, 64, 0);
	btf__add_ptr(btf, s_list);
	btf__add_fwd(btf, "device", BTF_FWD_STRUCT);
	btf__add_enum(btf, "fuzz_state", 4);
	btf__add_enum_value(btf, "FUZZ_IDLE", 0);
	btf__add_enum_value(btf, "FUZZ_BUSY", 1);
	return btf;
}

/* An fd holding @data, or -1. */
static int data_fd(const uint8_t *data, size_t size)
{
	size_t off = 0;
	ssize_t n;
	int fd;

	fd = memfd_create("fuzz_encode", MFD_CLOEXEC);
	if (fd < 0)
		fd = open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (off < size) {
		n = write(fd, data + off, size - off);
		if (n <= 0) {
			close(fd);
			return -1;
		}
		off += n;
	}
	return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct btf *btf;
	const void *raw;
	const char *cause = "cannot make it";
	char path[64];
	__u32 size;
	int fd = -1;

	(void)argc, (void)argv;
	libbpf_set_print(silent_libbpf_print);
	/* Read as pahole reads --btf_base: from a file. */
	btf = make_base_btf();
	raw = btf ? btf__raw_data(btf, &size) : NULL;
	if (raw)
		fd = data_fd(raw, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (fd < 0 || btf_base__open(path, &fuzz_base, &cause)) {
		fprintf(stderr, "fuzz_encode: the base BTF: %s\n", cause);
		abort();
	}
	btf__free(btf);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t variant_jobs = size > EI_PAD ? data[EI_PAD] : 0;
	uint8_t variant_feat = size > EI_PAD + 1 ? data[EI_PAD + 1] : 0;
	char features[sizeof("default,global_var,true_signature")];
	struct btf_encoder_conf conf = {};
	struct args args = { .features = ARGS_FEATURES_INITIAL };
	struct btf_encoded enc = {};
	const void *raw;
	char path[64];
	__u32 raw_size;
	int fd, err;

	/* The command line: -J -jN [--btf_features=...] [--btf_base=...] FILE */
	args.encode = true;
	args.jobs = variant_jobs & 1 ? 2 : 1;
	if (!(variant_feat & 2)) {
		snprintf(features, sizeof(features), "default%s%s",
			 variant_feat & 1 ? ",global_var" : "",
			 variant_feat & 8 ? ",true_signature" : "");
		if (args__features(&args, features, false))
			abort();
	}
	args__conf(&args, &conf);
	if (variant_feat & 4)
		conf.base = fuzz_base;

	fd = data_fd(data, size);
	if (fd < 0) {
		perror("fuzz_encode: memfd_create");
		abort();
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* What pahole.c's main() does between reading the options and writing. */
	err = encode_file(path, &conf, &enc);
	close(fd);
	if (!err) {
		struct btf *check;

		raw = enc.raw;
		raw_size = enc.raw_size;
		if (enc.btf)
			raw = btf__raw_data(enc.btf, &raw_size);
		if (!raw) {
			fprintf(stderr, "fuzz_encode: btf__raw_data failed\n");
			abort();
		}
		/*
		 * What would be written must read back as BTF, split BTF on
		 * the base if there is one (libbpf 1.1 does not export
		 * btf__new_split: read it from a file).
		 */
		if (conf.base) {
			fd = data_fd(raw, raw_size);
			if (fd < 0) {
				perror("fuzz_encode: memfd_create");
				abort();
			}
			snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
			check = btf__parse_raw_split(path, btf_base__libbpf(conf.base));
			close(fd);
		} else {
			check = btf__new(raw, raw_size);
		}
		if (!check) {
			fprintf(stderr, "fuzz_encode: libbpf rejects the BTF encoded: %s\n",
				strerror(errno));
			abort();
		}
		btf__free(check);
	}
	free(enc.raw);
	btf__free(enc.btf);
	return 0;
}
