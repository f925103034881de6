// SPDX-License-Identifier: MIT
/*
 * calls-sample.c - per function, the slowest, the first failing and the
 * first calls, each with its call tree, in bounded memory (callsample.h).
 *
 * The replay delivers a call when it leaves, after its callees. So each task
 * keeps the nodes of its open calls' trees in one buffer, in preorder: an
 * open call's node sits at its frame's position and its callees follow it.
 * When a call leaves and is kept, its tree is the run of the buffer from its
 * position, cut at the tree length. Its parent only ever needs the first
 * tree-length nodes after its own, so the leaving call's nodes beyond that
 * are dropped from the buffer: the buffer holds at most a tree length per
 * open call. While calls are open, a node's `more` field counts the calls
 * below it (all of them); finish turns it into the calls the tree leaves out.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "kmag/callsample.h"
#include "util/grow.h"
#include "util/u64map.h"

enum { CAT_SLOWEST, CAT_FAILING, CAT_FIRST, NR_CAT };

/* The nodes of one task's open calls. */
struct tbuf {
	struct kmag_sample_node *n;	/* their args pointers are NULL here: ... */
	size_t len, cap;
	/*
	 * Calls open on the task. The replay hands a call no parent both at
	 * the bottom of a stack and when the level below it is missing (lost
	 * events, a damaged trace): only the first starts a new tree, the other
	 * must not drop the open calls' nodes.
	 */
	size_t open;
	uint64_t (*args)[KMAG_MAX_ARGS];	/* ... the arguments are at the same index */
	size_t cap_args;
};

/* Our data on each open call of the replay. */
struct frame {
	size_t pos;		/* its node in the task's buffer */
	uint32_t task;		/* index of the task's buffer */
	uint64_t desc;		/* calls below it so far */
	bool under;		/* under the root (kmag_callsample_set_root()) */
};

/* A kept call (why != 0) or a free slot. */
struct entry {
	struct kmag_sample_call pub;
	struct kmag_sample_node *nodes;	/* owned; pub.tree */
	uint32_t rank;			/* best place among the kept of its function (finish) */
	uint32_t next_free;
};

/* One function's calls: counts, and the kept ones per reason as a heap whose root is the worst. */
struct fstate {
	uint64_t calls, failing;
	uint32_t *heap[NR_CAT];
	uint32_t nr[NR_CAT];
};

struct kmag_callsample {
	struct kmag_callsample_opts o;	/* asked for; becomes what is in effect at finish */
	size_t limit[NR_CAT];
	size_t cap_now;			/* tree length now (halves when memory runs over) */
	struct u64map task_of;		/* task key -> index in tasks */
	struct tbuf *tasks;
	size_t nr_tasks, cap_tasks;
	struct fstate *fs;		/* by function id */
	size_t nr_fs, cap_fs;
	struct entry *ent;
	size_t nr_ent, cap_ent;
	uint32_t free_head;		/* UINT32_MAX: none */
	size_t nodes;			/* in kept trees */
	kmag_func_t root;		/* sample only the calls under it; NONE: all */
	/* after finish */
	struct kmag_sample_call *calls;
	size_t nr_calls;
	struct kmag_sample_func *funcs;
	size_t nr_funcs;
};

struct kmag_callsample *kmag_callsample_new(const struct kmag_callsample_opts *opts)
{
	struct kmag_callsample_opts def = {
		.slowest = KMAG_CALLSAMPLE_SLOWEST, .failing = KMAG_CALLSAMPLE_FAILING,
		.first = KMAG_CALLSAMPLE_FIRST, .tree_max = KMAG_CALLSAMPLE_TREE_MAX,
		.budget = KMAG_CALLSAMPLE_BUDGET,
	};
	struct kmag_callsample *s;

	if (!opts)
		opts = &def;
	if (!opts->tree_max || !opts->budget || opts->tree_max > UINT32_MAX ||
	    opts->slowest > UINT32_MAX || opts->failing > UINT32_MAX || opts->first > UINT32_MAX) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->o = *opts;
	s->limit[CAT_SLOWEST] = opts->slowest;
	s->limit[CAT_FAILING] = opts->failing;
	s->limit[CAT_FIRST] = opts->first;
	s->cap_now = opts->tree_max;
	s->free_head = UINT32_MAX;
	s->root = KMAG_FUNC_NONE;
	u64map_init(&s->task_of);
	return s;
}

