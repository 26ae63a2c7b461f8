/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_PAR_FOR_H_
#define _LIB_PAR_FOR_H_ 1

/*
 * A loop whose iterations are independent, run by several threads: for the
 * work of the serial phases after the workers that can be split by item.
 * The caller's thread is one of them.  What @fn writes for item i must
 * depend on i alone (items are handed out in blocks, first come first
 * served), so that the result is the same at any number of threads.
 *	err = par_for(nr_threads, n, fn, ctx);	// fn(ctx, i, thread) for i < n
 */
#include <stddef.h>

/*
 * Calls @fn(@ctx, i, t) for every i < @n, t < @nr_threads the calling
 * thread's number (for per-thread buffers), on at most @nr_threads threads:
 * fewer when threads cannot be started.  Once an @fn returns nonzero, no
 * new items are handed out; returns the nonzero return of the lowest item
 * that failed, else 0.
 */
int par_for(unsigned int nr_threads, size_t n, int (*fn)(void *ctx, size_t i, unsigned int thread),
	    void *ctx);

#endif /* _LIB_PAR_FOR_H_ */
