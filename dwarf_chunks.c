// SPDX-License-Identifier: GPL-2.0-only
/*
 * The queue of chunks of units and the worker threads that take them (see
 * dwarf_loader.h): a chunk is taken under the queue's mutex, in unit order,
 * and encoded by the worker without it.  Split off dwarf_loader.c, which
 * opens the file and makes what the workers share before they start.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <dwarf.h>

#include "dwarf_loader_priv.h"
#include "lib/darray.h"
#include "lib/elfutils.h"
#include "lib/populate.h"

/* What -V says of a chunk: what bench/cores.sh models the walls at any -j from. */
struct chunk_time {
	uint32_t index, nr_units;
	uint64_t bytes;
	/*
	 * When the scan had published its last unit (since the workers
	 * started, or 0), and how long the worker waited for it in taking it.
	 */
	double ready, waited;
	double cpu; /* the worker's, taking the chunk and encoding it */
	double wall; /* the same span's wall time: with other workers, what they cost it too */
	long faults; /* the worker's page faults in it: first writes to memory it had not used */
};

/* The CU queue shared by the workers. */
struct cu_queue {
	pthread_mutex_t lock;
	struct dwarf_loader *loader;
	Dwarf *dwarf;
	Dwarf_CU *cu; /* the last CU handed out */
	uint32_t next_index; /* of the next unit */
	uint32_t next_unit; /* of the next unit libdw lists (dwarf_loader__wait_unit()) */
	double start; /* when the workers started (CLOCK_MONOTONIC), for -V */
	uint32_t next_chunk;
	bool done;
	int err;
	unsigned int partial_skipped; /* partial units left out, units one by one */
	dwarf_chunk_fn fn;
	const struct dwarf_cu_filter *filter;
	int verbose;
	DARRAY(struct chunk_time) times; /* with -V, under the lock */
};

struct worker {
	struct cu_queue *queue;
	void *ctx;
	pthread_t thread;
};

/* What taking a chunk waited for: the scan's publishing its units (struct chunk_time). */
struct chunk_wait {
	double ready, waited;
};

/* The offset just past the unit whose DIE is @cu_die, or 0. */
static Dwarf_Off unit_end(Dwarf *dwarf, Dwarf_Die *cu_die)
{
	Dwarf_Off start = dwarf_unit__offset(cu_die), next;
	size_t header_size;

	if (dwarf_next_unit(dwarf, start, &next, &header_size, NULL, NULL, NULL, NULL, NULL,
			    NULL) != 0)
		return 0;
	return next;
}

/*
 * Maps at once the pages of @chunk's units to encode, which the worker
 * reads whole: one call per run of them, not a fault per 64 kB
 * (lib/populate.h).  Units left out (another language's) stay unread, and
 * so do the alternate file's (dwarf_alt.h), which l->info does not hold.
 */
static void dwarf_loader__load_chunk(const struct dwarf_loader *l, Dwarf *dwarf,
				     const struct dwarf_chunk *chunk)
{
	unsigned int i, first = 0;
	Dwarf_Off start, end;

	for (i = 0; l->info && i < chunk->nr; i++) {
		if (dwarf_cu_getdwarf(chunk->cu_die[i].cu) != dwarf) {
			first = i + 1;
			continue;
		}
		if (i + 1 < chunk->nr && chunk->cu_index[i + 1] == chunk->cu_index[i] + 1 &&
		    dwarf_cu_getdwarf(chunk->cu_die[i + 1].cu) == dwarf)
			continue;
		start = dwarf_unit__offset(&chunk->cu_die[first]);
		end = chunk->cu_end[i] ?: unit_end(dwarf, &chunk->cu_die[i]);
		if (start < end && end <= l->info_size)
			populate__read(l->info + start, end - start);
		first = i + 1;
	}
}

/* Drops the pages that hold only @chunk's CUs, done with. */
static void dwarf_loader__drop_chunk(const struct dwarf_loader *l, const struct dwarf_chunk *chunk)
{
	dwarf_loader__drop_info(l, chunk->start, chunk->end);
}

