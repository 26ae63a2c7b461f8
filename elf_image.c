// SPDX-License-Identifier: GPL-2.0-only
/* A file's compressed sections decompressed into an image of it: see elf_image.h. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gelf.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "elf_image.h"
#include "lib/par_for.h"

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2
#endif

/* What one thread does: a compressed section decompressed, or a run of the file's bytes copied. */
struct unpack_job {
	uint64_t src_off, src_size; /* in the file: the data after the compression header */
	uint64_t dst_off, dst_size; /* in the image: ch_size; src_size for a copy */
	uint64_t align; /* ch_addralign */
	size_t section; /* its index; 0 for a copy */
	unsigned int type; /* ch_type; 0 for a copy */
};

/* A thread's buffers, made as it takes its first job. */
struct unpack_buf {
	unsigned char *in, *out;
	ZSTD_DCtx *zstd;
};

#define UNPACK_BUF (1u << 20)

struct unpack {
	Elf *elf;
	int in_fd, out_fd;
	uint64_t file_size;
	size_t shstrndx, nr_sections;
	bool big_endian, is64;
	struct unpack_job *jobs;
	size_t nr_jobs, nr_unpacked;
	struct unpack_buf *bufs; /* one per thread */
	const char **job_why; /* per job: why it failed */
	char *why;
	size_t len;
};

/* The section's name, for messages. */
static const char *scn_name(const struct unpack *u, size_t idx)
{
	Elf_Scn *scn = elf_getscn(u->elf, idx);
	const char *name = NULL;
	GElf_Shdr shdr;

	if (scn && gelf_getshdr(scn, &shdr))
		name = elf_strptr(u->elf, u->shstrndx, shdr.sh_name);
	return name ?: "(unnamed)";
}

static int bad(const struct unpack *u, size_t idx, const char *what)
{
	snprintf(u->why, u->len, "section %s: %s", scn_name(u, idx), what);
	return -ENOEXEC;
}

/* Reads @n bytes at @off of the file into @buf: NULL, or why not. */
static const char *read_at(int fd, void *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t r = pread(fd, buf, n, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r ? "cannot read the file" : "the file ended early";
		buf = (char *)buf + r;
		n -= r;
		off += r;
	}
	return NULL;
}

