// SPDX-License-Identifier: GPL-2.0-only
/* Reading the kfunc sets of .BTF_ids: see btf_ids.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <gelf.h>

#include "btf_ids.h"
#include "elf_functions.h"
#include "elf_symtab.h"

#define SET8_PREFIX "__BTF_ID__set8__"
#define FUNC_PREFIX "__BTF_ID__func__"

struct btf_ids {
	const struct elf_section *sec;
	const uint8_t *data;
	size_t size;
	uint64_t *set_starts; /* every set and list start, sorted */
	size_t nr_starts;
	uint64_t *set8_starts; /* the set8 starts among them, sorted */
	size_t nr_set8;
};

/* The u32 at @addr in .BTF_ids, or false when it lies outside. */
static bool btf_ids__u32(const struct btf_ids *ids, uint64_t addr, uint32_t *val)
{
	uint64_t off = addr - ids->sec->addr;

	if (addr < ids->sec->addr || off + 4 > ids->size)
		return false;
	memcpy(val, ids->data + off, 4);
	return true;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The number of entries of sorted @v[0..n) that are <= @addr. */
static size_t upper_bound(const uint64_t *v, size_t n, uint64_t addr)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The start of the set or list that the member at @addr belongs to. */
static uint64_t btf_ids__owner(const struct btf_ids *ids, uint64_t addr)
{
	size_t i = upper_bound(ids->set_starts, ids->nr_starts, addr);

	return i ? ids->set_starts[i - 1] : UINT64_MAX;
}

static bool btf_ids__is_set8(const struct btf_ids *ids, uint64_t addr)
{
	size_t i = upper_bound(ids->set8_starts, ids->nr_set8, addr);

	return i && ids->set8_starts[i - 1] == addr;
}

static bool is_set_start(const struct elf_sym *s)
{
	return !strncmp(s->name, "__BTF_ID__set", 13) || !strncmp(s->name, "__BTF_ID__list", 14);
}

/* Marks @s, a __BTF_ID__func__<name>__<n> in a kfunc set8, as a kfunc. */
static void btf_ids__mark(const struct btf_ids *ids, const struct elf_sym *s,
			  struct elf_functions *functions)
{
	uint64_t set = btf_ids__owner(ids, s->addr);
	uint32_t set_flags, flags;
	char name[256];
	const char *end;
	size_t len;

	if (!btf_ids__is_set8(ids, set) || !btf_ids__u32(ids, set + 4, &set_flags) ||
	    !(set_flags & BTF_SET8_KFUNCS) || !btf_ids__u32(ids, s->addr + 4, &flags))
		return;
	end = strrchr(s->name, '_'); /* the __<n> that keeps symbols unique */
	len = end - s->name - strlen(FUNC_PREFIX) - 1;
	if (end < s->name + strlen(FUNC_PREFIX) + 2 || len >= sizeof(name))
		return;
	memcpy(name, s->name + strlen(FUNC_PREFIX), len);
	name[len] = '\0';
	elf_functions__mark_kfunc(functions, name, flags & KF_FASTCALL);
}

int btf_ids__mark_kfuncs(Elf *elf, const struct elf_symtab *symtab, struct elf_functions *functions)
{
	uint32_t shndx = elf_symtab__find_section(symtab, ".BTF_ids");
	struct btf_ids ids = { .sec = elf_symtab__section(symtab, shndx) };
	size_t i, n = elf_symtab__nr_syms(symtab);
	Elf_Data *data;

	if (!ids.sec)
		return 0;
	data = elf_getdata(elf_getscn(elf, shndx), NULL);
	if (!data || !data->d_buf)
		return 0;
	ids.data = data->d_buf;
	ids.size = data->d_size;
	ids.set_starts = calloc(n ?: 1, sizeof(*ids.set_starts));
	ids.set8_starts = calloc(n ?: 1, sizeof(*ids.set8_starts));
	if (!ids.set_starts || !ids.set8_starts) {
		free(ids.set_starts);
		free(ids.set8_starts);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct elf_sym *s = elf_symtab__sym(symtab, i);

		if (s->shndx != shndx || !is_set_start(s))
			continue;
		ids.set_starts[ids.nr_starts++] = s->addr;
		if (!strncmp(s->name, SET8_PREFIX, strlen(SET8_PREFIX)))
			ids.set8_starts[ids.nr_set8++] = s->addr;
	}
	qsort(ids.set_starts, ids.nr_starts, sizeof(*ids.set_starts), u64_cmp);
	qsort(ids.set8_starts, ids.nr_set8, sizeof(*ids.set8_starts), u64_cmp);
	for (i = 0; i < n; i++) {
		const struct elf_sym *s = elf_symtab__sym(symtab, i);

		if (s->shndx == shndx && !strncmp(s->name, FUNC_PREFIX, strlen(FUNC_PREFIX)))
			btf_ids__mark(&ids, s, functions);
	}
	free(ids.set_starts);
	free(ids.set8_starts);
	return 0;
}
