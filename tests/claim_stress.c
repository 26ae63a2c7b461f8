// SPDX-License-Identifier: GPL-2.0-only
/*
 * claim_stress: hammers elf_functions__claim() from many threads.
 *
 * Builds an elf_functions table from a synthetic ELF image (made in memory,
 * read with libelf) whose .symtab holds a few thousand STT_FUNC symbols,
 * among them compiler clones that fold into their base name, split-off parts
 * that are left out, and entries no thread claims.  Then NR_THREADS threads,
 * each with its own fake owner pointer, claim their names NR_ROUNDS times,
 * in an order that differs by round and thread (in the first round of every
 * third pass all threads claim the same names in the same order, to make them
 * collide on the CAS of the first node and of the head; of the next, each in
 * its own order; of the next, half ascending and half descending).  Checks:
 *
 *   - every claim returns a node that @owner owns, the same node every time;
 *   - each entry's list has exactly one node per owner that claimed the name
 *     (no duplicate, none lost), no node of an owner that did not, and is
 *     acyclic; an entry nobody claimed keeps its one unowned node;
 *   - a node is written by its owner only (each thread counts its claims in
 *     the node's state; the counts must add up), so TSan can see a shared
 *     node as a race.
 *
 * Exits 0 when all hold ("claim_stress: N names x M threads: ok"), 1 with the
 * first failures on stderr otherwise.
 */
#include <elf.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>
#include <libelf.h>

#include "elf_functions.h"
#include "elf_symtab.h"

#define NR_NAMES 5000 /* "stress_fn_NNNNN", one exact symbol each */
#define NR_CLONE_ONLY 200 /* "clone_only_NNNNN.constprop.0", no exact symbol */
#define NR_THREADS 16
#define NR_ROUNDS 4
#define NR_PASSES 12 /* fresh table each pass, different first-round orders */
#define TEXT_ADDR 0x1000u

static unsigned int nr_failures;
static pthread_mutex_t fail_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&fail_lock);
	if (nr_failures++ < 20) {
		va_start(ap, fmt);
		fprintf(stderr, "claim_stress: FAIL: ");
		vfprintf(stderr, fmt, ap);
		fputc('\n', stderr);
		va_end(ap);
	}
	pthread_mutex_unlock(&fail_lock);
}

/* ---- the synthetic ELF ---- */

struct strtab {
	char *buf;
	size_t len, cap;
};

static uint32_t strtab__add(struct strtab *s, const char *str)
{
	size_t n = strlen(str) + 1;
	uint32_t off = s->len;

	if (s->len + n > s->cap) {
		s->cap = (s->len + n) * 2;
		s->buf = realloc(s->buf, s->cap);
		if (!s->buf) {
			perror("claim_stress: realloc");
			exit(1);
		}
	}
	memcpy(s->buf + s->len, str, n);
	s->len += n;
	return off;
}

static void add_sym(Elf64_Sym *syms, size_t *nr, struct strtab *str, const char *name,
		    unsigned char type, uint16_t shndx, uint64_t addr)
{
	Elf64_Sym *s = &syms[(*nr)++];

	s->st_name = strtab__add(str, name);
	s->st_info = ELF64_ST_INFO(STB_GLOBAL, type);
	s->st_shndx = shndx;
	s->st_value = addr;
	s->st_size = 16;
}

static int claimed_by_nobody(unsigned int i)
{
	return i % 97 == 5;
}

/* Whether thread @t claims the name of exact symbol @i (varies per name). */
static int claims(unsigned int t, unsigned int i)
{
	if (claimed_by_nobody(i))
		return 0;
	if (i % 13 == 0)
		return 1;
	return (i / 3 + t) % 5 != 0;
}

/*
 * An ET_EXEC image: ELF header, .symtab, .strtab, .shstrtab, section headers.
 * Sections: 0 null, 1 .text (NOBITS, holds the functions), 2 .symtab,
 * 3 .strtab, 4 .shstrtab.
 */
