// SPDX-License-Identifier: GPL-2.0-only
/* The base BTF of split BTF, mapped and indexed once: see btf_base.h. */
#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <linux/btf.h>

#include "btf_base.h"
#include "lib/btf_types.h"
#include "lib/elf_scn.h"
#include "lib/elfutils.h"
#include "lib/populate.h"
#include "lib/str_set.h"

/* 16 kB of bits: a module's few thousand strings set a fiftieth of them. */
#define SIEVE_BITS 17

struct btf_base {
	char *path;
	void *map; /* the file */
	size_t map_size;
	Elf *elf; /* when the BTF is an ELF file's .BTF */
	/* The types and strings, when the file's are not 4-byte aligned or not in our byte order. */
	char *copy;
	const char *types, *strs;
	uint32_t types_len, str_len;
	uint32_t nr; /* types with void */
	uint32_t *offs; /* offs[id]: type @id's offset in types */
	struct btf *libbpf;
};

uint32_t btf_base__type_cnt(const struct btf_base *b)
{
	return b->nr;
}

const struct btf_type *btf_base__type(const struct btf_base *b, uint32_t id)
{
	return (const struct btf_type *)(b->types + b->offs[id]);
}

void btf_base__index(const struct btf_base *b, const char **types, const uint32_t **offs)
{
	*types = b->types;
	*offs = b->offs;
}

uint32_t btf_base__str_len(const struct btf_base *b)
{
	return b->str_len;
}

const char *btf_base__str(const struct btf_base *b, uint32_t off)
{
	return b->strs + off;
}

/*
 * A cheap sieve of a string: its length and its first and last four bytes
 * (a kernel's names share prefixes and suffixes, seldom both and the
 * length), to skip most base strings.  Reads nothing past the string's NUL.
 */
static inline uint32_t str_sieve(const char *s, size_t len)
{
	uint32_t head = 0, tail = 0;

	if (len >= 4) {
		memcpy(&head, s, 4);
		memcpy(&tail, s + len - 4, 4);
	} else if (len) {
		head = (unsigned char)s[0] | (unsigned char)s[len / 2] << 8;
		tail = (unsigned char)s[len - 1];
	}
	return (((uint64_t)head << 32 | tail) * 0x9e3779b97f4a7c15ull +
		len * 0xc2b2ae3d27d4eb4full) >>
	       (64 - SIEVE_BITS);
}

int btf_base__find_strs(const struct btf_base *b, const struct str_set *strs, int32_t *offs)
{
	const char *p = b->strs, *end = b->strs + b->str_len, *s;
	uint64_t *sieve = calloc(1u << (SIEVE_BITS - 6), sizeof(*sieve));
	size_t len;

	if (!sieve)
		return -ENOMEM;
	for (s = strs->data; s < strs->data + strs->len; s += len + 1) {
		uint32_t k;

		len = strlen(s);
		k = str_sieve(s, len);
		sieve[k >> 6] |= 1ull << (k & 63);
		offs[s - strs->data] = -ENOENT;
	}
	/* The base's strings in order: the first of equal ones wins, as in libbpf's string set. */
	for (; p < end; p += len + 1) {
		uint32_t k;
		int at;

		len = strlen(p);
		k = str_sieve(p, len);
		if (!(sieve[k >> 6] & 1ull << (k & 63)))
			continue;
		at = str_set__find(strs, p, len, str_set__hash(p, len));
		if (at >= 0 && offs[at] < 0)
			offs[at] = p - b->strs;
	}
	free(sieve);
	return 0;
}

/* Offsets of all types, each of a known kind and whole, whose references are in range. */
static int btf_base__index_types(struct btf_base *b)
{
	uint32_t n = 1, cap = b->types_len / sizeof(struct btf_type) + 1, max_id, max_str;
	int err;

	b->offs = malloc(cap * sizeof(*b->offs));
	if (!b->offs)
		return -ENOMEM;
	b->offs[0] = 0;
	err = btf_types__index(b->types, b->types_len, b->offs, cap, &n, &max_id, &max_str);
	if (err)
		return err;
	b->nr = n;
	return max_id < n && max_str < b->str_len ? 0 : -EINVAL;
}

