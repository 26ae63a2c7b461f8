/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_ELFUTILS_H_
#define _LIB_ELFUTILS_H_ 1

/*
 * What a failed call of libelf, libdw or libdwfl means.  Their headers
 * publish no error codes, and they fail alike for a bad file and for no
 * memory; what malloc and mmap leave in errno tells the two apart, so the
 * caller clears errno before the calls it judges.
 */
#include <errno.h>

/* -ENOMEM when memory ran out, else @bad (the caller's word for a bad file). */
static inline int elfutils__err(int bad)
{
	return errno == ENOMEM ? -ENOMEM : bad;
}

#endif /* _LIB_ELFUTILS_H_ */
