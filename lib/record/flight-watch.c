// SPDX-License-Identifier: MIT
/*
 * flight-watch.c - the flight recorder's trigger watcher (see flight.h).
 *
 * One thread takes the blocks of pages the readers hand over, walks them
 * (pagewalk.h), decodes their records (decode.c, from the recording's own
 * formats and kallsyms) and feeds them, merged across CPUs by time, to the
 * triggers (analysis/trigger.c), which follow every task's calls through
 * the one replay. A task moves between CPUs, so an event is fed only once
 * every other CPU is known to have nothing earlier: it has an event queued
 * that is later, or its reader found the buffer empty after that time
 * (kmag__fl_watch_hw()). When a trigger fires, the rings keep everything
 * from the entry of the chain of calls around it on; when the window is
 * over (--after passed on the trace clock and the chain returned, or ten
 * seconds more at most), a snapshot is due.
 */
#define PR_DOMAIN "flight"
#include <stdio.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "flight.h"
#include "kmag/btf.h"
#include "kmag/symtab.h"
#include "record-internal.h"

/*
 * Buffers (of a whole block each) waiting for the watcher or being watched,
 * at most, per CPU: WATCH_MAX_QUEUED over the CPUs, and no more than the
 * CPU's ring holds (compressed: it holds more pages than that), so that the
 * watcher never lags behind what the ring still has and a trigger's chain
 * can be kept. Past that it skips blocks (the rings still get them) and
 * says so at the end. Test hook: KMAG_TEST_WATCH_QUEUE=BYTES sets the bound
 * (t0303).
 */
#define WATCH_MAX_QUEUED (64u << 20)
#define CHAIN_WAIT_NS (10ull * 1000000000ull)	/* for the chain to return, after --after */
#define BATCH 65536			/* events fed between two looks at the queues */

static int setup_decoder(struct kmag_recorder *r, struct fl_state *fl, struct kmag_err *err)
{
	const struct rec_meta *m = &r->meta;
	size_t i, k;
	int ret;

	fl->tep = tep_alloc();
	fl->st = kmag_symtab_new();
	if (!fl->tep || !fl->st)
		return kmag_err_set(err, ENOMEM, "out of memory");
	tep_set_flag(fl->tep, TEP_DISABLE_PLUGINS | TEP_DISABLE_SYS_PLUGINS);
	tep_set_long_size(fl->tep, (int)sizeof(long));
	tep_set_page_size(fl->tep, (int)r->page_size);
	if (tep_parse_header_page(fl->tep, m->header_page, strlen(m->header_page),
				  (int)sizeof(long)))
		return kmag_err_set(err, EINVAL, "cannot parse the kernel's events/header_page");
	for (i = 0; i < m->m.nr_ftrace_formats; i++)
		kmag__tep_parse_fields(fl->tep, m->ftrace[i].data, m->ftrace[i].size, "ftrace");
	for (i = 0; i < m->m.nr_systems; i++)
		for (k = 0; k < m->systems[i].nr_formats; k++)
			kmag__tep_parse_fields(fl->tep, m->systems[i].formats[k].data,
					       m->systems[i].formats[k].size, m->systems[i].name);
	ret = kmag_symtab_load_kallsyms(fl->st, m->kallsyms, strlen(m->kallsyms));
	if (ret < 0)
		return kmag_err_set(err, -ret, "out of memory loading kallsyms");
	if ((ret = kmag__decoder_init(&fl->dec, fl->tep, fl->st, false, err)))
		return ret;
	fl->dec_ok = true;
	/* return types: an error trigger then ignores void, bool and unsigned returns */
	if (fl->btf_size && kmag_has_feature(KMAG_FEATURE_BTF))
		fl->types = kmag_btf_from_blob(fl->btf, fl->btf_size, NULL);
	return 0;
}

static struct tep_event *format_of(void *ctx, int id)
{
	return kmag__decoder_event(ctx, id);
}

/* ---- the readers' side ---- */

/* A buffer for a block: the reader's spares, those the watcher gave back, or a new one. */
static struct fl_qblock *get_buffer(struct fl_state *fl, struct fl_cpu *f)
{
	struct fl_qblock *q;

	if (atomic_load(&f->queued) + fl->geom.page_size * FL_BLOCK_PAGES > fl->max_queued)
		return NULL;
	if (!f->spare)
		f->spare = atomic_exchange(&f->freed, NULL);
	q = f->spare;
	if (q)
		f->spare = q->next;
	else
		q = malloc(sizeof(*q) + (size_t)fl->geom.page_size * FL_BLOCK_PAGES);
	return q;
}

/* Wakes the watcher if it waits (any thread). */
static void wake(struct fl_state *fl)
{
	uint64_t one = 1;

	if (fl->wake_fd >= 0 && write(fl->wake_fd, &one, sizeof(one)) < 0)
		pr_debug("watcher: cannot wake it: %s", strerror(errno));
}

