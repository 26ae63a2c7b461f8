// SPDX-License-Identifier: GPL-2.0-only
/*
 * The queue of chunks of units and the worker threads that take them (see
 * dwarf_loader.h): a chunk is taken under the queue's mutex, in unit order,
 * and encoded by the worker without it.  Split off dwarf_loader.c, which
 * opens the file and makes what the workers share before they start.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
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
	uint64_t share; /* chunk_share(): what a worker deciding took it for */
	/*
	 * When the scan had published its last unit (since the workers
	 * started, or 0), and how long the worker waited for it in taking it.
	 */
	double ready, waited;
	double cpu; /* the worker's, taking the chunk and encoding it */
	double wall; /* the same span's wall time: with other workers, what they cost it too */
	/* Of that wall: its own units (from the end of its last chunk), the wait for its parts, the end. */
	double own, parts_wait, end;
	uint64_t own_bytes; /* of the units it encoded itself */
	unsigned int nr_parts;
	long faults; /* the worker's page faults in it: first writes to memory it had not used */
	uint64_t *unit_bytes; /* each unit's, nr_units of them (malloc'd), or NULL */
};

/* What -V says of a part (struct chunk_part): which, its units' bytes, its thread's times. */
struct part_time {
	uint32_t chunk, first, nr_units;
	uint64_t bytes;
	double cpu, wall;
};

/* A part of a chunk: its first unit, and the context that encoded it. */
struct chunk_part {
	unsigned int first;
	void *ctx;
};

/*
 * A chunk being encoded, shared by the worker that took it and those that
 * take parts of it; it lives on the stack of the first, which waits for
 * every part to end before it ends the chunk.
 */
struct chunk_run {
	const struct dwarf_chunk *chunk;
	uint64_t *upto; /* upto[i]: the bytes of its units before the i-th (i <= chunk->nr) */
	/* Under the queue's lock: */
	unsigned int pending; /* parts taken, not ended */
	DARRAY(struct chunk_part) parts;
	pthread_cond_t ended; /* signalled as a part ends */
};

/*
 * The units a worker encodes now: [next, end) of @run's chunk, in one word
 * (next << 32 | end) that the worker and one taking a part of it change by
 * compare-and-swap, the first to take next, the other to lower end.  @run
 * is set and cleared under the queue's lock; NULL: none to part.
 */
struct chunk_range {
	struct chunk_run *run;
	_Atomic uint64_t span;
	/* Set with @run: when the range was begun (CLOCK_MONOTONIC), from which unit. */
	double begun;
	uint32_t first;
};

struct worker;

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
	uint64_t next_start; /* the .debug_info offset the next chunk begins at */
	/*
	 * What the chunks ended so far took (cu_queue__urgent()): the walls of
	 * their own units, from their taking, the bytes of those, the walls of
	 * their ends.
	 */
	double units_wall, ends_wall;
	uint64_t units_bytes;
	bool done;
	int err;
	unsigned int partial_skipped; /* partial units left out, units one by one */
	const struct dwarf_chunk_ops *ops;
	const struct dwarf_cu_filter *filter;
	int verbose;
	struct worker *workers; /* whose ranges a worker taking a part looks at, under the lock */
	unsigned int nr_workers;
	uint64_t part_min; /* the least bytes a part takes: PART_MIN_BYTES, or 1 (ops->split) */
	DARRAY(void *) part_ctxs; /* every part's context, under the lock */
	DARRAY(struct chunk_time) times; /* with -V, under the lock */
	DARRAY(struct part_time) part_times; /* with -V, under the lock */
};