/* The header as this machine reads it; 0, or -EINVAL where libbpf 1.8 would refuse it. */
static int btf_base__header(const void *data, size_t size, struct btf_header *hdr, bool *swap)
{
	/* libbpf 1.8's header: the 24 bytes of ours, then layout_off and layout_len. */
	uint32_t layout[2] = { 0, 0 };

	if (size < sizeof(*hdr))
		return -EINVAL;
	memcpy(hdr, data, sizeof(*hdr));
	*swap = hdr->magic == bswap_16(BTF_MAGIC);
	if (*swap)
		btf_header__swap(hdr);
	if (hdr->magic != BTF_MAGIC || hdr->hdr_len < sizeof(*hdr) || hdr->hdr_len > size ||
	    size - hdr->hdr_len < (uint64_t)hdr->str_off + hdr->str_len ||
	    (uint64_t)hdr->type_off + hdr->type_len > hdr->str_off || hdr->type_off % 4 ||
	    !hdr->str_len)
		return -EINVAL;
	if (hdr->hdr_len < sizeof(*hdr) + sizeof(layout))
		return 0;
	memcpy(layout, (const char *)data + sizeof(*hdr), sizeof(layout));
	if (*swap) {
		layout[0] = bswap_32(layout[0]);
		layout[1] = bswap_32(layout[1]);
	}
	/* A layout section, between the types and the strings, says nothing a known kind needs. */
	if (layout[1] && (layout[0] % 4 || layout[1] % 4 ||
			  layout[0] < (uint64_t)hdr->type_off + hdr->type_len ||
			  (uint64_t)layout[0] + layout[1] > hdr->str_off))
		return -EINVAL;
	return 0;
}

/*
 * Points @b at the raw BTF @data of @size bytes, checked as libbpf 1.8
 * checks a base's: either byte order, a header of 24 bytes or longer.  One
 * of the other byte order is swapped into a copy of its own, as is one
 * whose types are not 4-byte aligned.
 */
static int btf_base__set_raw(struct btf_base *b, const void *data, size_t size)
{
	struct btf_header hdr;
	const char *start;
	bool swap;
	int err = btf_base__header(data, size, &hdr, &swap);

	if (err)
		return err;
	start = (const char *)data + hdr.hdr_len;
	if (swap || (uintptr_t)start % 4) {
		size_t len = (size_t)hdr.str_off + hdr.str_len;

		b->copy = malloc(len ?: 1);
		if (!b->copy)
			return -ENOMEM;
		start = memcpy(b->copy, start, len);
	}
	b->types = start + hdr.type_off;
	b->types_len = hdr.type_len;
	/* Every page of the types is read now: mapped at once, not a fault per 64 kB. */
	populate__read(b->types, b->types_len);
	b->strs = start + hdr.str_off;
	b->str_len = hdr.str_len;
	if (b->strs[0] || b->strs[b->str_len - 1])
		return -EINVAL;
	if (swap && btf_types__swap(b->copy + hdr.type_off, hdr.type_len, true))
		return -EINVAL;
	return btf_base__index_types(b);
}

/* The .BTF section of the ELF image at b->map: -ENOENT without one. */
static int btf_base__elf_btf(struct btf_base *b, const void **data, size_t *size)
{
	Elf_Scn *scn;
	GElf_Shdr shdr;
	Elf_Data *d;
	int err;

	elf_version(EV_CURRENT);
	errno = 0;
	b->elf = elf_memory(b->map, b->map_size);
	if (!b->elf || elf_kind(b->elf) != ELF_K_ELF)
		return elfutils__err(-EINVAL);
	err = elf_scn__find(b->elf, ".BTF", &scn, &shdr);
	if (err)
		return err == -EINVAL ? elfutils__err(err) : err;
	d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf)
		return -EINVAL;
	*data = d->d_buf;
	*size = d->d_size;
	return 0;
}

