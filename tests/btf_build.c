// SPDX-License-Identifier: GPL-2.0-only
/*
 * btf_build: lib/btf_build.h against the libbpf it mimics.  Each step adds
 * the same type, member, value or parameter through libbpf's btf__add_*()
 * and through ours: both must return the same (the ID, 0, or the same
 * negative errno for what libbpf refuses), and in the end write the same
 * raw bytes, header, types and strings.  Strings are added to ours in the
 * order libbpf adds them, and refused steps use names already added, so
 * that libbpf's string section and ours are one.
 *
 * Exits 0 when all hold ("btf_build: N checks ok"), 1 otherwise.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "lib/btf_build.h"
#include "lib/grow.h"

static int failures, checks;

static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		failures++;
		fprintf(stderr, "FAIL: %s\n", what);
	}
}

/* The two BTFs a scenario builds side by side. */
struct pair {
	struct btf *libbpf;
	struct btf_build ours;
	const char *scenario;
};

/* A name's offset in ours, added now: "" and NULL are 0, as libbpf takes them. */
static uint32_t name(struct pair *p, const char *s)
{
	int off = s ? btf_build__add_str(&p->ours, s) : 0;

	return off < 0 ? 0 : off;
}

static void same(struct pair *p, int theirs, int ours, const char *step)
{
	char what[160];

	snprintf(what, sizeof(what), "%s: %s: libbpf %d, ours %d", p->scenario, step, theirs, ours);
	check(theirs == ours, what);
}

static void pair__begin(struct pair *p, const char *scenario)
{
	p->libbpf = btf__new_empty();
	p->ours = (struct btf_build){};
	p->scenario = scenario;
	check(p->libbpf != NULL, "btf__new_empty()");
}

/* The raw bytes of both, compared; then both freed. */
static void pair__end(struct pair *p)
{
	uint32_t size = 0, ours_size = 0;
	const void *raw = p->libbpf ? btf__raw_data(p->libbpf, &size) : NULL;
	void *ours = btf_build__raw(&p->ours, &ours_size);
	char what[160];

	snprintf(what, sizeof(what), "%s: the same raw BTF (libbpf %u bytes, ours %u)", p->scenario,
		 size, ours_size);
	check(raw && ours && size == ours_size && !memcmp(raw, ours, size), what);
	free(ours);
	btf__free(p->libbpf);
	btf_build__free(&p->ours);
}

static void ints(void)
{
	struct pair p;
	uint32_t n;

	pair__begin(&p, "ints and floats");
	n = name(&p, "int");
	same(&p, btf__add_int(p.libbpf, "int", 4, BTF_INT_SIGNED),
	     btf_build__add_int(&p.ours, n, 4, BTF_INT_SIGNED), "int");
	n = name(&p, "char");
	same(&p, btf__add_int(p.libbpf, "char", 1, BTF_INT_CHAR | BTF_INT_SIGNED),
	     btf_build__add_int(&p.ours, n, 1, BTF_INT_CHAR | BTF_INT_SIGNED), "char");
	n = name(&p, "__int128");
	same(&p, btf__add_int(p.libbpf, "__int128", 16, 0), btf_build__add_int(&p.ours, n, 16, 0),
	     "16 bytes");
	n = name(&p, "int");
	same(&p, btf__add_int(p.libbpf, "int", 3, 0), btf_build__add_int(&p.ours, n, 3, 0),
	     "3 bytes");
	same(&p, btf__add_int(p.libbpf, "int", 32, 0), btf_build__add_int(&p.ours, n, 32, 0),
	     "32 bytes");
	same(&p, btf__add_int(p.libbpf, "int", 4, 8), btf_build__add_int(&p.ours, n, 4, 8),
	     "an unknown encoding");
	same(&p, btf__add_int(p.libbpf, "", 4, 0), btf_build__add_int(&p.ours, 0, 4, 0), "no name");
	n = name(&p, "double");
	same(&p, btf__add_float(p.libbpf, "double", 8), btf_build__add_float(&p.ours, n, 8),
	     "double");
	same(&p, btf__add_float(p.libbpf, "double", 6), btf_build__add_float(&p.ours, n, 6),
	     "a float of 6 bytes");
	same(&p, btf__add_float(p.libbpf, NULL, 4), btf_build__add_float(&p.ours, 0, 4),
	     "a float without a name");
	pair__end(&p);
}

