// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sink: the BTF that the chunks of a pass are appended to, in order,
 * while the workers run (see btf_encoder.h), taken by the merge once they
 * are done (btf_merge.c).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "btf_encoder_priv.h"

/*
 * A module's chunks, by one worker, go to our split dedup as one build: not
 * to --btf_gen_dedup_input's file, which would hold the strings in the
 * build's order.
 */
bool btf_sink__one_build(const struct btf_encoder_input *in, unsigned int nr_workers)
{
	return nr_workers == 1 && in->conf->base && !in->conf->dedup_input;
}

/*
 * The merged BTF, built while the workers run: a chunk, once compacted, is
 * appended (btf_build__append(), as libbpf's btf__add_btf() would) by the
 * worker that ended it, in index order, so one that ends before an earlier
 * chunk is left for the worker that ends that one to append.  One worker
 * appends at a time (the one that set @appending), outside the lock, while
 * the others encode on: the lock guards @ready, @next, @appending and @err,
 * and the chunks' BTFs stay until the merge, since their encoders still
 * read them.  Its strings are each once, in the order the types refer to
 * them, the order libbpf's dedup would give; it is standalone for split BTF
 * too, whose chunks meet the base in the dedup.  With one_build, the chunks
 * lie in order in the one worker's build (@shared), up to @shared_end, and
 * nothing is appended: btf_sink__take() takes that build whole.
 */
struct btf_sink {
	pthread_mutex_t lock;
	struct btf_build btf;
	struct btf_build *shared;
	uint32_t shared_end;
	struct btf_build_strmap strmap; /* the appending worker's: where a chunk's strings went */
	DARRAY(struct btf_chunk *) ready; /* by index; NULL: not ended yet */
	uint32_t next; /* the first chunk not appended */
	bool appending;
	int err; /* the first append that failed */
};

int btf_sink__new(const struct btf_encoder_input *in, struct btf_sink **out)
{
	struct btf_sink *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	pthread_mutex_init(&s->lock, NULL);
	s->btf.ptr_size = in->ptr_size; /* the variables' sizes */
	*out = s;
	return 0;
}

void btf_sink__delete(struct btf_sink *s)
{
	if (!s)
		return;
	btf_build__free(&s->btf);
	btf_build_strmap__free(&s->strmap);
	darray__free(&s->ready);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/*
 * Appends chunk @c to s->btf, s->strmap serving the strings; its types must
 * be all of its BTF's.  A shared build's chunk must follow the last one in
 * it, as it already does.
 */
static int btf_chunk__append(struct btf_chunk *c, struct btf_sink *s)
{
	int first;

	if (c->shared) {
		uint32_t next = s->shared ? s->shared_end : 1;

		if (s->btf.nr || (s->shared && s->shared != c->built) || c->first_id != next)
			return -EPROTO;
		c->merged_id = c->first_id;
		s->shared = c->built;
		s->shared_end = c->first_id + c->nr_types;
		return 0;
	}
	if (s->shared || c->first_id != 1 || c->nr_types != btf_build__type_cnt(c->built) - 1)
		return -EPROTO;
	c->merged_id = btf_build__type_cnt(&s->btf);
	first = btf_build__append(&s->btf, c->built, &s->strmap);
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
		err = btf_chunk__append(next, s);
		pthread_mutex_lock(&s->lock);
		s->err = err;
		s->next += !err;
	}
	s->appending = false;
	err = s->err;
	pthread_mutex_unlock(&s->lock);
	return err;
}

int btf_sink__take(struct btf_sink *s, struct btf_chunk **chunks, size_t n, struct btf_build **out)
{
	size_t i;

	if (s->err)
		return s->err;
	for (i = 0; i < n; i++) {
		if (chunks[i]->index != i || i >= s->next)
			return -EPROTO;
		if (!chunks[i]->shared) {
			btf_build__free(chunks[i]->built);
			free(chunks[i]->built);
		}
		chunks[i]->built = NULL;
	}
	if (s->shared) {
		/* The worker is done with its build: nothing was added after its last chunk. */
		if (btf_build__type_cnt(s->shared) != s->shared_end)
			return -EPROTO;
		s->btf = *s->shared;
		*s->shared = (struct btf_build){};
		s->shared = NULL;
	}
	btf_build_strmap__free(&s->strmap);
	*out = &s->btf;
	return 0;
}
