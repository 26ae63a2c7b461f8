// SPDX-License-Identifier: GPL-2.0-only
/* Writing BTF to a raw file or into an ELF file: see btf_writer.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <linux/btf.h>

#include "btf_writer.h"
#include "lib/btf_types.h"
#include "lib/elf_scn.h"

/*
 * The path of a temporary file of ours while it has a name, for
 * btf_writer__cleanup() from a signal handler: the one piece of state that
 * cannot live in an object, since a handler cannot be given one.
 */
static char pending_tmp[PATH_MAX];
static volatile sig_atomic_t pending_tmp_set;

/* A file being written beside its destination. */
struct out_file {
	const char *path;
	char dir[PATH_MAX];
	char tmp[PATH_MAX];
	int fd;
	bool named; /* made with mkstemp: the filesystem has no O_TMPFILE */
};

static void out_file__set_pending(const char *tmp)
{
	pending_tmp_set = 0;
	if (tmp) {
		snprintf(pending_tmp, sizeof(pending_tmp), "%s", tmp);
		pending_tmp_set = 1;
	}
}

void btf_writer__cleanup(void)
{
	if (pending_tmp_set)
		unlink(pending_tmp);
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int out_file__open(struct out_file *o, const char *path, const struct stat *like,
			  const char **cause)
{
	const char *slash = strrchr(path, '/');
	mode_t mode, mask;

	o->path = path;
	o->named = false;
	if (!slash)
		snprintf(o->dir, sizeof(o->dir), ".");
	else if (snprintf(o->dir, sizeof(o->dir), "%.*s", (int)(slash - path) ?: 1, path) >=
		 (int)sizeof(o->dir))
		return *cause = strerror(ENAMETOOLONG), -ENAMETOOLONG;
	if (snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.pahole-XXXXXX", o->dir,
		     slash ? slash + 1 : path) >= (int)sizeof(o->tmp))
		return *cause = strerror(ENAMETOOLONG), -ENAMETOOLONG;
	o->fd = open(o->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (o->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		sigset_t old;

		/* No signal between the name's creation and its note for cleanup. */
		block_signals(&old);
		o->fd = mkostemp(o->tmp, O_CLOEXEC);
		o->named = o->fd >= 0;
		if (o->named)
			out_file__set_pending(o->tmp);
		sigprocmask(SIG_SETMASK, &old, NULL);
	}
	if (o->fd < 0)
		return *cause = strerror(errno), -errno;
	mask = umask(0);
	umask(mask);
	mode = like ? like->st_mode & 07777 : 0666 & ~mask;
	/* chown first: it clears the set-user-ID and set-group-ID bits. */
	if ((like && fchown(o->fd, like->st_uid, like->st_gid) != 0 && errno != EPERM) ||
	    fchmod(o->fd, mode) != 0) {
		*cause = strerror(errno);
		return -errno;
	}
	return 0;
}

static void out_file__abort(struct out_file *o)
{
	if (o->fd >= 0)
		close(o->fd);
	o->fd = -1;
	if (o->named)
		unlink(o->tmp);
	out_file__set_pending(NULL);
}

static bool stop_signal_pending(void)
{
	sigset_t set;

	return sigpending(&set) == 0 &&
	       (sigismember(&set, SIGINT) == 1 || sigismember(&set, SIGTERM) == 1 ||
		sigismember(&set, SIGHUP) == 1);
}

/*
 * Puts the file named @o->tmp in @o->path's place, 0 or a negative errno.
 * Over a regular file the two names are exchanged, and the old file, now
 * under the temporary name, goes with it (out_file__abort()): ext4 starts
 * the write-out of a file renamed over another, the process waiting (its
 * auto_da_alloc: 3.7 ms for a vmlinux's 4 MB of BTF), not of one
 * exchanged.  Else a rename: nothing to replace, no regular file (an
 * exchange with a directory would be taken), or no exchange on that
 * filesystem.
 */
static int out_file__replace(struct out_file *o)
{
	struct stat st;

	if (lstat(o->path, &st) == 0 && S_ISREG(st.st_mode) &&
	    renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) == 0) {
		/* What came to the temporary name in between, if not the file, goes back. */
		if (lstat(o->tmp, &st) == 0 && S_ISREG(st.st_mode))
			return 0;
		if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->path, RENAME_EXCHANGE) != 0)
			return -errno;
	}
	if (rename(o->tmp, o->path) != 0)
		return -errno;
	o->named = false;
	return 0;
}

