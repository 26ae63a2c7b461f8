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

struct kfunc_set {
	uint64_t start, end; /* [start, end): the set's symbol and its size */
};

struct btf_ids {
	const struct elf_section *sec;
	const uint8_t *data;
	size_t size;
	struct kfunc_set *sets; /* the set8s flagged BTF_SET8_KFUNCS, in symbol order */
	size_t nr_sets;
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

/*
 * A set8 is a u32 count and u32 flags, then its (id, flags) pairs; BTF_SET8_END
 * gives its symbol the size of the whole.  A BTF_ID_LIST, in contrast, has no
 * symbol of ours and no flags, so only the set8's own extent says what is in it.
 */
static bool btf_ids__kfunc_set(const struct btf_ids *ids, const struct elf_sym *s)
{
	uint32_t flags;

	return !strncmp(s->name, SET8_PREFIX, strlen(SET8_PREFIX)) &&
	       btf_ids__u32(ids, s->addr + 4, &flags) && (flags & BTF_SET8_KFUNCS);
}

/* The first kfunc set that holds @addr, in symbol order, or NULL. */
static const struct kfunc_set *btf_ids__set_of(const struct btf_ids *ids, uint64_t addr)
{
	size_t i;

	for (i = 0; i < ids->nr_sets; i++)
		if (ids->sets[i].start <= addr && addr < ids->sets[i].end)
			return &ids->sets[i];
	return NULL;
}

/*
 * Marks @s, a __BTF_ID__func__<name>__<n> inside a kfunc set, as a kfunc with
 * the flags of its pair; a later pair of the same function overrides them.
 */
static void btf_ids__mark(const struct btf_ids *ids, const struct elf_sym *s,
			  struct elf_functions *functions)
{
	uint32_t flags;
	char name[256];
	const char *end;
	size_t len;

	if (!btf_ids__set_of(ids, s->addr) || !btf_ids__u32(ids, s->addr + 4, &flags))
		return;
	end = strrchr(s->name, '_'); /* the __<n> that keeps symbols unique */
	len = end - s->name - strlen(FUNC_PREFIX) - 1;
	if (end < s->name + strlen(FUNC_PREFIX) + 2 || end[-1] != '_' || len >= sizeof(name))
		return;
	memcpy(name, s->name + strlen(FUNC_PREFIX), len);
	name[len] = '\0';
	elf_functions__mark_kfunc(functions, name, flags);
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
	ids.sets = calloc(n ?: 1, sizeof(*ids.sets));
	if (!ids.sets)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		const struct elf_sym *s = elf_symtab__sym(symtab, i);

		if (s->shndx == shndx && btf_ids__kfunc_set(&ids, s))
			ids.sets[ids.nr_sets++] = (struct kfunc_set){ s->addr, s->addr + s->size };
	}
	for (i = 0; i < n && ids.nr_sets; i++) {
		const struct elf_sym *s = elf_symtab__sym(symtab, i);

		if (s->shndx == shndx && !strncmp(s->name, FUNC_PREFIX, strlen(FUNC_PREFIX)))
			btf_ids__mark(&ids, s, functions);
	}
	free(ids.sets);
	return 0;
}
