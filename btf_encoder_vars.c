// SPDX-License-Identifier: GPL-2.0-only
/*
 * Variables: collected from each CU with their static addresses, added to
 * the merged BTF as VARs grouped in a DATASEC per ELF section.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <gelf.h>

#include "btf_encoder_priv.h"
#include "elf_symtab.h"

/* ---- collecting a CU's variables ---- */

static bool btf_encoder__has_vars(const struct btf_encoder *e)
{
	return e->conf->symtab &&
	       (btf_encoder__has(e, BTF_FEAT_VAR) || btf_encoder__has(e, BTF_FEAT_GLOBAL_VAR));
}

/*
 * The address of a location that starts with DW_OP_addr or DW_OP_addrx, or
 * -1: what follows the address is not looked at (LLVM describes a global
 * it shrank to a bool as DW_OP_addr, DW_OP_deref_size 1, ... and
 * DW_OP_stack_value), nor is DW_OP_GNU_addr_index taken, as pahole v1.31
 * reads a variable's location (dwarf__location()).
 */
static int variable_addr(struct btf_encoder *e, Dwarf_Attribute *attr, uint64_t *addr)
{
	Dwarf_Attribute addr_attr;
	Dwarf_Addr a;
	Dwarf_Op *expr;
	size_t len;
	int err = -1;

	pthread_mutex_lock(e->conf->libdw_lock);
	if (dwarf_getlocation(attr, &expr, &len) == 0 && len >= 1) {
		if (expr->atom == DW_OP_addr) {
			*addr = expr->number;
			err = 0;
		} else if (expr->atom == DW_OP_addrx &&
			   dwarf_getlocation_attr(attr, expr, &addr_attr) == 0 &&
			   dwarf_formaddr(&addr_attr, &a) == 0) {
			*addr = a;
			err = 0;
		}
	}
	pthread_mutex_unlock(e->conf->libdw_lock);
	return err;
}

static int btf_encoder__save_var_tags(struct btf_encoder *e, Dwarf_Die *die,
				      struct btf_var_state *v)
{
	size_t first = e->cu.tags.nr;
	int err = btf_encoder__collect_decl_tags(e, die, -1);

	v->tags = NULL;
	v->nr_tags = e->cu.tags.nr - first;
	err = err ?: btf_encoder__own_tags(e, &v->tags, first, v->nr_tags);
	e->cu.tags.nr = first;
	return err;
}

int btf_encoder__encode_variable(struct btf_encoder *e, Dwarf_Die *die)
{
	struct btf_var_state *v;
	struct die_attrs a;
	uint64_t addr;

	if (e->cu.depth != 1 || !btf_encoder__has_vars(e))
		return 0;
	btf_encoder__attrs(e, die, &a);
	if (a.declaration || !a.has_location || variable_addr(e, &a.location_attr, &addr))
		return 0;
	die_attrs__inherit(&a, true);
	if (!a.name)
		return 0;
	v = darray_push(&e->vars);
	if (!v)
		return -ENOMEM;
	v->chunk = e->chunk;
	v->name = arena__strdup(&e->arena, a.name);
	if (!v->name)
		return -ENOMEM;
	v->type = a.type;
	v->addr = addr;
	v->cu_index = e->cu.index;
	v->external = a.external;
	return btf_encoder__save_var_tags(e, die, v);
}

void btf_encoder__resolve_cu_vars(struct btf_encoder *e)
{
	size_t i;

	for (i = e->cu.first_var; i < e->vars.nr; i++)
		e->vars.data[i].type = btf_encoder__resolve_ref(e, e->vars.data[i].type);
}

/* ---- adding the variables, grouped in a DATASEC per ELF section ---- */

struct var_ref {
	const struct btf_var_state *var;
	const struct elf_section *sec;
	uint32_t type; /* in the merged BTF */
	uint32_t size;
};

static int var_ref__cmp(const void *a, const void *b)
{
	const struct var_ref *x = a, *y = b;

	if (x->sec->index != y->sec->index)
		return x->sec->index < y->sec->index ? -1 : 1;
	if (x->var->addr != y->var->addr)
		return x->var->addr < y->var->addr ? -1 : 1;
	if (x->var->cu_index != y->var->cu_index)
		return x->var->cu_index < y->var->cu_index ? -1 : 1;
	return strcmp(x->var->name, y->var->name);
}

