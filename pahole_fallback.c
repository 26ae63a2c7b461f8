// SPDX-License-Identifier: GPL-2.0-only
/* Handing on to dwarves' pahole what this one does not do: see pahole_fallback.h. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pahole_fallback.h"

#ifndef PAHOLE_FALLBACK_DEFAULT
#define PAHOLE_FALLBACK_DEFAULT ""
#endif

/*
 * Every build of this pahole holds these bytes (the line said when there is
 * no fallback), and dwarves' does not: another copy of ours on PATH is no
 * fallback, or two would hand an invocation to each other forever.
 */
#define OURS_MARKER "this pahole only encodes BTF (-J); dwarves' pahole does the rest"

/* dwarves' pahole's short options that take an argument (v1.31's pahole.c). */
static const char short_with_arg[] = "BcCfFiHztDxyXw";

/* Whether @arg is --@name or --@name=VALUE. */
static bool long_is(const char *arg, const char *name)
{
	size_t len = strlen(name);

	return !strncmp(arg + 2, name, len) && (!arg[2 + len] || arg[2 + len] == '=');
}

/*
 * Whether the long option @arg (with its "--") is ours: argp takes a unique
 * abbreviation too, so --btf_encode_d is --btf_encode_detached.
 */
static bool long_is_ours(const char *arg)
{
	static const char *const exact[] = { "btf_encode",
					     "version",
					     "numeric_version",
					     "devel_version",
					     "supported_btf_features",
					     "help",
					     "usage" };
	const char *detached = "btf_encode_detached";
	size_t i, len = strcspn(arg + 2, "=");

	for (i = 0; i < sizeof(exact) / sizeof(exact[0]); i++)
		if (long_is(arg, exact[i]))
			return true;
	return len > strlen("btf_encode") && len <= strlen(detached) &&
	       !strncmp(arg + 2, detached, len);
}

/*
 * For a cluster of short options @arg ("-VJ"): whether it holds -J, and in
 * *@takes_next whether its last option takes the next argument as its own.
 */
static bool cluster_encodes(const char *arg, bool *takes_next)
{
	const char *p;

	*takes_next = false;
	for (p = arg + 1; *p; p++) {
		if (*p == 'J')
			return true;
		if (*p == 'j') /* its optional argument is the rest of the cluster */
			return false;
		if (strchr(short_with_arg, *p)) {
			*takes_next = !p[1];
			return false;
		}
	}
	return false;
}

bool pahole_fallback__ours(int argc, char *argv[])
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool takes_next;

		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			if (long_is_ours(a))
				return true;
		} else if (!strcmp(a, "-?") || cluster_encodes(a, &takes_next)) {
			return true;
		} else if (takes_next) {
			i++;
		}
	}
	return false;
}

/* Whether the file @path, of @size bytes, is a build of this pahole. */
static bool is_ours(const char *path, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	void *map = fd >= 0 && size ? mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	bool ours = map != MAP_FAILED && memmem(map, size, OURS_MARKER, strlen(OURS_MARKER));

	if (map != MAP_FAILED)
		munmap(map, size);
	if (fd >= 0)
		close(fd);
	return ours;
}

/* Whether @path is an executable file other than this program, nor a copy of it. */
static bool other_pahole(const char *path, const struct stat *self)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode) && !access(path, X_OK) &&
	       (st.st_dev != self->st_dev || st.st_ino != self->st_ino) &&
	       !is_ours(path, st.st_size);
}

/* The first pahole on PATH that is not this one, in @buf; or NULL. */
static const char *path_pahole(const struct stat *self, char *buf, size_t size)
{
	const char *path = getenv("PATH"), *p, *end;

	for (p = path; p && *p; p = *end ? end + 1 : end) {
		size_t len;

		end = strchrnul(p, ':');
		len = end - p;
		if (snprintf(buf, size, "%.*s/pahole", (int)len, len ? p : ".") >= (int)size)
			continue;
		if (other_pahole(buf, self))
			return buf;
	}
	return NULL;
}

int pahole_fallback__exec(char *argv[])
{
	const char *env = getenv("PAHOLE_FALLBACK"), *path = NULL;
	char buf[PATH_MAX];
	struct stat self;

	if (stat("/proc/self/exe", &self) != 0)
		self = (struct stat){};
	if (env && *env && strcmp(env, "none")) {
		if (!other_pahole(env, &self)) {
			fprintf(stderr,
				"pahole: PAHOLE_FALLBACK=%s: no program to run, or this pahole\n",
				env);
			return 126;
		}
		path = env;
	} else if (!env || !*env) {
		path = path_pahole(&self, buf, sizeof(buf));
		if (!path && other_pahole(PAHOLE_FALLBACK_DEFAULT, &self))
			path = PAHOLE_FALLBACK_DEFAULT;
	}
	if (!path) {
		fprintf(stderr, "pahole: " OURS_MARKER
				", and none was found (PAHOLE_FALLBACK names one)\n");
		return 64;
	}
	execv(path, argv);
	fprintf(stderr, "pahole: %s: %s\n", path, strerror(errno));
	return 126;
}