static void refs(void)
{
	struct pair p;
	uint32_t n;

	pair__begin(&p, "reference kinds");
	same(&p, btf__add_ptr(p.libbpf, 0), btf_build__add_ref(&p.ours, BTF_KIND_PTR, 0, 0), "ptr");
	same(&p, btf__add_const(p.libbpf, 1), btf_build__add_ref(&p.ours, BTF_KIND_CONST, 0, 1),
	     "const");
	same(&p, btf__add_volatile(p.libbpf, 2),
	     btf_build__add_ref(&p.ours, BTF_KIND_VOLATILE, 0, 2), "volatile");
	same(&p, btf__add_restrict(p.libbpf, 3),
	     btf_build__add_ref(&p.ours, BTF_KIND_RESTRICT, 0, 3), "restrict");
	n = name(&p, "t");
	same(&p, btf__add_typedef(p.libbpf, "t", 4),
	     btf_build__add_ref(&p.ours, BTF_KIND_TYPEDEF, n, 4), "typedef");
	same(&p, btf__add_typedef(p.libbpf, "", 4),
	     btf_build__add_ref(&p.ours, BTF_KIND_TYPEDEF, 0, 4), "a typedef without a name");
	n = name(&p, "user");
	same(&p, btf__add_type_tag(p.libbpf, "user", 5),
	     btf_build__add_ref(&p.ours, BTF_KIND_TYPE_TAG, n, 5), "type tag");
	same(&p, btf__add_type_tag(p.libbpf, NULL, 5),
	     btf_build__add_ref(&p.ours, BTF_KIND_TYPE_TAG, 0, 5), "a type tag without a value");
	same(&p, btf__add_ptr(p.libbpf, INT_MIN),
	     btf_build__add_ref(&p.ours, BTF_KIND_PTR, 0, 0x80000000u), "an ID past BTF's");
	same(&p, btf__add_array(p.libbpf, 1, 2, 10), btf_build__add_array(&p.ours, 1, 2, 10),
	     "array");
	same(&p, btf__add_array(p.libbpf, INT_MIN, 2, 10),
	     btf_build__add_array(&p.ours, 0x80000000u, 2, 10), "an array's index past BTF's IDs");
	same(&p, btf__add_func_proto(p.libbpf, 1), btf_build__add_func_proto(&p.ours, 1),
	     "func proto");
	same(&p, btf__add_func_param(p.libbpf, NULL, 1), btf_build__add_func_param(&p.ours, 0, 1),
	     "a parameter");
	same(&p, btf__add_func_param(p.libbpf, NULL, 0), btf_build__add_func_param(&p.ours, 0, 0),
	     "varargs");
	n = name(&p, "tag");
	same(&p, btf__add_decl_tag(p.libbpf, "tag", 1, -1),
	     btf_build__add_decl_tag(&p.ours, n, 1, -1), "decl tag");
	same(&p, btf__add_decl_tag(p.libbpf, "tag", 1, 2),
	     btf_build__add_decl_tag(&p.ours, n, 1, 2), "a member's decl tag");
	same(&p, btf__add_decl_tag(p.libbpf, "tag", 1, -2),
	     btf_build__add_decl_tag(&p.ours, n, 1, -2), "a decl tag of component -2");
	same(&p, btf__add_func_param(p.libbpf, NULL, 1), btf_build__add_func_param(&p.ours, 0, 1),
	     "a parameter after a decl tag");
	pair__end(&p);
}