/* Compiler- and macro-made objects that are not variables anyone looks up. */
static bool variable_name_skipped(const char *name)
{
	static const char *const prefixes[] = { "__UNIQUE_ID", "__tpstrtab_", "__exitcall_",
						"__func_stack_frame_non_standard_" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/*
 * Whether pahole v1.31 takes @name for a variable's: letters, digits, '_'
 * and '.', not a digit first, 128 characters at most (its KSYM_NAME_LEN).
 * It refuses the file for another, or with encode_force leaves that
 * variable out.
 */
static bool variable_name_valid(const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++) {
		char c = name[i];

		if (i == 128 || !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
				  c == '.' || (i && c >= '0' && c <= '9')))
			return false;
	}
	return i > 0;
}

static bool section_has_vars(const struct btf_encoder_conf *conf, const struct elf_section *sec)
{
	if (sec->type != SHT_PROGBITS && sec->type != SHT_NOBITS)
		return false;
	if (btf_encoder_conf__has(conf, BTF_FEAT_GLOBAL_VAR))
		return true;
	return btf_encoder_conf__has(conf, BTF_FEAT_VAR) && !strcmp(sec->name, ".data..percpu");
}

/* Adds the VARs of one section, then its DATASEC: @refs[0..n) share the section. */
static int var_refs__add_section(struct btf *btf, const struct var_ref *refs, size_t n)
{
	const struct elf_section *sec = refs[0].sec;
	uint32_t first = btf__type_cnt(btf), end = 0;
	size_t i;
	int id;

	for (i = 0; i < n; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->addr - sec->addr + refs[i].size > end)
			end = v->addr - sec->addr + refs[i].size;
		id = btf__add_var(btf, v->name,
				  v->external ? BTF_VAR_GLOBAL_ALLOCATED : BTF_VAR_STATIC,
				  refs[i].type);
		if (id < 0)
			return id;
	}
	id = btf__add_datasec(btf, sec->name, end);
	for (i = 0; i < n && id >= 0; i++)
		id = btf__add_datasec_var_info(btf, first + i, refs[i].var->addr - sec->addr,
					       refs[i].size);
	for (i = 0; i < n && id >= 0; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->nr_tags)
			id = decl_tags__add(btf, first + i, v->tags, v->nr_tags);
	}
	return id < 0 ? id : 0;
}

int btf_encoders__add_vars(struct btf_encoder **encoders, unsigned int nr, struct btf *btf)
{
	const struct btf_encoder_conf *conf = encoders[0]->conf;
	size_t total = 0, n = 0, i, j;
	struct var_ref *refs;
	int err = 0;

	for (i = 0; i < nr; i++)
		total += encoders[i]->vars.nr;
	refs = calloc(total ?: 1, sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		for (j = 0; j < encoders[i]->vars.nr; j++) {
			const struct btf_var_state *v = &encoders[i]->vars.data[j];
			const struct elf_section *sec =
				elf_symtab__data_section_at(conf->symtab, v->addr);
			uint32_t type = btf_chunk__merged_id(v->chunk, v->type);
			int64_t size = btf__resolve_size(btf, type);

			if (!sec || !section_has_vars(conf, sec) || variable_name_skipped(v->name))
				continue;
			/*
			 * At offset 0 it may be in a discarded section, which DWARF
			 * gives address 0: a symbol of its name must be in the
			 * section (pahole v1.31's variable_in_sec).
			 */
			if (v->addr == sec->addr &&
			    !elf_symtab__has_object(conf->symtab, v->name, sec->index))
				continue;
			/* Its name is checked before its type or size, as upstream does. */
			if (!variable_name_valid(v->name)) {
				if (btf_encoder_conf__has(conf, BTF_FEAT_ENCODE_FORCE))
					continue;
				err = -BTF_REFUSED_VAR_NAME;
				goto out;
			}
			/* Sizeless ones (extern char x[]) neither. */
			if (!v->type || size <= 0)
				continue;
			refs[n++] = (struct var_ref){ v, sec, type, size };
		}
	}
	qsort(refs, n, sizeof(*refs), var_ref__cmp);
	for (i = 0; i < n && !err; i = j) {
		for (j = i + 1; j < n && refs[j].sec == refs[i].sec; j++)
			;
		err = var_refs__add_section(btf, &refs[i], j - i);
	}
out:
	free(refs);
	return err;
}
