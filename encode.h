/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ENCODE_H_
#define _ENCODE_H_ 1

/*
 * encode: what `pahole -J` does with one input, as a library step.  Open
 * the ELF file, encode its units with one btf_encoder per worker, merge
 * (btf_encoder.h), then write the BTF into the file's .BTF section or into
 * a file of its own.  pahole.c reads the options into a btf_encoder_conf
 * and calls these; so does the fuzzer (tests/fuzz/fuzz_encode.c).
 *
 * Call them from one thread: encode__file() starts its workers and joins
 * them before it returns.  Every failure is told in one line on stderr,
 * "pahole: FILE: cause", and returned as a negative errno.
 */
#include <stdbool.h>
#include <stddef.h>

struct btf_encoder_conf;
struct encode_result;

/*
 * Encodes the ELF file @path as @conf says (whose base BTF, if any, is
 * already read) into *@out, to free with encode_result__delete(): 0, or
 * -ENODATA when there is nothing to write (no DWARF, or DWARF without a
 * single type: a warning line, no error for a kernel build), or a negative
 * errno.  Reads @path, never writes it.
 */
int encode__file(const char *path, const struct btf_encoder_conf *conf, struct encode_result **out);

/*
 * The BTF's bytes as they are written to a file of their own: in the byte
 * order of the ELF file it describes, with a kind layout section when the
 * layout feature asks (not for split BTF).  Made on the first call, kept
 * for the next and for encode_result__write().  0 or -ENOMEM.
 */
int encode_result__raw(struct encode_result *r, const void **raw, size_t *size);

/*
 * Writes the BTF to @path: the raw bytes when @detached, else into the ELF
 * file @path as its .BTF section (with distilled_base, split BTF on a
 * distilled base, written as .BTF.base).  The file is replaced whole or
 * left as it was (btf_writer.h).
 */
int encode_result__write(struct encode_result *r, const char *path, bool detached);

/*
 * Frees the result, and closes the input, which encode__file() leaves open
 * (its DWARF, ELF file and symbols: a vmlinux's take some 15 ms to free,
 * with the BTF).  A process that ends once the BTF is written may leave
 * both to its exit, which lets all go at once (pahole.c does).
 */
void encode_result__delete(struct encode_result *r);

#endif /* _ENCODE_H_ */
