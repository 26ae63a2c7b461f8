// SPDX-License-Identifier: GPL-2.0-only
/*
 * Threads that end the run at the same moment, each its own way (libdw's
 * error() for no memory, an abort(), a signal, a failed assertion): one
 * line, exit 1, whichever comes first (pahole_exit.h).  And a failed
 * assertion alone: its line keeps the assertion, its file and its line.  Each try is a child process whose threads
 * are let go together from a barrier; the parent reads the child's stderr.
 * Deterministic in what it asserts: every try must give one line.
 */
#undef NDEBUG
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pahole_exit.h"

#define TRIES 300
#define THREADS 6
#define INPUT "race.o"

void error(int status, int errnum, const char *format, ...);

static pthread_barrier_t start;

static void *end_run(void *arg)
{
	long way = (long)arg;

	pthread_barrier_wait(&start);
	if (way % 4 == 0)
		error(EXIT_FAILURE, ENOMEM, "libdw");
	else if (way % 4 == 1)
		abort();
	else if (way % 4 == 2)
		pthread_kill(pthread_self(), SIGTERM);
	else
		assert(way < 0);
	for (;;)
		pause();
}

static void __attribute__((noreturn)) child(int first)
{
	pthread_t t[THREADS];
	long i;

	if (first < 0) {
		/* A failed assertion alone (ASSERT_LINE is its line). */
		pahole_exit__catch(INPUT);
		assert(first == 0);
		_exit(0);
	}

	pahole_exit__catch(INPUT);
	pthread_barrier_init(&start, NULL, THREADS);
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, end_run, (void *)(i + first));
	pthread_join(t[0], NULL);
	_exit(0); /* never reached: some thread ends the process */
}

/* One try: the child's stderr in @buf; its exit status, or -1. */
static int try(int first, char *buf, size_t size)
{
	int fds[2], status;
	size_t len = 0;
	ssize_t n;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], STDERR_FILENO);
		close(fds[0]);
		child(first);
	}
	close(fds[1]);
	while (len + 1 < size && (n = read(fds[0], buf + len, size - 1 - len)) > 0)
		len += n;
	buf[len] = '\0';
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(void)
{
	const char *prefix = "pahole: " INPUT ": ";
	int i, passed = 0, failed = 0;
	char buf[4096];

	for (i = 0; i < TRIES; i++) {
		int rc = try(i, buf, sizeof(buf));
		char *nl = strchr(buf, '\n');

		if (rc == 1 && !strncmp(buf, prefix, strlen(prefix)) && nl && !nl[1]) {
			passed++;
			continue;
		}
		failed++;
		fprintf(stderr, "FAIL: try %d: exit %d, stderr: %s", i, rc, buf);
	}
	/* The assertion's place is said: this file, and the line in child() that fails. */
	i = try(-1, buf, sizeof(buf));
	if (i == 1 && strstr(buf, "exit_race.c:") && strstr(buf, "first == 0") &&
	    strchr(buf, '\n') && !strchr(buf, '\n')[1]) {
		passed++;
	} else {
		failed++;
		fprintf(stderr, "FAIL: a failed assertion: exit %d, stderr: %s", i, buf);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
