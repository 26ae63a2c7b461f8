// SPDX-License-Identifier: GPL-2.0-only
/*
 * dedup_oracle: libbpf's own split dedup of a module's BTF, the oracle of
 * tests/dedup_check.sh.  Built by that script against a libbpf of a given
 * commit (never against the system's, never by CMake), so that it shows
 * what that libbpf's btf__dedup() decides on the input ours deduplicated.
 *
 *   dedup_oracle BASE INPUT OUT
 *
 * BASE: raw BTF or an ELF file with .BTF, or "-" for none; INPUT: the raw,
 * standalone BTF that pahole wrote to PAHOLE_DEDUP_INPUT (the module's
 * types, referring only to each other; or a whole file's); OUT: split BTF
 * on BASE holding INPUT's types in order (or INPUT itself), after
 * btf__dedup(), as btf__raw_data() writes it.  Only the API
 * of libbpf's btf.h is used, so any libbpf from 0.6 on builds it.
 * Exits 0, or 1 with one line on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

static int fail(const char *what, const char *path, int err)
{
	fprintf(stderr, "dedup_oracle: %s: %s: %s\n", path, what, strerror(err < 0 ? -err : err));
	return 1;
}

static int write_raw(const struct btf *btf, const char *path)
{
	const void *raw;
	__u32 size;
	FILE *f;

	raw = btf__raw_data(btf, &size);
	if (!raw)
		return fail("btf__raw_data", path, ENOMEM);
	f = fopen(path, "w");
	if (!f || fwrite(raw, 1, size, f) != size || fclose(f))
		return fail("writing", path, errno);
	return 0;
}

int main(int argc, char *argv[])
{
	struct btf *base = NULL, *input, *split;
	int err;

	if (argc != 4) {
		fprintf(stderr, "usage: dedup_oracle BASE|- INPUT OUT\n");
		return 64;
	}
	if (strcmp(argv[1], "-")) {
		base = btf__parse(argv[1], NULL);
		if (!base)
			return fail("btf__parse", argv[1], errno);
	}
	input = btf__parse_raw(argv[2]);
	if (!input)
		return fail("btf__parse_raw", argv[2], errno);
	split = base ? btf__new_empty_split(base) : input;
	if (!split)
		return fail("btf__new_empty_split", argv[1], errno);
	/* Its types in order, their IDs past the base's, its strings added. */
	err = base ? btf__add_btf(split, input) : 0;
	if (err < 0)
		return fail("btf__add_btf", argv[2], err);
	err = btf__dedup(split, NULL);
	if (err)
		return fail("btf__dedup", argv[2], err);
	err = write_raw(split, argv[3]);
	if (split != input)
		btf__free(split);
	btf__free(input);
	btf__free(base);
	return err;
}
