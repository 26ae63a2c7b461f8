/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _LIB_CLOCK_H_
#define _LIB_CLOCK_H_ 1

/* For -V's timings: seconds on CLOCK_MONOTONIC. */
#include <time.h>

static inline double clock__now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#endif /* _LIB_CLOCK_H_ */