static const char *btf_base__cause(const struct btf_base *b, bool elf, int err)
{
	if (err == -ENOMEM)
		return "out of memory";
	if (!elf)
		return "truncated or corrupt BTF";
	if (!b->elf || elf_kind(b->elf) != ELF_K_ELF)
		return "neither raw BTF nor an ELF file with .BTF";
	return err == -ENOENT ? "an ELF file without a .BTF section" :
				"an ELF file whose .BTF cannot be read";
}

static int btf_base__map(struct btf_base *b, const char *path, const char **cause)
{
	struct stat st;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		*cause = strerror(errno);
		return -errno;
	}
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		*cause = S_ISDIR(st.st_mode)  ? "is a directory" :
			 !S_ISREG(st.st_mode) ? "not a regular file" :
						"empty file";
		err = -EINVAL;
	} else {
		b->map_size = st.st_size;
		b->map = mmap(NULL, b->map_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (b->map == MAP_FAILED) {
			err = -errno;
			*cause = strerror(errno);
			b->map = NULL;
		}
	}
	close(fd);
	return err;
}

int btf_base__open(const char *path, struct btf_base **out, const char **cause)
{
	static const unsigned char btf_magic[2][2] = { { 0x9f, 0xeb }, { 0xeb, 0x9f } };
	struct btf_base *b = calloc(1, sizeof(*b));
	const unsigned char *m;
	const void *data;
	size_t size;
	bool elf;
	int err;

	if (!b || !(b->path = strdup(path))) {
		free(b);
		*cause = strerror(ENOMEM);
		return -ENOMEM;
	}
	err = btf_base__map(b, path, cause);
	if (err)
		goto fail;
	m = b->map;
	elf = !(b->map_size >= 2 && (!memcmp(m, btf_magic[0], 2) || !memcmp(m, btf_magic[1], 2)));
	data = b->map;
	size = b->map_size;
	err = elf ? btf_base__elf_btf(b, &data, &size) : 0;
	err = err ?: btf_base__set_raw(b, data, size);
	if (err) {
		*cause = btf_base__cause(b, elf, err);
		goto fail;
	}
	*out = b;
	return 0;
fail:
	btf_base__delete(b);
	return err;
}

int btf_base__libbpf(struct btf_base *b, struct btf **out)
{
	/* From what is indexed: a 24-byte header libbpf 1.1 reads, our byte order. */
	struct btf_header hdr = { .magic = BTF_MAGIC,
				  .version = BTF_VERSION,
				  .hdr_len = sizeof(hdr),
				  .type_len = b->types_len,
				  .str_off = b->types_len,
				  .str_len = b->str_len };
	size_t size = sizeof(hdr) + b->types_len + b->str_len;
	char *raw;

	if (!b->libbpf) {
		raw = malloc(size);
		if (!raw)
			return -ENOMEM;
		memcpy(raw, &hdr, sizeof(hdr));
		memcpy(raw + sizeof(hdr), b->types, b->types_len);
		memcpy(raw + sizeof(hdr) + b->types_len, b->strs, b->str_len);
		errno = 0;
		/* libbpf copies it. */
		b->libbpf = btf__new(raw, size);
		free(raw);
		if (!b->libbpf)
			return -errno ?: -EINVAL;
	}
	*out = b->libbpf;
	return 0;
}

void btf_base__delete(struct btf_base *b)
{
	if (!b)
		return;
	btf__free(b->libbpf);
	free(b->offs);
	free(b->copy);
	if (b->elf)
		elf_end(b->elf);
	if (b->map)
		munmap(b->map, b->map_size);
	free(b->path);
	free(b);
}
