// SPDX-License-Identifier: GPL-2.0-only
/* The shared table of ELF function names: see elf_functions.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf_functions.h"
#include "elf_symtab.h"
#include "lib/populate.h"
#include "lib/zpages.h"
#include "lib/str_set.h"
#include "lib/str_sort.h"

struct elf_functions {
	struct elf_functions_entry *entries; /* sorted by name */
	size_t nr_entries, entries_cap;
	uint32_t *index; /* open addressing: see index_slot() */
	size_t index_mask;
	struct elf_function *first_nodes; /* one unowned node per entry */
	char *names;
	struct elf_function_sym *syms; /* the entries' symbols, by entry */
};

/* A symbol being sorted into the table: its name without suffix. */
struct func_sym {
	const char *name;
	size_t len;
	uint64_t addr;
};

/*
 * Sorts @syms[0..@n), which are in symbol table order, by name, then in that
 * order: a vmlinux has some 100,000, whose sorting by qsort() took most of
 * the table's making (str_sort.h).  That is glibc qsort()'s order: its sort
 * is stable.
 */
static int func_syms__sort(struct func_sym *syms, size_t n)
{
	size_t items_size = (n ?: 1) * sizeof(struct str_sort_item);
	size_t size = items_size + (n ?: 1) * sizeof(struct func_sym);
	/* Both in one block, written whole: in huge pages where the kernel has them (zpages.h). */
	struct str_sort_item *items = zpages__alloc(size);
	struct func_sym *sorted = items ? (struct func_sym *)((char *)items + items_size) : NULL;
	size_t i;
	int err = -ENOMEM;

	if (!items || n > UINT32_MAX)
		goto out;
	for (i = 0; i < n; i++)
		items[i] = (struct str_sort_item){ syms[i].name, syms[i].len, (uint32_t)i };
	err = str_sort(items, n);
	if (err)
		goto out;
	for (i = 0; i < n; i++)
		sorted[i] = syms[items[i].id];
	memcpy(syms, sorted, n * sizeof(*syms));
out:
	zpages__free(items, size);
	return err;
}

/* The index's hash of @name: the string hash the project has (lib/str_set.h). */
static uint32_t name_hash(const char *name)
{
	return str_set__hash(name, strlen(name));
}

/* The size of the array of function symbols made for @symtab. */
static size_t func_syms__size(const struct elf_symtab *symtab)
{
	return (elf_symtab__nr_syms(symtab) ?: 1) * sizeof(struct func_sym);
}

/*
 * Which function symbols name a function, as pahole v1.31 takes them
 * (elf_functions__collect): every STT_FUNC symbol, defined or not, by its
 * name up to the first dot, except split-off pieces, whose suffix has ".part"
 * (partial inlining) or ".cold" (the cold path moved away).  So "f.isra.0",
 * "f.constprop.0", "f.llvm.123" and "f.localalias" are all f.
 */
static int collect_func_syms(const struct elf_symtab *symtab, struct func_sym **out, size_t *nr)
{
	size_t i, n = 0, total = elf_symtab__nr_syms(symtab);
	/* Sized for every symbol, filled with the functions' alone (func_syms__size()). */
	struct func_sym *syms = zpages__alloc(func_syms__size(symtab));
	int err;

	if (!syms)
		return -ENOMEM;
	for (i = 0; i < total; i++) {
		const struct elf_sym *s = elf_symtab__sym(symtab, i);
		const char *dot;

		if (s->type != STT_FUNC || !s->name[0])
			continue;
		dot = strchr(s->name, '.');
		if (dot && (strstr(dot, ".part") || strstr(dot, ".cold")))
			continue;
		syms[n].name = s->name;
		syms[n].len = dot ? (size_t)(dot - s->name) : strlen(s->name);
		syms[n].addr = s->value; /* v1.31 compares st_value, an offset in ET_REL */
		n++;
	}
	err = func_syms__sort(syms, n);
	if (err) {
		zpages__free(syms, func_syms__size(symtab));
		return err;
	}
	*nr = n;
	*out = syms;
	return 0;
}

