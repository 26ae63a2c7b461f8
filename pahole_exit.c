// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ways a run ends from inside a library or a signal, one line for all
 * of them (pahole_exit.h).
 */
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "btf_writer.h"
#include "pahole_exit.h"

/* "pahole: FILE: ", and the whole lines the handlers say after it. */
static char prefix[PATH_MAX + 16];
static char interrupted_msg[PATH_MAX + 64];
static char aborted_msg[2][PATH_MAX + 96];
/* Set by the first path that ends the run (pahole_exit.h). */
static atomic_flag ending = ATOMIC_FLAG_INIT;

/* The calling thread waits, without a word, for the process to be ended by another. */
static void __attribute__((noreturn)) pahole_exit__park(void)
{
	for (;;)
		pause();
}

/*
 * The first caller writes @len bytes of @msg, the file named by its
 * prefix, and exits 1; any later one parks.  Async-signal-safe.
 */
static void __attribute__((noreturn)) pahole_exit__say(const char *msg, size_t len)
{
	ssize_t n;

	if (atomic_flag_test_and_set(&ending))
		pahole_exit__park();
	btf_writer__cleanup();
	n = write(STDERR_FILENO, msg, len);
	(void)n;
	_exit(EXIT_FAILURE);
}

static void on_signal(int sig)
{
	(void)sig;
	pahole_exit__say(interrupted_msg, strlen(interrupted_msg));
}

/*
 * An abort() in a library (glibc, itself out of memory, could only say
 * "Unexpected error.").  Whether memory is what ran out: a page cannot be
 * mapped.
 */
static bool memory_out(void);

static void on_abort(int sig)
{
	const char *msg = aborted_msg[!memory_out()];

	(void)sig;
	pahole_exit__say(msg, strlen(msg));
}

/* Whether memory ran out: a page cannot be mapped (which libdw's asserts can mean). */
static bool memory_out(void)
{
	void *page =
		mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (page == MAP_FAILED)
		return true;
	munmap(page, 1 << 20);
	return false;
}

/* Appends what @fmt says to the @len bytes of @buf (of @size), cut to fit: the new length. */
static size_t __attribute__((format(printf, 4, 0)))
line__vadd(char *buf, size_t len, size_t size, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf + len, size - len, fmt, ap);

	return n < 0 ? len : len + (size_t)n < size ? len + (size_t)n : size - 1;
}

static size_t __attribute__((format(printf, 4, 5)))
line__add(char *buf, size_t len, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	len = line__vadd(buf, len, size, fmt, ap);
	va_end(ap);
	return len;
}

/*
 * glibc's error(), as error.h declares it (not included: _FORTIFY_SOURCE
 * may define it inline there).  libdw and libdwfl call it to exit where
 * they run out of memory ("libdw", ENOMEM).  Formatted on the stack, with
 * no stdio lock held: the thread may park here for good.  A status of 0,
 * a warning, is said and returns, as glibc's does.
 */
void error(int status, int errnum, const char *format, ...) __attribute__((format(printf, 3, 4)));

void error(int status, int errnum, const char *format, ...)
{
	/* Room for the newline after what line__vadd() makes fit. */
	char line[sizeof(prefix) + 512];
	size_t size = sizeof(line) - 1, len;
	va_list ap;
	ssize_t n;

	len = line__add(line, 0, size, "%s", prefix);
	va_start(ap, format);
	len = line__vadd(line, len, size, format, ap);
	va_end(ap);
	if (errnum)
		len = line__add(line, len, size, ": %s", strerror(errnum));
	if (status)
		len = line__add(line, len, size, ", nothing written");
	line[len++] = '\n';
	if (status)
		pahole_exit__say(line, len);
	n = write(STDERR_FILENO, line, len);
	(void)n;
}

/*
 * assert.h declares this as what a failed assert() calls: glibc's would
 * print a line of its own, then abort.  Ours is one line, with the
 * assertion and its place, unless memory is what ran out (libdw asserts
 * where an allocation it needed failed).
 */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
	char msg[sizeof(prefix) + 512];
	size_t size = sizeof(msg) - 1, len;

	if (memory_out())
		pahole_exit__say(aborted_msg[0], strlen(aborted_msg[0]));
	len = line__add(msg, 0, size,
			"%sinternal error: assertion '%s' failed at %s:%u (%s), "
			"nothing written",
			prefix, assertion, file, line, function);
	msg[len++] = '\n';
	pahole_exit__say(msg, len);
}

void pahole_exit__catch(const char *input)
{
	struct sigaction sa = { .sa_handler = on_signal };

	snprintf(prefix, sizeof(prefix), "pahole: %s: ", input);
	snprintf(interrupted_msg, sizeof(interrupted_msg),
		 "pahole: %s: interrupted by a signal, nothing written\n", input);
	snprintf(aborted_msg[0], sizeof(aborted_msg[0]),
		 "pahole: %s: out of memory (a library it runs on gave up), nothing written\n",
		 input);
	snprintf(aborted_msg[1], sizeof(aborted_msg[1]),
		 "pahole: %s: a library it runs on aborted (SIGABRT), nothing written\n", input);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_abort;
	sigaction(SIGABRT, &sa, NULL);
	/* Past a file size limit, write() fails with EFBIG: said, as any write error. */
	signal(SIGXFSZ, SIG_IGN);
}
