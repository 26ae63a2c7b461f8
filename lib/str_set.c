// SPDX-License-Identifier: GPL-2.0-only
/* A set of strings in the order they were added: see str_set.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "populate.h"
#include "str_set.h"

/*
 * Eight bytes at a time, each word mixed in by a multiply and a shift (a
 * byte at a time, FNV-1a's multiply per byte was most of a string's add);
 * the last bytes in a word of their own.  Any hash would do: no order nor
 * output depends on it, only where a string's slot is.
 */
uint32_t str_set__hash(const char *s, size_t len)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ len, w;

	for (; len >= 8; s += 8, len -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
		h ^= h >> 29;
	}
	if (len) {
		uint32_t w4 = 0;
		uint16_t w2 = 0;
		unsigned char w1 = 0;

		/* Four, two and one bytes, each a load of its size: no loop, no call. */
		if (len & 4)
			memcpy(&w4, s, 4);
		if (len & 2)
			memcpy(&w2, s + (len & 4), 2);
		if (len & 1)
			w1 = s[len - 1];
		w = (uint64_t)w4 | (uint64_t)w2 << 32 | (uint64_t)w1 << 48;
		h = (h ^ w) * 0x94d049bb133111ebull;
	}
	h ^= h >> 32;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint32_t)(h >> 32);
}

/* Room for @len more bytes and one more string. */
static int str_set__grow(struct str_set *s, size_t len)
{
	uint64_t *slots;
	uint32_t mask, i;

	/* A string section's offsets are 32 bits: past them the doubling below would not end. */
	if (len > UINT32_MAX - s->len)
		return -ENOMEM;
	if (s->len + len > s->cap) {
		uint32_t cap = s->cap ? s->cap : 4096;
		char *data;

		while (cap < s->len + len)
			cap *= 2;
		data = grow__realloc(s->data, s->cap, cap);
		if (!data)
			return -ENOMEM;
		s->data = data;
		s->cap = cap;
	}
	if (2 * (s->nr + 1) <= s->mask)
		return 0;
	mask = s->mask ? 2 * s->mask + 1 : 1023;
	slots = populate__calloc(mask + 1, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	for (i = 0; s->mask && i <= s->mask; i++) {
		uint32_t j;

		if (!s->slots[i])
			continue;
		for (j = (s->slots[i] >> 32) & mask; slots[j]; j = (j + 1) & mask)
			;
		slots[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = slots;
	s->mask = mask;
	return 0;
}

/*
 * The slot of the @len bytes at @str, whose hash is @hash: where they are,
 * else the empty slot that ends their probe.
 */
static uint32_t str_set__slot(const struct str_set *s, const char *str, size_t len, uint32_t hash)
{
	uint32_t i;

	for (i = hash & s->mask; s->slots[i]; i = (i + 1) & s->mask) {
		const char *t = s->data + (uint32_t)s->slots[i] - 1;

		if ((uint32_t)(s->slots[i] >> 32) == hash && !memcmp(t, str, len) && !t[len])
			break;
	}
	return i;
}

int str_set__add(struct str_set *s, const char *str)
{
	size_t len = strlen(str);
	uint32_t i, hash = str_set__hash(str, len);
	int err = str_set__grow(s, len + 1);

	if (err)
		return err;
	i = str_set__slot(s, str, len, hash);
	if (s->slots[i])
		return (uint32_t)s->slots[i] - 1;
	s->slots[i] = (uint64_t)hash << 32 | (s->len + 1);
	memcpy(s->data + s->len, str, len + 1);
	s->nr++;
	s->len += len + 1;
	return (uint32_t)s->slots[i] - 1;
}

int str_set__find(const struct str_set *s, const char *str, size_t len, uint32_t hash)
{
	uint32_t i;

	if (!s->mask)
		return -ENOENT;
	i = str_set__slot(s, str, len, hash);
	return s->slots[i] ? (int)((uint32_t)s->slots[i] - 1) : -ENOENT;
}

void str_set__clear(struct str_set *s)
{
	if (s->slots)
		memset(s->slots, 0, ((size_t)s->mask + 1) * sizeof(*s->slots));
	s->len = s->nr = 0;
}

void str_set__drop_index(struct str_set *s)
{
	free(s->slots);
	s->slots = NULL;
	s->mask = s->nr = 0;
}

void str_set__free(struct str_set *s)
{
	grow__free(s->data, s->cap);
	free(s->slots);
	s->data = NULL;
	s->slots = NULL;
	s->len = s->cap = s->nr = s->mask = 0;
}