void kmag__fl_watch_push(struct fl_state *fl, int i, const uint8_t *pages, uint32_t len)
{
	struct fl_cpu *f = &fl->cpu[i];
	struct fl_qblock *q = len <= fl->geom.page_size * FL_BLOCK_PAGES ? get_buffer(fl, f) : NULL;

	if (!q) {
		/* it fell behind: what it misses shows as lost events to it */
		atomic_fetch_add(&fl->unwatched, len);
		f->gap = true;
		return;
	}
	q->len = len;
	q->gap_before = f->gap;
	f->gap = false;
	memcpy(q->data, pages, len);
	atomic_fetch_add(&f->queued, (size_t)fl->geom.page_size * FL_BLOCK_PAGES);
	q->next = atomic_load(&f->incoming);
	while (!atomic_compare_exchange_weak(&f->incoming, &q->next, q))
		;
	/* after the push: a watcher going to sleep sees the block or is woken */
	if (atomic_load(&fl->sleeping))
		wake(fl);
}

void kmag__fl_watch_hw(struct fl_state *fl, int i, uint64_t ts)
{
	struct fl_cpu *f = &fl->cpu[i];

	/* after the blocks it covers were pushed: the watcher reads it before taking them */
	if (ts > atomic_load(&f->hw)) {
		atomic_store(&f->hw, ts);
		if (atomic_load(&fl->sleeping))
			wake(fl);
	}
}

/* ---- the watcher's side ---- */

/* Advances CPU @i's stream to its next event (f->have), or leaves it empty. 0 or -EINVAL. */
static int next_event(struct fl_state *fl, struct kmag_recorder *r, int i)
{
	struct fl_cpu *f = &fl->cpu[i];
	const uint8_t *payload;
	const char *why;
	uint32_t plen;
	int ret;

	f->have = false;
	for (;;) {
		struct kmag_page_info info;
		struct fl_qblock *q = f->list;

		if (f->in_page) {
			ret = kmag__page_next(&fl->geom, &f->walk, &payload, &plen, &why);
			if (ret < 0)
				return -EINVAL;
			if (ret > 0) {
				if (kmag__decode(&fl->dec, payload, plen, &f->ev))
					continue;	/* shorter than its format: skipped */
				f->ev.cpu = r->cpus[i].cpu;
				f->ev.ts = f->walk.ts;
				f->have = true;
				return 0;
			}
			f->in_page = false;
		}
		if (!q)
			return 0;
		if (f->page_off + fl->geom.page_size > q->len) {
			f->list = q->next;
			if (!f->list)
				f->list_tail = NULL;
			/* back to its reader; its bytes count against the bound until now */
			q->next = atomic_load(&f->freed);
			while (!atomic_compare_exchange_weak(&f->freed, &q->next, q))
				;
			atomic_fetch_sub(&f->queued,
					 (size_t)fl->geom.page_size * FL_BLOCK_PAGES);
			f->page_off = 0;
			continue;
		}
		if (kmag__page_load(&fl->geom, &f->walk, q->data + f->page_off, &info, &why))
			return -EINVAL;
		f->in_page = true;
		if (info.missing || (q->gap_before && !f->page_off)) {
			/* a replay marks the calls open on this CPU as incomplete */
			memset(&f->ev, 0, sizeof(f->ev));
			f->ev.type = KMAG_EV_LOST;
			f->ev.cpu = r->cpus[i].cpu;
			f->ev.pid = -1;
			f->ev.depth = -1;
			f->ev.ts = f->walk.ts;
			f->ev.func = f->ev.parent = KMAG_FUNC_NONE;
			f->ev.lost = info.lost_known ? info.lost : KMAG_LOST_UNKNOWN;
			f->have = true;
			f->page_off += fl->geom.page_size;
			return 0;
		}
		f->page_off += fl->geom.page_size;
	}
}

/* A trigger fired: names for the API, and the rings keep the chain from its entry on. */
static void on_fire(struct fl_state *fl)
{
	const struct kmag__fire *f = kmag__watch_fire(fl->w);
	uint64_t pin = f->ts;
	char comm[sizeof(fl->fire_comm)];
	const char *s;

	/* the task's name now: it may be gone when the fire is reported */
	kmag__fl_comm(fl->r, f->pid, comm, sizeof(comm));
	if (f->root_start_ns != KMAG_TS_NONE && f->root_start_ns < pin)
		pin = f->root_start_ns;
	if (f->start_ns != KMAG_TS_NONE && f->start_ns < pin)
		pin = f->start_ns;
	kmag__fl_pin(&fl->rings, pin);
	pthread_mutex_lock(&fl->lock);
	fl->fires++;
	fl->window = true;
	fl->due = fl->cut = false;
	fl->fire = *f;
	s = f->func != KMAG_FUNC_NONE ? kmag_symtab_name(fl->st, f->func) : NULL;
	snprintf(fl->fire_func, sizeof(fl->fire_func), "%s", s ? s : "");
	s = f->root_func != KMAG_FUNC_NONE ? kmag_symtab_name(fl->st, f->root_func) : NULL;
	snprintf(fl->fire_root, sizeof(fl->fire_root), "%s", s ? s : "");
	snprintf(fl->fire_event, sizeof(fl->fire_event), "%s:%s",
		 f->event_system ? f->event_system : "", f->event_name ? f->event_name : "");
	memcpy(fl->fire_comm, comm, sizeof(comm));
	pthread_mutex_unlock(&fl->lock);
}

