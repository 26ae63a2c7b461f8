/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_DARRAY_H_
#define _LIB_DARRAY_H_ 1

/*
 * A growable array of any element type:
 *	DARRAY(struct foo) foos = {};
 *	struct foo *f = darray__push(&foos);	// NULL when out of memory
 *	darray__free(&foos);
 */
#include <stdlib.h>

#define DARRAY(type)                 \
	struct {                     \
		type *data;          \
		size_t nr, capacity; \
	}

void *darray__grow(void **data, size_t *capacity, size_t elem_size, size_t min);

/* A pointer to a new, uninitialized last element, or NULL. */
#define darray__push(a)                                                               \
	((a)->nr < (a)->capacity || darray__grow((void **)&(a)->data, &(a)->capacity, \
						 sizeof(*(a)->data), (a)->nr + 1) ?   \
		 &(a)->data[(a)->nr++] :                                              \
		 NULL)

#define darray__free(a)            \
	do {                       \
		free((a)->data);   \
		(a)->data = NULL;  \
		(a)->nr = 0;       \
		(a)->capacity = 0; \
	} while (0)

#endif /* _LIB_DARRAY_H_ */
