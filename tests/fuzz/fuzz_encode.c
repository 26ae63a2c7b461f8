// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_encode: a libFuzzer target for the whole encode path of `pahole -J`.
 *
 * The input is an ELF file.  It is written to a memfd (or an O_TMPFILE) and
 * opened as /proc/self/fd/N, then encoded in-process by encode__file()
 * (encode.h), the step pahole.c's main() runs: dwarf_loader__open,
 * elf_symtab__new, elf_functions__new, btf_ids__mark_kfuncs, one
 * btf_encoder per worker, the workers, btf_encoders__merge; then the bytes
 * that would be written (encode_result__raw()).  Nothing is written;
 * everything is freed, so that LeakSanitizer sees what an encode leaks.
 * The BTF encoded must be BTF that libbpf reads back (btf__new): if it is
 * not, the target aborts.  pahole's one-line error on a bad input goes to
 * stderr: fuzz with -close_fd_mask=2 to silence it (sanitizer reports
 * still show).  pahole.c is not linked: its __assert_fail() would hide a
 * library's failed assert, which is a finding here.
 *
 * Two bytes of e_ident's padding, which libelf ignores, pick the variant, so
 * that the fuzzer can flip them and a reproducer carries its variant:
 *   e_ident[EI_PAD] (byte 9)      bit 0: -j2 (two workers) instead of -j1
 *                                 bit 1: v1.31's rules (PAHOLE_COMPAT=v1.31)
 *   e_ident[EI_PAD + 1] (byte 10) bit 0: --btf_features=default,global_var
 *                                 bit 1: no --btf_features (pahole's older
 *                                        defaults); wins over bit 0
 *                                 bit 2: split BTF on a small base BTF
 *                                        (as --btf_base does for modules)
 *                                 bit 3: and true_signature (with
 *                                        --btf_features)
 * Zero bytes, as compilers write them, give -j1 --btf_features=default in
 * the default release's rules.
 *
 * Or the input is two files: a dwz'd object and the alternate (dwz -m) or
 * supplementary (dwz -5 -m) file it names, as "PAHOLE2\0", the length of
 * the first as 4 bytes little-endian, the first, the second (make_seeds.sh
 * writes them, the objects naming their file "alt": dwz -M alt).  Both are
 * written into a directory of the run's own, as "main" and "alt", and the
 * object is encoded from there, so that the lookup beside the file finds
 * the second (and a mutated name finds nothing, or "main" itself); the
 * variant bytes are the object's.
 *
 * Build (clang only):
 *	CC=clang cmake -B build-fuzz -DBUILD_FUZZER=ON && cmake --build build-fuzz
 * Fuzz (new inputs go to the first directory; make fuzz-check does this):
 *	build-fuzz/tests/fuzz/fuzz_encode CORPUS build-fuzz/tests/fuzz/seeds
 * Run some files once each (e.g. a reproducer):
 *	build-fuzz/tests/fuzz/fuzz_encode FILE...
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "btf_base.h"
#include "btf_encoder.h"
#include "encode.h"

/* A small base BTF for the split variant: a few types modules share with vmlinux. */
static struct btf_base *fuzz_base;
/* Where a two-file input's files are written: the run's own directory. */
static char pair_dir[] = "/tmp/fuzz_encode.XXXXXX";

#define PAIR_MAGIC "PAHOLE2"

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

static int silent_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

/* Writes @size bytes of @data to @name in pair_dir: 0 or -1. */
static int pair_write(const char *name, const uint8_t *data, size_t size)
{
	char path[PATH_MAX];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s", pair_dir, name);
	unlink(path);
	f = fopen(path, "wxe");
	if (!f)
		return -1;
	ok = fwrite(data, 1, size, f) == size;
	return fclose(f) == 0 && ok ? 0 : -1;
}

/* A two-file input written out: the object's path in @path, or -1 when @data is not one. */
static int pair_unpack(const uint8_t *data, size_t size, char *path, size_t len,
		       const uint8_t **obj)
{
	size_t hdr = sizeof(PAIR_MAGIC) + 4, first;

	if (size < hdr || memcmp(data, PAIR_MAGIC, sizeof(PAIR_MAGIC)))
		return -1;
	first = data[8] | data[9] << 8 | data[10] << 16 | (size_t)data[11] << 24;
	if (first > size - hdr)
		first = size - hdr;
	*obj = data + hdr;
	if (pair_write("main", *obj, first) ||
	    pair_write("alt", data + hdr + first, size - hdr - first)) {
		perror("fuzz_encode: writing a two-file input");
		abort();
	}
	snprintf(path, len, "%s/main", pair_dir);
	return 0;
}

static void pair_cleanup(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/main", pair_dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/alt", pair_dir);
	unlink(path);
	rmdir(pair_dir);
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
	if (!mkdtemp(pair_dir)) {
		perror("fuzz_encode: mkdtemp");
		abort();
	}
	atexit(pair_cleanup);
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
	static const int no_lang_exclude[] = { 0 };
	char path[PATH_MAX];
	const uint8_t *obj = data;
	bool pair = !pair_unpack(data, size, path, sizeof(path), &obj);
	size_t obj_size = size - (obj - data);
	uint8_t variant_jobs = obj_size > EI_PAD ? obj[EI_PAD] : 0;
	uint8_t variant_feat = obj_size > EI_PAD + 1 ? obj[EI_PAD + 1] : 0;
	/* The command line: -J -jN [--btf_features=...] [--btf_base=...] FILE */
	struct btf_encoder_conf conf = {
		.features = BTF_FEATURES_UNLISTED,
		.jobs = variant_jobs & 1 ? 2 : 1,
		.cu_filter.lang_exclude = no_lang_exclude,
		.release = variant_jobs & 2 ? btf_release__find("v1.31") : btf_release__default(),
	};
	struct encode_result *result;
	const void *raw;
	size_t raw_size;
	int fd = -1, err;

	if (!(variant_feat & 2)) {
		conf.features = BTF_FEATURES_DEFAULT;
		if (variant_feat & 1)
			conf.features |= BTF_FEAT(GLOBAL_VAR);
		if (variant_feat & 8)
			conf.features |= BTF_FEAT(TRUE_SIGNATURE);
	}
	if (variant_feat & 4)
		conf.base = fuzz_base;

	if (!pair) {
		fd = data_fd(data, size);
		if (fd < 0) {
			perror("fuzz_encode: memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	err = encode__file(path, &conf, &result);
	if (fd >= 0)
		close(fd);
	if (!err) {
		struct btf *check, *base;

		if (encode_result__raw(result, &raw, &raw_size)) {
			fprintf(stderr, "fuzz_encode: no raw BTF\n");
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
			check = btf_base__libbpf(conf.base, &base) ?
					NULL :
					btf__parse_raw_split(path, base);
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
	encode_result__delete(result);
	return 0;
}