/*
 * How many bytes of .debug_info the chunk starting at @start gets (see
 * dwarf_loader.h); 0 when the size of the section is not known: then
 * chunks are counted in units.
 */
static uint64_t chunk_bytes(const struct dwarf_loader *l, Dwarf_Off start)
{
	uint64_t size = l->info_sec_size;

	if (!size)
		return 0;
	if (start < size - size / DWARF_LOADER_TAIL)
		return size / DWARF_LOADER_CHUNKS ?: 1;
	return size / (DWARF_LOADER_CHUNKS * DWARF_LOADER_TAIL_SPLIT) ?: 1;
}

/* Room for one more unit in @chunk; false when out of memory. */
static bool dwarf_chunk__reserve(struct dwarf_chunk *chunk)
{
	unsigned int cap = chunk->capacity ? chunk->capacity * 2 : DWARF_LOADER_CHUNK_MAX;
	Dwarf_Die *dies;
	uint32_t *indices = NULL;
	Dwarf_Off *ends = NULL;

	if (chunk->nr < chunk->capacity)
		return true;
	dies = realloc(chunk->cu_die, cap * sizeof(*dies));
	if (dies)
		chunk->cu_die = dies;
	indices = dies ? realloc(chunk->cu_index, cap * sizeof(*indices)) : NULL;
	if (indices)
		chunk->cu_index = indices;
	ends = indices ? realloc(chunk->cu_end, cap * sizeof(*ends)) : NULL;
	if (!ends)
		return false;
	chunk->cu_end = ends;
	chunk->capacity = cap;
	return true;
}

/* Whether @chunk, of @nr_units and @bytes to reach (0: counted in units), is full. */
static bool cu_queue__chunk_full(const struct dwarf_chunk *chunk, unsigned int nr_units,
				 uint64_t bytes)
{
	if (nr_units == (bytes ? DWARF_LOADER_CHUNK_MAX : DWARF_LOADER_CHUNK_UNITS))
		return true;
	return bytes && chunk->end - chunk->start >= bytes;
}

/*
 * The partial units of the alternate file that the file imports, first in
 * the first chunk of merged units, as if they were the file's own (the
 * order of a single-file dwz, whose partial units come first).
 */
static bool cu_queue__take_alt(struct cu_queue *q, struct dwarf_chunk *chunk)
{
	const struct dwarf_alt *alt = &q->loader->alt;
	size_t i;

	if (!q->loader->merged || q->next_chunk)
		return true;
	for (i = 0; i < alt->units.nr; i++) {
		if (!dwarf_chunk__reserve(chunk))
			return false;
		chunk->cu_die[chunk->nr] = alt->units.data[i];
		chunk->cu_end[chunk->nr] = 0;
		chunk->cu_index[chunk->nr++] = q->next_index++;
	}
	return true;
}

/*
 * Takes the next chunk: the units that follow the last one taken, up to its
 * share of bytes (see chunk_bytes()) or DWARF_LOADER_CHUNK_MAX of them,
 * less those not to be encoded.  Where a chunk ends depends on the units
 * alone.  False when there is none left or a worker failed.
 */