void kmag_callsample_free(struct kmag_callsample *s)
{
	size_t i;
	int c;

	if (!s)
		return;
	for (i = 0; i < s->nr_tasks; i++) {
		free(s->tasks[i].n);
		free(s->tasks[i].args);
	}
	free(s->tasks);
	for (i = 0; i < s->nr_fs; i++)
		for (c = 0; c < NR_CAT; c++)
			free(s->fs[i].heap[c]);
	free(s->fs);
	for (i = 0; i < s->nr_ent; i++)
		free(s->ent[i].nodes);
	free(s->ent);
	u64map_release(&s->task_of);
	free(s->calls);
	free(s->funcs);
	free(s);
}

/* ---- the heaps: the root is the call least worth keeping ---- */

static uint64_t worth(const struct entry *e, int cat)
{
	if (cat == CAT_SLOWEST)
		return e->pub.tree[0].duration;
	return UINT64_MAX - e->pub.id;	/* the earlier, the better */
}

/* @a is less worth keeping than @b. */
static bool worse(const struct kmag_callsample *s, uint32_t a, uint32_t b, int cat)
{
	uint64_t wa = worth(&s->ent[a], cat), wb = worth(&s->ent[b], cat);

	return wa != wb ? wa < wb : s->ent[a].pub.id > s->ent[b].pub.id;
}

