// SPDX-License-Identifier: GPL-2.0-only
/*
 * split_dedup: btf_dedup__split() (btf_dedup_split.c), our dedup of a
 * module's BTF over a base it only reads, against what it reproduces:
 * libbpf's btf__dedup() of split BTF on a base that libbpf parsed
 * (btf_dedup__run() on btf__new_empty_split(), the types added in order).
 * And btf_dedup__whole(), our dedup of a chunk's BTF, against libbpf 1.1's
 * own btf__dedup() of it (no pointer rule), type by type, names by their
 * strings: libbpf keeps the string section whole where ours keeps the
 * strings of the types kept; and the IDs it carries.  And btf_dedup_bg, the
 * final dedup of a vmlinux begun before the merge adds its FUNCs and VARs,
 * against btf_dedup__btf() of the whole, byte for byte.
 *
 * Each rule has a case with its expectation written out (which base type a
 * module type becomes, which module types stay), and every case is also
 * compared byte for byte with libbpf's output.  Then 400 pairs of base and
 * module made from a fixed seed, with few names so that types collide (the
 * same struct twice in a base, FWDs, enums with and without values, cycles
 * through pointers), byte for byte.  Deterministic.
 *
 * Exits 0 when all hold ("split_dedup: N checks ok"), 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/btf.h>

#include "btf_base.h"
#include "btf_dedup.h"
#include "lib/btf_build.h"
#include "lib/btf_types.h"

static int failures, checks, compared;
/* libbpf 1.1's rules (with the pointer rule): those this test compares with libbpf. */
static const struct btf_dedup_rules rules_v131 = { .identical_ptrs = true };
static char tmpdir[] = "/tmp/split_dedup.XXXXXX";

static void check(int ok, const char *what, const char *name)
{
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "FAIL: %s: %s\n", name, what);
	}
}

/* @base written to a file and read back both ways: ours, and libbpf's. */
static struct btf_base *base_open(const struct btf *base, struct btf **libbpf)
{
	char path[64];
	struct btf_base *b = NULL;
	const char *cause;
	const void *raw;
	__u32 size;
	FILE *f;

	snprintf(path, sizeof(path), "%s/base.btf", tmpdir);
	raw = btf__raw_data(base, &size);
	f = fopen(path, "w");
	if (!f || !raw || fwrite(raw, 1, size, f) != size || fclose(f)) {
		perror("split_dedup: writing the base");
		exit(2);
	}
	if (btf_base__open(path, &b, &cause)) {
		fprintf(stderr, "split_dedup: btf_base__open: %s\n", cause);
		exit(2);
	}
	*libbpf = btf__parse_raw(path);
	if (!*libbpf) {
		perror("split_dedup: btf__parse_raw");
		exit(2);
	}
	return b;
}

static int shift_ref(uint32_t *id, void *ctx)
{
	if (*id)
		*id += *(const uint32_t *)ctx - 1;
	return 0;
}

/* The module's types added in order to split BTF on @base, as btf_chunks.c does. */
static int reference_dedup(const struct btf *module, struct btf *base, struct btf **out)
{
	struct btf *split = btf__new_empty_split(base);
	uint32_t n = btf__type_cnt(module), first = btf__type_cnt(base), id;
	int err = split ? 0 : -ENOMEM;

	for (id = 1; id < n && !err; id++) {
		int new_id = btf__add_type(split, module, btf__type_by_id(module, id));

		if (new_id < 0) {
			err = new_id;
			break;
		}
		/* Its references, to the module's types, move past the base's. */
		err = btf_type__visit_ids(btf_type__mut(split, new_id), shift_ref, &first);
	}
	err = err ?: btf_dedup__run(split, false);
	if (err) {
		btf__free(split);
		return err;
	}
	*out = split;
	return 0;
}

/*
 * Ours and libbpf's on @module over @base: the same bytes (or the same
 * error).  Ours in *@ours (libbpf's split BTF of it, to look into) if asked.
 */