/*
 * Gives the file a name and puts it in the destination's place.  SIGINT and
 * SIGTERM stay blocked from here on: one that arrived before the rename
 * undoes the work here; one that arrives later finds it done.  No fsync:
 * the rename replaces the file whole for every process, and whatever kills
 * this one; waiting for the disk is what a compiler or linker does not do
 * either, and a kernel build writes thousands of modules (each fsync cost
 * some 3 ms, and stalls of a second behind other writers).
 */
static int out_file__commit(struct out_file *o, const char **cause)
{
	char proc[64];
	int err = 0;
	sigset_t old;

	block_signals(&old);
	if (!o->named) {
		int fd = mkostemp(o->tmp, O_CLOEXEC);

		/* linkat() cannot replace a name: reserve one, then take it over. */
		if (fd < 0) {
			err = -errno;
			*cause = strerror(errno);
			goto out;
		}
		close(fd);
		unlink(o->tmp);
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", o->fd);
		out_file__set_pending(o->tmp);
		if (linkat(AT_FDCWD, proc, AT_FDCWD, o->tmp, AT_SYMLINK_FOLLOW) != 0) {
			err = -errno;
			*cause = strerror(errno);
			goto out;
		}
		o->named = true;
	}
	/* The last moment to give up: after the rename the work is done. */
	if (stop_signal_pending()) {
		err = -EINTR;
		*cause = "interrupted by a signal, nothing written";
		goto out;
	}
	err = out_file__replace(o);
	if (err)
		*cause = strerror(-err);
out:
	out_file__abort(o);
	return err;
}

/* Writes all @size bytes at @data: at offset @off, or where the file is when @off < 0. */
static int write_all_at(int fd, const void *data, size_t size, int64_t off, const char **cause)
{
	const char *p = data;

	while (size) {
		ssize_t n = off < 0 ? write(fd, p, size) : pwrite(fd, p, size, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*cause = strerror(errno);
			return -errno;
		}
		p += n;
		off += off < 0 ? 0 : n;
		size -= n;
	}
	return 0;
}

static int write_all(int fd, const void *data, size_t size, const char **cause)
{
	return write_all_at(fd, data, size, -1, cause);
}

/* A 24-byte BTF header and the two words the layout feature adds to it. */
struct btf_layout_hdr {
	struct btf_header hdr;
	uint32_t layout_off;
	uint32_t layout_len;
};

/* libbpf 1.8's struct btf_layout (linux/btf.h there). */
struct btf_kind_layout {
	uint8_t info_sz;
	uint8_t elem_sz;
	uint16_t flags;
};

static uint32_t u32_order(uint32_t v, bool swap)
{
	return swap ? __builtin_bswap32(v) : v;
}

int btf_writer__add_layout(const void *data, size_t size, void **layout_out, size_t *out_size)
{
	const struct btf_header *in = data;
	struct btf_layout_hdr *out;
	struct btf_kind_layout *layout;
	uint32_t types_len, strs_off, strs_len, layout_len = NR_BTF_KINDS * sizeof(*layout);
	bool swap;
	unsigned int k;

	if (size < sizeof(*in) ||
	    (in->magic != BTF_MAGIC && in->magic != __builtin_bswap16(BTF_MAGIC)))
		return -EINVAL;
	swap = in->magic != BTF_MAGIC;
	types_len = u32_order(in->type_len, swap);
	strs_off = u32_order(in->str_off, swap);
	strs_len = u32_order(in->str_len, swap);
	/* libbpf 1.1 writes the types at 0 and the strings right after them. */
	if (u32_order(in->hdr_len, swap) != sizeof(*in) || in->type_off || strs_off != types_len ||
	    types_len % 4 || sizeof(*in) + (size_t)types_len + strs_len != size)
		return -EINVAL;
	*out_size = sizeof(*out) + types_len + layout_len + strs_len;
	out = malloc(*out_size);
	if (!out)
		return -ENOMEM;
	out->hdr = *in;
	out->hdr.hdr_len = u32_order(sizeof(*out), swap);
	out->hdr.str_off = u32_order(types_len + layout_len, swap);
	out->layout_off = u32_order(types_len, swap);
	out->layout_len = u32_order(layout_len, swap);
	memcpy(out + 1, in + 1, types_len);
	layout = (struct btf_kind_layout *)((char *)(out + 1) + types_len);
	for (k = 0; k < NR_BTF_KINDS; k++) {
		btf_kind__sizes(k, &layout[k].info_sz, &layout[k].elem_sz);
		layout[k].flags = 0;
	}
	memcpy((char *)(layout + NR_BTF_KINDS), (const char *)(in + 1) + types_len, strs_len);
	*layout_out = out;
	return 0;
}

