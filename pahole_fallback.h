/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _PAHOLE_FALLBACK_H_
#define _PAHOLE_FALLBACK_H_ 1

/*
 * The hand-off: this pahole only encodes BTF, and is installed as `pahole`
 * beside (or instead of) dwarves' pahole, which does everything else
 * (pahole -C struct, --sizes, -F btf, pfunct's and btfdiff's calls).  As
 * ccache hands a compiler whatever it does not cache, an invocation that is
 * not ours is handed, arguments and environment unchanged, to the pahole
 * this one stands in for:
 *
 *   PAHOLE_FALLBACK, if set ("none": no hand-off);
 *   else the first `pahole` on PATH that is not this program (compared by
 *   device and inode once links are resolved, so a link to us is skipped);
 *   else the path given at build time (cmake -DPAHOLE_FALLBACK=PATH).
 *
 * Called by main() before it parses the options, in the one thread there is.
 */
#include <stdbool.h>

/*
 * Whether @argv asks for what this pahole does: encoding (-J, also in a
 * cluster of short options, --btf_encode, --btf_encode_detached), or
 * a version query (--version, --numeric_version, --devel_version: the
 * release we are, PAHOLE_COMPAT or --compat, not the dwarves behind us),
 * --supported_btf_features, --help, --usage, -?.
 */
bool pahole_fallback__ours(int argc, char *argv[]);

/*
 * Replaces this process with the pahole found as above, given @argv as it
 * is.  Returns only when there is none, or it cannot be run: having said
 * so in one line on stderr, with the exit status to end with (64, usage,
 * when none is found; 126 when it cannot be run, as a shell does).
 */
int pahole_fallback__exec(char *argv[]);

#endif /* _PAHOLE_FALLBACK_H_ */
