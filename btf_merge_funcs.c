// SPDX-License-Identifier: GPL-2.0-only
/*
 * The FUNCs, once every worker is done (btf_encoders__merge()): each name's
 * states, one per encoder that met it (elf_functions.h), merged as pahole
 * v1.31 merges a function's sightings (elf_function__merge()), the
 * inconsistent ones dropped, the others added with their prototypes, decl
 * tags and kfunc tags; with true_signature, the FUNC upstream after v1.31
 * gives a name where it differs from ours (see btf_encoder_sigs.c).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_encoder_priv.h"
#include "btf_ids.h"
#include "lib/btf_types.h"
#include "lib/clock.h"
#include "lib/par_for.h"
#include "lib/populate.h"
/* ---- adding the functions, once every encoder is done ---- */

/*
 * Why a function is left out, one wording whichever rules found it (v1.31's
 * merge below, or a later release's in sig_choose()); -V prints them.
 */
enum func_skip {
	FUNC_KEPT,
	FUNC_SKIP_INCONSISTENT,
	FUNC_SKIP_UNEXPECTED_REG,
	FUNC_SKIP_UNCERTAIN_LOC,
	FUNC_SKIP_REORDERED,
	FUNC_SKIP_OPTIMIZED,
	FUNC_SKIP_AMBIGUOUS,
};

/*
 * Ours, on stderr with -V ("skipping function NAME: ..."), and v1.32's, on
 * stdout ("NAME : skipping BTF encoding of function due to ..."), which
 * upstream's tests/btf_functions.sh reads (its spelling kept; v1.32 also
 * says how two prototypes differ, which we do not).
 */
struct func_skip_words {
	const char *ours, *upstream;
};

/* A name's reasons to be left out, each a func_skip: ours, and v1.32's. */
struct func_skip_why {
	uint8_t ours, upstream;
};

static const struct func_skip_words func_skip_words[] = {
	[FUNC_KEPT] = { NULL, NULL },
	[FUNC_SKIP_INCONSISTENT] = { "its prototype differs between CUs", "inconsistet prototype" },
	[FUNC_SKIP_UNEXPECTED_REG] = { "a parameter is not in the register the ABI assigns it",
				       "unexpected register usage for parameter" },
	[FUNC_SKIP_UNCERTAIN_LOC] = { "a parameter's location is uncertain",
				      "uncertain parameter location" },
	[FUNC_SKIP_REORDERED] = { "its parameters are reordered", "reordered parameters" },
	[FUNC_SKIP_OPTIMIZED] = { "parameters are optimized out and its ABI changed",
				  "optimized parameters" },
	[FUNC_SKIP_AMBIGUOUS] = { "its name belongs to several addresses", "ambiguous address" },
};

/* Why v1.31's rules leave a function out, or NULL when it is encoded. */
static const char *func_skip_reason(const struct btf_encoder_conf *conf,
				    const struct elf_functions_entry *entry,
				    const struct btf_func_state *s)
{
	enum func_skip why = FUNC_KEPT;

	if (!btf_encoder_conf__has(conf, BTF_FEAT_CONSISTENT_FUNC))
		return NULL;
	if (s->inconsistent_proto)
		why = FUNC_SKIP_INCONSISTENT;
	else if (s->unexpected_reg)
		why = FUNC_SKIP_UNEXPECTED_REG;
	else if (s->uncertain_parm_loc)
		why = FUNC_SKIP_UNCERTAIN_LOC;
	else if (entry->ambiguous_addr)
		why = FUNC_SKIP_AMBIGUOUS;
	return func_skip_words[why].ours;
}

/* The state of the first CU that defined @entry, merged with all others. */
/*
 * The state of the first sighting of @entry, merged with all others, and the
 * mismatch pahole v1.31 reports: it compares the first sighting with each
 * later one in CU order, until one differs or one has an unexpected register.
 * Its relation is an equivalence (types_match_depth()), so a later encoder's
 * sightings differ from the first exactly where they differ from that
 * encoder's own first, or all of them if that one differs.
 */