/* @check's answer, *@cause NULL when it says no. */
static int writer_check(const struct btf_writer_check *check, const char **cause)
{
	int err = check ? check->fn(check->ctx) : 0;

	if (err)
		*cause = NULL;
	return err;
}

int btf_writer__raw(const char *path, const void *data, size_t size,
		    const struct btf_writer_check *check, const char **cause)
{
	struct out_file o;
	struct stat st;
	int err;

	/* A device or a FIFO (/dev/stdout, /dev/full) is written to, not replaced. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		int fd;

		err = writer_check(check, cause);
		if (err)
			return err;
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return *cause = strerror(errno), -errno;
		err = write_all(fd, data, size, cause);
		if (close(fd) != 0 && !err)
			err = -errno, *cause = strerror(errno);
		return err;
	}

	err = out_file__open(&o, path, NULL, cause);
	if (err)
		return err;
	err = write_all(o.fd, data, size, cause);
	err = err ?: writer_check(check, cause);
	if (err) {
		out_file__abort(&o);
		return err;
	}
	return out_file__commit(&o, cause);
}

/*
 * A copy goes in pieces: between them it looks whether it is still wanted,
 * and it starts the piece's write-out, which ext4 would otherwise do all at
 * once in a rename over the old file (its auto_da_alloc), the process
 * waiting (0.2 s of a 590 MB vmlinux); the copy itself then ran five times
 * faster too (1.04 -> 0.21 s).  Filesystems that share the blocks
 * (copy_file_range() as a reflink) or keep files in memory write nothing.
 */
#define COPY_PIECE (64ul << 20)
/* The size from which a copy begins while the BTF is encoded. */
#define COPY_EARLY_MIN (4l << 20)

static int copy_file(int from, int to, off_t size, const atomic_bool *stop, const char **cause)
{
	loff_t in = 0, out = 0;

	while (in < size) {
		size_t left = (size_t)(size - in), len = left > COPY_PIECE ? COPY_PIECE : left;
		ssize_t n;

		if (atomic_load(stop))
			return *cause = "abandoned", -ECANCELED;
		n = copy_file_range(from, &in, to, &out, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* Its errors are the copy's to meet, or the file's next reader's. */
		if (n > 0)
			sync_file_range(to, out - n, n, SYNC_FILE_RANGE_WRITE);
		if (n <= 0) {
			*cause = n < 0 ? strerror(errno) : "the input changed while being copied";
			return n < 0 ? -errno : -EIO;
		}
	}
	return 0;
}

/*
 * The first offset past every byte of the file that stays: the headers and
 * the sections, but neither the sections marked in @rewritten (indexed by
 * section) nor the section header table when it ends the file, since those
 * are written anew.  Anything else at the end (a module signature) stays.
 */
static uint64_t elf_kept_end(Elf *elf, const GElf_Ehdr *ehdr, const GElf_Shdr *shdrs, size_t shnum,
			     const bool *rewritten, uint64_t file_size)
{
	uint64_t table_end = ehdr->e_shoff + (uint64_t)shnum * ehdr->e_shentsize;
	uint64_t end = table_end < file_size ? file_size : 0;
	size_t phnum, i;

	if (elf_getphdrnum(elf, &phnum) == 0 && ehdr->e_phoff + phnum * ehdr->e_phentsize > end)
		end = ehdr->e_phoff + phnum * ehdr->e_phentsize;
	for (i = 1; i < shnum; i++) {
		if (rewritten[i] || shdrs[i].sh_type == SHT_NOBITS)
			continue;
		if (shdrs[i].sh_offset + shdrs[i].sh_size > end)
			end = shdrs[i].sh_offset + shdrs[i].sh_size;
	}
	return end;
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

static int pwrite_all(int fd, const void *data, size_t size, uint64_t off, const char **cause)
{
	return write_all_at(fd, data, size, (int64_t)off, cause);
}

/* Writes @n section headers, or an ELF header (@type ELF_T_EHDR), in the file's format. */
static int elf_write_headers(Elf *elf, int fd, const GElf_Shdr *shdrs, const GElf_Ehdr *ehdr,
			     size_t n, uint64_t off, const char **cause)
{
	bool is64 = gelf_getclass(elf) == ELFCLASS64;
	size_t one = ehdr ? (is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)) :
			    (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr));
	Elf_Data src = { .d_type = ehdr ? ELF_T_EHDR : ELF_T_SHDR,
			 .d_version = EV_CURRENT,
			 .d_size = one * n };
	Elf_Data dst = src;
	void *mem = calloc(n ?: 1, one), *out = calloc(n ?: 1, one);
	size_t i;
	int err = -ENOMEM;

	if (!mem || !out)
		goto out;
	for (i = 0; i < n; i++) {
		if (ehdr && is64) {
			memcpy(mem, ehdr, sizeof(Elf64_Ehdr));
		} else if (ehdr) {
			Elf32_Ehdr *e = mem;

			memcpy(e->e_ident, ehdr->e_ident, EI_NIDENT);
			e->e_type = ehdr->e_type, e->e_machine = ehdr->e_machine;
			e->e_version = ehdr->e_version, e->e_entry = ehdr->e_entry;
			e->e_phoff = ehdr->e_phoff, e->e_shoff = ehdr->e_shoff;
			e->e_flags = ehdr->e_flags, e->e_ehsize = ehdr->e_ehsize;
			e->e_phentsize = ehdr->e_phentsize, e->e_phnum = ehdr->e_phnum;
			e->e_shentsize = ehdr->e_shentsize, e->e_shnum = ehdr->e_shnum;
			e->e_shstrndx = ehdr->e_shstrndx;
		} else if (is64) {
			((Elf64_Shdr *)mem)[i] = shdrs[i];
		} else {
			Elf32_Shdr *s = &((Elf32_Shdr *)mem)[i];

			s->sh_name = shdrs[i].sh_name, s->sh_type = shdrs[i].sh_type;
			s->sh_flags = shdrs[i].sh_flags, s->sh_addr = shdrs[i].sh_addr;
			s->sh_offset = shdrs[i].sh_offset, s->sh_size = shdrs[i].sh_size;
			s->sh_link = shdrs[i].sh_link, s->sh_info = shdrs[i].sh_info;
			s->sh_addralign = shdrs[i].sh_addralign;
			s->sh_entsize = shdrs[i].sh_entsize;
		}
	}
	src.d_buf = mem;
	dst.d_buf = out;
	if (!gelf_xlatetof(elf, &dst, &src, elf_getident(elf, NULL)[EI_DATA])) {
		*cause = elf_errmsg(-1);
		err = -EINVAL;
		goto out;
	}
	err = pwrite_all(fd, out, dst.d_size, off, cause);
out:
	free(mem);
	free(out);
	return err;
}

/* Grows the section name table by the names of the new sections, at *@end. */
static int elf_add_names(Elf *elf, int fd, size_t shstrndx, GElf_Shdr *shdrs, size_t shnum,
			 const struct btf_section *secs, const size_t *idx, size_t nr,
			 uint64_t *end, const char **cause)
{
	Elf_Data *names = elf_getdata(elf_getscn(elf, shstrndx), NULL);
	uint64_t off;
	size_t k;
	int err;

	if (!names)
		return -EINVAL;
	err = pwrite_all(fd, names->d_buf, names->d_size, *end, cause);
	off = names->d_size;
	for (k = 0; k < nr && !err; k++) {
		if (idx[k] < shnum)
			continue;
		shdrs[idx[k]].sh_name = off;
		err = pwrite_all(fd, secs[k].name, strlen(secs[k].name) + 1, *end + off, cause);
		off += strlen(secs[k].name) + 1;
	}
	shdrs[shstrndx].sh_offset = *end;
	shdrs[shstrndx].sh_size = off;
	*end += off;
	return err;
}

/*
 * Puts @secs into @fd, a copy of the ELF file @elf.  Every existing section
 * keeps its offset, so program headers stay right; what changes (the new
 * sections' bytes, the section names when one is new, the section header
 * table) is written after everything else.
 */
static int elf_write_sections(Elf *elf, int fd, uint64_t file_size, const struct btf_section *secs,
			      size_t nr, const char **cause)
{
	size_t shstrndx, shnum, n, i, k, idx[4];
	GElf_Shdr *shdrs = NULL;
	bool *rewritten = NULL;
	uint64_t end, table_end;
	GElf_Ehdr ehdr;
	int err = -EINVAL;

	*cause = "not an ELF file whose sections can be rewritten";
	if (nr > 4 || !gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx) != 0 ||
	    elf_getshdrnum(elf, &shnum) != 0 || !shnum || shnum >= SHN_LORESERVE - nr)
		return err;
	for (k = 0, n = shnum; k < nr; k++) {
		Elf_Scn *scn;
		GElf_Shdr shdr;

		idx[k] = elf_scn__find(elf, secs[k].name, &scn, &shdr) ? n++ : elf_ndxscn(scn);
	}
	shdrs = calloc(n, sizeof(*shdrs));
	rewritten = calloc(n, sizeof(*rewritten));
	if (!shdrs || !rewritten) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < shnum; i++)
		if (!gelf_getshdr(elf_getscn(elf, i), &shdrs[i]))
			goto out;
	for (k = 0; k < nr; k++) {
		GElf_Shdr *sh = &shdrs[idx[k]];

		/*
		 * A section loaded with the image keeps its bytes, but for an
		 * empty one, which loads nothing: the kernel's linker script
		 * makes .BTF so in .tmp_vmlinux.btf, for pahole to fill and
		 * objcopy to take out (link-vmlinux.sh, gen_btf).  Its bytes go
		 * past every segment; its address and flags stay.
		 */
		if (idx[k] < shnum && (sh->sh_flags & SHF_ALLOC) && sh->sh_size &&
		    sh->sh_type != SHT_NOBITS) {
			*cause = "its BTF section is loaded with the image and cannot be replaced";
			goto out;
		}
		if (idx[k] < shnum && sh->sh_type == SHT_NOBITS)
			sh->sh_type = SHT_PROGBITS;
		if (idx[k] >= shnum) {
			shdrs[idx[k]].sh_type = SHT_PROGBITS;
			shdrs[idx[k]].sh_addralign = 1;
		}
		rewritten[idx[k]] = true;
	}
	rewritten[shstrndx] = n > shnum;
	end = elf_kept_end(elf, &ehdr, shdrs, shnum, rewritten, file_size);
	if (n > shnum) {
		err = elf_add_names(elf, fd, shstrndx, shdrs, shnum, secs, idx, nr, &end, cause);
		if (err)
			goto out;
	}
	for (k = 0; k < nr; k++) {
		GElf_Shdr *sh = &shdrs[idx[k]];

		/* A replaced section amid kept ones stays there when the new bytes fit. */
		if (idx[k] >= shnum || sh->sh_offset >= end || secs[k].size > sh->sh_size) {
			sh->sh_offset = end;
			end += secs[k].size;
		}
		sh->sh_size = secs[k].size;
		err = pwrite_all(fd, secs[k].data, secs[k].size, sh->sh_offset, cause);
		if (err)
			goto out;
	}
	ehdr.e_shoff = align_up(end, gelf_getclass(elf) == ELFCLASS64 ? 8 : 4);
	ehdr.e_shnum = n;
	err = elf_write_headers(elf, fd, shdrs, NULL, n, ehdr.e_shoff, cause);
	err = err ?: elf_write_headers(elf, fd, NULL, &ehdr, 1, 0, cause);
	/* What lay past the new end was only what got written anew. */
	table_end = ehdr.e_shoff + (uint64_t)n * ehdr.e_shentsize;
	if (!err && table_end < file_size && ftruncate(fd, table_end) != 0) {
		err = -errno;
		*cause = strerror(errno);
	}
