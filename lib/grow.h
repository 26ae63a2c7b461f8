/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_GROW_H_
#define _LIB_GROW_H_ 1

/*
 * Buffers that grow by doubling to megabytes (a BTF's types and strings as
 * they are built).  realloc() of a block in the C library's heap copies it
 * into new pages, each faulted in as the copy writes it (a fault costs
 * microseconds: populate.h); from GROW_MAP bytes on, such a buffer is a
 * mapping of its own, which mremap() grows by moving its page tables, and
 * reaches there by one copy into pages mapped at once.  Which kind a buffer
 * is follows from its capacity, which its owner passes back exactly: every
 * buffer given to these came from them, or from malloc() below GROW_MAP.
 * One owner, any thread.
 */
#include <stddef.h>
#include <stdint.h>

#define GROW_MAP (1u << 20)

/*
 * A buffer of @cap bytes at @p (NULL when @cap is 0) made one of @new_cap
 * >= @cap, its bytes kept; the new one, or NULL (errno set) with @p left
 * as it was.
 */
void *grow__realloc(void *p, size_t cap, size_t new_cap);

/*
 * A new buffer of @len bytes (its capacity) holding a copy of @src's: its
 * pages mapped in one call before the copy writes them whole (populate.h).
 * NULL, errno set, when out of memory.
 */
void *grow__copy(const void *src, size_t len);

/* Frees the buffer of @cap bytes at @p (NULL is no buffer). */
void grow__free(void *p, size_t cap);

/*
 * Room for @want elements of @size bytes at *(void **)@p, which has room
 * for *@cap, all to be written anew (a C library block, any size): what it
 * held is not kept, so not copied as realloc() would.  1 when the room is
 * new (malloc()'s, not zeroed), 0 when it was there, or -ENOMEM.
 */
int grow__room(void *p, uint32_t *cap, uint32_t want, size_t size);

#endif /* _LIB_GROW_H_ */
