/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _PAHOLE_EXIT_H_
#define _PAHOLE_EXIT_H_ 1

/*
 * How a run ends when it cannot go on from where it is: a signal (SIGINT,
 * SIGTERM, SIGHUP), an abort() or failed assert() in a library (libdw
 * asserts where an allocation it needed failed), or glibc's error() called
 * by a library to exit (libdw and libdwfl out of memory).  Each says one
 * line, "pahole: FILE: cause", removes our temporary file if one has a name
 * (btf_writer__cleanup()) and exits 1, leaving every input as it was.
 *
 * One line however many threads fail: two workers can run out of memory at
 * once, one in libdw's error(), the other in an assert.  The paths above
 * share one flag, claimed atomically: the first to claim it says its line
 * and ends the process, every later one, in whatever thread, stops that
 * thread without a word until the process is gone.  A thread never stops
 * so while another could still have to be joined: only these paths claim
 * the flag, and each ends the process itself.  The lines of our own errors
 * are printed by the main thread once the workers are joined (encode.h),
 * so they need no flag.
 *
 * The flag and the lines are the process's own state, as a signal handler
 * is given no object: written once by pahole_exit__catch(), in main()'s one
 * thread before any library call, the flag changed only atomically after.
 *
 * This file is linked into pahole alone: its error() and __assert_fail()
 * stand for glibc's in every library of the process.  The fuzzer, which
 * links the library without it, keeps glibc's, to see the abort.
 */

/* Installs the handlers, with @input the FILE that the lines name. */
void pahole_exit__catch(const char *input);

#endif /* _PAHOLE_EXIT_H_ */