static void composites(void)
{
	struct pair p;
	uint32_t n, a;

	pair__begin(&p, "structs, unions and FWDs");
	same(&p, btf__add_field(p.libbpf, NULL, 0, 0, 0), btf_build__add_field(&p.ours, 0, 0, 0, 0),
	     "a member of nothing");
	n = name(&p, "s");
	same(&p, btf__add_struct(p.libbpf, "s", 8),
	     btf_build__add_composite(&p.ours, BTF_KIND_STRUCT, n, 8), "struct");
	a = name(&p, "a");
	same(&p, btf__add_field(p.libbpf, "a", 1, 0, 0), btf_build__add_field(&p.ours, a, 1, 0, 0),
	     "a member");
	same(&p, btf__add_field(p.libbpf, NULL, 1, 35, 5),
	     btf_build__add_field(&p.ours, 0, 1, 35, 5), "a bitfield");
	same(&p, btf__add_field(p.libbpf, "a", 1, 36, 0),
	     btf_build__add_field(&p.ours, a, 1, 36, 0), "a member off a byte, of no bits");
	same(&p, btf__add_field(p.libbpf, "a", 1, 0, 256),
	     btf_build__add_field(&p.ours, a, 1, 0, 256), "a bitfield of 256 bits");
	same(&p, btf__add_field(p.libbpf, "a", 1, 0x1000000, 3),
	     btf_build__add_field(&p.ours, a, 1, 0x1000000, 3),
	     "a bitfield past 24 bits of offset");
	same(&p, btf__add_field(p.libbpf, "a", INT_MIN, 0, 0),
	     btf_build__add_field(&p.ours, a, 0x80000000u, 0, 0), "a member's ID past BTF's");
	same(&p, btf__add_union(p.libbpf, NULL, 4),
	     btf_build__add_composite(&p.ours, BTF_KIND_UNION, 0, 4), "anonymous union");
	same(&p, btf__add_field(p.libbpf, "a", 1, 0, 3), btf_build__add_field(&p.ours, a, 1, 0, 3),
	     "a union's bitfield");
	same(&p, btf__add_field(p.libbpf, "a", 1, 8, 0), btf_build__add_field(&p.ours, a, 1, 8, 0),
	     "a union's member off 0");
	n = name(&p, "f");
	same(&p, btf__add_fwd(p.libbpf, "f", BTF_FWD_STRUCT),
	     btf_build__add_fwd(&p.ours, n, BTF_KIND_STRUCT), "struct FWD");
	same(&p, btf__add_fwd(p.libbpf, "f", BTF_FWD_UNION),
	     btf_build__add_fwd(&p.ours, n, BTF_KIND_UNION), "union FWD");
	same(&p, btf__add_fwd(p.libbpf, "f", BTF_FWD_ENUM),
	     btf_build__add_fwd(&p.ours, n, BTF_KIND_ENUM), "enum FWD");
	same(&p, btf__add_fwd(p.libbpf, "", BTF_FWD_STRUCT),
	     btf_build__add_fwd(&p.ours, 0, BTF_KIND_STRUCT), "a FWD without a name");
	same(&p, btf__add_field(p.libbpf, "a", 1, 0, 0), btf_build__add_field(&p.ours, a, 1, 0, 0),
	     "a member of an enum");
	pair__end(&p);
}

static void enums(void)
{
	struct pair p;
	uint32_t n, v;

	pair__begin(&p, "enums");
	n = name(&p, "e");
	same(&p, btf__add_enum(p.libbpf, "e", 4),
	     btf_build__add_enum(&p.ours, BTF_KIND_ENUM, n, 4, 0), "enum");
	v = name(&p, "A");
	same(&p, btf__add_enum_value(p.libbpf, "A", 1), btf_build__add_enum_value(&p.ours, v, 1),
	     "a value");
	v = name(&p, "B");
	same(&p, btf__add_enum_value(p.libbpf, "B", 0xffffffffll),
	     btf_build__add_enum_value(&p.ours, v, 0xffffffffll), "UINT_MAX");
	same(&p, btf__add_enum_value(p.libbpf, "B", 1ll << 32),
	     btf_build__add_enum_value(&p.ours, v, 1ll << 32), "a value past 32 bits");
	same(&p, btf__add_enum_value(p.libbpf, "B", INT_MIN - 1ll),
	     btf_build__add_enum_value(&p.ours, v, INT_MIN - 1ll), "a value under INT_MIN");
	same(&p, btf__add_enum_value(p.libbpf, NULL, 2), btf_build__add_enum_value(&p.ours, 0, 2),
	     "a value without a name");
	v = name(&p, "C");
	same(&p, btf__add_enum_value(p.libbpf, "C", -1), btf_build__add_enum_value(&p.ours, v, -1),
	     "a negative value: signed");
	same(&p, btf__add_enum(p.libbpf, "e", 3),
	     btf_build__add_enum(&p.ours, BTF_KIND_ENUM, n, 3, 0), "an enum of 3 bytes");
	same(&p, btf__add_enum64(p.libbpf, "e", 8, true),
	     btf_build__add_enum(&p.ours, BTF_KIND_ENUM64, n, 8, 1), "signed enum64");
	same(&p, btf__add_enum64_value(p.libbpf, "C", 1ull << 40),
	     btf_build__add_enum64_value(&p.ours, v, 1ull << 40), "a value of 64 bits");
	same(&p, btf__add_enum_value(p.libbpf, "C", 1), btf_build__add_enum_value(&p.ours, v, 1),
	     "an enum value of an enum64");
	same(&p, btf__add_enum64(p.libbpf, "e", 16, false),
	     btf_build__add_enum(&p.ours, BTF_KIND_ENUM64, n, 16, 0), "an enum64 of 16 bytes");
	pair__end(&p);
}