static struct elf_function *elf_function__merge(const struct btf_build *btf,
						struct elf_functions_entry *entry,
						struct btf_func_state *merged)
{
	struct elf_function *best = NULL, *f;
	struct func_mismatch first, mm;
	uint64_t unexpected;

	for (f = atomic_load(&entry->head); f; f = f->next)
		if (f->state.initialized && (!best || f->state.pos < best->state.pos))
			best = f;
	if (!best)
		return NULL;
	*merged = best->state;
	first = best->state.mismatch;
	unexpected = best->state.unexpected_pos;
	for (f = atomic_load(&entry->head); f; f = f->next) {
		if (f == best || !f->state.initialized)
			continue;
		if (btf_func_state__differs(btf, &best->state, btf, &f->state, true, &mm, false)) {
			merged->inconsistent_proto = true;
			mm.pos = f->state.pos;
		} else {
			mm = f->state.mismatch;
		}
		if (mm.pos < first.pos)
			first = mm;
		if (f->state.unexpected_pos < unexpected)
			unexpected = f->state.unexpected_pos;
		btf_func_state__merge_flags(merged, &f->state);
	}
	merged->mismatch = first;
	if (first.pos >= unexpected)
		merged->mismatch.pos = FUNC_POS_NONE;
	return best;
}

/*
 * With -V, the lines pahole v1.31 prints on standard output for a function
 * it leaves out (upstream's tests/btf_functions.sh reads them): a prototype
 * that differs, and an uncertain location.  Ours on standard error say more.
 */
static void func_state__log_v131(const char *name, const struct btf_func_state *s)
{
	const struct func_mismatch *mm = &s->mismatch;
	const char *p1;

	if (mm->pos != FUNC_POS_NONE) {
		printf("%s : skipping BTF encoding of function due to ", name);
		switch (mm->kind) {
		case FUNC_MISMATCH_COUNT:
			printf("param count mismatch; %u params != %u params\n",
			       s->nr_params + s->varargs, mm->nr_params);
			break;
		case FUNC_MISMATCH_RETURN:
			printf("return type mismatch\n");
			break;
		case FUNC_MISMATCH_PARAM:
			p1 = s->params[mm->param].name;
			printf("param type mismatch for param#%u %s != %s\n", mm->param + 1,
			       p1 ?: "", mm->name ?: "");
			break;
		}
	}
	if (s->uncertain_parm_loc)
		printf("%s : skipping BTF encoding of function due to uncertain parameter location\n",
		       name);
}

/*
 * With the attributes feature, a kfunc's pointer into a BPF arena becomes a
 * pointer to a TYPE_TAG "address_space(1)" with kind_flag set (an
 * attribute, not a tag), as its KF_ARENA_* flags say (pahole v1.31,
 * btf__add_bpf_arena_type_tags()).  *@id is the pointer's type; -EINVAL when
 * it is no pointer.
 */
static int kfunc__arena_ptr(struct btf_build *btf, uint32_t *id)
{
	const struct btf_type *t = btf_build__type_by_id(btf, *id);
	int tag_id, name;

	if (!t || !btf_is_ptr(t))
		return -EINVAL;
	name = btf_build__add_str(btf, "address_space(1)");
	tag_id = name < 0 ? name : btf_build__add_ref(btf, BTF_KIND_TYPE_TAG, name, t->type);
	if (tag_id < 0)
		return tag_id;
	btf_build__type(btf, tag_id)->info |= 1u << 31;
	tag_id = btf_build__add_ref(btf, BTF_KIND_PTR, 0, tag_id);
	if (tag_id < 0)
		return tag_id;
	*id = tag_id;
	return 0;
}