out:
	free(shdrs);
	free(rewritten);
	return err;
}

/* An ELF file copied beside itself, to be given its sections: see btf_writer.h. */
struct btf_writer_copy {
	const char *path;
	int in; /* the file, read */
	struct stat st;
	struct out_file o;
	int err; /* the copy's */
	const char *cause;
	pthread_t thread;
	bool joinable;
	atomic_bool stop; /* not to be used: the thread is to stop */
};

/* The file opened, its copy's file made beside it, with the checks the writing makes. */
static int copy_open(struct btf_writer_copy *c, const char *path, const char **cause)
{
	int err;

	c->path = path;
	c->in = open(path, O_RDONLY | O_CLOEXEC);
	if (c->in < 0 || fstat(c->in, &c->st) != 0) {
		*cause = strerror(errno);
		err = -errno;
		goto out;
	}
	/* Writing beside the input must be allowed, and so must writing the input. */
	if (access(path, W_OK) != 0) {
		*cause = strerror(errno);
		err = -errno;
		goto out;
	}
	c->o.fd = -1;
	err = out_file__open(&c->o, path, &c->st, cause);
	if (!err)
		return 0;
	out_file__abort(&c->o);
out:
	if (c->in >= 0)
		close(c->in);
	c->in = -1;
	return err;
}

