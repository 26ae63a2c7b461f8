// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf_load - load a raw BTF file into the running kernel.
 *
 * Usage: btf_load FILE.btf
 *
 * The file is parsed with libbpf (btf__parse_raw) and handed to the
 * kernel with BPF_BTF_LOAD (btf__load_into_kernel), so that the kernel's
 * own BTF verifier judges it.
 *
 * Exit status:
 *   0   the kernel accepted the BTF
 *   1   libbpf could not parse the file, or the kernel rejected it; the
 *       kernel's verifier log (as reported by libbpf) is printed
 *   2   usage error
 *   77  the bpf() syscall is not available here (EPERM/ENOSYS), so the
 *       caller should skip this check
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#define EXIT_REJECTED 1
#define EXIT_USAGE 2
#define EXIT_SKIP 77

/* Everything libbpf tells us (warnings and info), printed on failure. */
static char *log_text;
static size_t log_len;

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	va_list copy;
	char *grown;
	int n;

	if (level == LIBBPF_DEBUG)
		return 0;

	va_copy(copy, args);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n <= 0)
		return 0;

	grown = realloc(log_text, log_len + n + 1);
	if (!grown)
		return 0;
	log_text = grown;
	vsnprintf(log_text + log_len, n + 1, fmt, args);
	log_len += n;
	return n;
}

static void dump_log(void)
{
	if (log_len)
		fprintf(stderr, "%s%s", log_text, log_text[log_len - 1] == '\n' ? "" : "\n");
}

int main(int argc, char **argv)
{
	struct btf *btf;
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE.btf\n", argv[0]);
		return EXIT_USAGE;
	}

	libbpf_set_print(capture_print);

	btf = btf__parse_raw(argv[1]);
	if (!btf) {
		err = -errno;
		fprintf(stderr, "%s: libbpf cannot parse raw BTF: %s\n", argv[1], strerror(-err));
		dump_log();
		return EXIT_REJECTED;
	}

	err = btf__load_into_kernel(btf);
	if (err) {
		if (err == -EPERM || err == -ENOSYS) {
			printf("%s: bpf(BPF_BTF_LOAD) not permitted here: %s\n", argv[1],
			       strerror(-err));
			btf__free(btf);
			return EXIT_SKIP;
		}
		fprintf(stderr, "%s: kernel rejected BTF: %s\n", argv[1], strerror(-err));
		dump_log();
		btf__free(btf);
		return EXIT_REJECTED;
	}

	btf__free(btf);
	free(log_text);
	return 0;
}