static void compare(const char *name, struct btf *base, struct btf *module, struct btf **ours)
{
	struct btf *lb, *ref = NULL;
	struct btf_build copy = {};
	struct btf_base *b = base_open(base, &lb);
	const void *ref_raw, *mod_raw;
	uint32_t size, nr;
	void *raw = NULL;
	__u32 ref_size, mod_size;
	int err, ref_err;
	char path[64];
	FILE *f;

	/* Ours rewrites the module (the pointer rule): it gets a copy, as the merge has it. */
	mod_raw = btf__raw_data(module, &mod_size);
	err = btf_build__load_raw(&copy, mod_raw, mod_size);
	ref_err = reference_dedup(module, lb, &ref);
	err = err ?: btf_dedup__split(&copy, b, &rules_v131, &raw, &size, &nr);
	check(err == ref_err, "the same error as libbpf's", name);
	if (!err && !ref_err) {
		ref_raw = btf__raw_data(ref, &ref_size);
		check(size == ref_size && !memcmp(raw, ref_raw, size), "libbpf's bytes", name);
		compared++;
		check(nr == btf__type_cnt(ref) - btf__type_cnt(lb), "libbpf's type count", name);
	}
	if (ours && !err) {
		snprintf(path, sizeof(path), "%s/split.btf", tmpdir);
		f = fopen(path, "w");
		if (!f || fwrite(raw, 1, size, f) != size || fclose(f))
			exit(2);
		*ours = btf__parse_raw_split(path, lb);
		check(*ours != NULL, "libbpf reads ours", name);
	} else if (ours) {
		*ours = NULL;
		btf__free(lb);
	} else {
		btf__free(lb);
	}
	free(raw);
	btf__free(ref);
	btf_build__free(&copy);
	btf_base__delete(b);
}

/* The ID of the type named @name of @kind in @btf (the last one), or 0. */
static uint32_t find(const struct btf *btf, const char *name, int kind)
{
	uint32_t id, found = 0;

	for (id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (btf_kind(t) == kind && !strcmp(btf__name_by_offset(btf, t->name_off), name))
			found = id;
	}
	return found;
}

static void done(struct btf *ours)
{
	if (ours) {
		btf__free((struct btf *)btf__base_btf(ours));
		btf__free(ours);
	}
}

