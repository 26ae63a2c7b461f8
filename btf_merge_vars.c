// SPDX-License-Identifier: GPL-2.0-only
/*
 * The VARs, once every worker is done (btf_encoders__merge()): the
 * variables all encoders collected (btf_encoder_vars.c), those pahole v1.31
 * keeps, grouped in a DATASEC per ELF section in address order.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <gelf.h>

#include "btf_encoder_priv.h"
#include "elf_symtab.h"
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
static int var_refs__add_section(struct btf_build *btf, const struct var_ref *refs, size_t n)
{
	const struct elf_section *sec = refs[0].sec;
	uint32_t first = btf_build__type_cnt(btf), end = 0;
	size_t i;
	int id, name;

	for (i = 0; i < n; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->addr - sec->addr + refs[i].size > end)
			end = v->addr - sec->addr + refs[i].size;
		name = btf_build__add_str(btf, v->name);
		id = name < 0 ? name :
				btf_build__add_var(btf, name,
						   v->external ? BTF_VAR_GLOBAL_ALLOCATED :
								 BTF_VAR_STATIC,
						   refs[i].type);
		if (id < 0)
			return id;
	}
	name = btf_build__add_str(btf, sec->name);
	id = name < 0 ? name : btf_build__add_datasec(btf, name, end);
	for (i = 0; i < n && id >= 0; i++)
		id = btf_build__add_datasec_var_info(btf, first + i, refs[i].var->addr - sec->addr,
						     refs[i].size);
	for (i = 0; i < n && id >= 0; i++) {
		const struct btf_var_state *v = refs[i].var;

		if (v->nr_tags)
			id = btf_encoders__add_decl_tags(btf, first + i, v->tags, v->nr_tags);
	}
	return id < 0 ? id : 0;
}

int btf_encoders__add_vars(struct btf_encoder **encoders, unsigned int nr, struct btf_build *btf,
			   struct btf_encoded *out)
{
	const struct btf_encoder_input *in = encoders[0]->in;
	const struct btf_encoder_conf *conf = in->conf;
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
				elf_symtab__data_section_at(in->symtab, v->addr);
			uint32_t type = btf_chunk__merged_id(v->chunk, v->type);
			int64_t size = btf_build__resolve_size(btf, type);

			if (!sec || !section_has_vars(conf, sec) || variable_name_skipped(v->name))
				continue;
			/*
			 * At offset 0 it may be in a discarded section, which DWARF
			 * gives address 0: a symbol of its name must be in the
			 * section (pahole v1.31's variable_in_sec).
			 */
			if (v->addr == sec->addr &&
			    !elf_symtab__has_object(in->symtab, v->name, sec->index))
				continue;
			/* Its name is checked before its type or size, as upstream does. */
			if (!variable_name_valid(v->name)) {
				/* Upstream's words: its tests grep them. */
				if (btf_encoder_conf__has(conf, BTF_FEAT_ENCODE_FORCE)) {
					if (conf->verbose)
						fprintf(stderr,
							"PAHOLE: Warning: Found invalid variable name "
							"when encoding btf, ignored (sym: '%s').\n",
							v->name);
					continue;
				}
				snprintf(out->bad_name, sizeof(out->bad_name), "%s", v->name);
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
