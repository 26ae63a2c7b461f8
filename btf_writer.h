/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _BTF_WRITER_H_
#define _BTF_WRITER_H_ 1

/*
 * btf_writer: puts encoded BTF where it goes, never leaving a damaged file.
 *
 * Every write goes to a new file in the destination's directory that has no
 * name (O_TMPFILE) until it is complete and synced; only then is it given a
 * name and renamed over the destination.  A crash, a kill or a full disk at
 * any earlier moment leaves the destination as it was and nothing behind.
 *
 * Both return 0 or a negative errno; *@cause then says what failed.
 */
#include <stddef.h>

/*
 * What must hold before a file is replaced: @fn(@ctx) returns 0, or a
 * negative errno, which it has told, and which leaves the file as it was
 * (*cause is then NULL).  Called once the bytes are written (into nothing
 * yet where a device or FIFO is written to).
 */
struct btf_writer_check {
	int (*fn)(void *ctx);
	void *ctx;
};

/* Writes @size bytes of raw BTF to @path (created or replaced), once @check holds (or NULL). */
int btf_writer__raw(const char *path, const void *data, size_t size,
		    const struct btf_writer_check *check, const char **cause);

/*
 * The layout feature (upstream pahole after v1.31, libbpf 1.8): raw BTF
 * @data of @size bytes, as libbpf 1.1 writes it (24-byte header, types,
 * strings), with a kind layout section: the header grows to 32 bytes
 * (layout_off, layout_len), and a struct btf_layout per kind libbpf 1.1
 * knows (the bytes after struct btf_type, fixed and per vlen item; flags
 * 0) sits between the types and the strings, in the byte order of @data.
 * Readers of 1.1 and older kernels take no such header.  *@out is a
 * malloc()ed buffer of *@out_size bytes; 0, -ENOMEM, or -EINVAL for BTF not
 * laid out so.
 */
int btf_writer__add_layout(const void *data, size_t size, void **out, size_t *out_size);

struct btf_section {
	const char *name; /* ".BTF", ".BTF.base" */
	const void *data;
	size_t size;
};

/*
 * An ELF file's copy begun beside it, in a thread, while its BTF is
 * encoded: a vmlinux's hundreds of megabytes took as long to copy as to
 * encode.  NULL where it cannot begin (not a regular file, not writable,
 * out of memory): btf_writer__elf() then copies, and says what fails.
 * btf_writer__copy_drop() frees it, used or not, joining the thread.
 */
struct btf_writer_copy;
struct btf_writer_copy *btf_writer__copy_start(const char *path);
void btf_writer__copy_drop(struct btf_writer_copy *copy);

/*
 * Replaces the ELF file @path with a copy in which each of the @nr (at most
 * 4) sections @secs holds its data: added, or replaced when there is one of
 * that name.  Every other section keeps its bytes and its place in the file;
 * mode and ownership are kept; once @check holds (or NULL).  The copy is
 * @copy's, when it is of @path (else NULL), which it then uses up.
 */
int btf_writer__elf(const char *path, const struct btf_section *secs, size_t nr,
		    const struct btf_writer_check *check, struct btf_writer_copy *copy,
		    const char **cause);

/*
 * Removes a named temporary file of ours, if one exists at this moment;
 * async-signal-safe, for a SIGINT/SIGTERM handler.
 */
void btf_writer__cleanup(void);

#endif /* _BTF_WRITER_H_ */
