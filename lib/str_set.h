/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_STR_SET_H_
#define _LIB_STR_SET_H_ 1

/*
 * A set of strings laid out one after another, each with its NUL, in the
 * order they were first added: a BTF string section in the making.  One
 * owner, no locking.
 *	struct str_set s = {};
 *	int off = str_set__add(&s, "name");	// its offset in s.data, or -ENOMEM
 *	str_set__free(&s);
 */
#include <stddef.h>
#include <stdint.h>

struct str_set {
	char *data; /* a buffer of lib/grow.h's, of @cap bytes: str_set__free() frees it */
	uint32_t len; /* bytes of data used */
	uint32_t cap;
	/*
	 * Open addressing by content: each slot a string's hash << 32 | its
	 * offset + 1 (0: empty), so that a probe compares the strings only
	 * when their hashes agree, and growing hashes none again.
	 */
	uint64_t *slots;
	uint32_t mask, nr;
};

/* The offset of @str in @s->data, added at the end if it is not there yet. */
int str_set__add(struct str_set *s, const char *str);
/* The offset of the @len bytes at @str (their str_set__hash() @hash), or -ENOENT. */
int str_set__find(const struct str_set *s, const char *str, size_t len, uint32_t hash);
/* No strings, the memory kept. */
void str_set__clear(struct str_set *s);
/*
 * The strings kept, to read (s->data, s->len), the index to find them gone:
 * no str_set__add() or str_set__find() after, but str_set__free().
 */
void str_set__drop_index(struct str_set *s);
void str_set__free(struct str_set *s);

/* The hash of the @len bytes at @s that the set uses, for indexes of strings elsewhere. */
uint32_t str_set__hash(const char *s, size_t len);

#endif /* _LIB_STR_SET_H_ */
