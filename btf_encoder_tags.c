// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decl tags: the btf_decl_tag annotations of a DIE (clang's
 * DW_TAG_LLVM_annotation children, gcc's DW_AT_GNU_annotation chains),
 * recorded in the CU's list as the walk meets them, copied into the
 * encoder's arena for what outlives the CU, and added to the merged BTF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <dwarf.h>
#include <linux/btf.h>

#include "dwarf_alt.h"
#include "btf_encoder_priv.h"

/*
 * The values of gcc's annotations named @name, in chain order from @first
 * (a DW_AT_GNU_annotation) on, into @values, @max at most; with @stop the
 * chain ends at an annotation of another name, as upstream pahole reads
 * type tags (its add_gnu_annotation_chain() and die__create_new_pointer_tag()).
 * Their count.
 */
int btf_encoder__gnu_annotations(struct btf_encoder *e, const Dwarf_Attribute *first,
				 const char *name, bool stop, const char **values, int max)
{
	Dwarf_Attribute attr = *first, value_attr;
	Dwarf_Die annot;
	int n = 0, hops;

	for (hops = 0; hops < 64 && n < max; hops++) {
		const char *an, *value;

		if (!die_ref_followed(&attr, &e->cu.ref_ctx) ||
		    !dwarf_alt__ref_die(&attr, &annot) ||
		    dwarf_tag(&annot) != DW_TAG_GNU_annotation)
			break;
		an = dwarf_diename(&annot);
		value = dwarf_formstring(dwarf_attr(&annot, DW_AT_const_value, &value_attr));
		if (an && !strcmp(an, name) && value)
			values[n++] = value;
		else if (stop)
			break;
		if (!dwarf_attr(&annot, DW_AT_GNU_annotation, &attr))
			break;
	}
	return n;
}

int btf_encoder__push_annotated_decl_tags(struct btf_encoder *e, const struct die_attrs *a,
					  int component)
{
	const char *values[16];
	int i, n, err = 0;

	if (!a->has_gnu_annotation || !btf_encoder__has(e, BTF_FEAT_DECL_TAG))
		return 0;
	n = btf_encoder__gnu_annotations(e, &a->gnu_annotation_attr, "btf_decl_tag", false, values,
					 16);
	for (i = 0; i < n && !err; i++)
		err = btf_encoder__push_decl_tag(e, values[i], component);
	return err;
}

int btf_encoder__push_decl_tag(struct btf_encoder *e, const char *value, int component)
{
	struct btf_decl_tag_ref *t;

	if (!value || !btf_encoder__has(e, BTF_FEAT_DECL_TAG))
		return 0;
	t = darray__push(&e->cu.tags);
	if (!t)
		return -ENOMEM;
	t->value = value;
	t->component = component;
	return 0;
}

int btf_encoder__collect_child_decl_tags(struct btf_encoder *e, Dwarf_Die *die, int component)
{
	Dwarf_Die child;
	int err = 0;

	/* No dwarf_haschildren(): the reader knows that of the member it just read. */
	if (!btf_encoder__has(e, BTF_FEAT_DECL_TAG) || btf_encoder__child(e, die, &child) != 0)
		return 0;
	do {
		err = btf_encoder__push_decl_tag(
			e, die__decl_tag_value(&child, btf_encoder__tag(e, &child)), component);
	} while (!err && btf_encoder__sibling(e, &child) == 0);
	return err;
}

/* The @n tags of the current CU from @first. */
int btf_encoder__own_tags(struct btf_encoder *e, struct btf_decl_tag_ref **dst, size_t first,
			  uint32_t n)
{
	struct btf_decl_tag_ref *t;
	uint32_t i;

	if (!n)
		return 0;
	t = arena__memdup(&e->arena, &e->cu.tags.data[first], n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!(t[i].value = arena__strdup(&e->arena, t[i].value)))
			return -ENOMEM;
	*dst = t;
	return 0;
}

int btf_encoders__add_decl_tag(struct btf_build *btf, const char *value, uint32_t id, int component)
{
	int off = btf_build__add_str(btf, value);

	return off < 0 ? off : btf_build__add_decl_tag(btf, off, id, component);
}

int btf_encoders__add_decl_tags(struct btf_build *btf, uint32_t id,
				const struct btf_decl_tag_ref *tags, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		int err = btf_encoders__add_decl_tag(btf, tags[i].value, id, tags[i].component);

		if (err < 0)
			return err;
	}
	return 0;
}