struct worker {
	struct cu_queue *queue;
	void *ctx;
	pthread_t thread;
	struct chunk_range range;
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

/*
 * The bytes a chunk starting at @start is expected to have before it is
 * taken: its share, but no more than is left of the section (0: not known).
 */
static uint64_t chunk_share(const struct dwarf_loader *l, uint64_t start)
{
	uint64_t size = l->info_sec_size, share = chunk_bytes(l, start);

	if (start >= size)
		return 0;
	return share < size - start ? share : size - start;
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
	if (taken) {
		q->next_chunk++;
		q->next_start = chunk->end;
	}
	pthread_mutex_unlock(&q->lock);
	return taken;
}

static void cu_queue__fail_locked(struct cu_queue *q, int err)
{
	if (!q->err)
		q->err = err;
}

static void cu_queue__fail(struct cu_queue *q, int err)
{
	pthread_mutex_lock(&q->lock);
	cu_queue__fail_locked(q, err);
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

/* ---- a chunk's units, and parts of them taken by other workers ---- */

/*
 * Below this many bytes of .debug_info the back of a range is not taken:
 * a part costs a context of its own and the appending of what it made, and
 * 256 kB of units take a worker about a millisecond.
 */
#define PART_MIN_BYTES (256u << 10)

static uint64_t span__make(uint32_t next, uint32_t end)
{
	return (uint64_t)next << 32 | end;
}

/* Takes the next unit of @r into *@i, if one is left: no lock. */
static bool chunk_range__next(struct chunk_range *r, unsigned int *i)
{
	uint64_t v = atomic_load(&r->span), want;

	do {
		uint32_t next = v >> 32, end = (uint32_t)v;

		if (next >= end)
			return false;
		*i = next;
		want = span__make(next + 1, end);
	} while (!atomic_compare_exchange_weak(&r->span, &v, want));
	return true;
}

/*
 * The bytes of the back half of what is left of @r's units in @v (its span
 * read), where that half would begin in *@mid: a part takes the units from
 * the first whose bytes before it pass half of what is left, so that it is
 * never the larger half (its worker has none of it begun).  0 when fewer
 * than two units are left.
 */
static uint64_t chunk_range__half(const struct chunk_range *r, uint64_t v, uint32_t *mid)
{
	const uint64_t *upto = r->run->upto;
	uint32_t next = v >> 32, end = (uint32_t)v, m;
	uint64_t half;

	if (next >= end || end - next < 2)
		return 0;
	half = upto[next] + (upto[end] - upto[next] + 1) / 2;
	for (m = next + 1; m < end - 1 && upto[m] < half; m++)
		;
	*mid = m;
	return upto[end] - upto[m];
}

/*
 * Under the queue's lock: the back half of @from's units, if of @min bytes
 * at least, taken into @to as a part of the chunk, the part's index in its
 * run in *@index.  False when there is not that much left (or no memory to
 * note the part: then the units stay @from's).
 */
static bool chunk_range__part(struct chunk_range *from, struct chunk_range *to, uint64_t min,
			      unsigned int *index)
{
	struct chunk_run *run = from->run;
	uint64_t v = atomic_load(&from->span);
	struct chunk_part *p = darray__push(&run->parts);
	uint32_t mid = 0;

	if (!p)
		return false;
	do {
		if (chunk_range__half(from, v, &mid) < min) {
			run->parts.nr--;
			return false;
		}
	} while (!atomic_compare_exchange_weak(&from->span, &v, span__make(v >> 32, mid)));
	*p = (struct chunk_part){ .first = mid };
	*index = p - run->parts.data;
	run->pending++;
	to->run = run;
	to->first = mid;
	to->begun = clock_seconds(CLOCK_MONOTONIC);
	atomic_store(&to->span, span__make(mid, (uint32_t)v));
	return true;
}

/* With -V: what part @index of @run took, its first unit @first to @end. */
static void cu_queue__note_part(struct cu_queue *q, const struct chunk_run *run, uint32_t first,
				uint32_t end, struct chunk_clock start)
{
	struct chunk_clock now;
	struct part_time *t;

	if (!q->verbose)
		return;
	now = chunk_clock__now(true);
	pthread_mutex_lock(&q->lock);
	t = darray__push(&q->part_times);
	if (t)
		*t = (struct part_time){ run->chunk->index,   first,
					 end - first,	      run->upto[end] - run->upto[first],
					 now.cpu - start.cpu, now.wall - start.wall };
	pthread_mutex_unlock(&q->lock);
}

/*
 * Encodes the part of @r's chunk that @r holds, part @index of its run,
 * with a context of its own, then lets the chunk's worker know (@r's run is
 * cleared: nothing is left to take of it).
 */
static void worker__encode_part(struct worker *w, struct chunk_range *r, unsigned int index)
{
	struct cu_queue *q = w->queue;
	const struct dwarf_chunk_ops *ops = q->ops;
	struct chunk_run *run = r->run;
	const struct dwarf_chunk *chunk = run->chunk;
	struct chunk_clock start = chunk_clock__now(q->verbose);
	uint64_t span = atomic_load(&r->span);
	uint32_t first = span >> 32, end;
	void *ctx = NULL, **slot;
	unsigned int i;
	int err = ops->part_new(ops->user, w->ctx, &ctx);

	err = err ?: ops->begin(ctx, chunk);
	while (!err && chunk_range__next(r, &i))
		err = ops->unit(ctx, chunk, i);
	err = err ?: ops->part_end(ctx);
	/* Others may have taken the back of it in turn: it ended where its span ends now. */
	end = (uint32_t)atomic_load(&r->span);
	if (!err)
		cu_queue__note_part(q, run, first, end, start);
	pthread_mutex_lock(&q->lock);
	r->run = NULL;
	run->parts.data[index].ctx = ctx;
	slot = ctx ? darray__push(&q->part_ctxs) : NULL;
	if (slot)
		*slot = ctx;
	else if (ctx)
		err = err ?: -ENOMEM;
	if (err)
		cu_queue__fail_locked(q, err);
	run->pending--;
	pthread_cond_broadcast(&run->ended);
	pthread_mutex_unlock(&q->lock);
}

/* Under the queue's lock: the range of another worker with most bytes to give a part, or NULL. */
static struct chunk_range *cu_queue__most_left(struct cu_queue *q, const struct worker *w)
{
	struct chunk_range *best = NULL;
	uint64_t most = 0;
	unsigned int k;

	for (k = 0; k < q->nr_workers; k++) {
		struct chunk_range *r = &q->workers[k].range;
		uint32_t mid;
		uint64_t half;

		if (!r->run || r == &w->range)
			continue;
		half = chunk_range__half(r, atomic_load(&r->span), &mid);
		if (half > most) {
			most = half;
			best = r;
		}
	}
	return best;
}

/*
 * Under the queue's lock, before a chunk is taken: the range of another
 * worker whose chunk is to end after the next chunk would, were it begun
 * now, or NULL.  By what the chunks ended so far took: the next chunk's
 * units at their rate per byte and an end in the proportion of their ends
 * to their units; a range's units left at the rate it has kept since it
 * was begun, and its chunk's end in that proportion to its chunk's bytes
 * at that rate.  A part of that range is more urgent: the ends cannot be
 * shared out, and a large chunk that costs twice others' per byte, begun
 * first, would end long after the rest (at 16 workers, the 6.1 vmlinux's
 * 18 large chunks go in two rounds).  NULL too before any chunk has ended,
 * or where the section's size is not known.
 */
static struct chunk_range *cu_queue__urgent(struct cu_queue *q, const struct worker *w)
{
	uint64_t next = chunk_share(q->loader, q->next_start);
	struct chunk_range *best = NULL;
	double rate, ends, most, now;
	unsigned int k;

	if (q->done || q->err || !next || !q->units_bytes || q->units_wall <= 0)
		return NULL;
	rate = q->units_wall / q->units_bytes;
	ends = q->ends_wall / q->units_wall;
	most = next * rate * (1 + ends);
	now = clock_seconds(CLOCK_MONOTONIC);
	for (k = 0; k < q->nr_workers; k++) {
		struct chunk_range *r = &q->workers[k].range;
		const uint64_t *upto = r->run ? r->run->upto : NULL;
		uint64_t v = atomic_load(&r->span), done;
		uint32_t next_unit = v >> 32, end = (uint32_t)v;
		double own, left;

		if (!upto || r == &w->range || next_unit >= end)
			continue;
		done = upto[next_unit] - upto[r->first];
		own = done && now > r->begun ? (now - r->begun) / done : rate;
		left = (upto[end] - upto[next_unit] + ends * upto[r->run->chunk->nr]) * own;
		if (left > most) {
			most = left;
			best = r;
		}
	}
	return best;
}

/*
 * The back half of another worker's range, taken and encoded as a part:
 * with @urgent, of cu_queue__urgent()'s range, before a chunk is taken;
 * else (the queue is empty) of the range with most bytes left.  False
 * when that range has not q->part_min bytes to give (with @urgent, when
 * there is none), or a worker failed.
 */
static bool worker__take_part(struct worker *w, bool urgent)
{
	struct cu_queue *q = w->queue;
	struct chunk_range *best;
	unsigned int index;
	bool taken = false;

	pthread_mutex_lock(&q->lock);
	best = q->err ? NULL : urgent ? cu_queue__urgent(q, w) : cu_queue__most_left(q, w);
	if (best)
		taken = chunk_range__part(best, &w->range, q->part_min, &index);
	pthread_mutex_unlock(&q->lock);
	if (taken)
		worker__encode_part(w, &w->range, index);
	return taken;
}

/* @run's bytes before each unit of its chunk (units counted where the ends are not known). */
static int chunk_run__init(struct chunk_run *run, const struct dwarf_chunk *chunk)
{
	unsigned int i;

	*run = (struct chunk_run){ .chunk = chunk };
	run->upto = malloc((chunk->nr + 1) * sizeof(*run->upto));
	if (!run->upto)
		return -ENOMEM;
	run->upto[0] = 0;
	for (i = 0; i < chunk->nr; i++) {
		Dwarf_Off start = dwarf_unit__offset(&chunk->cu_die[i]), end = chunk->cu_end[i];

		run->upto[i + 1] = run->upto[i] + (end > start ? end - start : 1);
	}
	pthread_cond_init(&run->ended, NULL);
	return 0;
}

static void chunk_run__free(struct chunk_run *run)
{
	free(run->upto);
	darray__free(&run->parts);
	pthread_cond_destroy(&run->ended);
}

static int chunk_part__cmp(const void *a, const void *b)
{
	const struct chunk_part *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/* Ends @run's chunk with @ctx and its parts' contexts, in unit order. */
static int chunk_run__end(struct chunk_run *run, const struct dwarf_chunk_ops *ops, void *ctx)
{
	size_t n = run->parts.nr, i;
	void **parts = NULL;
	int err;

	if (n > 1)
		qsort(run->parts.data, n, sizeof(*run->parts.data), chunk_part__cmp);
	if (n && !(parts = malloc(n * sizeof(*parts))))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		parts[i] = run->parts.data[i].ctx;
	err = ops->end(ctx, run->chunk, parts, n);
	free(parts);
	return err;
}

/* The bytes of the units @run's worker encoded itself: those before its first part (sorted). */
static uint64_t chunk_run__own_bytes(const struct chunk_run *run)
{
	return run->parts.nr ? run->upto[run->parts.data[0].first] : run->upto[run->chunk->nr];
}

/* What @run's chunk took, from @begun, its own units to @t[0], its end from @t[1] to @t[2]. */
static void cu_queue__cost(struct cu_queue *q, const struct chunk_run *run, double begun,
			   const double *t)
{
	pthread_mutex_lock(&q->lock);
	q->units_wall += t[0] - begun;
	q->units_bytes += chunk_run__own_bytes(run);
	q->ends_wall += t[2] - t[1];
	pthread_mutex_unlock(&q->lock);
}

/*
 * With -V, what @run's chunk took from @start (the end of the worker's last
 * chunk): its own units to @t[0], the wait for its parts to @t[1], its end.
 */
static void cu_queue__note(struct cu_queue *q, const struct chunk_run *run,
			   struct chunk_clock start, const double *t, const struct chunk_wait *wait)
{
	const struct dwarf_chunk *chunk = run->chunk;
	struct chunk_clock now;
	uint64_t *bytes, own = chunk_run__own_bytes(run);
	struct chunk_time *tm;
	unsigned int i;

	if (!q->verbose)
		return;
	now = chunk_clock__now(true);
	bytes = malloc((chunk->nr ?: 1) * sizeof(*bytes));
	for (i = 0; bytes && i < chunk->nr; i++)
		bytes[i] = run->upto[i + 1] - run->upto[i];
	pthread_mutex_lock(&q->lock);
	tm = darray__push(&q->times);
	if (tm)
		*tm = (struct chunk_time){ .index = chunk->index,
					   .nr_units = chunk->nr,
					   .bytes = chunk->end - chunk->start,
					   .share = chunk_share(q->loader, chunk->start),
					   .ready = wait->ready,
					   .waited = wait->waited,
					   .cpu = now.cpu - start.cpu,
					   .wall = now.wall - start.wall,
					   .own = t[0] - start.wall,
					   .parts_wait = t[1] - t[0],
					   .end = now.wall - t[1],
					   .own_bytes = own,
					   .nr_parts = run->parts.nr,
					   .faults = now.faults - start.faults,
					   .unit_bytes = bytes };
	else
		free(bytes);
	pthread_mutex_unlock(&q->lock);
}

/*
 * Encodes @chunk, taken by @w: its units in order but for the backs that
 * other workers take as parts (with ops->split, of an even chunk one part is
 * taken here, and encoded by @w after its own units), then, once every part
 * has ended, the chunk's end.
 */
static int worker__chunk(struct worker *w, struct dwarf_chunk *chunk, struct chunk_clock start,
			 const struct chunk_wait *wait)
{
	struct cu_queue *q = w->queue;
	const struct dwarf_chunk_ops *ops = q->ops;
	struct chunk_range own_part = {};
	struct chunk_run run;
	unsigned int i, own_index = 0;
	bool split = false;
	double begun = clock_seconds(CLOCK_MONOTONIC), t[3];
	int err = chunk_run__init(&run, chunk);

	if (err)
		return err;
	dwarf_loader__load_chunk(q->loader, q->dwarf, chunk);
	pthread_mutex_lock(&q->lock);
	atomic_store(&w->range.span, span__make(0, chunk->nr));
	w->range.begun = begun;
	w->range.first = 0;
	/* Where the units are one, a chunk's refer to each other: never parted. */
	w->range.run = q->loader->merged ? NULL : &run;
	/* The odd ones are left whole, for the workers with none left to take parts of. */
	if (ops->split && w->range.run && !(chunk->index & 1))
		split = chunk_range__part(&w->range, &own_part, 1, &own_index);
	pthread_mutex_unlock(&q->lock);
	err = ops->begin(w->ctx, chunk);
	while (!err && chunk_range__next(&w->range, &i))
		err = ops->unit(w->ctx, chunk, i);
	if (split)
		worker__encode_part(w, &own_part, own_index);
	t[0] = clock_seconds(CLOCK_MONOTONIC);
	pthread_mutex_lock(&q->lock);
	w->range.run = NULL;
	while (run.pending)
		pthread_cond_wait(&run.ended, &q->lock);
	err = err ?: q->err;
	pthread_mutex_unlock(&q->lock);
	t[1] = clock_seconds(CLOCK_MONOTONIC);
	err = err ?: chunk_run__end(&run, ops, w->ctx);
	t[2] = clock_seconds(CLOCK_MONOTONIC);
	dwarf_loader__drop_chunk(q->loader, chunk);
	if (!err) {
		cu_queue__cost(q, &run, begun, t);
		cu_queue__note(q, &run, start, t, wait);
	}
	chunk_run__free(&run);
	return err;
}

static void *worker__run(void *arg)
{
	struct worker *w = arg;
	struct cu_queue *q = w->queue;
	struct dwarf_chunk *chunk = calloc(1, sizeof(*chunk));
	struct chunk_clock start = chunk_clock__now(q->verbose);
	struct chunk_wait wait;

	if (!chunk) {
		cu_queue__fail(q, -ENOMEM);
		return NULL;
	}
	for (;;) {
		int err;

		/*
		 * A part more urgent than the next chunk, or, a test's
		 * (ops->split), any back of others' units first.
		 */
		if (worker__take_part(w, !q->ops->split)) {
			/* -V times the part apart: the next chunk's own units start here. */
			start = chunk_clock__now(q->verbose);
			continue;
		}
		if (!cu_queue__take(q, chunk, &wait))
			break;
		err = worker__chunk(w, chunk, start, &wait);

		if (err) {
			cu_queue__fail(q, err);
			break;
		}
		start = chunk_clock__now(q->verbose);
	}
	/* The queue is empty: the backs of the chunks the others still encode. */
	while (worker__take_part(w, false))
		;
	free(chunk->cu_die);
	free(chunk->cu_index);
	free(chunk->cu_end);
	free(chunk);
	return NULL;
}

static int chunk_time__cmp(const void *a, const void *b)
{
	const struct chunk_time *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

static int part_time__cmp(const void *a, const void *b)
{
	const struct part_time *x = a, *y = b;

	if (x->chunk != y->chunk)
		return x->chunk < y->chunk ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * -V: per chunk, in .debug_info order, a line of its times (the same lines
 * at every -j but for the times and the parts), a line of its units' bytes,
 * and a line per part others took.
 */
static void cu_queue__print_times(struct cu_queue *q)
{
	size_t i, j, p = 0;

	if (q->times.nr > 1)
		qsort(q->times.data, q->times.nr, sizeof(*q->times.data), chunk_time__cmp);
	if (q->part_times.nr > 1)
		qsort(q->part_times.data, q->part_times.nr, sizeof(*q->part_times.data),
		      part_time__cmp);
	fprintf(stderr, "pahole: parts of chunks taken: %zu, each of %llu bytes at least\n",
		q->part_times.nr, (unsigned long long)q->part_min);
	for (i = 0; i < q->times.nr; i++) {
		const struct chunk_time *t = &q->times.data[i];

		fprintf(stderr, "pahole: chunk %u units' bytes:", t->index);
		for (j = 0; t->unit_bytes && j < t->nr_units; j++)
			fprintf(stderr, " %llu", (unsigned long long)t->unit_bytes[j]);
		fputc('\n', stderr);
		for (; p < q->part_times.nr && q->part_times.data[p].chunk <= t->index; p++) {
			const struct part_time *pt = &q->part_times.data[p];

			fprintf(stderr,
				"pahole: chunk %u part from unit %u: %u units, %llu bytes, %.4f s CPU, "
				"%.4f s wall\n",
				pt->chunk, pt->first, pt->nr_units, (unsigned long long)pt->bytes,
				pt->cpu, pt->wall);
		}
		fprintf(stderr,
			"pahole: chunk %u: %u units, %llu bytes, share %llu bytes, %ld page faults, "
			"ready at %.4f s, waited %.4f s, own units %.4f s for %llu bytes, %u parts "
			"waited for %.4f s, end %.4f s, %.4f s CPU, %.4f s wall\n",
			t->index, t->nr_units, (unsigned long long)t->bytes,
			(unsigned long long)t->share, t->faults, t->ready, t->waited, t->own,
			(unsigned long long)t->own_bytes, t->nr_parts, t->parts_wait, t->end,
			t->cpu, t->wall);
	}
}

int dwarf_loader__for_each_chunk(struct dwarf_loader *l, unsigned int nr_workers,
				 const struct dwarf_chunk_ops *ops, void **worker_ctx,
				 const struct dwarf_cu_filter *filter, int verbose, void ***parts,
				 unsigned int *nr_parts)
{
	struct cu_queue q = {
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.loader = l,
		.dwarf = l->dwarf,
		.ops = ops,
		.filter = filter,
		.verbose = verbose,
	};
	struct worker *workers;
	unsigned int i, started = 0;
	int err = 0;

	*parts = NULL;
	*nr_parts = 0;
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
	q.workers = workers;
	q.nr_workers = nr_workers;
	/* A test's: workers with no chunk left take any back they find (dwarf_loader.h). */
	q.part_min = ops->split ? 1 : PART_MIN_BYTES;
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
	for (i = 0; i < q.times.nr; i++)
		free(q.times.data[i].unit_bytes);
	darray__free(&q.times);
	darray__free(&q.part_times);
	*parts = (void **)q.part_ctxs.data;
	*nr_parts = q.part_ctxs.nr;
	free(workers);
	pthread_mutex_destroy(&q.lock);
	return q.err;
}