/* Tags the arena pointers of kfunc @entry: its return type *@ret, its @params. */
static int kfunc__arena_ptrs(struct btf_build *btf, const struct btf_encoder_conf *conf,
			     const struct elf_functions_entry *entry, uint32_t *ret,
			     uint32_t *params, uint32_t nr_params)
{
	uint32_t flags = entry->kfunc_flags;
	int err = 0;

	if (!entry->kfunc || !btf_encoder_conf__has(conf, BTF_FEAT_ATTRIBUTES))
		return 0;
	if (flags & KF_ARENA_RET)
		err = kfunc__arena_ptr(btf, ret);
	if (!err && (flags & KF_ARENA_ARG1))
		err = nr_params > 0 ? kfunc__arena_ptr(btf, &params[0]) : -EINVAL;
	if (!err && (flags & KF_ARENA_ARG2))
		err = nr_params > 1 ? kfunc__arena_ptr(btf, &params[1]) : -EINVAL;
	return err;
}

/* A FUNC_PROTO's parameter: libbpf's btf__add_func_param(), the name added first. */
static int add_param(struct btf_build *btf, const char *name, uint32_t type)
{
	int off = name ? btf_build__add_str(btf, name) : 0;

	return off < 0 ? off : btf_build__add_func_param(btf, off, type);
}

static int btf_encoders__add_func(struct btf_build *btf, const struct btf_encoder_conf *conf,
				  const struct elf_functions_entry *entry, const char *name,
				  const struct btf_func_state *s, bool as_kfunc)
{
	uint32_t ret = btf_chunk__merged_id(s->chunk, s->ret_type), i, *params, few[16];
	int proto, func, err;

	/* Some 60,000 functions of a vmlinux: few have more parameters than that. */
	params = s->nr_params <= sizeof(few) / sizeof(*few) ? few :
							      calloc(s->nr_params, sizeof(*params));
	if (!params)
		return -ENOMEM;
	for (i = 0; i < s->nr_params; i++)
		params[i] = btf_chunk__merged_id(s->chunk, s->params[i].type);
	err = as_kfunc ? kfunc__arena_ptrs(btf, conf, entry, &ret, params, s->nr_params) : 0;
	proto = err ?: btf_build__add_func_proto(btf, ret);
	for (i = 0; i < s->nr_params && proto > 0 && !err; i++)
		err = add_param(btf, s->params[i].name, params[i]);
	if (params != few)
		free(params);
	if (proto < 0)
		return proto;
	if (err)
		return err;
	if (s->varargs) {
		err = btf_build__add_func_param(btf, 0, 0);
		if (err)
			return err;
	}
	func = btf_build__add_str(btf, name);
	func = func < 0 ? func : btf_build__add_func(btf, func, BTF_FUNC_STATIC, proto);
	if (func < 0)
		return func;
	if (!as_kfunc)
		return btf_encoders__add_decl_tags(btf, func, s->tags, s->nr_tags);
	if (entry->kfunc && (err = btf_encoders__add_decl_tag(btf, "bpf_kfunc", func, -1)) < 0)
		return err;
	if ((entry->kfunc_flags & KF_FASTCALL) &&
	    (err = btf_encoders__add_decl_tag(btf, "bpf_fastcall", func, -1)) < 0)
		return err;
	return btf_encoders__add_decl_tags(btf, func, s->tags, s->nr_tags);
}

/* ---- true_signature: the FUNC that upstream after v1.31 gives a name ---- */

/* What upstream would encode of a name in one mode: a sighting's FUNC, or none. */
struct sig_choice {
	const struct func_sighting *s; /* NULL: none */
	int mode;
	const char *name;
	bool as_kfunc;
};

/* What the merge knows of a sighting from the symbols of its name. */
struct sig_seen {
	const struct func_sighting *s;
	const char *sym; /* the first with a '.' at its address, or NULL */
	bool at_sym; /* some symbol of the name is at its address */
	bool optimized_sym; /* one there is a ".constprop" or ".isra" clone */
};