static char *make_elf_image(size_t *size)
{
	size_t max_syms = 1 + NR_NAMES * 3 + NR_CLONE_ONLY + 64, nr = 1, i;
	Elf64_Sym *syms = calloc(max_syms, sizeof(*syms));
	struct strtab str = { 0 }, shstr = { 0 };
	Elf64_Shdr sh[5] = { 0 };
	Elf64_Ehdr eh = { 0 };
	size_t off, text_size = (NR_NAMES * 2 + NR_CLONE_ONLY + 8) * 16;
	char name[64], *img;

	if (!syms) {
		perror("claim_stress: calloc");
		exit(1);
	}
	strtab__add(&str, "");
	strtab__add(&shstr, "");
	for (i = 0; i < NR_NAMES; i++) {
		uint64_t addr = TEXT_ADDR + i * 16;

		snprintf(name, sizeof(name), "stress_fn_%05zu", i);
		add_sym(syms, &nr, &str, name, STT_FUNC, 1, addr);
		if (i % 7 == 0) { /* a clone: folds into stress_fn_i */
			snprintf(name, sizeof(name), "stress_fn_%05zu.isra.0", i);
			add_sym(syms, &nr, &str, name, STT_FUNC, 1,
				TEXT_ADDR + (NR_NAMES + i) * 16);
		}
		if (i % 11 == 0) { /* a split-off part: left out */
			snprintf(name, sizeof(name), "stress_fn_%05zu.part.0", i);
			add_sym(syms, &nr, &str, name, STT_FUNC, 1, addr + 8);
		}
	}
	for (i = 0; i < NR_CLONE_ONLY; i++) {
		snprintf(name, sizeof(name), "clone_only_%05zu.constprop.0", i);
		add_sym(syms, &nr, &str, name, STT_FUNC, 1, TEXT_ADDR + (2 * NR_NAMES + i) * 16);
	}
	/* Not functions, or not defined here: left out. */
	add_sym(syms, &nr, &str, "stress_object", STT_OBJECT, 1, TEXT_ADDR);
	add_sym(syms, &nr, &str, "stress_undefined", STT_FUNC, SHN_UNDEF, 0);

	sh[1].sh_name = strtab__add(&shstr, ".text");
	sh[1].sh_type = SHT_NOBITS;
	sh[1].sh_flags = SHF_ALLOC | SHF_EXECINSTR;
	sh[1].sh_addr = TEXT_ADDR;
	sh[1].sh_size = text_size;
	sh[1].sh_addralign = 16;
	sh[2].sh_name = strtab__add(&shstr, ".symtab");
	sh[3].sh_name = strtab__add(&shstr, ".strtab");
	sh[4].sh_name = strtab__add(&shstr, ".shstrtab");

	off = sizeof(eh);
	sh[1].sh_offset = off;
	sh[2].sh_type = SHT_SYMTAB;
	sh[2].sh_offset = off;
	sh[2].sh_size = nr * sizeof(*syms);
	sh[2].sh_link = 3;
	sh[2].sh_info = 1; /* one local symbol: the null one */
	sh[2].sh_addralign = 8;
	sh[2].sh_entsize = sizeof(*syms);
	off += sh[2].sh_size;
	sh[3].sh_type = SHT_STRTAB;
	sh[3].sh_offset = off;
	sh[3].sh_size = str.len;
	sh[3].sh_addralign = 1;
	off += str.len;
	sh[4].sh_type = SHT_STRTAB;
	sh[4].sh_offset = off;
	sh[4].sh_size = shstr.len;
	sh[4].sh_addralign = 1;
	off += shstr.len;
	off = (off + 7) & ~(size_t)7;

	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shoff = off;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = 5;
	eh.e_shstrndx = 4;

	*size = off + sizeof(sh);
	img = calloc(1, *size);
	if (!img) {
		perror("claim_stress: calloc");
		exit(1);
	}
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + sh[2].sh_offset, syms, sh[2].sh_size);
	memcpy(img + sh[3].sh_offset, str.buf, str.len);
	memcpy(img + sh[4].sh_offset, shstr.buf, shstr.len);
	memcpy(img + off, sh, sizeof(sh));
	free(syms);
	free(str.buf);
	free(shstr.buf);
	return img;
}

/* ---- the threads ---- */

struct pass {
	unsigned int nr; /* pass number: picks the first round's orders */
	struct elf_functions_entry *entries[NR_NAMES];
	struct elf_function *got[NR_THREADS][NR_NAMES];
	pthread_barrier_t barrier;
};

static char owner_storage[NR_THREADS];