/*
 * Feeds the events every CPU agrees on (see the top), at most BATCH.
 * @final: the readers are done, nothing earlier can come. Returns the
 * events fed, or -errno; *@wm gets the time up to which all was fed.
 */
static int64_t feed(struct fl_state *fl, struct kmag_recorder *r, bool final, uint64_t *wm)
{
	int64_t fed = 0;
	int i, ret;

	for (;;) {
		int best = -1;
		uint64_t ts = UINT64_MAX, limit = UINT64_MAX;

		for (i = 0; i < fl->n; i++) {
			struct fl_cpu *f = &fl->cpu[i];

			if (!f->have && (ret = next_event(fl, r, i)))
				return ret;
			if (f->have && f->ev.ts < ts) {
				ts = f->ev.ts;
				best = i;
			} else if (!f->have && !final && f->hw_seen < limit) {
				limit = f->hw_seen;
			}
		}
		*wm = ts < limit ? ts : limit;
		if (best < 0 || ts > limit || fed >= BATCH)
			return fed;
		ret = kmag__watch_add(fl->w, &fl->cpu[best].ev);
		if (ret < 0)
			return ret;
		if (ret == 1)
			on_fire(fl);
		fl->cpu[best].have = false;
		fed++;
	}
}

/* Under fl->lock: the open window's state, and whether its snapshot is due. */
static void update_window(struct fl_state *fl, uint64_t wm)
{
	const struct kmag__fire *f = kmag__watch_fire(fl->w);
	uint64_t end;

	if (wm != UINT64_MAX && wm > fl->watermark)
		fl->watermark = wm;
	if (!fl->window || !f || fl->rearm)
		return;
	fl->fire.root_open = f->root_open;
	fl->fire.root_end_ns = f->root_end_ns;
	fl->fire.more = f->more;
	end = f->ts + fl->after_ns;
	if (!fl->due && fl->watermark >= end &&
	    (!f->root_open || fl->watermark >= end + CHAIN_WAIT_NS))
		fl->due = true;
}

/* Takes what the readers pushed, oldest first, after what it has. True if anything came. */
static bool take(struct fl_state *fl)
{
	bool any = false;
	int i;

	for (i = 0; i < fl->n; i++) {
		struct fl_cpu *f = &fl->cpu[i];
		/* before the blocks: every block up to it is in the stack then */
		uint64_t hw = atomic_load(&f->hw);
		struct fl_qblock *q = atomic_exchange(&f->incoming, NULL), *tail = q, *rev = NULL;

		while (q) {
			struct fl_qblock *next = q->next;

			q->next = rev;
			rev = q;
			q = next;
		}
		if (rev) {
			if (f->list_tail)
				f->list_tail->next = rev;
			else
				f->list = rev;
			f->list_tail = tail;
			any = true;
		}
		if (hw != f->hw_seen) {
			f->hw_seen = hw;
			any = true;
		}
	}
	return any;
}

/* Sleeps until a reader pushed something or the main thread wakes it (100 ms at most). */
static void wait_for_work(struct fl_state *fl)
{
	struct pollfd p = { fl->wake_fd, POLLIN, 0 };
	uint64_t v;
	int i;
	bool pending = false;

	atomic_store(&fl->sleeping, true);
	/* after saying so: what a reader pushes from now on wakes it */
	for (i = 0; i < fl->n && !pending; i++)
		pending = atomic_load(&fl->cpu[i].incoming) ||
			  atomic_load(&fl->cpu[i].hw) != fl->cpu[i].hw_seen;
	if (!pending && poll(&p, 1, 100) < 0 && errno != EINTR)
		pr_debug("watcher: poll: %s", strerror(errno));
	atomic_store(&fl->sleeping, false);
	if (read(fl->wake_fd, &v, sizeof(v)) < 0 && errno != EAGAIN)
		pr_debug("watcher: read: %s", strerror(errno));
}