static void sig_seen__init(struct sig_seen *v, const struct elf_functions_entry *entry)
{
	uint32_t i;

	for (i = 0; i < entry->nr_syms; i++) {
		const struct elf_function_sym *sym = &entry->syms[i];
		const char *dot = strchr(sym->name, '.');

		if (sym->addr != v->s->addr)
			continue;
		v->at_sym = true;
		/* Upstream looks at the symbols only for a sighting with an address. */
		if (!dot || !v->s->addr)
			continue;
		if (!v->sym)
			v->sym = sym->name;
		if (strstr(dot, ".constprop") || strstr(dot, ".isra"))
			v->optimized_sym = true;
	}
}

static struct btf_func_state sig_state(const struct func_sighting *s, int mode)
{
	return (struct btf_func_state){
		.params = s->mode[mode].params,
		.nr_params = s->mode[mode].nr_params,
		.tags = s->tags,
		.nr_tags = s->nr_tags,
		.ret_type = s->ret_type,
		.chunk = s->chunk,
		.varargs = s->varargs,
		.initialized = true,
	};
}

/*
 * How the first two prototypes of a name that differ do, which v1.32's -V
 * says as it compares them ("param type mismatch for param#3 n != size"):
 * @kind 0 for none.
 */
struct sig_mismatch {
	const char *p1, *p2; /* the differing parameter's names, or NULL */
	uint32_t param, n1, n2; /* its index; the counts, "..." counted */
	uint8_t kind; /* enum func_mismatch_kind */
};

/* Whether @b's prototype differs from @a's; if so, how in *@said (unless NULL). */
static bool sig_differ(const struct btf_build *btf, const struct sig_seen *a,
		       const struct sig_seen *b, int mode, struct sig_mismatch *said)
{
	struct btf_func_state x = sig_state(a->s, mode), y = sig_state(b->s, mode);
	struct func_mismatch mm;

	if (!btf_func_state__differs(btf, &x, btf, &y, true, &mm, true))
		return false;
	if (said)
		*said = (struct sig_mismatch){
			.p1 = mm.kind == FUNC_MISMATCH_PARAM ? x.params[mm.param].name : NULL,
			.p2 = mm.name,
			.param = mm.param,
			.n1 = x.nr_params + x.varargs,
			.n2 = mm.nr_params,
			.kind = mm.kind,
		};
	return true;
}

/* v1.32's -V line for @said, on stdout, where upstream's tests read it. */
static void sig_mismatch__log(const struct sig_mismatch *said, const char *name)
{
	printf("%s : skipping BTF encoding of function due to ", name);
	switch (said->kind) {
	case FUNC_MISMATCH_COUNT:
		printf("param count mismatch; %u params != %u params\n", said->n1, said->n2);
		break;
	case FUNC_MISMATCH_RETURN:
		printf("return type mismatch\n");
		break;
	default:
		printf("param type mismatch for param#%u %s != %s\n", said->param + 1,
		       said->p1 ?: "", said->p2 ?: "");
		break;
	}
}

/* Whether the default rules leave @v out for optimized parameters in a changed ABI. */
static bool sig_skips_optimized(const struct sig_seen *v, int mode)
{
	return mode == SIG_DEFAULT && v->s->mode[mode].optimized_parms &&
	       (v->s->changed || v->optimized_sym);
}

/*
 * The sighting a name of several is encoded from: the first at a symbol's
 * address not left out for optimized parameters, else the first at a
 * symbol's address; else, in v1.32 (@v132), the first with an address at
 * all (a weak definition rather than a strong one whose code is in ranges,
 * which has no low_pc), else the first.
 */
static const struct sig_seen *sig_canonical(const struct sig_seen *v, size_t n, int mode, bool v132)
{
	const struct sig_seen *first = NULL, *addressed = NULL;
	size_t i;

	if (n == 1)
		return v;
	for (i = 0; i < n; i++) {
		if (!addressed && v[i].s->addr)
			addressed = &v[i];
		if (!v[i].at_sym)
			continue;
		if (!sig_skips_optimized(&v[i], mode))
			return &v[i];
		first = first ?: &v[i];
	}
	return first ?: v132 && addressed ? addressed : v;
}

