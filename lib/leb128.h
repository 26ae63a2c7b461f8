/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_LEB128_H_
#define _LIB_LEB128_H_ 1

/*
 * LEB128 (DWARF 5, 7.6) as the hand-made DIE and location readers take it:
 * ten bytes at most, the most a 64-bit value needs.  A longer one, or one
 * that runs past @end, is left to libdw, which reads those its own way.
 */
#include <stdbool.h>
#include <stdint.h>

/* The ULEB128 (or, @is_signed, SLEB128) at *@p into *@v; *@p moves past it.  False if unusual. */
static inline bool leb128__read(const unsigned char **p, const unsigned char *end, uint64_t *v,
				bool is_signed)
{
	const unsigned char *q = *p;
	unsigned int shift = 0;
	uint64_t r = 0;

	/* Most are one byte (abbreviation codes, names and forms): the loop's first turn. */
	if (q < end && *q < 0x80) {
		r = *q;
		if (is_signed && (r & 0x40))
			r |= ~0ull << 7;
		*p = q + 1;
		*v = r;
		return true;
	}
	while (q < end && q - *p < 10) {
		unsigned char b = *q++;

		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (b & 0x80)
			continue;
		if (is_signed && shift < 64 && (b & 0x40))
			r |= ~0ull << shift;
		*p = q;
		*v = r;
		return true;
	}
	return false;
}

#endif /* _LIB_LEB128_H_ */