static struct btf_encoder *owner_of(unsigned int t)
{
	return (struct btf_encoder *)&owner_storage[t];
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Fills @order with the names' order for thread @t in round @round. */
static void make_order(unsigned int *order, const struct pass *p, unsigned int t,
		       unsigned int round)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull * (1 + t + NR_THREADS * (round + NR_ROUNDS * p->nr));
	unsigned int i;

	for (i = 0; i < NR_NAMES; i++)
		order[i] = i;
	if (round == 0 && p->nr % 3 == 0)
		return; /* everyone in the same order: they collide */
	if (round == 0 && p->nr % 3 == 2) {
		if (t % 2) { /* half ascending, half descending: they meet */
			for (i = 0; i < NR_NAMES; i++)
				order[i] = NR_NAMES - 1 - i;
		}
		return;
	}
	for (i = NR_NAMES - 1; i > 0; i--) {
		unsigned int j = xorshift(&seed) % (i + 1), tmp = order[i];

		order[i] = order[j];
		order[j] = tmp;
	}
}

struct worker {
	struct pass *pass;
	unsigned int t;
	pthread_t thread;
};

static void *worker__run(void *arg)
{
	struct worker *w = arg;
	struct pass *p = w->pass;
	struct btf_encoder *owner = owner_of(w->t);
	static _Thread_local unsigned int order[NR_NAMES];
	unsigned int round, k;

	for (round = 0; round < NR_ROUNDS; round++) {
		make_order(order, p, w->t, round);
		pthread_barrier_wait(&p->barrier);
		for (k = 0; k < NR_NAMES; k++) {
			unsigned int i = order[k];
			struct elf_function *f;

			if (!claims(w->t, i))
				continue;
			if (elf_functions__claim(p->entries[i], owner, &f)) {
				fail("pass %u thread %u: claim of %s failed", p->nr, w->t,
				     p->entries[i]->name);
				continue;
			}
			if (atomic_load(&f->owner) != owner)
				fail("pass %u thread %u: claim of %s returned a node owned by %p",
				     p->nr, w->t, p->entries[i]->name,
				     (void *)atomic_load(&f->owner));
			if (!p->got[w->t][i])
				p->got[w->t][i] = f;
			else if (p->got[w->t][i] != f)
				fail("pass %u thread %u: claim of %s round %u returned another node",
				     p->nr, w->t, p->entries[i]->name, round);
			/* As an encoder would: write the state of our own node. */
			f->state.ret_type = w->t + 1;
			f->state.cu_index++;
		}
	}
	return NULL;
}

/* ---- checking the lists ---- */

static void check_entry(const struct pass *p, unsigned int i)
{
	const struct elf_functions_entry *e = p->entries[i];
	unsigned int seen[NR_THREADS] = { 0 }, nr_nodes = 0, nr_unowned = 0, nr_claimers = 0, t;
	const struct elf_function *f;

	for (f = atomic_load(&e->head); f; f = f->next) {
		const void *owner = atomic_load(&f->owner);

		if (++nr_nodes > NR_THREADS + 1) {
			fail("pass %u: %s: list longer than %u nodes (a cycle?)", p->nr, e->name,
			     NR_THREADS + 1);
			return;
		}
		if (!owner) {
			nr_unowned++;
			continue;
		}
		t = (unsigned int)((char *)owner - owner_storage);
		if ((char *)owner < owner_storage || t >= NR_THREADS) {
			fail("pass %u: %s: node owned by unknown %p", p->nr, e->name,
			     (void *)owner);
			continue;
		}
		if (seen[t]++)
			fail("pass %u: %s: thread %u owns two nodes", p->nr, e->name, t);
		if (!claims(t, i))
			fail("pass %u: %s: thread %u owns a node but never claimed the name", p->nr,
			     e->name, t);
		else if (p->got[t][i] != f)
			fail("pass %u: %s: thread %u's node in the list is not the one it was given",
			     p->nr, e->name, t);
		if (f->state.ret_type != t + 1 || f->state.cu_index != NR_ROUNDS)
			fail("pass %u: %s: thread %u's node state is %u/%u, not %u/%u: shared node?",
			     p->nr, e->name, t, f->state.ret_type, f->state.cu_index, t + 1,
			     NR_ROUNDS);
	}
	for (t = 0; t < NR_THREADS; t++) {
		if (!claims(t, i))
			continue;
		nr_claimers++;
		if (!seen[t])
			fail("pass %u: %s: thread %u's node is lost from the list", p->nr, e->name,
			     t);
	}
	if (nr_claimers ? nr_unowned != 0 || nr_nodes != nr_claimers :
			  nr_unowned != 1 || nr_nodes != 1)
		fail("pass %u: %s: %u nodes (%u unowned) for %u claiming threads", p->nr, e->name,
		     nr_nodes, nr_unowned, nr_claimers);
}