/*
 * An index slot holds its entry's number + 1 (0: empty) in the low 24
 * bits and the high 8 bits of its name's hash above them, so that a probe
 * that meets another name's entry mostly tells it from the slot, without
 * reading the entry and its name: a lookup of a name the table lacks (as of
 * every function the DWARF has only inline, most of a kernel's) reads none.
 * A table of 2^24 entries or more is not tagged: its slots hold the number.
 */
#define INDEX_ENTRY_BITS 24
#define INDEX_ENTRY_MASK ((1u << INDEX_ENTRY_BITS) - 1)

static bool index_tagged(const struct elf_functions *fns)
{
	return fns->nr_entries < INDEX_ENTRY_MASK;
}

static uint32_t index_slot(const struct elf_functions *fns, size_t i, uint32_t hash)
{
	return index_tagged(fns) ? (uint32_t)(i + 1) | (hash & ~INDEX_ENTRY_MASK) :
				   (uint32_t)(i + 1);
}

static int elf_functions__build_index(struct elf_functions *fns)
{
	size_t size = 16, i;

	while (size < fns->nr_entries * 2)
		size *= 2;
	fns->index = calloc(size, sizeof(*fns->index));
	if (!fns->index)
		return -ENOMEM;
	fns->index_mask = size - 1;
	/* Probed (read) before written: mapped writable at once, not a zero page then a copy. */
	populate__write(fns->index, size * sizeof(*fns->index));
	for (i = 0; i < fns->nr_entries; i++) {
		uint32_t hash = name_hash(fns->entries[i].name);
		size_t slot = hash & fns->index_mask;

		while (fns->index[slot])
			slot = (slot + 1) & fns->index_mask;
		fns->index[slot] = index_slot(fns, i, hash);
	}
	return 0;
}

/*
 * Folds the sorted symbols into one entry per name.  A name is ambiguous when
 * its symbols are at several addresses, by pahole v1.31's reading: their
 * st_value (in a relocatable file, an offset in the symbol's section), where
 * 0 (undefined, or first in its section) is no address and the next one sets
 * it anew; and v1.31 never judges the last name of the table, so neither do we.
 */
static int elf_functions__fill(struct elf_functions *fns, const struct func_sym *syms, size_t n)
{
	size_t i, names_len = 0;
	char *p;

	for (i = 0; i < n; i++)
		names_len += syms[i].len + 1;
	fns->entries = zpages__alloc((n ?: 1) * sizeof(*fns->entries));
	fns->entries_cap = n ?: 1;
	fns->names = p = malloc(names_len ?: 1);
	fns->syms = calloc(n ?: 1, sizeof(*fns->syms));
	if (!fns->entries || !fns->names || !fns->syms)
		return -ENOMEM;
	populate__write(fns->names, names_len);
	populate__write(fns->syms, n * sizeof(*fns->syms));
	for (i = 0; i < n; i++) {
		const struct func_sym *s = &syms[i];
		struct elf_functions_entry *e =
			fns->nr_entries ? &fns->entries[fns->nr_entries - 1] : NULL;

		if (!e || strncmp(e->name, s->name, s->len) || e->name[s->len]) {
			e = &fns->entries[fns->nr_entries++];
			memcpy(p, s->name, s->len);
			p[s->len] = '\0';
			e->name = p;
			e->syms = &fns->syms[i];
			p += s->len + 1;
		} else if (syms[i - 1].addr && s->addr != syms[i - 1].addr) {
			e->ambiguous_addr = true;
		}
		fns->syms[i] = (struct elf_function_sym){ .name = s->name, .addr = s->addr };
		e->nr_syms++;
	}
	if (fns->nr_entries)
		fns->entries[fns->nr_entries - 1].ambiguous_addr = false;
	return 0;
}