static void heap_down(const struct kmag_callsample *s, uint32_t *h, size_t n, size_t i, int cat)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		uint32_t t;

		if (l < n && worse(s, h[l], h[m], cat))
			m = l;
		if (r < n && worse(s, h[r], h[m], cat))
			m = r;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void heap_up(const struct kmag_callsample *s, uint32_t *h, size_t i, int cat)
{
	while (i && worse(s, h[i], h[(i - 1) / 2], cat)) {
		uint32_t t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static void entry_drop(struct kmag_callsample *s, uint32_t e)
{
	s->nodes -= s->ent[e].pub.nr_tree;
	free(s->ent[e].nodes);
	memset(&s->ent[e], 0, sizeof(s->ent[e]));
	s->ent[e].next_free = s->free_head;
	s->free_head = e;
}

/* Cuts every kept tree to @len nodes (a preorder prefix is still a tree). */
static void trim_all(struct kmag_callsample *s, size_t len)
{
	size_t i;

	for (i = 0; i < s->nr_ent; i++) {
		struct entry *e = &s->ent[i];

		if (e->pub.why && e->pub.nr_tree > len) {
			s->nodes -= e->pub.nr_tree - len;
			e->pub.nr_tree = len;
		}
	}
}

/* A new entry for @call, its tree copied from the task buffer. UINT32_MAX on ENOMEM. */
static uint32_t entry_new(struct kmag_callsample *s, const struct kmag_call *call,
			  const struct tbuf *tb, size_t pos)
{
	/* a call below the kept depth has no node left in the buffer: an empty tree */
	size_t n = pos < tb->len ? tb->len - pos : 0, i, nargs;
	uint64_t (*args)[KMAG_MAX_ARGS];
	struct entry *e;
	uint32_t idx;

	if (n > s->cap_now)
		n = s->cap_now;
	if (s->free_head != UINT32_MAX) {
		idx = s->free_head;
		s->free_head = s->ent[idx].next_free;
	} else {
		if (s->nr_ent >= UINT32_MAX - 1 ||
		    kmag__grow(&s->ent, &s->cap_ent, s->nr_ent + 1, sizeof(*s->ent)))
			return UINT32_MAX;
		idx = (uint32_t)s->nr_ent++;
	}
	e = &s->ent[idx];
	memset(e, 0, sizeof(*e));
	/* the arguments of the nodes that have some follow the nodes, in one block */
	for (i = 0, nargs = 0; i < n; i++)
		nargs += tb->n[pos + i].nargs != 0;
	e->nodes = malloc((n ? n : 1) * sizeof(*e->nodes) + nargs * sizeof(*tb->args));
	if (!e->nodes) {
		e->next_free = s->free_head;
		s->free_head = idx;
		return UINT32_MAX;
	}
	memcpy(e->nodes, tb->n + pos, n * sizeof(*e->nodes));
	args = (uint64_t (*)[KMAG_MAX_ARGS])(e->nodes + n);
	for (i = 0; i < n; i++) {
		e->nodes[i].parent = i ? (uint32_t)(e->nodes[i].parent - pos) : UINT32_MAX;
		if (e->nodes[i].nargs) {
			memcpy(*args, tb->args[pos + i], sizeof(*args));
			e->nodes[i].args = *args++;
		}
	}
	e->pub = (struct kmag_sample_call){ .func = call->func, .pid = call->pid, .id = call->id,
					    .tree = e->nodes, .nr_tree = n,
					    .inside = n ? e->nodes[0].more : 0 };
	s->nodes += n;
	/* memory bound: all trees together stay under four budgets */
	while (s->nodes > 4 * s->o.budget && s->cap_now > 1) {
		s->cap_now /= 2;
		trim_all(s, s->cap_now);
	}
	return idx;
}

static int fstate_of(struct kmag_callsample *s, kmag_func_t func, struct fstate **out)
{
	if (func >= s->nr_fs) {
		size_t old = s->nr_fs;

		if (kmag__grow(&s->fs, &s->cap_fs, (size_t)func + 1, sizeof(*s->fs)))
			return -ENOMEM;
		memset(s->fs + old, 0, ((size_t)func + 1 - old) * sizeof(*s->fs));
		s->nr_fs = (size_t)func + 1;
	}
	*out = &s->fs[func];
	return 0;
}

/* Offers the call (entry *@idx, made on first need) to heap @cat of @f. */
static int offer(struct kmag_callsample *s, struct fstate *f, int cat, const struct kmag_call *call,
		 const struct tbuf *tb, size_t pos, uint32_t *idx)
{
	size_t lim = s->limit[cat];

	if (!lim)
		return 0;
	if (f->nr[cat] >= lim) {
		uint32_t root = f->heap[cat][0];
		const struct entry *r = &s->ent[root];
		uint64_t w = cat == CAT_SLOWEST ? call->duration : UINT64_MAX - call->id;

		if (w < worth(r, cat) || (w == worth(r, cat) && call->id > r->pub.id))
			return 0;
	}
	if (*idx == UINT32_MAX && (*idx = entry_new(s, call, tb, pos)) == UINT32_MAX)
		return -ENOMEM;
	if (!f->heap[cat] && !(f->heap[cat] = malloc(lim * sizeof(*f->heap[cat]))))
		return -ENOMEM;
	s->ent[*idx].pub.why |= 1u << cat;
	if (f->nr[cat] < lim) {
		f->heap[cat][f->nr[cat]] = *idx;
		heap_up(s, f->heap[cat], f->nr[cat]++, cat);
		return 0;
	}
	{
		uint32_t old = f->heap[cat][0];

		f->heap[cat][0] = *idx;
		heap_down(s, f->heap[cat], f->nr[cat], 0, cat);
		s->ent[old].pub.why &= (uint8_t)~(1u << cat);
		if (!s->ent[old].pub.why)
			entry_drop(s, old);
	}
	return 0;
}

/* ---- the replay's hooks ---- */

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_callsample *s = ctx;
	struct frame *f = data, *pf = parent_data;
	struct tbuf *tb;

	(void)parent;
	f->under = kmag_call_under(s->root, call, pf && pf->under);
	if (pf) {
		f->task = pf->task;
	} else {
		bool ins;
		uint64_t *v = u64map_upsert(&s->task_of, kmag_task_key(call->pid, call->cpu),
					    s->nr_tasks, &ins);

		if (!v)
			return -ENOMEM;
		if (ins) {
			if (kmag__grow(&s->tasks, &s->cap_tasks, s->nr_tasks + 1, sizeof(*s->tasks)))
				return -ENOMEM;
			memset(&s->tasks[s->nr_tasks++], 0, sizeof(*s->tasks));
		}
		f->task = (uint32_t)*v;
		if (!s->tasks[f->task].open)
			s->tasks[f->task].len = 0;	/* a new tree */
	}
	tb = &s->tasks[f->task];
	tb->open++;
	if (kmag__grow(&tb->n, &tb->cap, tb->len + 1, sizeof(*tb->n)) ||
	    (call->nargs && kmag__grow(&tb->args, &tb->cap_args, tb->len + 1, sizeof(*tb->args))))
		return -ENOMEM;
	f->pos = tb->len++;
	tb->n[f->pos] = (struct kmag_sample_node){
		.func = call->func, .parent = pf ? (uint32_t)pf->pos : UINT32_MAX, .cpu = call->cpu,
		.start_ns = call->start_ns, .duration = KMAG_DURATION_NONE, .caller = call->caller,
		.caller_off = call->caller_off,
		.nargs = call->nargs < KMAG_MAX_ARGS ? call->nargs : KMAG_MAX_ARGS,
	};
	if (call->nargs)
		memcpy(tb->args[f->pos], call->args, sizeof(*tb->args));
	return 0;
}

static int on_named(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_callsample *s = ctx;
	struct frame *f = data;

	(void)parent, (void)parent_data;
	s->tasks[f->task].n[f->pos].func = call->func;
	f->under = f->under || call->func == s->root;
	return 0;
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_callsample *s = ctx;
	struct frame *f = data, *pf = parent_data;
	struct tbuf *tb = &s->tasks[f->task];
	struct kmag_sample_node *n = &tb->n[f->pos];
	uint32_t idx = UINT32_MAX;
	struct fstate *fs;
	bool kept;
	int ret = 0;

	(void)parent;
	tb->open--;
	/* a node beyond the buffer went with a cut of its caller's tree */
	kept = f->pos < tb->len;
	if (kept) {
		n->func = call->func;
		n->start_ns = call->start_ns;
		n->duration = call->duration;
		n->flags = call->flags;
		n->has_retval = call->has_retval;
		n->retval = call->retval;
		n->more = f->desc;
	}
	if (pf)
		pf->desc += f->desc + 1;
	/* (the trees keep every call; only the calls under the root are sampled and counted) */
	if (call->func != KMAG_FUNC_NONE && f->under && !(ret = fstate_of(s, call->func, &fs))) {
		bool err = call->has_retval && kmag_call_errno(call->retval);

		fs->calls++;
		fs->failing += err;
		if (kept && call->duration != KMAG_DURATION_NONE)
			ret = offer(s, fs, CAT_SLOWEST, call, tb, f->pos, &idx);
		if (kept && !ret && err)
			ret = offer(s, fs, CAT_FAILING, call, tb, f->pos, &idx);
		if (kept && !ret)
			ret = offer(s, fs, CAT_FIRST, call, tb, f->pos, &idx);
	}
	/* the parent's tree needs no more than its length after its own node */
	if (pf && tb->len > pf->pos + s->cap_now)
		tb->len = pf->pos + s->cap_now;
	else if (!pf && !tb->open)
		tb->len = 0;
	return ret;
}

static const struct kmag_replay_ops sample_ops = {
	.data_size = sizeof(struct frame),
	.enter = on_enter,
	.named = on_named,
	.leave = on_leave,
};

void kmag_callsample_set_root(struct kmag_callsample *s, kmag_func_t root)
{
	s->root = root;
}

int kmag_callsample_subscribe(struct kmag_callsample *s, struct kmag_replay *r)
{
	return kmag_replay_subscribe(r, &sample_ops, s);
}

/* ---- finish ---- */

/* A kept call and how much it is worth keeping, for ranking. */
struct ranked {
	uint64_t worth, id;
	uint32_t e;
};

static int by_worth(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->worth != y->worth)
		return x->worth > y->worth ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_func_start(const void *a, const void *b)
{
	const struct kmag_sample_call *x = a, *y = b;

	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->tree[0].start_ns != y->tree[0].start_ns)
		return x->tree[0].start_ns < y->tree[0].start_ns ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/*
 * Sorts each function's kept calls per reason, best first, and ranks each
 * call: its best place in any of its reasons.
 */
static int rank_calls(struct kmag_callsample *s)
{
	size_t i, j, most = 1;
	struct ranked *r;
	int c;

	for (c = 0; c < NR_CAT; c++)
		if (most < s->limit[c])
			most = s->limit[c];
	if (!(r = malloc(most * sizeof(*r))))
		return -ENOMEM;
	for (i = 0; i < s->nr_ent; i++)
		s->ent[i].rank = UINT32_MAX;
	for (i = 0; i < s->nr_fs; i++) {
		for (c = 0; c < NR_CAT; c++) {
			uint32_t *h = s->fs[i].heap[c];
			size_t n = s->fs[i].nr[c];

			for (j = 0; j < n; j++)
				r[j] = (struct ranked){ worth(&s->ent[h[j]], c), s->ent[h[j]].pub.id, h[j] };
			if (n)
				qsort(r, n, sizeof(*r), by_worth);
			for (j = 0; j < n; j++) {
				h[j] = r[j].e;
				if (s->ent[h[j]].rank > j)
					s->ent[h[j]].rank = (uint32_t)j;
			}
		}
	}
	free(r);
	return 0;
}

/* Keeps the first @k places of each reason (the heaps are sorted): the calls and their reasons. */
static void keep_ranks(struct kmag_callsample *s, uint32_t k)
{
	size_t i, j;
	int c;

	for (i = 0; i < s->nr_ent; i++) {
		if (s->ent[i].pub.why && s->ent[i].rank >= k)
			entry_drop(s, (uint32_t)i);
		else
			s->ent[i].pub.why = 0;
	}
	for (i = 0; i < s->nr_fs; i++)
		for (c = 0; c < NR_CAT; c++) {
			if (s->fs[i].nr[c] > k)
				s->fs[i].nr[c] = k;
			for (j = 0; j < s->fs[i].nr[c]; j++)
				s->ent[s->fs[i].heap[c][j]].pub.why |= (uint8_t)(1u << c);
		}
}

static size_t count_ranked(const struct kmag_callsample *s, uint32_t k)
{
	size_t i, n = 0;

	for (i = 0; i < s->nr_ent; i++)
		n += s->ent[i].pub.why && s->ent[i].rank < k;
	return n;
}

/* Best places first, then the longer calls. */
static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->worth != y->worth)	/* here: the rank ... */
		return x->worth < y->worth ? -1 : 1;
	if (x->id != y->id)		/* ... and the duration */
		return x->id > y->id ? -1 : 1;
	return x->e < y->e ? -1 : x->e > y->e;
}

