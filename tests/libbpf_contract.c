// SPDX-License-Identifier: GPL-2.0-only
/*
 * libbpf_contract: what this program relies on in libbpf beyond what btf.h
 * promises, checked against the libbpf it is built with.  If a libbpf stops
 * doing one of these, this test fails before any output goes wrong:
 *
 *   - btf_type__mut() (lib/btf_types.h): a type changed in place through the
 *     pointer btf__type_by_id() returns is what btf__name_by_offset(),
 *     btf__raw_data() and btf__dedup() see afterwards (the merge's pointer
 *     rule, a kfunc's tag, the distilled base; checked here on a name set
 *     after btf__add_struct(), a member's name, a type ID set after
 *     btf__add_ptr() took 0);
 *   - btf_dedup__ptrs_unique(): after btf__dedup() no two pointers point to
 *     one type, so that distilled_base's dedup, libbpf's, can skip v1.31's
 *     pointer rule where the chunks' pointers are unique (only time is lost
 *     if a libbpf stops doing it), and two such pointers are found where
 *     they are.
 *
 * Exits 0 when all hold ("libbpf_contract: N checks ok"), 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_dedup.h"
#include "lib/btf_build.h"
#include "lib/btf_types.h"

static int failures, checks;

static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "FAIL: %s\n", what);
	}
}

/* The number of types of @kind named @name in @btf. */
static int count_named(const struct btf *btf, int kind, const char *name)
{
	uint32_t id, end = btf__type_cnt(btf);
	int n = 0;

	for (id = 1; id < end; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		n += btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name);
	}
	return n;
}

/* Names and type IDs written in place are what readers and dedup see. */
static void check_mut(void)
{
	struct btf *btf = btf__new_empty(), *copy;
	int i32, s1, s2, p1, p2, off;
	const void *raw;
	uint32_t size;

	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	s1 = btf__add_struct(btf, "s", 4);
	btf__add_field(btf, "x", i32, 0, 0);
	/* The second "s" is named, and its member too, after it is added. */
	s2 = btf__add_struct(btf, NULL, 4);
	btf__add_field(btf, NULL, i32, 0, 0);
	off = btf__add_str(btf, "s");
	btf_type__mut(btf, s2)->name_off = off;
	btf_members(btf_type__mut(btf, s2))[0].name_off = btf__add_str(btf, "x");
	check(!strcmp(btf__name_by_offset(btf, btf__type_by_id(btf, s2)->name_off), "s"),
	      "a name set in place reads back");
	/* Two pointers added to 0, then pointed at the two structs. */
	p1 = btf__add_ptr(btf, 0);
	p2 = btf__add_ptr(btf, 0);
	check(p1 > 0 && p2 > 0, "btf__add_ptr() takes type ID 0");
	btf_type__mut(btf, p1)->type = s1;
	btf_type__mut(btf, p2)->type = s2;
	raw = btf__raw_data(btf, &size);
	copy = raw ? btf__new(raw, size) : NULL;
	check(copy && count_named(copy, BTF_KIND_STRUCT, "s") == 2 &&
		      btf__type_by_id(copy, p2)->type == (uint32_t)s2,
	      "btf__raw_data() has what was written in place");
	check(!btf__dedup(btf, NULL), "btf__dedup() succeeds");
	/* Equal once renamed: one struct, one pointer, one int. */
	check(btf__type_cnt(btf) == 4 && count_named(btf, BTF_KIND_STRUCT, "s") == 1,
	      "btf__dedup() sees the names and IDs written in place");
	btf__free(copy);
	btf__free(btf);
}

/* btf_dedup__ptrs_unique() of @btf, read as the encoder reads a chunk: from its raw bytes. */
static int ptrs_unique(const struct btf *btf)
{
	struct btf_build b = {};
	uint32_t size;
	const void *raw = btf__raw_data(btf, &size);
	int ret = raw && !btf_build__load_raw(&b, raw, size) ? btf_dedup__ptrs_unique(&b) : -1;

	btf_build__free(&b);
	return ret;
}

static void check_ptrs(void)
{
	struct btf *btf = btf__new_empty();
	int i = btf ? btf__add_int(btf, "int", 4, BTF_INT_SIGNED) : -1;
	int p1 = i > 0 ? btf__add_ptr(btf, i) : -1, p2 = p1 > 0 ? btf__add_ptr(btf, i) : -1;
	int s = p2 > 0 ? btf__add_struct(btf, "s", 16) : -1;

	if (s < 0 || btf__add_field(btf, "a", p1, 0, 0) || btf__add_field(btf, "b", p2, 64, 0)) {
		check(0, "building the BTF of two pointers to one type");
		btf__free(btf);
		return;
	}
	check(ptrs_unique(btf) == 0, "two pointers to one type are found");
	check(!btf__dedup(btf, NULL) && ptrs_unique(btf) == 1,
	      "after btf__dedup() no two pointers point to one type");
	btf__free(btf);
}

int main(void)
{
	check_mut();
	check_ptrs();
	if (failures) {
		fprintf(stderr, "libbpf_contract: %d of %d checks failed\n", failures, checks);
		return 1;
	}
	printf("libbpf_contract: %d checks ok\n", checks);
	return 0;
}