/* Writes @n bytes of @buf at @off of the image: NULL, or why not. */
static const char *write_at(int fd, const void *buf, size_t n, uint64_t off)
{
	while (n) {
		ssize_t w = pwrite(fd, buf, n, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return errno == EFBIG ?
				       "the file-size limit is too low for the memory file" :
				       "out of memory";
		buf = (const char *)buf + w;
		n -= w;
		off += w;
	}
	return NULL;
}

/*
 * Writes what a decompressor gave, @n bytes more after *@done: NULL, or why
 * not (@more when the header's size cannot hold them).
 */
static const char *put_out(const struct unpack *u, const struct unpack_job *j,
			   const struct unpack_buf *b, size_t n, uint64_t *done, const char *more)
{
	const char *err;

	if (n > j->dst_size - *done)
		return more;
	err = write_at(u->out_fd, b->out, n, j->dst_off + *done);
	*done += n;
	return err;
}

/*
 * Decompresses zstd frames, as many as there are, into exactly the size
 * the header gives, streaming through the thread's buffers: the output
 * never mapped here, so that it takes the process no memory of its own.
 */
static const char *unzstd(const struct unpack *u, const struct unpack_job *j, struct unpack_buf *b)
{
	uint64_t in_left = j->src_size, done = 0;
	ZSTD_inBuffer in = { b->in, 0, 0 };
	const char *err;
	size_t ret = 0;

	if (!b->zstd && !(b->zstd = ZSTD_createDCtx()))
		return "out of memory";
	ZSTD_DCtx_reset(b->zstd, ZSTD_reset_session_only);
	for (;;) {
		ZSTD_outBuffer out = { b->out, UNPACK_BUF, 0 };

		if (in.pos == in.size && in_left) {
			in.size = in_left < UNPACK_BUF ? in_left : UNPACK_BUF;
			in.pos = 0;
			err = read_at(u->in_fd, b->in, in.size, j->src_off + j->src_size - in_left);
			if (err)
				return err;
			in_left -= in.size;
		}
		ret = ZSTD_decompressStream(b->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return "corrupt zstd data";
		err = out.pos ? put_out(u, j, b, out.pos, &done,
					"its zstd data decompress to more than its header says") :
				NULL;
		if (err)
			return err;
		/* No input left, and the output not full: nothing more is held back. */
		if (in.pos == in.size && !in_left && out.pos < out.size)
			break;
	}
	if (ret)
		return "its zstd data end within a frame";
	return done == j->dst_size ? NULL : "its zstd data decompress to less than its header says";
}

/* Decompresses one zlib stream into exactly the size the header gives, as unzstd(). */
static const char *unzlib(const struct unpack *u, const struct unpack_job *j, struct unpack_buf *b)
{
	uint64_t in_left = j->src_size, done = 0;
	z_stream z = { 0 };
	const char *err = NULL;
	int rc = Z_OK;

	if (inflateInit(&z) != Z_OK)
		return "out of memory";
	while (!err && rc != Z_STREAM_END) {
		if (!z.avail_in && in_left) {
			z.avail_in = in_left < UNPACK_BUF ? in_left : UNPACK_BUF;
			z.next_in = b->in;
			err = read_at(u->in_fd, b->in, z.avail_in,
				      j->src_off + j->src_size - in_left);
			in_left -= z.avail_in;
			if (err)
				break;
		}
		z.next_out = b->out;
		z.avail_out = UNPACK_BUF;
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && !(rc == Z_BUF_ERROR && in_left)) {
			err = rc == Z_MEM_ERROR ? "out of memory" :
			      rc == Z_BUF_ERROR ? "its zlib data end within their stream" :
						  "corrupt zlib data";
			break;
		}
		if (UNPACK_BUF - z.avail_out)
			err = put_out(u, j, b, UNPACK_BUF - z.avail_out, &done,
				      "its zlib data decompress to more than its header says");
	}
	inflateEnd(&z);
	if (!err && done != j->dst_size)
		err = "its zlib data decompress to less than its header says";
	return err;
}

/* The compression types read here, one row each. */
static const struct {
	unsigned int type;
	const char *(*decompress)(const struct unpack *u, const struct unpack_job *j,
				  struct unpack_buf *b);
} decompressors[] = {
	{ ELFCOMPRESS_ZLIB, unzlib },
	{ ELFCOMPRESS_ZSTD, unzstd },
};

static int decompressor(unsigned int type)
{
	size_t i;

	for (i = 0; i < sizeof(decompressors) / sizeof(decompressors[0]); i++)
		if (decompressors[i].type == type)
			return (int)i;
	return -1;
}

/* Copies a run of the file's bytes: in the kernel where it can, else through the buffers. */
static const char *copy_run(const struct unpack *u, const struct unpack_job *j,
			    struct unpack_buf *b)
{
	loff_t in = j->src_off, out = j->dst_off;
	uint64_t left = j->src_size;
	const char *err;

	while (left) {
		ssize_t n = copy_file_range(u->in_fd, &in, u->out_fd, &out, left, 0);

		if (n > 0) {
			left -= n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	while (left) {
		size_t n = left < UNPACK_BUF ? left : UNPACK_BUF;

		err = read_at(u->in_fd, b->in, n, in);
		err = err ?: write_at(u->out_fd, b->in, n, out);
		if (err)
			return err;
		in += n;
		out += n;
		left -= n;
	}
	return NULL;
}

static int unpack_job__run(void *ctx, size_t i, unsigned int thread)
{
	struct unpack *u = ctx;
	const struct unpack_job *j = &u->jobs[i];
	struct unpack_buf *b = &u->bufs[thread];

	if (!b->in) {
		b->in = malloc(UNPACK_BUF);
		b->out = malloc(UNPACK_BUF);
		if (!b->in || !b->out) {
			u->job_why[i] = "out of memory";
			return -ENOMEM;
		}
	}
	u->job_why[i] = j->type ? decompressors[decompressor(j->type)].decompress(u, j, b) :
				  copy_run(u, j, b);
	return u->job_why[i] ? -ENOEXEC : 0;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/*
 * Notes section @idx (@shdr), compressed, as a job whose output goes at
 * *@end aligned as its header says; *@end moves past it.  0, or -ENOEXEC
 * or -ENOMEM with u->why.
 */
static int unpack__add_section(struct unpack *u, size_t idx, Elf_Scn *scn, const GElf_Shdr *shdr,
			       uint64_t *end)
{
	size_t chdr_size = u->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	struct unpack_job *j = &u->jobs[u->nr_jobs];
	struct rlimit as;
	GElf_Chdr chdr;

	if (shdr->sh_type == SHT_NOBITS)
		return bad(u, idx, "compressed, yet of type SHT_NOBITS (no bytes in the file)");
	if (shdr->sh_type == SHT_STRTAB || idx == u->shstrndx)
		return bad(u, idx, "a compressed string table, which ELF does not allow");
	if (shdr->sh_offset > u->file_size || shdr->sh_size > u->file_size - shdr->sh_offset ||
	    shdr->sh_size < chdr_size || !gelf_getchdr(scn, &chdr))
		return bad(u, idx,
			   "its compression header is truncated or past the end of the file");
	if (decompressor(chdr.ch_type) < 0) {
		snprintf(u->why, u->len, "section %s: unknown compression type %u",
			 scn_name(u, idx), chdr.ch_type);
		return -ENOEXEC;
	}
	j->align = chdr.ch_addralign ?: 1;
	if (!is_pow2(j->align) || j->align > 1u << 16)
		return bad(u, idx,
			   "its compression header gives an alignment no power of 2 up to 64 KiB");
	/* No address space holds more; nor does RLIMIT_AS's, where libelf maps it. */
	if (chdr.ch_size > (uint64_t)1 << 47 ||
	    (!getrlimit(RLIMIT_AS, &as) && as.rlim_cur != RLIM_INFINITY &&
	     chdr.ch_size > as.rlim_cur)) {
		snprintf(u->why, u->len,
			 "section %s: its %llu bytes decompressed are beyond the memory limit",
			 scn_name(u, idx), (unsigned long long)chdr.ch_size);
		return -ENOMEM;
	}
	*end = (*end + j->align - 1) & ~(j->align - 1);
	j->src_off = shdr->sh_offset + chdr_size;
	j->src_size = shdr->sh_size - chdr_size;
	j->dst_off = *end;
	j->dst_size = chdr.ch_size;
	j->section = idx;
	j->type = chdr.ch_type;
	*end += chdr.ch_size;
	u->nr_jobs++;
	return 0;
}

/* Reads the section headers: a job per compressed section, their image after the file. */
static int unpack__scan(struct unpack *u, uint64_t *end)
{
	size_t idx;
	int err;

	*end = u->file_size;
	for (idx = 1; idx < u->nr_sections; idx++) {
		Elf_Scn *scn = elf_getscn(u->elf, idx);
		GElf_Shdr shdr;

		if (!scn || !gelf_getshdr(scn, &shdr)) {
			snprintf(u->why, u->len, "truncated or corrupt ELF file");
			return -ENOEXEC;
		}
		if (!(shdr.sh_flags & SHF_COMPRESSED))
			continue;
		err = unpack__add_section(u, idx, scn, &shdr, end);
		if (err)
			return err;
	}
	u->nr_unpacked = u->nr_jobs;
	return 0;
}

static int job__by_src(const void *a, const void *b)
{
	const struct unpack_job *x = a, *y = b;

	return x->src_off < y->src_off ? -1 : x->src_off > y->src_off;
}

/*
 * The file's bytes as copy jobs, in runs between the compressed sections'
 * (whose place stays a hole in the memfd, taking no memory).  Overlapping
 * compressed sections are bad input.
 */
static int unpack__add_copies(struct unpack *u)
{
	size_t chdr_size = u->is64 ? sizeof(Elf64_Chdr) : sizeof(Elf32_Chdr);
	size_t i, n = u->nr_unpacked;
	uint64_t at = 0;

	qsort(u->jobs, n, sizeof(*u->jobs), job__by_src);
	for (i = 0; i <= n; i++) {
		uint64_t to = i < n ? u->jobs[i].src_off - chdr_size : u->file_size;

		if (to < at)
			return bad(u, u->jobs[i].section,
				   "its bytes overlap another compressed section");
		if (to > at)
			u->jobs[u->nr_jobs++] = (struct unpack_job){ .src_off = at,
								     .src_size = to - at,
								     .dst_off = at,
								     .dst_size = to - at };
		if (i < n)
			at = u->jobs[i].src_off + u->jobs[i].src_size;
	}
	return 0;
}

/* Stores @v in the @n bytes at @p, in the file's byte order. */
static void put(const struct unpack *u, unsigned char *p, uint64_t v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[u->big_endian ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

#define PUT_FIELD(u, p, type, field, v) \
	put(u, (p) + offsetof(type, field), v, sizeof(((type *)0)->field))

/*
 * The section header table, written at @off of the image with the
 * decompressed sections made plain, and the ELF header pointed at it; once
 * the file's bytes are copied.  0, or why not in u->why.
 */
static int unpack__headers(struct unpack *u, uint64_t shoff, uint64_t off, size_t entsize)
{
	size_t i, table_size = u->nr_sections * entsize, ehdr_size;
	unsigned char *table = malloc(table_size), ehdr[sizeof(Elf64_Ehdr)];
	const char *err;

	ehdr_size = u->is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	err = table ? read_at(u->in_fd, table, table_size, shoff) : "out of memory";
	err = err ?: read_at(u->in_fd, ehdr, ehdr_size, 0);
	for (i = 0; !err && i < u->nr_jobs; i++) {
		const struct unpack_job *j = &u->jobs[i];
		unsigned char *s = table + j->section * entsize;
		GElf_Shdr shdr;

		if (!j->type || !gelf_getshdr(elf_getscn(u->elf, j->section), &shdr))
			continue;
		shdr.sh_flags &= ~(GElf_Xword)SHF_COMPRESSED;
		if (u->is64) {
			PUT_FIELD(u, s, Elf64_Shdr, sh_flags, shdr.sh_flags);
			PUT_FIELD(u, s, Elf64_Shdr, sh_offset, j->dst_off);
			PUT_FIELD(u, s, Elf64_Shdr, sh_size, j->dst_size);
			PUT_FIELD(u, s, Elf64_Shdr, sh_addralign, j->align);
		} else {
			PUT_FIELD(u, s, Elf32_Shdr, sh_flags, shdr.sh_flags);
			PUT_FIELD(u, s, Elf32_Shdr, sh_offset, j->dst_off);
			PUT_FIELD(u, s, Elf32_Shdr, sh_size, j->dst_size);
			PUT_FIELD(u, s, Elf32_Shdr, sh_addralign, j->align);
		}
	}
	if (u->is64)
		PUT_FIELD(u, ehdr, Elf64_Ehdr, e_shoff, off);
	else
		PUT_FIELD(u, ehdr, Elf32_Ehdr, e_shoff, off);
	err = err ?: write_at(u->out_fd, table, table_size, off);
	err = err ?: write_at(u->out_fd, ehdr, ehdr_size, 0);
	free(table);
	if (!err)
		return 0;
	snprintf(u->why, u->len, "%s decompressing its sections", err);
	return -ENOMEM;
}

static int job__by_size(const void *a, const void *b)
{
	const struct unpack_job *x = a, *y = b;

	return x->dst_size < y->dst_size ? 1 : x->dst_size > y->dst_size ? -1 : 0;
}

/* Makes the memfd of @size bytes; 0 or a negative errno with u->why. */
static int unpack__create(struct unpack *u, struct elf_image *img, uint64_t size)
{
	img->fd = memfd_create("pahole-unpacked", MFD_CLOEXEC);
	if (img->fd < 0 || ftruncate(img->fd, (off_t)size) != 0) {
		int err = -errno;

		snprintf(u->why, u->len, "%s decompressing its sections (%llu bytes)",
			 err == -EFBIG ? "the file-size limit is too low for the memory file" :
					 strerror(-err),
			 (unsigned long long)size);
		return err == -ENOSPC ? -ENOMEM : err;
	}
	img->size = size;
	u->out_fd = img->fd;
	return 0;
}

/*
 * Which sections failed depends on which jobs ran before the first
 * failure: the one named is the first bad one in the file, at any -j.
 */
static int unpack__first_failure(struct unpack *u, int err)
{
	size_t idx, i;

	for (idx = 1; idx < u->nr_sections; idx++)
		for (i = 0; i < u->nr_jobs; i++)
			if (u->jobs[i].type && u->jobs[i].section == idx &&
			    (u->job_why[i] || unpack_job__run(u, i, 0)))
				return bad(u, idx, u->job_why[i]);
	for (i = 0; i < u->nr_jobs; i++)
		if (u->job_why[i])
			break;
	snprintf(u->why, u->len, "%s decompressing its sections",
		 i < u->nr_jobs ? u->job_why[i] : strerror(-err));
	return err == -ENOEXEC ? -ENOMEM : err;
}

static int unpack__run(struct unpack *u, struct elf_image *img, unsigned int threads)
{
	uint64_t end, shoff;
	GElf_Ehdr ehdr;
	size_t entsize;
	int err;

	if (!gelf_getehdr(u->elf, &ehdr)) {
		snprintf(u->why, u->len, "truncated or corrupt ELF file");
		return -ENOEXEC;
	}
	err = unpack__scan(u, &end);
	if (err || !u->nr_unpacked)
		return err;
	entsize = u->is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (ehdr.e_shentsize != entsize || ehdr.e_shoff > u->file_size ||
	    (u->file_size - ehdr.e_shoff) / entsize < u->nr_sections) {
		snprintf(u->why, u->len, "truncated or corrupt ELF file");
		return -ENOEXEC;
	}
	err = unpack__add_copies(u);
	if (err)
		return err;
	shoff = (end + 7) & ~(uint64_t)7;
	err = unpack__create(u, img, shoff + u->nr_sections * entsize);
	if (err)
		return err;
	/* The largest first, so that the threads end together. */
	qsort(u->jobs, u->nr_jobs, sizeof(*u->jobs), job__by_size);
	err = par_for(threads, u->nr_jobs, unpack_job__run, u);
	if (err)
		return unpack__first_failure(u, err);
	return unpack__headers(u, ehdr.e_shoff, shoff, entsize);
}

int elf_image__unpack(Elf *elf, int fd, uint64_t file_size, unsigned int threads,
		      struct elf_image *img, char *why, size_t len)
{
	struct unpack u = {
		.elf = elf,
		.in_fd = fd,
		.out_fd = -1,
		.file_size = file_size,
		.is64 = gelf_getclass(elf) == ELFCLASS64,
		.why = why,
		.len = len,
	};
	const char *ident = elf_getident(elf, NULL);
	size_t i;
	int err;

	*img = (struct elf_image){ .fd = -1 };
	threads = threads ?: 1;
	if (!ident || elf_getshdrnum(elf, &u.nr_sections) || elf_getshdrstrndx(elf, &u.shstrndx)) {
		snprintf(why, len, "truncated or corrupt ELF file");
		return -ENOEXEC;
	}
	u.big_endian = ident[EI_DATA] == ELFDATA2MSB;
	/* A job per section at most, and a run of bytes before each and after the last. */
	u.jobs = calloc(2 * u.nr_sections + 1, sizeof(*u.jobs));
	u.job_why = calloc(2 * u.nr_sections + 1, sizeof(*u.job_why));
	u.bufs = calloc(threads, sizeof(*u.bufs));
	err = u.jobs && u.job_why && u.bufs ? unpack__run(&u, img, threads) : -ENOMEM;
	if (err == -ENOMEM && !*why)
		snprintf(why, len, "%s", strerror(ENOMEM));
	if (err)
		elf_image__close(img);
	else if (img->fd >= 0)
		img->sections = u.nr_unpacked;
	for (i = 0; u.bufs && i < threads; i++) {
		free(u.bufs[i].in);
		free(u.bufs[i].out);
		ZSTD_freeDCtx(u.bufs[i].zstd);
	}
	free(u.bufs);
	free(u.jobs);
	free(u.job_why);
	return err;
}

void elf_image__close(struct elf_image *img)
{
	if (img->fd >= 0)
		close(img->fd);
	*img = (struct elf_image){ .fd = -1 };
}