/*
 * Fits the sample into the budget: fewer calls per function while the calls
 * alone would take more than half of it, then the trees share what is left
 * by the calls' places: every call keeps its own node, and in the order of
 * their places (the slowest and the first of every function, then the
 * second, ...; longer calls first within a place) the trees are kept whole
 * while the budget lasts. The rest show their call and what they made is
 * counted (more).
 */
static int fit_budget(struct kmag_callsample *s)
{
	size_t lo, hi, i, n = 0, left;
	struct ranked *r;

	if (count_ranked(s, UINT32_MAX) > s->o.budget / 2) {
		lo = 0;
		hi = s->limit[CAT_SLOWEST];
		if (hi < s->limit[CAT_FAILING])
			hi = s->limit[CAT_FAILING];
		if (hi < s->limit[CAT_FIRST])
			hi = s->limit[CAT_FIRST];
		while (lo < hi) {	/* the most places k with count(rank < k) <= budget / 2 */
			size_t mid = (lo + hi + 1) / 2;

			if (count_ranked(s, (uint32_t)mid) <= s->o.budget / 2)
				lo = mid;
			else
				hi = mid - 1;
		}
		keep_ranks(s, (uint32_t)lo);
		if (s->o.slowest > lo)
			s->o.slowest = lo;
		if (s->o.failing > lo)
			s->o.failing = lo;
		if (s->o.first > lo)
			s->o.first = lo;
	}
	if (s->o.tree_max > s->cap_now)
		s->o.tree_max = s->cap_now;
	if (s->nodes <= s->o.budget)
		return 0;
	r = malloc((s->nr_ent ? s->nr_ent : 1) * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (i = 0; i < s->nr_ent; i++)
		if (s->ent[i].pub.why) {
			uint64_t d = s->ent[i].pub.tree[0].duration;

			r[n++] = (struct ranked){ s->ent[i].rank, d == KMAG_DURATION_NONE ? 0 : d,
						  (uint32_t)i };
		}
	qsort(r, n, sizeof(*r), by_rank);
	left = s->o.budget > n ? s->o.budget - n : 0;
	for (i = 0; i < n; i++) {
		struct entry *e = &s->ent[r[i].e];
		size_t give = e->pub.nr_tree - 1;

		if (give > left)
			give = left;
		left -= give;
		s->nodes -= e->pub.nr_tree - (1 + give);
		e->pub.nr_tree = 1 + give;
	}
	free(r);
	return 0;
}

/* Turns each node's count of calls below it into the count the tree leaves out. */
static int count_left_out(struct kmag_sample_node *t, size_t n)
{
	uint64_t *kept = calloc(n ? n : 1, sizeof(*kept));
	size_t i;

	if (!kept)
		return -ENOMEM;
	for (i = n; i-- > 1;)
		kept[t[i].parent] += kept[i] + 1;
	for (i = 0; i < n; i++)
		t[i].more = t[i].more > kept[i] ? t[i].more - kept[i] : 0;
	free(kept);
	return 0;
}

int kmag_callsample_finish(struct kmag_callsample *s)
{
	size_t i, nc = 0, nf = 0;

	if (rank_calls(s))
		return -ENOMEM;
	if (fit_budget(s))
		return -ENOMEM;
	for (i = 0; i < s->nr_ent; i++)
		nc += s->ent[i].pub.why != 0;
	for (i = 0; i < s->nr_fs; i++)
		nf += s->fs[i].calls != 0;
	free(s->calls);
	free(s->funcs);
	s->calls = malloc((nc ? nc : 1) * sizeof(*s->calls));
	s->funcs = calloc(nf ? nf : 1, sizeof(*s->funcs));
	if (!s->calls || !s->funcs)
		return -ENOMEM;
	s->nr_calls = 0;
	for (i = 0; i < s->nr_ent; i++) {
		struct entry *e = &s->ent[i];

		if (!e->pub.why)
			continue;
		if (count_left_out(e->nodes, e->pub.nr_tree))
			return -ENOMEM;
		s->calls[s->nr_calls++] = e->pub;
	}
	if (s->nr_calls)
		qsort(s->calls, s->nr_calls, sizeof(*s->calls), by_func_start);
	s->nr_funcs = 0;
	for (i = 0, nc = 0; i < s->nr_fs; i++) {
		struct kmag_sample_func *f;

		if (!s->fs[i].calls)
			continue;
		f = &s->funcs[s->nr_funcs++];
		f->func = (kmag_func_t)i;
		f->calls = s->fs[i].calls;
		f->failing = s->fs[i].failing;
		while (nc < s->nr_calls && s->calls[nc].func < f->func)
			nc++;
		f->first_call = nc;
		for (; nc < s->nr_calls && s->calls[nc].func == f->func; nc++) {
			uint8_t why = s->calls[nc].why;

			f->kept_slowest += !!(why & KMAG_SAMPLE_SLOWEST);
			f->kept_failing += !!(why & KMAG_SAMPLE_FAILING);
			f->kept_first += !!(why & KMAG_SAMPLE_FIRST);
		}
		f->nr_calls = nc - f->first_call;
	}
	return 0;
}

const struct kmag_callsample_opts *kmag_callsample_opts(const struct kmag_callsample *s)
{
	return &s->o;
}

const struct kmag_sample_func *kmag_callsample_funcs(const struct kmag_callsample *s, size_t *nr)
{
	*nr = s->nr_funcs;
	return s->funcs;
}

const struct kmag_sample_call *kmag_callsample_calls(const struct kmag_callsample *s, size_t *nr)
{
	*nr = s->nr_calls;
	return s->calls;
}

size_t kmag_callsample_nr_nodes(const struct kmag_callsample *s)
{
	return s->nodes;
}