int elf_functions__new(const struct elf_symtab *symtab, struct elf_functions **out)
{
	struct elf_functions *fns = calloc(1, sizeof(*fns));
	struct func_sym *syms = NULL;
	size_t n = 0, i;
	int err = -ENOMEM;

	*out = NULL;
	if (!fns)
		return -ENOMEM;
	err = collect_func_syms(symtab, &syms, &n);
	if (err)
		goto out;
	err = elf_functions__fill(fns, syms, n);
	err = err ?: elf_functions__build_index(fns);
	if (err)
		goto out;
	fns->first_nodes = zpages__alloc((fns->nr_entries ?: 1) * sizeof(*fns->first_nodes));
	if (!fns->first_nodes) {
		err = -ENOMEM;
		goto out;
	}
	/*
	 * In huge pages (zpages.h): the workers' claims write nodes all over
	 * the table (a vmlinux's 9 to 14 MB of it) in their first chunks,
	 * which every worker runs at once; a fault per 2 MB, not per 4 kB.
	 * Not mapped here: zeroing them took 10 ms of 7.2's serial reading.
	 */
	for (i = 0; i < fns->nr_entries; i++)
		atomic_init(&fns->entries[i].head, &fns->first_nodes[i]);
out:
	zpages__free(syms, func_syms__size(symtab));
	if (err) {
		elf_functions__delete(fns);
		return err;
	}
	*out = fns;
	return 0;
}

static bool elf_function__is_first(const struct elf_functions *fns, const struct elf_function *f)
{
	return f >= fns->first_nodes && f < fns->first_nodes + fns->nr_entries;
}

void elf_functions__delete(struct elf_functions *fns)
{
	size_t i;

	if (!fns)
		return;
	for (i = 0; fns->first_nodes && i < fns->nr_entries; i++) {
		struct elf_function *f = atomic_load(&fns->entries[i].head), *next;

		for (; f; f = next) {
			next = f->next;
			if (!elf_function__is_first(fns, f))
				free(f);
		}
	}
	zpages__free(fns->first_nodes, (fns->nr_entries ?: 1) * sizeof(*fns->first_nodes));
	free(fns->index);
	zpages__free(fns->entries, fns->entries_cap * sizeof(*fns->entries));
	free(fns->names);
	free(fns->syms);
	free(fns);
}

struct elf_functions_entry *elf_functions__find(const struct elf_functions *fns, const char *name)
{
	uint32_t hash = name_hash(name), tag = hash & ~INDEX_ENTRY_MASK, v;
	size_t slot = hash & fns->index_mask;
	bool tagged = index_tagged(fns);

	for (; (v = fns->index[slot]); slot = (slot + 1) & fns->index_mask) {
		struct elf_functions_entry *e;

		if (tagged && (v & ~INDEX_ENTRY_MASK) != tag)
			continue;
		e = &fns->entries[(tagged ? v & INDEX_ENTRY_MASK : v) - 1];
		if (!strcmp(e->name, name))
			return e;
	}
	return NULL;
}

int elf_functions__claim(struct elf_functions_entry *entry, const void *owner,
			 struct elf_function **out)
{
	struct elf_function *f, *head;

	/*
	 * A node is first touched by a write, the exchange, not a load: a
	 * page of nodes never written before is then mapped once, for
	 * writing, where a load would map the zero page and the write copy it
	 * and flush every other worker's TLB.  Many nodes are never claimed,
	 * so their pages are not populated ahead.
	 */
	for (f = atomic_load(&entry->head); f; f = f->next) {
		const void *cur = NULL;

		if (atomic_compare_exchange_strong(&f->owner, &cur, owner) || cur == owner) {
			*out = f;
			return 0;
		}
	}
	/* Every node belongs to another encoder: push one of our own. */
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	atomic_init(&f->owner, owner);
	head = atomic_load(&entry->head);
	do {
		f->next = head;
	} while (!atomic_compare_exchange_weak(&entry->head, &head, f));
	*out = f;
	return 0;
}

void elf_functions__map_nodes(const struct elf_functions *fns)
{
	populate__read(fns->first_nodes, fns->nr_entries * sizeof(*fns->first_nodes));
}

size_t elf_functions__nr_entries(const struct elf_functions *fns)
{
	return fns->nr_entries;
}

struct elf_functions_entry *elf_functions__entry(const struct elf_functions *fns, size_t i)
{
	return &fns->entries[i];
}

void elf_functions__mark_kfunc(struct elf_functions *fns, const char *name, uint32_t flags)
{
	struct elf_functions_entry *e = elf_functions__find(fns, name);

	if (e) {
		e->kfunc = true;
		e->kfunc_flags = flags;
	}
}