/*
 * Why a later release's rules leave a function out, in our words and in
 * v1.32's: each takes another of the reasons that hold.  Ours are in the
 * order the reasons are listed (unexpected registers first), v1.32's in
 * the reverse (ambiguous addresses first: each of its tests overrides the
 * one before, as measured on the corpus 6.1 vmlinux), as func_skip_words[]
 * indices.  False when none holds.
 */
static bool sig_skip_reason(struct func_skip_why *skip, bool unexpected, bool uncertain,
			    bool reordered, bool optimized, bool inconsistent, bool ambiguous)
{
	const struct {
		bool holds;
		enum func_skip why;
	} reasons[] = {
		{ unexpected, FUNC_SKIP_UNEXPECTED_REG }, { inconsistent, FUNC_SKIP_INCONSISTENT },
		{ uncertain, FUNC_SKIP_UNCERTAIN_LOC },	  { reordered, FUNC_SKIP_REORDERED },
		{ optimized, FUNC_SKIP_OPTIMIZED },	  { ambiguous, FUNC_SKIP_AMBIGUOUS },
	};
	size_t i;

	*skip = (struct func_skip_why){ FUNC_KEPT, FUNC_KEPT };
	for (i = 0; i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		if (!reasons[i].holds)
			continue;
		skip->ours = skip->ours ?: reasons[i].why;
		skip->upstream = reasons[i].why;
	}
	return skip->ours != FUNC_KEPT;
}

/*
 * Whether v1.32 leaves sighting @b's prototype uncompared with @a's: with
 * true_signature (@ts), a definition with an address (a low_pc) and an
 * inline-only copy (an abstract instance) are not compared, so the copy's
 * prototype makes no name inconsistent (lib/string.c's memchr and
 * fortify-string.h's inline one).  Measured against Debian's v1.32 with
 * the sightings in its order (sig_seen__cmp_v132()): on the 6.1 vmlinux
 * all 636 of its -V skipping lines and its BTF, 35 differences before; on
 * the 6.12 vmlinux, 44 before.  Its FUNC then is the definition's.
 */
static bool sig_apart(const struct sig_seen *a, const struct sig_seen *b, bool ts, bool v132)
{
	return v132 && ts && !a->s->addr != !b->s->addr;
}

/*
 * Upstream's choice for @v[0..@n), in CU order, in @mode; why none in
 * *@why; how two prototypes differ in *@said, when it is not NULL.
 */
static struct sig_choice sig_choose(const struct btf_encoder_conf *conf,
				    const struct btf_build *btf,
				    const struct elf_functions_entry *entry,
				    const struct sig_seen *v, size_t n, int mode,
				    struct func_skip_why *why, struct sig_mismatch *said)
{
	bool unexpected = v[0].s->mode[mode].unexpected, uncertain = v[0].s->uncertain;
	bool reordered = v[0].s->reordered, inconsistent = false, ts = mode == SIG_TRUE;
	bool v132 = btf_encoder_conf__follows(conf, BTF_RULE_FUNCS_V132);
	const struct sig_seen *pick = NULL, *c;
	size_t i;

	for (i = 1; i < n; i++) {
		unexpected |= v[i].s->mode[mode].unexpected;
		uncertain |= v[i].s->uncertain;
		reordered |= v[i].s->reordered;
		if (!unexpected && !inconsistent && !reordered && !sig_apart(v, &v[i], ts, v132) &&
		    sig_differ(btf, v, &v[i], mode, said))
			inconsistent = true;
		/*
		 * true_signature's pick: the first with a symbol whose flags are
		 * clean, where a later one carries the flags of those up to it
		 * and the first those of all.
		 */
		if (ts && !pick && v[i].sym && !unexpected && !uncertain)
			pick = &v[i];
	}
	if (ts && v[0].sym && !unexpected && !uncertain)
		pick = v;
	if (pick)
		return (struct sig_choice){ pick->s, mode, pick->sym, false };
	c = sig_canonical(v, n, mode, v132);
	if (sig_skip_reason(why, unexpected, uncertain, reordered, sig_skips_optimized(c, mode),
			    inconsistent && btf_encoder_conf__has(conf, BTF_FEAT_CONSISTENT_FUNC),
			    entry->ambiguous_addr))
		return (struct sig_choice){ NULL };
	return (struct sig_choice){ c->s, mode, entry->name, true };
}

