// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sink: the BTF that the chunks of a pass are appended to, in order,
 * while the workers run (see btf_encoder.h), taken by the merge once they
 * are done (btf_merge.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include <bpf/btf.h>

#include "btf_base.h"
#include "btf_encoder_priv.h"
#include "lib/btf_types.h"

/*
 * Whether split BTF is deduplicated by btf_dedup__split(), on the base as
 * it is read (in our byte order, whatever the file's): not when libbpf must
 * see the base, for distilled_base, which works on libbpf's split BTF.
 */
bool btf_sink__split_raw(const struct btf_encoder_input *in)
{
	return !btf_encoder_conf__has(in->conf, BTF_FEAT_DISTILLED_BASE);
}

/*
 * The BTF the chunks go into: of its own, also for a module whose split BTF
 * btf_dedup__split() makes; else split on libbpf's reading of the base.
 */
static int btf_sink__new_btf(const struct btf_encoder_input *in, struct btf **out)
{
	struct btf *base;
	int err = 0;

	if (!in->conf->base || btf_sink__split_raw(in)) {
		*out = btf__new_empty();
	} else {
		err = btf_base__libbpf(in->conf->base, &base);
		*out = err ? NULL : btf__new_empty_split(base);
	}
	return err ?: (*out ? 0 : -ENOMEM);
}

/*
 * Whether an allocation may fail rather than the process be killed: under
 * an address-space or data limit (ulimit -v, -d) or the kernel's strict
 * overcommit (vm.overcommit_memory 2).  Elsewhere Linux does not refuse
 * the small allocations btf__add_btf() makes: it runs out of memory by the
 * OOM killer.
 */
static bool allocs_may_fail(void)
{
	struct rlimit as, data;
	char mode = '0';
	FILE *f;

	if (getrlimit(RLIMIT_AS, &as) || as.rlim_cur != RLIM_INFINITY ||
	    getrlimit(RLIMIT_DATA, &data) || data.rlim_cur != RLIM_INFINITY)
		return true;
	f = fopen("/proc/sys/vm/overcommit_memory", "re");
	if (f) {
		mode = (char)fgetc(f);
		fclose(f);
	}
	return mode == '2';
}

/*
 * The merged BTF, built while the workers run: a chunk, once compacted, is
 * appended with libbpf's btf__add_btf() by the worker that ended it, in
 * index order, so one that ends before an earlier chunk is left for the
 * worker that ends that one to append.  One worker appends at a time (the
 * one that set @appending), outside the lock, while the others encode on:
 * the lock guards @ready, @next, @appending and @err, and the chunks' BTFs
 * stay until the merge, since their encoders still read them.  Appending to
 * a BTF made empty keeps libbpf's string set unique (its dedup then need not
 * rebuild it), and that string set is in the order the types refer to the
 * strings, the one libbpf's dedup would give.
 */
struct btf_sink {
	pthread_mutex_t lock;
	struct btf *btf;
	DARRAY(struct btf_chunk *) ready; /* by index; NULL: not ended yet */
	uint32_t next; /* the first chunk not appended */
	bool appending;
	bool strs_first; /* allocs_may_fail(), asked once */
	int err; /* the first append that failed */
};

int btf_sink__new(const struct btf_encoder_input *in, struct btf_sink **out)
{
	struct btf_sink *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	err = btf_sink__new_btf(in, &s->btf);
	if (err) {
		btf_sink__delete(s);
		return err;
	}
	btf__set_pointer_size(s->btf, in->ptr_size); /* the variables' sizes */
	s->strs_first = allocs_may_fail();
	*out = s;
	return 0;
}

void btf_sink__delete(struct btf_sink *s)
{
	if (!s)
		return;
	btf__free(s->btf);
	darray__free(&s->ready);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* The strings of a chunk added ahead of its types: see btf_chunk__add_strs(). */
struct str_adder {
	struct btf *dst;
	const struct btf *src;
	uint8_t *seen; /* a bit per offset of src's strings */
	uint32_t len; /* of src's strings */
};

static int str_adder__add(uint32_t *off, void *ctx)
{
	struct str_adder *a = ctx;
	int err;

	if (!*off || *off >= a->len || (a->seen[*off / 8] & (1u << (*off % 8))))
		return 0;
	a->seen[*off / 8] |= 1u << (*off % 8);
	err = btf__add_str(a->dst, btf__str_by_offset(a->src, *off));
	return err < 0 ? err : 0;
}

/*
 * Adds to @dst the strings of @src's types, each once, in the order
 * btf__add_btf() adds them.  libbpf 1.1's btf__add_btf(), when it fails
 * (out of memory) after adding a string, zeroes the strings it added
 * through a pointer that a BTF built by btf__add_*() does not have
 * (strs_data, NULL), and the process crashes.  With the strings there
 * first it adds none, and its failures unwind cleanly; the strings come
 * in the same order, so the bytes are the same.
 */
static int btf_chunk__add_strs(const struct btf *src, struct btf *dst)
{
	uint32_t id, end = btf__type_cnt(src), len;
	struct str_adder a = { .dst = dst, .src = src };
	const struct btf_header *hdr = btf__raw_data(src, &len);
	int err = 0;

	if (!hdr)
		return -ENOMEM;
	a.len = hdr->str_len;
	a.seen = calloc(a.len / 8 + 1, 1);
	if (!a.seen)
		return -ENOMEM;
	/* The visit only reads: it writes nothing through the pointer. */
	for (id = 1; id < end && !err; id++)
		err = btf_type__visit_strs((struct btf_type *)btf__type_by_id(src, id),
					   str_adder__add, &a);
	free(a.seen);
	return err;
}

/*
 * Appends chunk @c to @btf; its types must be all of its BTF's.  Where an
 * allocation may fail, its strings go in first (btf_chunk__add_strs()):
 * 0.05 s of CPU over the chunks of a vmlinux, paid only there.
 */
static int btf_chunk__append(struct btf_chunk *c, struct btf *btf, bool strs_first)
{
	int first, err;

	if (c->first_id != 1 || c->nr_types != btf__type_cnt(c->btf) - 1)
		return -EPROTO;
	c->merged_id = btf__type_cnt(btf);
	if (!c->nr_types) /* libbpf 1.1 takes adding nothing for running out of memory */
		return 0;
	err = strs_first ? btf_chunk__add_strs(c->btf, btf) : 0;
	first = err ?: btf__add_btf(btf, c->btf);
	return first < 0 ? first : 0;
}

/* Under the lock: slot @index of s->ready, added (NULL) if need be; NULL when out of memory. */
static struct btf_chunk **btf_sink__slot(struct btf_sink *s, uint32_t index)
{
	while (s->ready.nr <= index) {
		struct btf_chunk **slot = darray__push(&s->ready);

		if (!slot)
			return NULL;
		*slot = NULL;
	}
	return &s->ready.data[index];
}

int btf_sink__put(struct btf_sink *s, struct btf_chunk *c)
{
	struct btf_chunk **slot;
	int err = 0;

	pthread_mutex_lock(&s->lock);
	slot = btf_sink__slot(s, c->index);
	if (!slot)
		err = s->err = s->err ?: -ENOMEM;
	else
		*slot = c;
	if (err || s->appending || s->err) {
		pthread_mutex_unlock(&s->lock);
		return err;
	}
	s->appending = true;
	while (!s->err && s->next < s->ready.nr && s->ready.data[s->next]) {
		struct btf_chunk *next = s->ready.data[s->next];

		pthread_mutex_unlock(&s->lock);
		err = btf_chunk__append(next, s->btf, s->strs_first);
		pthread_mutex_lock(&s->lock);
		s->err = err;
		s->next += !err;
	}
	s->appending = false;
	err = s->err;
	pthread_mutex_unlock(&s->lock);
	return err;
}

int btf_sink__take(struct btf_sink *s, struct btf_chunk **chunks, size_t n, struct btf **out)
{
	size_t i;

	if (s->err)
		return s->err;
	for (i = 0; i < n; i++) {
		if (chunks[i]->index != i || i >= s->next)
			return -EPROTO;
		btf__free(chunks[i]->btf);
		chunks[i]->btf = NULL;
	}
	*out = s->btf;
	s->btf = NULL;
	return 0;
}