static void *watch_main(void *arg)
{
	struct kmag_recorder *r = arg;
	struct fl_state *fl = r->fl;
	bool final = false;

	/*
	 * The readers come first: on a busy machine the watcher, which decodes
	 * every event, would take their CPU and cost events in the kernel's
	 * buffers. As SCHED_IDLE it falls behind instead, which its queue
	 * absorbs and the end of the recording reports; and a CPU running only
	 * it counts as idle when a woken reader is placed (with nice 19 the
	 * readers stayed on the traced CPU, behind the load: bench/flight-vm.sh).
	 * Nothing a reader does waits for it (no lock, no allocation it frees:
	 * flight.h), so a preempted watcher never holds a reader up.
	 */
	struct sched_param idle = { 0 };

	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle) &&
	    setpriority(PRIO_PROCESS, (id_t)gettid(), 19))
		pr_debug("watcher: cannot lower its priority: %s", strerror(errno));
	pthread_mutex_lock(&fl->lock);
	for (;;) {
		uint64_t wm = UINT64_MAX;
		int64_t fed;

		if (fl->rearm) {
			kmag__watch_rearm(fl->w);
			fl->rearm = false;
		}
		/* the readers are done before it is set: take() gets the last blocks */
		final = fl->stop;
		pthread_mutex_unlock(&fl->lock);
		take(fl);
		fed = feed(fl, r, final, &wm);
		pthread_mutex_lock(&fl->lock);
		if (fed < 0) {
			fl->watch_error = (int)-fed;
			pr_warn("the trigger watcher stopped: %s", strerror((int)-fed));
			break;
		}
		pr_debug("watcher: fed %lld, watermark %llu%s", (long long)fed,
			 (unsigned long long)wm, final ? " (final)" : "");
		update_window(fl, wm);
		if (final && !fed)
			break;
		if (!fed && !fl->stop && !fl->rearm) {
			pthread_mutex_unlock(&fl->lock);
			wait_for_work(fl);
			pthread_mutex_lock(&fl->lock);
		}
	}
	pthread_mutex_unlock(&fl->lock);
	return NULL;
}

size_t kmag__fl_watch_bound(const struct fl_state *fl)
{
	size_t max = WATCH_MAX_QUEUED / (size_t)(fl->n > 0 ? fl->n : 1);

	if (fl->rings.inited && fl->rings.n > 0 && fl->rings.r[0].cap < max)
		max = (size_t)fl->rings.r[0].cap;
	return max;
}

int kmag__fl_watch_start(struct kmag_recorder *r, struct fl_state *fl, struct kmag_err *err)
{
	sigset_t all, old;
	int ret, e;
	const char *hook = getenv("KMAG_TEST_WATCH_QUEUE");

	fl->max_queued = hook ? strtoull(hook, NULL, 10) : kmag__fl_watch_bound(fl);
	fl->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (fl->wake_fd < 0)
		return kmag_err_set(err, errno, "eventfd: %s", strerror(errno));
	if ((ret = setup_decoder(r, fl, err)))
		return ret;
	fl->w = kmag__watch_new(fl->trig, fl->ntrig, fl->st, format_of, &fl->dec, fl->types, err);
	if (!fl->w)
		return -ENOMEM;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	e = pthread_create(&fl->thread, NULL, watch_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (e)
		return kmag_err_set(err, e, "cannot start the trigger watcher: %s", strerror(e));
	fl->started = true;
	return 0;
}

void kmag__fl_watch_stop(struct fl_state *fl)
{
	if (!fl->started)
		return;
	pthread_mutex_lock(&fl->lock);
	fl->stop = true;
	pthread_mutex_unlock(&fl->lock);
	wake(fl);
	pthread_join(fl->thread, NULL);
	fl->started = false;
}

static void free_list(struct fl_qblock *q)
{
	while (q) {
		struct fl_qblock *next = q->next;

		free(q);
		q = next;
	}
}

void kmag__fl_watch_free(struct fl_state *fl)
{
	int i;

	kmag__fl_watch_stop(fl);
	for (i = 0; fl->cpu && i < fl->n; i++) {
		struct fl_cpu *f = &fl->cpu[i];

		free_list(atomic_exchange(&f->incoming, NULL));
		free_list(atomic_exchange(&f->freed, NULL));
		free_list(f->spare);
		free_list(f->list);
		f->spare = f->list = f->list_tail = NULL;
	}
	if (fl->wake_fd >= 0)
		close(fl->wake_fd);
	fl->wake_fd = -1;
	kmag__watch_free(fl->w);
	fl->w = NULL;
	if (fl->dec_ok)
		kmag__decoder_release(&fl->dec);
	fl->dec_ok = false;
	kmag_btf_free(fl->types);
	fl->types = NULL;
	kmag_symtab_free(fl->st);
	fl->st = NULL;
	if (fl->tep)
		tep_free(fl->tep);
	fl->tep = NULL;
}
