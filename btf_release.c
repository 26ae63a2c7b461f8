// SPDX-License-Identifier: GPL-2.0-only
/* The releases and the rules each follows: see btf_release.h. */
#include <stddef.h>
#include <string.h>

#include "btf_release.h"

#define RULE(r) (1u << BTF_RULE_##r)

struct btf_release {
	const char *name;
	int numeric;
	unsigned int rules;
};

/* Newest first: the first is the default. */
static const struct btf_release releases[] = {
	{ "v1.32", 132,
	  RULE(NESTED_ARRAYS) | RULE(FUNCS_V132) | RULE(FEATURES_ALL) | RULE(DEDUP_TYPEDEF_GRAPHS) |
		  RULE(DEDUP_IDENTICAL_TYPES) | RULE(IMPORTED_UNITS) | RULE(ENUM_SUBPROGRAMS) },
	{ "v1.31", 131, 0 },
};

const struct btf_release *btf_release__find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++)
		if (!strcmp(releases[i].name, name))
			return &releases[i];
	return NULL;
}

const struct btf_release *btf_release__default(void)
{
	return &releases[0];
}

const char *btf_release__name(const struct btf_release *r)
{
	return r->name;
}

int btf_release__numeric(const struct btf_release *r)
{
	return r->numeric;
}

bool btf_release__has(const struct btf_release *r, enum btf_rule rule)
{
	return r->rules & (1u << rule);
}
