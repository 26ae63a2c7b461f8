/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _ELF_IMAGE_H_
#define _ELF_IMAGE_H_ 1

/*
 * elf_image: an ELF file with compressed sections (SHF_COMPRESSED: a
 * linker's --compress-debug-sections, a kernel's DEBUG_INFO_COMPRESSED_ZSTD
 * or _ZLIB, objcopy, eu-elfcompress) as a file libelf and libdw read as
 * plain: a copy in memory (a memfd) in which each compressed section is
 * decompressed once, by several threads, and placed after the file's bytes,
 * with a section header table after it that names it plain.  libelf and
 * libdw 0.188 read no zstd (elfutils 0.189 on do), and decompress zlib
 * section by section in one thread as libdw opens them.
 *
 * Every other byte of the image is the file's at its offset (program
 * headers, symbols, .BTF_ids and the rest read as from the file, and where
 * a compressed section's bytes were the image has zeros, taking no
 * memory); the file is only read.  Called by one thread, before the
 * workers start; the image is read-only once made, and any thread may read
 * it through libelf and libdw.
 *
 *	struct elf_image img;
 *	err = elf_image__unpack(elf, fd, file_size, threads, &img, why, sizeof(why));
 *	if (!err && img.fd >= 0)  ... elf_begin(img.fd, ...) instead ...
 *	elf_image__close(&img);
 */
#include <stdint.h>
#include <stddef.h>
#include <libelf.h>

struct elf_image {
	int fd; /* the image, a memfd; -1 when the file has nothing compressed */
	uint64_t size; /* its size in bytes */
	unsigned int sections; /* how many sections it decompressed */
};

/*
 * Reads @elf, opened by elf_begin() on @fd, a regular file of @file_size
 * bytes, and, when it has compressed sections, makes @img of it with up to
 * @threads threads, which read the file and write the image through
 * buffers of their own (neither is mapped here: the image takes memory
 * where libelf maps it and as its pages are read).  *@why is empty on
 * entry.  0, with img->fd -1 when there was nothing
 * to decompress; else a negative errno, @why naming the section and the
 * cause: -ENOEXEC for bad input (an unknown compression type, data that
 * does not decompress to the size its header gives, a compressed SHT_NOBITS
 * section or string table, a header or data past the file), -ENOMEM (also
 * a section larger than the memory limit), -EFBIG (a file-size limit below
 * the image: the memfd is a file to the kernel).
 */
int elf_image__unpack(Elf *elf, int fd, uint64_t file_size, unsigned int threads,
		      struct elf_image *img, char *why, size_t len);

/* Closes the image, if any. */
void elf_image__close(struct elf_image *img);

#endif /* _ELF_IMAGE_H_ */