/* The table must hold exactly the names the symbol table defines. */
static void check_table(const struct elf_functions *fns, struct pass *p)
{
	/* stress_undefined too: pahole v1.31 takes undefined STT_FUNCs as well. */
	size_t expected = NR_NAMES + NR_CLONE_ONLY + 1, i;
	char name[64];

	if (elf_functions__nr_entries(fns) != expected)
		fail("table has %zu entries, expected %zu", elf_functions__nr_entries(fns),
		     expected);
	for (i = 0; i < NR_NAMES; i++) {
		struct elf_functions_entry *e;

		snprintf(name, sizeof(name), "stress_fn_%05zu", i);
		e = elf_functions__find(fns, name);
		if (!e) {
			fail("%s is not in the table", name);
			exit(1);
		}
		p->entries[i] = e;
	}
	for (i = 0; i < NR_CLONE_ONLY; i++) {
		struct elf_functions_entry *e;

		snprintf(name, sizeof(name), "clone_only_%05zu", i);
		e = elf_functions__find(fns, name);
		if (!e)
			fail("%s: the clone-only name is missing", name);
	}
	if (!elf_functions__find(fns, "stress_undefined"))
		fail("stress_undefined, an undefined function, is not in the table");
	if (elf_functions__find(fns, "stress_object") ||
	    elf_functions__find(fns, "stress_fn_00000.part.0") ||
	    elf_functions__find(fns, "stress_fn_00000.isra.0"))
		fail("the table holds a name it should not");
}

static void run_pass(struct elf_symtab *symtab, unsigned int nr)
{
	static struct worker workers[NR_THREADS];
	struct pass *p = calloc(1, sizeof(*p));
	unsigned int t, i, started = 0;
	struct elf_functions *fns;

	if (elf_functions__new(symtab, &fns) || !p) {
		fail("pass %u: out of memory", nr);
		exit(1);
	}
	p->nr = nr;
	check_table(fns, p);
	pthread_barrier_init(&p->barrier, NULL, NR_THREADS);
	for (t = 0; t < NR_THREADS; t++) {
		workers[t].pass = p;
		workers[t].t = t;
		if (pthread_create(&workers[t].thread, NULL, worker__run, &workers[t])) {
			fail("pass %u: cannot create thread %u", nr, t);
			exit(1);
		}
		started++;
	}
	for (t = 0; t < started; t++)
		pthread_join(workers[t].thread, NULL);
	pthread_barrier_destroy(&p->barrier);
	for (i = 0; i < NR_NAMES; i++)
		check_entry(p, i);
	elf_functions__delete(fns);
	free(p);
}

int main(void)
{
	struct elf_symtab *symtab;
	unsigned int pass;
	size_t size;
	char *img;
	Elf *elf;
	int err;

	elf_version(EV_CURRENT);
	img = make_elf_image(&size);
	elf = elf_memory(img, size);
	if (!elf) {
		fprintf(stderr, "claim_stress: FAIL: elf_memory: %s\n", elf_errmsg(-1));
		return 1;
	}
	err = elf_symtab__new(elf, &symtab);
	if (err) {
		fprintf(stderr, "claim_stress: FAIL: elf_symtab__new: %s\n", strerror(-err));
		return 1;
	}
	for (pass = 0; pass < NR_PASSES; pass++)
		run_pass(symtab, pass);
	elf_symtab__delete(symtab);
	elf_end(elf);
	free(img);
	if (nr_failures) {
		fprintf(stderr, "claim_stress: %u failures\n", nr_failures);
		return 1;
	}
	printf("claim_stress: %u names x %u threads x %u rounds x %u passes: ok\n",
	       NR_NAMES + NR_CLONE_ONLY, NR_THREADS, NR_ROUNDS, NR_PASSES);
	return 0;
}