static bool sig_params_equal(const struct func_sig_mode *a, const struct func_sig_mode *b,
			     const struct btf_chunk *ca, const struct btf_chunk *cb)
{
	uint32_t i;

	if (a->nr_params != b->nr_params)
		return false;
	for (i = 0; i < a->nr_params; i++) {
		const char *x = a->params[i].name ?: "", *y = b->params[i].name ?: "";

		if (strcmp(x, y) || btf_chunk__merged_id(ca, a->params[i].type) !=
					    btf_chunk__merged_id(cb, b->params[i].type))
			return false;
	}
	return true;
}

static bool sig_choices_equal(const struct sig_choice *a, const struct sig_choice *b)
{
	if (!a->s || !b->s)
		return !a->s && !b->s;
	return !strcmp(a->name, b->name) && a->as_kfunc == b->as_kfunc &&
	       a->s->varargs == b->s->varargs &&
	       btf_chunk__merged_id(a->s->chunk, a->s->ret_type) ==
		       btf_chunk__merged_id(b->s->chunk, b->s->ret_type) &&
	       sig_params_equal(&a->s->mode[a->mode], &b->s->mode[b->mode], a->s->chunk,
				b->s->chunk);
}

static int sig_seen__cmp(const void *a, const void *b)
{
	const struct sig_seen *x = a, *y = b;

	return x->s->pos < y->s->pos ? -1 : x->s->pos > y->s->pos;
}

/*
 * v1.32's order of a name's sightings: those with an address (a low_pc)
 * before the inline-only ones, each in CU order.  Measured, not read: on
 * the 6.1 vmlinux it is the order of all 941 of v1.32's -V lines on how
 * two prototypes differ (memchr's "param#3 n != size": lib/string.c's
 * before fortify-string.h's inline copies in earlier CUs), and of its
 * true signatures (NF_HOOK.constprop.0 before the inline-only NF_HOOK of
 * unexpected registers); the stored sources, before the release, sort by
 * name alone.
 */
static int sig_seen__cmp_v132(const void *a, const void *b)
{
	const struct sig_seen *x = a, *y = b;

	if (!x->s->addr != !y->s->addr)
		return x->s->addr ? -1 : 1;
	return sig_seen__cmp(a, b);
}

/* The sightings of a name, gathered anew for each: one buffer for all the names. */
struct sig_seen_set {
	DARRAY(struct sig_seen) v;
};

/*
 * All encoders' sightings of @entry in @set (none: empty): in CU order, or
 * in v1.32's (@v132: sig_seen__cmp_v132()).
 */
static int sig_seen__gather(const struct elf_functions_entry *entry, struct sig_seen_set *set,
			    bool v132)
{
	struct elf_function *f;
	struct func_sighting *s;
	size_t i;

	set->v.nr = 0;
	for (f = atomic_load(&entry->head); f; f = f->next) {
		for (s = f->state.sightings; s; s = s->next) {
			struct sig_seen *v = darray__push(&set->v);

			if (!v)
				return -ENOMEM;
			*v = (struct sig_seen){ .s = s };
		}
	}
	if (set->v.nr > 1)
		qsort(set->v.data, set->v.nr, sizeof(*set->v.data),
		      v132 ? sig_seen__cmp_v132 : sig_seen__cmp);
	for (i = 0; i < set->v.nr; i++)
		sig_seen__init(&set->v.data[i], entry);
	return 0;
}