static bool cu_queue__take(struct cu_queue *q, struct dwarf_chunk *chunk, struct chunk_wait *wait)
{
	uint64_t bytes = 0;
	unsigned int nr_units = 0;
	bool taken = false;

	pthread_mutex_lock(&q->lock);
	chunk->nr = 0;
	chunk->index = q->next_chunk;
	*wait = (struct chunk_wait){};
	if (!q->done && !q->err && !cu_queue__take_alt(q, chunk))
		q->err = -ENOMEM;
	while (!q->done && !q->err) {
		const struct dwarf_unit_info *u;
		Dwarf_Die *cu_die;
		uint8_t unit_type;
		Dwarf_CU *next;
		uint32_t index;
		int rc = 0;

		if (!dwarf_chunk__reserve(chunk)) {
			q->err = -ENOMEM;
			break;
		}
		cu_die = &chunk->cu_die[chunk->nr];
		/* As the scan published it, else (once the scan is done) as libdw lists it. */
		u = dwarf_loader__wait_unit(q->loader, q->next_unit, &wait->waited);
		if (u) {
			q->next_unit++;
			*cu_die = u->cu_die;
			unit_type = u->unit_type;
			next = cu_die->cu;
			if (u->published - q->start > wait->ready)
				wait->ready = u->published - q->start;
		} else {
			errno = 0;
			rc = dwarf_get_units(q->dwarf, q->cu, &next, NULL, &unit_type, cu_die,
					     NULL);
		}
		if (rc != 0) {
			/* 1 is the end; -1 a unit header libdw cannot read (or no memory). */
			if (rc < 0)
				q->err = elfutils__err(-EBADMSG);
			q->done = true;
			break;
		}
		q->cu = next;
		index = q->next_index++;
		if (!taken) {
			chunk->start = dwarf_unit__offset(cu_die);
			bytes = chunk_bytes(q->loader, chunk->start);
		}
		/* Its end and language as noted by the scan: its header's page is not mapped again. */
		chunk->end = u && u->end ? u->end : unit_end(q->dwarf, cu_die);
		/* A unit whose length runs past the section. */
		if (q->loader->info_sec_size && chunk->end > q->loader->info_sec_size) {
			q->err = -EBADMSG;
			break;
		}
		taken = true;
		/*
		 * A partial unit is a part of the units that import it: both
		 * releases read it only where the units are one CU (v1.31's
		 * and v1.32's die__process() skip it), and so do we.
		 */
		if (unit_type == DW_UT_partial && !q->loader->merged) {
			q->partial_skipped++;
			if (q->verbose)
				fprintf(stderr, "skipping CU %s: a partial unit\n",
					dwarf_diename(cu_die) ?: "?");
		} else if (unit_type == DW_UT_compile || unit_type == DW_UT_partial) {
			const char *why =
				u && u->has_lang ?
					dwarf_cu_filter__why_lang(q->filter, cu_die, u->lang) :
					dwarf_cu_filter__why(q->filter, cu_die);

			if (!why) {
				chunk->cu_end[chunk->nr] = chunk->end;
				chunk->cu_index[chunk->nr++] = index;
			} else if (q->verbose) {
				fprintf(stderr, "skipping CU %s: %s\n",
					dwarf_diename(cu_die) ?: "?", why);
			}
		}
		if (cu_queue__chunk_full(chunk, ++nr_units, bytes))
			break;
	}
	taken = taken && !q->err;
	if (taken)
		q->next_chunk++;
	pthread_mutex_unlock(&q->lock);
	return taken;
}

static void cu_queue__fail(struct cu_queue *q, int err)
{
	pthread_mutex_lock(&q->lock);
	if (!q->err)
		q->err = err;
	pthread_mutex_unlock(&q->lock);
}

/* A worker's CPU and the wall clock, at one moment. */
struct chunk_clock {
	double cpu, wall;
	long faults;
};

