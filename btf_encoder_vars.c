// SPDX-License-Identifier: GPL-2.0-only
/*
 * Variables: collected from each CU with their static addresses, their
 * types resolved with the CU's; the merge adds them (btf_merge_vars.c).
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

static bool btf_encoder__has_vars(const struct btf_encoder *e)
{
	return e->in->symtab &&
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
	pthread_mutex_t *lock = unit_locks__of(e->in->unit_locks, attr->cu);
	int err = -1;

	pthread_mutex_lock(lock);
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
	pthread_mutex_unlock(lock);
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
	die_attrs__inherit(&a, &e->cu.reader, true);
	if (!a.name)
		return 0;
	v = darray__push(&e->vars);
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