/* Past 65,535 members, values and parameters: the vlen wraps as libbpf's does. */
static void wraps(void)
{
	struct pair p;
	uint32_t i, v;

	pair__begin(&p, "vlen past 16 bits");
	v = name(&p, "v");
	same(&p, btf__add_struct(p.libbpf, "v", 4),
	     btf_build__add_composite(&p.ours, BTF_KIND_STRUCT, v, 4), "struct");
	for (i = 0; i < 70000; i++)
		same(&p, btf__add_field(p.libbpf, "v", 0, 0, 0),
		     btf_build__add_field(&p.ours, v, 0, 0, 0), "a member");
	same(&p, btf__add_enum(p.libbpf, "v", 4),
	     btf_build__add_enum(&p.ours, BTF_KIND_ENUM, v, 4, 0), "enum");
	for (i = 0; i < 70000; i++)
		same(&p,
		     btf__add_enum_value(p.libbpf, "v", i == 65535 || i == 69000 ? -2 : (int64_t)i),
		     btf_build__add_enum_value(&p.ours, v,
					       i == 65535 || i == 69000 ? -2 : (int64_t)i),
		     "a value");
	same(&p, btf__add_func_proto(p.libbpf, 0), btf_build__add_func_proto(&p.ours, 0),
	     "func proto");
	for (i = 0; i < 66000; i++)
		same(&p, btf__add_func_param(p.libbpf, NULL, 1),
		     btf_build__add_func_param(&p.ours, 0, 1), "a parameter");
	pair__end(&p);
}

/* Emptied and built again: what a worker does chunk after chunk. */
static void reset(void)
{
	struct pair p;
	uint32_t n;

	pair__begin(&p, "built again after a reset");
	n = name(&p, "old");
	btf_build__add_int(&p.ours, n, 8, 0);
	btf_build__reset(&p.ours);
	n = name(&p, "int");
	same(&p, btf__add_int(p.libbpf, "int", 4, BTF_INT_SIGNED),
	     btf_build__add_int(&p.ours, n, 4, BTF_INT_SIGNED), "int");
	pair__end(&p);
	pair__begin(&p, "nothing built");
	pair__end(&p);
}