/* A module struct equal to the base's is the base's; one that differs stays. */
static void case_struct(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	int i;

	i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(base, "same", 4);
	btf__add_field(base, "a", i, 0, 0);
	btf__add_struct(base, "other", 4);
	btf__add_field(base, "a", i, 0, 0);
	i = btf__add_int(mod, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(mod, "same", 4);
	btf__add_field(mod, "a", i, 0, 0);
	btf__add_struct(mod, "other", 8);
	btf__add_field(mod, "a", i, 0, 0);
	btf__add_field(mod, "b", i, 32, 0);
	btf__add_ptr(mod, 2);
	compare("struct", base, mod, &ours);
	if (ours) {
		const struct btf_type *p = btf__type_by_id(ours, btf__type_cnt(ours) - 1);

		check(btf__type_cnt(ours) == btf__type_cnt(btf__base_btf(ours)) + 2,
		      "two module types: the differing struct, the pointer", "struct");
		check(btf_is_ptr(p) && p->type == 2, "the pointer is to the base's struct",
		      "struct");
		check(find(ours, "other", BTF_KIND_STRUCT) > 3, "the differing struct stays",
		      "struct");
	}
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/*
 * A module FWD: to the base's struct through a graph that meets the base's,
 * and alone, by the one struct of its name; not to a struct of another kind.
 */
static void case_fwd(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	int i, s;

	i = btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	s = btf__add_struct(base, "node", 8); /* 2 */
	btf__add_field(base, "next", s + 1, 0, 0);
	btf__add_ptr(base, s); /* 3 */
	btf__add_struct(base, "lone", 4); /* 4 */
	btf__add_field(base, "a", i, 0, 0);
	btf__add_struct(base, "user", 8); /* 5 */
	btf__add_field(base, "p", 3, 0, 0);
	btf__add_fwd(mod, "node", BTF_FWD_STRUCT); /* 1 */
	btf__add_ptr(mod, 1); /* 2 */
	btf__add_struct(mod, "user", 8); /* 3 */
	btf__add_field(mod, "p", 2, 0, 0);
	btf__add_fwd(mod, "lone", BTF_FWD_STRUCT); /* 4 */
	btf__add_ptr(mod, 4); /* 5 */
	btf__add_fwd(mod, "lone", BTF_FWD_UNION); /* 6: of the other kind, stays */
	compare("fwd", base, mod, &ours);
	if (ours) {
		uint32_t first = btf__type_cnt(btf__base_btf(ours));
		const struct btf_type *p = btf__type_by_id(ours, first);

		check(btf__type_cnt(ours) == first + 2, "a pointer and the union FWD stay", "fwd");
		check(btf_is_ptr(p) && p->type == 4, "the FWD alone took the struct of its name",
		      "fwd");
	}
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/*
 * A base FWD that a module struct would resolve: the base cannot change, so
 * the module's struct holding a pointer to it stays, and so does the module's
 * definition.
 */
static void case_base_fwd(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	int i;

	btf__add_fwd(base, "hidden", BTF_FWD_STRUCT); /* 1 */
	btf__add_ptr(base, 1); /* 2 */
	btf__add_struct(base, "holder", 8); /* 3 */
	btf__add_field(base, "p", 2, 0, 0);
	i = btf__add_int(mod, "int", 4, BTF_INT_SIGNED); /* 1 */
	btf__add_struct(mod, "hidden", 4); /* 2 */
	btf__add_field(mod, "a", i, 0, 0);
	btf__add_ptr(mod, 2); /* 3 */
	btf__add_struct(mod, "holder", 8); /* 4 */
	btf__add_field(mod, "p", 3, 0, 0);
	compare("base_fwd", base, mod, &ours);
	if (ours)
		check(find(ours, "holder", BTF_KIND_STRUCT) > 3 &&
			      find(ours, "hidden", BTF_KIND_STRUCT) > 3,
		      "the module's holder and hidden stay", "base_fwd");
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/*
 * Enums: equal ones meet, an enum64 does not meet an enum; one without values
 * takes the first candidate of its name in libbpf's order, here the enum64
 * the module added (the newest, the table having grown an odd number of
 * times), not the base's enum.
 */
static void case_enum(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;

	btf__add_enum(base, "e", 4); /* 1 */
	btf__add_enum_value(base, "E_A", 1);
	btf__add_enum(base, NULL, 4); /* 2 */
	btf__add_enum_value(base, "ANON", 7);
	btf__add_enum(mod, "e", 4); /* 1: equal */
	btf__add_enum_value(mod, "E_A", 1);
	btf__add_enum64(mod, "e", 8, false); /* 2: an enum64 of the name */
	btf__add_enum64_value(mod, "E_A", 1);
	btf__add_enum(mod, "e", 4); /* 3: no values */
	btf__add_enum(mod, NULL, 4); /* 4: anonymous, equal */
	btf__add_enum_value(mod, "ANON", 7);
	btf__add_ptr(mod, 3); /* 5 */
	btf__add_ptr(mod, 4); /* 6 */
	compare("enum", base, mod, &ours);
	if (ours) {
		uint32_t first = btf__type_cnt(btf__base_btf(ours));

		check(btf__type_cnt(ours) == first + 3, "the enum64 and two pointers stay", "enum");
		check(btf_is_enum64(btf__type_by_id(ours, first)), "the enum64 stays", "enum");
		check(btf__type_by_id(ours, first + 1)->type == first,
		      "the enum without values is the module's enum64", "enum");
		check(btf__type_by_id(ours, first + 2)->type == 2,
		      "the anonymous enum is the base's", "enum");
	}
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/*
 * What the base and the module of case_anon() share, IDs 1 to 5: an int, an
 * anonymous struct, an array, a prototype (its ID returned) and FUNC f.
 */
static int add_anon_types(struct btf *btf, int *s)
{
	int i = btf__add_int(btf, "int", 4, BTF_INT_SIGNED), a, p;

	*s = btf__add_struct(btf, NULL, 4);
	btf__add_field(btf, "x", i, 0, 0);
	a = btf__add_array(btf, i, i, 3);
	p = btf__add_func_proto(btf, i);
	btf__add_func_param(btf, "v", a);
	btf__add_func(btf, "f", BTF_FUNC_GLOBAL, p);
	return p;
}

/* Anonymous structs, arrays, prototypes, tags, variables: equal to the base's or not. */
static void case_anon(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	int s, p;

	add_anon_types(base, &s);
	btf__add_type_tag(base, "user", s);
	p = add_anon_types(mod, &s); /* f is the base's */
	btf__add_func(mod, "g", BTF_FUNC_STATIC, p); /* new */
	btf__add_decl_tag(mod, "tag", 6, -1);
	btf__add_type_tag(mod, "user", s);
	btf__add_var(mod, "v", BTF_VAR_STATIC, s);
	btf__add_datasec(mod, ".data..percpu", 4);
	btf__add_datasec_var_info(mod, 10, 0, 4);
	compare("anon", base, mod, &ours);
	if (ours) {
		uint32_t first = btf__type_cnt(btf__base_btf(ours));

		check(btf__type_cnt(ours) == first + 4, "g, its tag, the VAR and DATASEC stay",
		      "anon");
		check(btf_is_func(btf__type_by_id(ours, first)) &&
			      btf__type_by_id(ours, first)->type == 4,
		      "g's prototype is the base's", "anon");
	}
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/* v1.31's libbpf: two pointers to one type are one, so what holds them meets the base's. */
static void case_ptrs(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	int s;

	s = btf__add_struct(base, "pair", 16); /* 1 */
	btf__add_field(base, "a", 2, 0, 0);
	btf__add_field(base, "b", 2, 64, 0);
	btf__add_ptr(base, s); /* 2 */
	s = btf__add_struct(mod, "pair", 16); /* 1 */
	btf__add_field(mod, "a", 2, 0, 0);
	btf__add_field(mod, "b", 3, 64, 0);
	btf__add_ptr(mod, s); /* 2 */
	btf__add_ptr(mod, s); /* 3: the same pointer again */
	compare("ptrs", base, mod, &ours);
	if (ours)
		check(btf__type_cnt(ours) == btf__type_cnt(btf__base_btf(ours)),
		      "nothing of the module stays", "ptrs");
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/* Strings: the base's first equal string; new ones after it, in order, no leading NUL. */
static void case_strings(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty(), *ours;
	const struct btf_header *hdr;
	const char *s;
	__u32 size;

	btf__add_int(base, "unsigned int", 4, 0);
	btf__add_int(mod, "int", 4, BTF_INT_SIGNED); /* a suffix of a base string: new */
	btf__add_int(mod, "zeta", 4, 0);
	btf__add_typedef(mod, "unsigned int", 1);
	btf__add_typedef(mod, "alpha", 1);
	compare("strings", base, mod, &ours);
	if (ours) {
		hdr = btf__raw_data(ours, &size);
		s = (const char *)(hdr + 1) + hdr->str_off;
		check(hdr->str_len == sizeof("int") + sizeof("zeta") + sizeof("alpha") &&
			      !strcmp(s, "int") && !strcmp(s + 4, "zeta") &&
			      !strcmp(s + 9, "alpha"),
		      "new strings in order", "strings");
	}
	done(ours);
	btf__free(base);
	btf__free(mod);
}

/* A cycle of reference types: -ELOOP, as libbpf. */
static void case_loop(void)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty();

	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	btf__add_const(mod, 2);
	btf__add_volatile(mod, 1);
	compare("loop", base, mod, NULL);
	btf__free(base);
	btf__free(mod);
}

/* ---- seeded pairs ---- */

static unsigned int rnd_state;

static unsigned int rnd(unsigned int n)
{
	rnd_state = rnd_state * 1103515245 + 12345;
	return (rnd_state >> 16) % n;
}

static const char *const names[] = { "a", "b", "c", "list", "node", "int", NULL };

static const char *rnd_name(void)
{
	return names[rnd(sizeof(names) / sizeof(names[0]))];
}

/*
 * @n random types: reference types refer to earlier ones, members also up
 * to 3 ahead (cycles through structs).
 */
static void add_random(struct btf *btf, unsigned int n, unsigned int shared_seed)
{
	unsigned int own = rnd_state, k;

	for (k = 0; k < n; k++) {
		uint32_t next = btf__type_cnt(btf), ref;
		unsigned int i, vlen;

		/* Some stretches the same in base and module: types to meet. */
		if (k % 16 == 0)
			rnd_state = shared_seed + k;
		else if (k % 16 == 8)
			rnd_state = own + k;
		ref = next > 1 ? 1 + rnd(next - 1) : 0;
		switch (rnd(12)) {
		case 0:
			btf__add_int(btf, rnd_name(), 1 << rnd(4), rnd(2) ? BTF_INT_SIGNED : 0);
			break;
		case 1:
		case 2:
			btf__add_ptr(btf, ref);
			break;
		case 3:
			btf__add_const(btf, ref);
			break;
		case 4:
			btf__add_typedef(btf, rnd_name(), ref);
			break;
		case 5:
			btf__add_fwd(btf, rnd_name(), rnd(2));
			break;
		case 6:
			btf__add_array(btf, ref, next > 1 ? 1 + rnd(next - 1) : 1, rnd(4));
			break;
		case 7:
			vlen = rnd(3);
			btf__add_enum(btf, rnd(3) ? rnd_name() : NULL, 4);
			for (i = 0; i < vlen; i++)
				btf__add_enum_value(btf, rnd_name(), i);
			break;
		case 8:
			btf__add_func_proto(btf, rnd(3) ? ref : 0);
			vlen = rnd(3);
			for (i = 0; i < vlen; i++)
				btf__add_func_param(btf, rnd(2) ? rnd_name() : NULL, ref);
			break;
		default:
			vlen = rnd(4);
			(rnd(4) ? btf__add_struct : btf__add_union)(btf, rnd(4) ? rnd_name() : NULL,
								    8 * vlen);
			for (i = 0; i < vlen; i++)
				btf__add_field(btf, rnd_name(), 1 + rnd(next + 3), 64 * i, 0);
			break;
		}
	}
}

struct clamp {
	uint32_t first, end;
};

static int clamp_ref(uint32_t *id, void *ctx)
{
	const struct clamp *c = ctx;

	if (*id >= c->end)
		*id = c->first;
	return 0;
}

/* References past the last type point at the first (they were meant for cycles). */
static void clamp_refs(struct btf *btf, uint32_t first)
{
	struct clamp c = { first, btf__type_cnt(btf) };
	uint32_t id;

	for (id = first; id < c.end; id++)
		btf_type__visit_ids(btf_type__mut(btf, id), clamp_ref, &c);
}

static void seeded(unsigned int seed)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty();
	char name[32];

	snprintf(name, sizeof(name), "seed %u", seed);
	rnd_state = seed;
	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	add_random(base, 20 + rnd(60), seed * 7);
	clamp_refs(base, 1);
	rnd_state = seed * 31 + 5;
	add_random(mod, 10 + rnd(40), seed * 7);
	clamp_refs(mod, 1);
	compare(name, base, mod, NULL);
	btf__free(base);
	btf__free(mod);
}

/* ---- a BTF of its own (btf_dedup__whole()) ---- */

static uint32_t *next_str(struct btf_type *t, uint32_t *prev);

/* @btf's types and strings, copied into @b as the encoder builds a chunk. */
static int to_build(const struct btf *btf, struct btf_build *b)
{
	uint32_t id, n = btf__type_cnt(btf);
	char copy[4096];
	int err = 0;

	for (id = 1; id < n && err >= 0; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct btf_type *c = (struct btf_type *)copy;
		uint32_t *off;
		size_t size = btf_type__size(t);

		if (size > sizeof(copy))
			return -E2BIG;
		memcpy(copy, t, size);
		/* Each string offset of the copy, libbpf's, becomes ours. */
		for (off = NULL; (off = next_str(c, off));) {
			err = btf_build__add_str(b, btf__str_by_offset(btf, *off));
			if (err < 0)
				return err;
			*off = err;
		}
		err = btf_build__add_type(b, c);
	}
	return err < 0 ? err : 0;
}

/* The strings of @t in order, after @prev (NULL: the first): a walk for to_build() and same_type(). */
struct str_walk {
	uint32_t *want, *found;
	int i;
};

static int str_walk__visit(uint32_t *off, void *ctx)
{
	struct str_walk *w = ctx;

	if (w->found)
		return 0;
	if (!w->want || w->want == off) {
		w->found = w->want ? NULL : off;
		w->want = NULL;
		if (!w->found)
			return 0;
	}
	return 0;
}

static uint32_t *next_str(struct btf_type *t, uint32_t *prev)
{
	struct str_walk w = { prev, NULL, 0 };

	btf_type__visit_strs(t, str_walk__visit, &w);
	return w.found;
}

/* The same type in both: its bytes but the string offsets, and the strings those name. */
static bool same_type(const struct btf *a, const struct btf_type *ta, const struct btf *b,
		      const struct btf_type *tb)
{
	char ca[4096], cb[4096];
	uint32_t *oa = NULL, *ob = NULL;
	size_t size = btf_type__size(ta);

	if (size != btf_type__size(tb) || size > sizeof(ca))
		return false;
	memcpy(ca, ta, size);
	memcpy(cb, tb, size);
	while ((oa = next_str((struct btf_type *)ca, oa)) &&
	       (ob = next_str((struct btf_type *)cb, ob))) {
		if (strcmp(btf__str_by_offset(a, *oa), btf__str_by_offset(b, *ob)))
			return false;
		*oa = *ob = 0;
	}
	return !memcmp(ca, cb, size);
}

/* libbpf 1.1's own rules, no pointer rule: a chunk's dedup (btf_encoder_chunk.c). */
static const struct btf_dedup_rules rules_libbpf_1_1;

/*
 * btf_dedup__whole() of @btf and libbpf 1.1's btf__dedup() of it: the same
 * error, or the same types in the same order.
 */
static void compare_whole(const char *name, const struct btf *btf, struct btf_dedup_mem *mem)
{
	struct btf_build b = {};
	const void *raw, *ours_raw = NULL;
	__u32 size;
	struct btf *ref = NULL, *ours = NULL;
	uint32_t nr = 0, ours_size, id;
	int err, ref_err;

	raw = btf__raw_data(btf, &size);
	ref = raw ? btf__new(raw, size) : NULL;
	if (!ref || to_build(btf, &b)) {
		check(0, "copying the BTF", name);
		goto out;
	}
	ref_err = btf__dedup(ref, NULL);
	err = btf_dedup__whole(mem, &b, &rules_libbpf_1_1, NULL, 0, &ours_raw, &ours_size, &nr);
	check(err == ref_err, "the same error as libbpf's (whole)", name);
	if (err || ref_err)
		goto out;
	ours = btf__new(ours_raw, ours_size);
	check(ours && nr == btf__type_cnt(ref) - 1 && btf__type_cnt(ours) == nr + 1,
	      "libbpf's type count (whole)", name);
	for (id = 1; ours && id < btf__type_cnt(ours) && id < btf__type_cnt(ref); id++)
		if (!same_type(ref, btf__type_by_id(ref, id), ours, btf__type_by_id(ours, id)))
			break;
	check(ours && id == btf__type_cnt(ref), "libbpf's types (whole)", name);
	compared++;
out:
	btf__free(ours);
	btf__free(ref);
	btf_build__free(&b);
}

/* A BTF of its own made from @seed, as a chunk is: two stretches that share types. */
static struct btf *seeded_btf(unsigned int seed)
{
	struct btf *btf = btf__new_empty();

	rnd_state = seed;
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	add_random(btf, 20 + rnd(100), seed * 7);
	rnd_state = seed * 31 + 5;
	add_random(btf, 10 + rnd(60), seed * 7);
	clamp_refs(btf, 1);
	return btf;
}

/* @mem serves every seed in turn, as a worker's serves its chunks. */
static void seeded_whole(unsigned int seed, struct btf_dedup_mem *mem)
{
	struct btf *btf = seeded_btf(seed);
	char name[32];

	snprintf(name, sizeof(name), "whole seed %u", seed);
	compare_whole(name, btf, mem);
	btf__free(btf);
}

/* IDs held outside the BTF come back renumbered, past 65,535 of them; void stays void. */
static void case_carry(uint32_t n)
{
	struct btf_dedup_mem *mem = btf_dedup_mem__new();
	struct btf_build b = {};
	uint32_t *ids = calloc(n, sizeof(*ids)), i, copy, nr = 0, size, bad = 0;
	char name[32], what[64];
	const void *raw = NULL;
	struct btf *out = NULL;
	int err = ids && mem ? 0 : -ENOMEM;

	for (copy = 0; copy < 2 && !err; copy++) {
		for (i = 0; i < n && !err; i++) {
			int id;

			snprintf(name, sizeof(name), "t%u", i);
			id = btf_build__add_str(&b, name);
			id = id < 0 ? id : btf_build__add_int(&b, id, 4, 0);
			err = id < 0 ? id : 0;
			/* The second copy's IDs are carried; every seventh is void. */
			if (copy && ids)
				ids[i] = i % 7 == 3 ? 0 : (uint32_t)id;
		}
	}
	snprintf(what, sizeof(what), "carrying %u IDs", n);
	err = err ?: btf_dedup__whole(mem, &b, &rules_libbpf_1_1, ids, n, &raw, &size, &nr);
	out = err ? NULL : btf__new(raw, size);
	check(out && nr == n, what, "carry");
	for (i = 0; out && i < n; i++) {
		const struct btf_type *t = btf__type_by_id(out, ids[i]);

		snprintf(name, sizeof(name), "t%u", i);
		if (i % 7 == 3)
			bad += ids[i] != 0;
		else
			bad += ids[i] > nr || !t || !btf_is_int(t) ||
			       strcmp(btf__name_by_offset(out, t->name_off), name);
	}
	check(out && !bad, "each carried ID is its type's after the dedup", "carry");
	btf__free(out);
	btf_dedup_mem__delete(mem);
	free(ids);
	btf_build__free(&b);
}

/* An ID past the types is refused, never followed: the dedup's arrays end with the types. */
static void case_bad_id(void)
{
	struct btf_dedup_mem *mem = btf_dedup_mem__new();
	struct btf_build b = {};
	const void *raw = NULL;
	void *out = NULL;
	uint32_t size, nr;
	int n = btf_build__add_str(&b, "int");

	check(mem && n > 0 && btf_build__add_int(&b, n, 4, 0) == 1 &&
		      btf_build__add_ref(&b, BTF_KIND_PTR, 0, 3) == 2,
	      "building a pointer to ID 3 of 2 types", "bad id");
	check(btf_dedup__whole(mem, &b, &rules_libbpf_1_1, NULL, 0, &raw, &size, &nr) == -EINVAL,
	      "refused by btf_dedup__whole()", "bad id");
	check(btf_dedup__btf(&b, &rules_libbpf_1_1, &out, &size, &nr) == -EINVAL && !out,
	      "refused by btf_dedup__btf()", "bad id");
	btf_build__free(&b);
	btf_dedup_mem__delete(mem);
}

/*
 * What the merge adds to a vmlinux's chunks (btf_merge.c): a prototype and
 * its FUNC with a decl tag, a pointer through a TYPE_TAG, a VAR and its
 * DATASEC, each referring to types before it; @n of them.
 */
static int add_merge_types(struct btf_build *b, unsigned int n)
{
	uint32_t before = btf_build__type_cnt(b) - 1;
	int name = btf_build__add_str(b, "f"), id = name, i;

	for (i = 0; (unsigned int)i < n && id >= 0; i++) {
		uint32_t ref = 1 + rnd(before);
		int proto = btf_build__add_func_proto(b, ref), tag, var;

		id = proto < 0 ? proto : btf_build__add_func_param(b, name, 1 + rnd(before));
		id = id < 0 ? id : btf_build__add_func(b, name, BTF_FUNC_STATIC, proto);
		id = id < 0 ? id : btf_build__add_decl_tag(b, name, id, -1);
		tag = id < 0 ? id : btf_build__add_ref(b, BTF_KIND_TYPE_TAG, name, ref);
		id = tag < 0 ? tag : btf_build__add_ref(b, BTF_KIND_PTR, 0, tag);
		var = id < 0 ? id : btf_build__add_var(b, name, BTF_VAR_STATIC, 1 + rnd(before));
		id = var < 0 ? var : btf_build__add_datasec(b, name, 8);
		id = id < 0 ? id : btf_build__add_datasec_var_info(b, var, 0, 8);
	}
	return id < 0 ? id : 0;
}

/*
 * btf_dedup_bg: its first passes started on a BTF, the merge's kinds added
 * after, then finished, against btf_dedup__btf() of the BTF as it ends: the
 * same error, or the same bytes.
 */
static void compare_bg(const char *name, const struct btf *btf, const struct btf_dedup_rules *rules)
{
	struct btf_build b = {}, c = {};
	struct btf_dedup_bg *bg = NULL;
	void *raw = NULL, *ref = NULL;
	uint32_t size = 0, ref_size = 0, nr = 0, ref_nr = 0;
	unsigned int state = rnd_state;
	int err, ref_err;

	if (to_build(btf, &b) || to_build(btf, &c)) {
		check(0, "copying the BTF", name);
		goto out;
	}
	err = btf_dedup_bg__start(&b, rules, &bg);
	check(!err, "started", name);
	err = err ?: add_merge_types(&b, 1 + rnd(5));
	/* The same types added to the copy that btf_dedup__btf() takes whole. */
	rnd_state = state;
	ref_err = add_merge_types(&c, 1 + rnd(5));
	check(!err && !ref_err, "the merge's types added", name);
	/* Its output written by one to four threads: the same bytes. */
	err = err ?: btf_dedup_bg__finish(bg, &b, 1 + rnd(4), &raw, &size, &nr);
	bg = NULL;
	ref_err = ref_err ?: btf_dedup__btf(&c, rules, &ref, &ref_size, &ref_nr);
	check(err == ref_err, "the same error as btf_dedup__btf()", name);
	check(err || (size == ref_size && nr == ref_nr && !memcmp(raw, ref, size)),
	      "the bytes of btf_dedup__btf()", name);
	compared += !err;
out:
	btf_dedup_bg__delete(bg);
	free(raw);
	free(ref);
	btf_build__free(&b);
	btf_build__free(&c);
}

static void seeded_bg(unsigned int seed)
{
	static const struct btf_dedup_rules v132 = { .typedef_graphs = true,
						     .identical_types = true };
	struct btf *btf = seeded_btf(seed);
	char name[32];

	snprintf(name, sizeof(name), "bg seed %u", seed);
	compare_bg(name, btf, seed % 2 ? &v132 : &rules_libbpf_1_1);
	btf__free(btf);
}

/*
 * A type the first passes would have met, added after them, is refused; so
 * is the pointer rule, which they do not run.
 */
static void case_bg_refused(void)
{
	static const struct btf_dedup_rules ptrs = { .identical_ptrs = true };
	struct btf_build b = {};
	struct btf_dedup_bg *bg = NULL;
	void *raw = (void *)1;
	uint32_t size, nr;
	int n = btf_build__add_str(&b, "int");

	check(n > 0 && btf_build__add_int(&b, n, 4, 0) == 1, "building an INT", "bg refused");
	check(btf_dedup_bg__start(&b, &ptrs, &bg) == -EOPNOTSUPP && !bg, "the pointer rule refused",
	      "bg refused");
	check(!btf_dedup_bg__start(&b, &rules_libbpf_1_1, &bg) && bg, "started", "bg refused");
	check(btf_build__add_int(&b, n, 8, 0) == 2, "an INT added after", "bg refused");
	check(btf_dedup_bg__finish(bg, &b, 2, &raw, &size, &nr) == -EINVAL && !raw,
	      "an INT added after refused", "bg refused");
	btf_build__free(&b);
}

/*
 * The same struct several times in a base: which one a module's becomes is
 * libbpf's order, which the base's types between them decide too.
 */
static void case_order(unsigned int copies, unsigned int filler)
{
	struct btf *base = btf__new_empty(), *mod = btf__new_empty();
	char name[48];
	unsigned int i, j;

	snprintf(name, sizeof(name), "order %u copies, %u between", copies, filler);
	btf__add_int(base, "int", 4, BTF_INT_SIGNED);
	for (i = 0; i < copies; i++) {
		btf__add_struct(base, "dup", 4);
		btf__add_field(base, "x", 1, 0, 0);
		/*
		 * Between them, types no module type could take (counted, not
		 * kept: a name the module lacks, a pointer to one), and some it could.
		 */
		for (j = 0; j < filler * (i + 1); j++) {
			int f = btf__add_int(base, "filler", 4, j % 2 ? BTF_INT_SIGNED : 0);

			if (j % 3 == 1)
				btf__add_ptr(base, f);
			if (j % 3 == 2)
				btf__add_const(base, 1);
		}
	}
	btf__add_int(mod, "int", 4, BTF_INT_SIGNED);
	btf__add_struct(mod, "dup", 4);
	btf__add_field(mod, "x", 1, 0, 0);
	btf__add_ptr(mod, 2);
	compare(name, base, mod, NULL);
	btf__free(base);
	btf__free(mod);
}

int main(void)
{
	struct btf_dedup_mem *mem;
	unsigned int i;
	int before;

	libbpf_set_print(NULL);
	if (!mkdtemp(tmpdir)) {
		perror("split_dedup: mkdtemp");
		return 2;
	}
	case_struct();
	case_fwd();
	case_base_fwd();
	case_enum();
	case_anon();
	case_ptrs();
	case_strings();
	case_loop();
	for (i = 2; i <= 5; i++) {
		case_order(i, 0);
		case_order(i, 1);
		case_order(i, 3);
		case_order(i, 10);
	}
	before = compared;
	for (i = 0; i < 400; i++)
		seeded(i);
	printf("split_dedup: %d of 400 seeded pairs deduplicated, the others refused by both\n",
	       compared - before);
	/* Most must dedup (not end in a reference cycle) to test anything. */
	check(compared - before >= 300, "300 of the 400 seeded pairs deduplicated", "seeded");
	case_carry(3);
	case_carry(70000);
	case_bad_id();
	before = compared;
	mem = btf_dedup_mem__new();
	for (i = 0; mem && i < 400; i++)
		seeded_whole(i, mem);
	btf_dedup_mem__delete(mem);
	printf("split_dedup: %d of 400 seeded BTFs deduplicated whole\n", compared - before);
	check(compared - before >= 300, "300 of the 400 seeded BTFs deduplicated whole", "seeded");
	case_bg_refused();
	before = compared;
	for (i = 0; i < 200; i++)
		seeded_bg(i);
	printf("split_dedup: %d of 200 seeded BTFs deduplicated in two steps\n", compared - before);
	check(compared - before >= 150, "150 of the 200 seeded BTFs deduplicated in two steps",
	      "seeded");
	unlink(strcat(strcpy((char[80]){ 0 }, tmpdir), "/base.btf"));
	unlink(strcat(strcpy((char[80]){ 0 }, tmpdir), "/split.btf"));
	rmdir(tmpdir);
	if (failures) {
		fprintf(stderr, "split_dedup: %d of %d checks failed\n", failures, checks);
		return 1;
	}
	printf("split_dedup: %d checks ok\n", checks);
	return 0;
}
