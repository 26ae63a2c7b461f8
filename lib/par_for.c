// SPDX-License-Identifier: GPL-2.0-only
/* par_for(): see par_for.h. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "par_for.h"

/* Items a thread takes at a time: few enough to share the end, many enough to be cheap. */
#define PAR_FOR_BLOCK 256

struct par_for {
	int (*fn)(void *ctx, size_t i, unsigned int thread);
	void *ctx;
	size_t n;
	atomic_size_t next; /* the first item not handed out */
	atomic_bool failed;
	pthread_mutex_t lock; /* guards err and err_item */
	int err;
	size_t err_item;
};

struct par_for_thread {
	struct par_for *p;
	unsigned int thread;
	pthread_t id;
};

static void par_for__fail(struct par_for *p, size_t i, int err)
{
	pthread_mutex_lock(&p->lock);
	if (!p->err || i < p->err_item) {
		p->err = err;
		p->err_item = i;
	}
	pthread_mutex_unlock(&p->lock);
	atomic_store(&p->failed, true);
}

static void *par_for__run(void *arg)
{
	struct par_for_thread *t = arg;
	struct par_for *p = t->p;

	while (!atomic_load(&p->failed)) {
		size_t i = atomic_fetch_add(&p->next, PAR_FOR_BLOCK), end;

		if (i >= p->n)
			break;
		end = p->n - i < PAR_FOR_BLOCK ? p->n : i + PAR_FOR_BLOCK;
		for (; i < end; i++) {
			int err = p->fn(p->ctx, i, t->thread);

			if (err) {
				par_for__fail(p, i, err);
				break;
			}
		}
	}
	return NULL;
}

int par_for(unsigned int nr_threads, size_t n, int (*fn)(void *ctx, size_t i, unsigned int thread),
	    void *ctx)
{
	struct par_for p = { .fn = fn, .ctx = ctx, .n = n };
	struct par_for_thread *threads;
	unsigned int i, started = 1;

	/* Not PTHREAD_MUTEX_INITIALIZER: drd takes a mutex it never saw locked for none. */
	pthread_mutex_init(&p.lock, NULL);
	atomic_init(&p.next, 0);
	atomic_init(&p.failed, false);
	if (nr_threads > (n + PAR_FOR_BLOCK - 1) / PAR_FOR_BLOCK)
		nr_threads = (n + PAR_FOR_BLOCK - 1) / PAR_FOR_BLOCK;
	threads = calloc(nr_threads ?: 1, sizeof(*threads));
	if (!threads)
		nr_threads = 1;
	/* Thread 0 is the caller's. */
	for (i = 1; threads && i < nr_threads; i++, started++) {
		threads[i] = (struct par_for_thread){ .p = &p, .thread = i };
		if (pthread_create(&threads[i].id, NULL, par_for__run, &threads[i]))
			break;
	}
	par_for__run(&(struct par_for_thread){ .p = &p, .thread = 0 });
	for (i = 1; i < started; i++)
		pthread_join(threads[i].id, NULL);
	free(threads);
	pthread_mutex_destroy(&p.lock);
	return p.err;
}