/* FUNCs, VARs and DATASECs, as the merge adds them. */
static void funcs_vars(void)
{
	struct pair p;
	uint32_t n, f, v, d;

	pair__begin(&p, "funcs, variables and sections");
	n = name(&p, "int");
	same(&p, btf__add_int(p.libbpf, "int", 4, BTF_INT_SIGNED),
	     btf_build__add_int(&p.ours, n, 4, BTF_INT_SIGNED), "int");
	same(&p, btf__add_func_proto(p.libbpf, 1), btf_build__add_func_proto(&p.ours, 1), "proto");
	f = name(&p, "f");
	same(&p, btf__add_func(p.libbpf, "f", BTF_FUNC_STATIC, 2),
	     btf_build__add_func(&p.ours, f, BTF_FUNC_STATIC, 2), "static func");
	same(&p, btf__add_func(p.libbpf, "f", BTF_FUNC_GLOBAL, 2),
	     btf_build__add_func(&p.ours, f, BTF_FUNC_GLOBAL, 2), "global func");
	same(&p, btf__add_func(p.libbpf, "f", BTF_FUNC_EXTERN, 2),
	     btf_build__add_func(&p.ours, f, BTF_FUNC_EXTERN, 2), "extern func");
	same(&p, btf__add_func(p.libbpf, "f", 3, 2), btf_build__add_func(&p.ours, f, 3, 2),
	     "a func of linkage 3");
	same(&p, btf__add_func(p.libbpf, "", BTF_FUNC_STATIC, 2),
	     btf_build__add_func(&p.ours, 0, BTF_FUNC_STATIC, 2), "a func without a name");
	same(&p, btf__add_func(p.libbpf, "f", BTF_FUNC_STATIC, INT_MIN),
	     btf_build__add_func(&p.ours, f, BTF_FUNC_STATIC, 0x80000000u),
	     "a func's prototype past BTF's IDs");
	same(&p, btf__add_datasec_var_info(p.libbpf, 1, 0, 4),
	     btf_build__add_datasec_var_info(&p.ours, 1, 0, 4), "a section's variable, no section");
	v = name(&p, "v");
	same(&p, btf__add_var(p.libbpf, "v", BTF_VAR_STATIC, 1),
	     btf_build__add_var(&p.ours, v, BTF_VAR_STATIC, 1), "static var");
	same(&p, btf__add_var(p.libbpf, "v", BTF_VAR_GLOBAL_ALLOCATED, 1),
	     btf_build__add_var(&p.ours, v, BTF_VAR_GLOBAL_ALLOCATED, 1), "global var");
	same(&p, btf__add_var(p.libbpf, "v", BTF_VAR_GLOBAL_EXTERN, 1),
	     btf_build__add_var(&p.ours, v, BTF_VAR_GLOBAL_EXTERN, 1), "extern var");
	same(&p, btf__add_var(p.libbpf, "v", 3, 1), btf_build__add_var(&p.ours, v, 3, 1),
	     "a var of linkage 3");
	same(&p, btf__add_var(p.libbpf, NULL, BTF_VAR_STATIC, 1),
	     btf_build__add_var(&p.ours, 0, BTF_VAR_STATIC, 1), "a var without a name");
	same(&p, btf__add_var(p.libbpf, "v", BTF_VAR_STATIC, INT_MIN),
	     btf_build__add_var(&p.ours, v, BTF_VAR_STATIC, 0x80000000u),
	     "a var's type past BTF's IDs");
	d = name(&p, ".data");
	same(&p, btf__add_datasec(p.libbpf, ".data", 16), btf_build__add_datasec(&p.ours, d, 16),
	     "section");
	same(&p, btf__add_datasec_var_info(p.libbpf, 6, 0, 4),
	     btf_build__add_datasec_var_info(&p.ours, 6, 0, 4), "a section's variable");
	same(&p, btf__add_datasec_var_info(p.libbpf, 7, 8, 8),
	     btf_build__add_datasec_var_info(&p.ours, 7, 8, 8), "another");
	same(&p, btf__add_datasec_var_info(p.libbpf, INT_MIN, 8, 8),
	     btf_build__add_datasec_var_info(&p.ours, 0x80000000u, 8, 8),
	     "a section's variable past BTF's IDs");
	same(&p, btf__add_datasec(p.libbpf, "", 16), btf_build__add_datasec(&p.ours, 0, 16),
	     "a section without a name");
	pair__end(&p);
}

/* Some types of every shape, named from @names, in @p's two BTFs alike. */
static void pair__fill(struct pair *p, const char *const *names)
{
	uint32_t a = name(p, names[0]), b = name(p, names[1]);

	btf__add_int(p->libbpf, names[0], 4, BTF_INT_SIGNED);
	btf_build__add_int(&p->ours, a, 4, BTF_INT_SIGNED);
	btf__add_ptr(p->libbpf, 1);
	btf_build__add_ref(&p->ours, BTF_KIND_PTR, 0, 1);
	btf__add_struct(p->libbpf, names[1], 16);
	btf_build__add_composite(&p->ours, BTF_KIND_STRUCT, b, 16);
	btf__add_field(p->libbpf, names[0], 2, 0, 0);
	btf_build__add_field(&p->ours, a, 2, 0, 0);
	btf__add_field(p->libbpf, names[1], 0, 64, 0);
	btf_build__add_field(&p->ours, b, 0, 64, 0);
	btf__add_func_proto(p->libbpf, 1);
	btf_build__add_func_proto(&p->ours, 1);
	btf__add_func_param(p->libbpf, names[1], 3);
	btf_build__add_func_param(&p->ours, b, 3);
	btf__add_func(p->libbpf, names[0], BTF_FUNC_GLOBAL, 4);
	btf_build__add_func(&p->ours, a, BTF_FUNC_GLOBAL, 4);
	btf__add_enum(p->libbpf, NULL, 4);
	btf_build__add_enum(&p->ours, BTF_KIND_ENUM, 0, 4, 0);
	btf__add_enum_value(p->libbpf, names[1], 7);
	btf_build__add_enum_value(&p->ours, b, 7);
}