static int btf_encoders__add_true_sig(const struct btf_encoder_conf *conf, struct btf_build *btf,
				      const struct elf_functions_entry *entry,
				      struct sig_seen_set *set)
{
	struct sig_choice dflt, ts;
	struct func_skip_why why;
	struct btf_func_state s;
	struct sig_seen *v;
	size_t n;
	int err = 0;

	if (!btf_encoder_conf__has(conf, BTF_FEAT_TRUE_SIGNATURE))
		return 0;
	err = sig_seen__gather(entry, set, false);
	v = set->v.data;
	n = set->v.nr;
	if (err || !n)
		return err;
	dflt = sig_choose(conf, btf, entry, v, n, SIG_DEFAULT, &why, NULL);
	ts = sig_choose(conf, btf, entry, v, n, SIG_TRUE, &why, NULL);
	if (sig_choices_equal(&dflt, &ts))
		return 0;
	if (ts.s) {
		s = sig_state(ts.s, ts.mode);
		err = btf_encoders__add_func(btf, conf, entry, ts.name, &s, ts.as_kfunc);
	}
	/*
	 * Where upstream's default has no FUNC of the name, ours (v1.31's)
	 * may: it stays, as the feature takes nothing from upstream's there,
	 * unless the new FUNC bears its name.
	 */
	if (!err && (dflt.s || (ts.s && !strcmp(ts.name, entry->name))))
		err = 1;
	return err;
}

/* ---- v1.32's choices (BTF_RULE_FUNCS_V132): made in parallel, added in order ---- */

/*
 * What v1.32's rules, true_signature's with that feature, make of a name:
 * a sighting's FUNC as sig_choose() chose it, or none, for the reasons
 * @why.  Small: one per name, all made before the first is added.
 */
struct func_choice {
	const struct func_sighting *s; /* NULL: none */
	const char *name;
	uint8_t mode;
	bool as_kfunc;
	bool seen; /* some encoder met the name */
	struct func_skip_why why;
};

/* The choosing: each name's choice depends on its sightings alone, so any thread may make it. */
struct func_chooser {
	const struct btf_encoder_conf *conf;
	const struct btf_build *btf; /* only read while the threads run */
	struct elf_functions *functions;
	int mode;
	struct func_choice *choices; /* by entry */
	struct sig_mismatch *said; /* by entry, with -V; else NULL */
	struct sig_seen_set *sets; /* by thread */
};

static int func_chooser__one(void *ctx, size_t i, unsigned int thread)
{
	struct func_chooser *ch = ctx;
	const struct elf_functions_entry *entry = elf_functions__entry(ch->functions, i);
	struct sig_seen_set *set = &ch->sets[thread];
	struct func_choice *fc = &ch->choices[i];
	int err = sig_seen__gather(entry, set, true);
	struct sig_choice c;

	*fc = (struct func_choice){ .seen = set->v.nr > 0 };
	if (err || !fc->seen)
		return err;
	c = sig_choose(ch->conf, ch->btf, entry, set->v.data, set->v.nr, ch->mode, &fc->why,
		       ch->said ? &ch->said[i] : NULL);
	fc->s = c.s;
	fc->name = c.name;
	fc->mode = c.mode;
	fc->as_kfunc = c.as_kfunc;
	return 0;
}