static double clock_seconds(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The worker's clocks for -V (@verbose); else nothing, no system call per chunk. */
static struct chunk_clock chunk_clock__now(bool verbose)
{
	struct rusage ru = {};

	if (!verbose)
		return (struct chunk_clock){};
	getrusage(RUSAGE_THREAD, &ru);
	return (struct chunk_clock){ clock_seconds(CLOCK_THREAD_CPUTIME_ID),
				     clock_seconds(CLOCK_MONOTONIC), ru.ru_minflt + ru.ru_majflt };
}

/* With -V, what @chunk took since @start; only -V's lines miss it when out of memory. */
static void cu_queue__note(struct cu_queue *q, const struct dwarf_chunk *chunk,
			   struct chunk_clock start, const struct chunk_wait *wait)
{
	struct chunk_clock now;
	struct chunk_time *t;

	if (!q->verbose)
		return;
	now = chunk_clock__now(true);
	pthread_mutex_lock(&q->lock);
	t = darray__push(&q->times);
	if (t)
		*t = (struct chunk_time){ chunk->index,
					  chunk->nr,
					  chunk->end - chunk->start,
					  wait->ready,
					  wait->waited,
					  now.cpu - start.cpu,
					  now.wall - start.wall,
					  now.faults - start.faults };
	pthread_mutex_unlock(&q->lock);
}

static int chunk_time__cmp(const void *a, const void *b)
{
	const struct chunk_time *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

/* -V: one line per chunk, in .debug_info order, the same at every -j but for the times. */
static void cu_queue__print_times(struct cu_queue *q)
{
	size_t i;

	if (q->times.nr > 1)
		qsort(q->times.data, q->times.nr, sizeof(*q->times.data), chunk_time__cmp);
	for (i = 0; i < q->times.nr; i++) {
		const struct chunk_time *t = &q->times.data[i];

		fprintf(stderr,
			"pahole: chunk %u: %u units, %llu bytes, %ld page faults, ready at %.4f s, "
			"waited %.4f s, %.4f s CPU, %.4f s wall\n",
			t->index, t->nr_units, (unsigned long long)t->bytes, t->faults, t->ready,
			t->waited, t->cpu, t->wall);
	}
}

static void *worker__run(void *arg)
{
	struct worker *w = arg;
	struct dwarf_chunk *chunk = calloc(1, sizeof(*chunk));
	struct chunk_clock start = chunk_clock__now(w->queue->verbose);
	struct chunk_wait wait;

	if (!chunk) {
		cu_queue__fail(w->queue, -ENOMEM);
		return NULL;
	}
	while (cu_queue__take(w->queue, chunk, &wait)) {
		int err;

		dwarf_loader__load_chunk(w->queue->loader, w->queue->dwarf, chunk);
		err = w->queue->fn(w->ctx, chunk);

		dwarf_loader__drop_chunk(w->queue->loader, chunk);
		if (err) {
			cu_queue__fail(w->queue, err);
			break;
		}
		cu_queue__note(w->queue, chunk, start, &wait);
		start = chunk_clock__now(w->queue->verbose);
	}
	free(chunk->cu_die);
	free(chunk->cu_index);
	free(chunk->cu_end);
	free(chunk);
	return NULL;
}

int dwarf_loader__for_each_chunk(struct dwarf_loader *l, unsigned int nr_workers, dwarf_chunk_fn fn,
				 void **worker_ctx, const struct dwarf_cu_filter *filter,
				 int verbose)
{
	struct cu_queue q = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.loader = l,
		.dwarf = l->dwarf,
		.fn = fn,
		.filter = filter,
		.verbose = verbose,
	};
	struct worker *workers;
	unsigned int i, started = 0;
	int err = 0;

	/* The queue reads l->merged; the workers may start beside the scan's interning. */
	dwarf_loader__wait_look(l);
	q.start = clock_seconds(CLOCK_MONOTONIC);
	if (l->merged)
		dwarf_loader__intern_all_abbrevs(l, nr_workers);
	workers = calloc(nr_workers, sizeof(*workers));
	if (!workers)
		return -ENOMEM;
	for (i = 0; i < nr_workers; i++) {
		workers[i].queue = &q;
		workers[i].ctx = worker_ctx[i];
	}
	/*
	 * N threads for -jN, -j1 too, as pahole starts them: the main thread
	 * only waits (upstream's tests/reproducible_build.sh counts them).
	 * Threads that cannot be started (a limit on processes, no memory for
	 * a stack) leave the work to those that were, or to the main thread
	 * itself: the chunks, and so the output, are the same.
	 */
	for (i = 0; i < nr_workers; i++, started++) {
		err = -pthread_create(&workers[i].thread, NULL, worker__run, &workers[i]);
		if (err)
			break;
	}
	if (err && verbose)
		fprintf(stderr, "pahole: %u of %u worker threads could not be started (%s): %s\n",
			nr_workers - started, nr_workers, strerror(-err),
			started ? "the others do their work" : "the main thread does it");
	if (!started)
		worker__run(&workers[0]);
	for (i = 0; i < started; i++)
		pthread_join(workers[i].thread, NULL);
	dwarf_loader__join_scan(l);
	if (!q.err && verbose)
		cu_queue__print_times(&q);
	l->partial_skipped = q.partial_skipped;
	darray__free(&q.times);
	free(workers);
	pthread_mutex_destroy(&q.lock);
	return q.err;
}