/* One BTF appended to another as btf__add_btf() appends it; read back from raw bytes. */
static void append(void)
{
	static const char *const dst_names[] = { "int", "s" }, *const src_names[] = { "x", "int" };
	struct pair dst, src, empty;
	struct btf_build loaded = {}, copy = {};
	struct btf_build_strmap map = {};
	struct btf *dst_copy;
	uint32_t size, loaded_size = 0;
	const void *dst_raw;
	void *raw, *again = NULL;

	pair__begin(&dst, "appended");
	pair__begin(&src, "appended's source");
	pair__fill(&dst, dst_names);
	pair__fill(&src, src_names);
	/* A third BTF, whose strings lie elsewhere than the source's: dst as it is now. */
	dst_raw = btf__raw_data(dst.libbpf, &size);
	dst_copy = dst_raw ? btf__new(dst_raw, size) : NULL;
	check(dst_copy && !btf_build__load_raw(&copy, dst_raw, size),
	      "copying the BTF appended to");
	same(&dst, btf__add_btf(dst.libbpf, src.libbpf),
	     btf_build__append(&dst.ours, &src.ours, NULL), "appending");
	/* Once more, the strings through a map (the sink's way), kept for the next append. */
	same(&dst, btf__add_btf(dst.libbpf, src.libbpf),
	     btf_build__append(&dst.ours, &src.ours, &map), "appending again, by a string map");
	same(&dst, btf__add_btf(dst.libbpf, dst_copy), btf_build__append(&dst.ours, &copy, &map),
	     "appending another, by the same map");
	pair__begin(&empty, "nothing appended");
	check(btf_build__append(&dst.ours, &empty.ours, &map) ==
		      (int)btf_build__type_cnt(&dst.ours),
	      "appending nothing: the next ID");
	raw = btf_build__raw(&dst.ours, &size);
	check(raw && !btf_build__load_raw(&loaded, raw, size), "loading the raw bytes");
	again = btf_build__raw(&loaded, &loaded_size);
	check(again && loaded_size == size && !memcmp(raw, again, size) &&
		      loaded.nr == dst.ours.nr &&
		      !memcmp(loaded.offs, dst.ours.offs, loaded.nr * sizeof(*loaded.offs)),
	      "loaded: the same bytes, types and index");
	free(raw);
	free(again);
	btf_build__free(&loaded);
	btf_build__free(&copy);
	btf__free(dst_copy);
	btf_build_strmap__free(&map);
	pair__end(&empty);
	pair__end(&src);
	pair__end(&dst);
}

/*
 * Types and strings past GROW_MAP bytes (lib/grow.h: buffers of their own
 * mappings from there on, grown by mremap()), built, loaded from raw bytes,
 * appended to a small build and freed: the bytes stay libbpf's throughout.
 */
static void large(void)
{
	struct pair p, small;
	struct btf_build loaded = {};
	uint32_t i, size, loaded_size = 0, n;
	void *raw, *again = NULL;
	char s[32];

	pair__begin(&p, "past a mapping's threshold");
	for (i = 0; i < 120000; i++) {
		snprintf(s, sizeof(s), "struct_number_%u", i);
		n = name(&p, s);
		btf__add_struct(p.libbpf, s, 8);
		btf_build__add_composite(&p.ours, BTF_KIND_STRUCT, n, 8);
		btf__add_field(p.libbpf, s, 2 * i + 1, 0, 0);
		btf_build__add_field(&p.ours, n, 2 * i + 1, 0, 0);
	}
	check(p.ours.types_len >= GROW_MAP && p.ours.strs.len >= GROW_MAP &&
		      p.ours.nr * sizeof(*p.ours.offs) < GROW_MAP,
	      "types and strings past the threshold, the index below it");
	raw = btf_build__raw(&p.ours, &size);
	check(raw && !btf_build__load_raw(&loaded, raw, size), "large: loading the raw bytes");
	again = btf_build__raw(&loaded, &loaded_size);
	check(again && loaded_size == size && !memcmp(raw, again, size), "large: loaded, the same");
	pair__begin(&small, "a small one, the large appended");
	n = name(&small, "int");
	same(&small, btf__add_int(small.libbpf, "int", 4, BTF_INT_SIGNED),
	     btf_build__add_int(&small.ours, n, 4, BTF_INT_SIGNED), "int");
	same(&small, btf__add_btf(small.libbpf, p.libbpf),
	     btf_build__append(&small.ours, &loaded, NULL), "appending the large one");
	free(raw);
	free(again);
	btf_build__free(&loaded);
	pair__end(&small);
	pair__end(&p);
}

int main(void)
{
	ints();
	refs();
	composites();
	enums();
	wraps();
	reset();
	funcs_vars();
	append();
	large();
	if (failures) {
		fprintf(stderr, "btf_build: %d of %d checks failed\n", failures, checks);
		return 1;
	}
	printf("btf_build: %d checks ok\n", checks);
	return 0;
}