/* Each name's FUNC as v1.32 makes it, or none, added in the names' order; @nr_threads >= 1. */
static int btf_encoders__add_v132(const struct btf_encoder_input *in, struct btf_build *btf,
				  unsigned int nr_threads, double *choosing)
{
	const struct btf_encoder_conf *conf = in->conf;
	size_t i, n = elf_functions__nr_entries(in->functions);
	struct func_chooser ch = {
		.conf = conf,
		.btf = btf,
		.functions = in->functions,
		.mode = btf_encoder_conf__has(conf, BTF_FEAT_TRUE_SIGNATURE) ? SIG_TRUE :
									       SIG_DEFAULT,
		.choices = calloc(n ?: 1, sizeof(*ch.choices)),
		.said = conf->verbose ? calloc(n ?: 1, sizeof(*ch.said)) : NULL,
		.sets = calloc(nr_threads, sizeof(*ch.sets)),
	};
	double start = clock__now();
	int err = ch.choices && ch.sets && (ch.said || !conf->verbose) ? 0 : -ENOMEM;

	if (!err) {
		/* Every choice is written. */
		populate__write(ch.choices, n * sizeof(*ch.choices));
		err = par_for(nr_threads, n, func_chooser__one, &ch);
	}
	/* -V's thousand lines in one write, not one each: stderr has no buffer. */
	char *said = NULL;
	size_t said_len = 0;
	FILE *say = conf->verbose ? open_memstream(&said, &said_len) : NULL;

	*choosing = clock__now() - start;
	for (i = 0; i < n && !err; i++) {
		const struct elf_functions_entry *entry = elf_functions__entry(in->functions, i);
		const struct func_choice *fc = &ch.choices[i];
		struct btf_func_state s;

		if (!fc->seen)
			continue;
		if (ch.said && ch.said[i].kind)
			sig_mismatch__log(&ch.said[i], entry->name);
		if (fc->s) {
			s = sig_state(fc->s, fc->mode);
			err = btf_encoders__add_func(btf, conf, entry, fc->name, &s, fc->as_kfunc);
		} else if (conf->verbose) {
			fprintf(say ?: stderr, "skipping function %s: %s\n", entry->name,
				func_skip_words[fc->why.ours].ours);
			printf("%s : skipping BTF encoding of function due to %s\n", entry->name,
			       func_skip_words[fc->why.upstream].upstream);
		}
	}
	if (say && !fclose(say))
		fwrite(said, 1, said_len, stderr);
	free(said);
	for (i = 0; ch.sets && i < nr_threads; i++)
		darray__free(&ch.sets[i].v);
	free(ch.sets);
	free(ch.said);
	free(ch.choices);
	return err;
}

/* ---- every name's states merged, its FUNC added ---- */

/* v1.31's FUNC of a name: its encoders' states merged, or none; with true_signature's. */
static int btf_encoders__add_v131(const struct btf_encoder_conf *conf, struct btf_build *btf,
				  struct elf_functions_entry *entry, struct sig_seen_set *set)
{
	struct btf_func_state merged;
	const char *reason;
	int err;

	if (!elf_function__merge(btf, entry, &merged))
		return 0;
	err = btf_encoders__add_true_sig(conf, btf, entry, set);
	if (err)
		return err < 0 ? err : 0;
	if (conf->verbose)
		func_state__log_v131(entry->name, &merged);
	reason = func_skip_reason(conf, entry, &merged);
	if (reason) {
		if (conf->verbose)
			fprintf(stderr, "skipping function %s: %s\n", entry->name, reason);
		return 0;
	}
	return btf_encoders__add_func(btf, conf, entry, entry->name, &merged, true);
}

int btf_encoders__add_saved_funcs(const struct btf_encoder_input *in, struct btf_build *btf,
				  unsigned int nr_threads, double *choosing)
{
	const struct btf_encoder_conf *conf = in->conf;
	size_t i, n = elf_functions__nr_entries(in->functions);
	struct sig_seen_set set = {};
	int err = 0;

	*choosing = 0;
	elf_functions__map_nodes(in->functions);
	if (btf_encoder_conf__follows(conf, BTF_RULE_FUNCS_V132))
		return btf_encoders__add_v132(in, btf, nr_threads ?: 1, choosing);
	for (i = 0; i < n && !err; i++)
		err = btf_encoders__add_v131(conf, btf, elf_functions__entry(in->functions, i),
					     &set);
	darray__free(&set.v);
	return err;
}