static void *copy_run(void *arg)
{
	struct btf_writer_copy *c = arg;

	c->err = copy_file(c->in, c->o.fd, c->st.st_size, &c->stop, &c->cause);
	return NULL;
}

static void copy_join(struct btf_writer_copy *c)
{
	if (c->joinable)
		pthread_join(c->thread, NULL);
	c->joinable = false;
}

struct btf_writer_copy *btf_writer__copy_start(const char *path)
{
	struct btf_writer_copy *c = calloc(1, sizeof(*c));
	struct stat st;
	const char *cause;

	/*
	 * A regular file alone: anything else is the writing's to refuse, as it
	 * says.  Not a small one: a thread costs more than its copy (a module's
	 * few hundred kilobytes), and a kernel build writes thousands.
	 */
	if (!c || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < COPY_EARLY_MIN ||
	    copy_open(c, path, &cause)) {
		free(c);
		return NULL;
	}
	c->joinable = !pthread_create(&c->thread, NULL, copy_run, c);
	if (!c->joinable) {
		btf_writer__copy_drop(c);
		return NULL;
	}
	return c;
}

void btf_writer__copy_drop(struct btf_writer_copy *c)
{
	if (!c)
		return;
	atomic_store(&c->stop, true);
	copy_join(c);
	if (c->in >= 0) {
		out_file__abort(&c->o);
		close(c->in);
	}
	free(c);
}

int btf_writer__elf(const char *path, const struct btf_section *secs, size_t nr,
		    const struct btf_writer_check *check, struct btf_writer_copy *copy,
		    const char **cause)
{
	struct btf_writer_copy own = {}, *c = copy && !strcmp(copy->path, path) ? copy : &own;
	int err;

	elf_version(EV_CURRENT);
	if (c == &own) {
		err = copy_open(c, path, cause);
		if (err)
			return err;
		copy_run(c);
	} else {
		copy_join(c);
	}
	err = c->err;
	if (err)
		*cause = c->cause;
	if (!err) {
		Elf *elf = elf_begin(c->in, ELF_C_READ_MMAP, NULL);

		err = elf ? elf_write_sections(elf, c->o.fd, c->st.st_size, secs, nr, cause) :
			    -EINVAL;
		if (!elf)
			*cause = elf_errmsg(-1);
		elf_end(elf);
	}
	close(c->in);
	c->in = -1;
	err = err ?: writer_check(check, cause);
	if (err) {
		out_file__abort(&c->o);
		return err;
	}
	return out_file__commit(&c->o, cause);
}
