// SPDX-License-Identifier: MIT
/*
 * callgraph.c - build the call graph from events.
 *
 * function tracer: each event is one call of func from parent.
 *
 * function_graph: events are replayed on one stack per task (the kernel
 * keeps one return stack per task; interrupts nest on the interrupted task's
 * stack, which the depth field reflects). The depth field, not just the order
 * of events, decides where a call sits, so missing records cannot shift the
 * rest of a stack:
 *   - an entry at depth d closes any open frames at depth >= d (their exits
 *     were lost) and, if frames below d are missing (trace started mid-call
 *     or records were lost), fills them with placeholders;
 *   - an exit at depth d completes the frame at depth d; if that frame is a
 *     placeholder, the exit names it, and the child edges recorded under it
 *     are attributed to the now-known function.
 * Calls whose entry, exit or caller is missing are counted as incomplete.
 * Durations come from the kernel (calltime/rettime or the printed duration).
 */
#define PR_DOMAIN "callgraph"
#include "internal.h"
#include "kmag/callgraph.h"
#include "util/u64map.h"

#define NONE32 UINT32_MAX
#define MAX_DEPTH 512		/* deeper placeholders are not worth keeping */
#define RECURSION_SCAN 64

enum frame_flags {
	FR_PLACEHOLDER = 1u << 0,	/* entry not seen: function unknown until its exit */
	FR_RECURSIVE = 1u << 1,		/* an outer frame runs the same function */
	FR_TAINTED = 1u << 2,		/* events were lost while this frame was open */
	FR_IRQ = 1u << 3,		/* runs in interrupt context */
};

/* A child call recorded under a placeholder frame, attributed once it is named. */
struct pending {
	uint32_t callee;	/* node index */
	uint32_t next;		/* next pending of the same frame, NONE32 = end */
	uint32_t edge_flags;
	struct kmag_cg_stats st;
};

struct frame {
	uint32_t node;		/* node index, NONE32 for a placeholder */
	uint32_t edge;		/* edge from the parent frame, NONE32 if none */
	uint32_t pend;		/* pending record in the parent placeholder, NONE32 if none */
	uint32_t pend_head;	/* this placeholder's pending child records */
	uint32_t cct;		/* calling-context node, 0 = none */
	uint32_t flags;
	int32_t depth;
	uint64_t entry_ts;
	uint64_t child_ns;	/* time of completed children */
	uint32_t last_callee, last_edge;	/* one-entry cache for repeated calls */
	uint64_t active;	/* bloom set of the nodes of this frame and all below it */
};

struct task {
	struct frame *frames;
	uint32_t nr, cap;
	int32_t last_cpu;
};

struct kmag_cg {
	struct kmag_cg_opts opts;
	struct kmag_cg_node *nodes;
	size_t nr_nodes, cap_nodes;
	uint32_t *node_of_func;		/* dense: func id -> node index */
	size_t cap_node_of_func;
	struct kmag_cg_edge *edges;
	size_t nr_edges, cap_edges;
	struct u64map edge_index;	/* caller << 32 | callee -> edge */
	struct {
		uint64_t key;		/* caller << 32 | callee, 0 = empty */
		uint32_t edge;
	} ecache[4096];			/* direct-mapped front of edge_index: the hot path */
	uint32_t *out, *in;		/* adjacency, built by finish */

	struct task *tasks;
	size_t nr_tasks, cap_tasks;
	struct u64map task_index;	/* key -> task */
	uint64_t last_task_key;
	struct task *last_task;

	struct pending *pend;
	size_t nr_pend, cap_pend;
	uint32_t pend_free;		/* free list through next */

	struct kmag_cct_node *cct;
	size_t nr_cct, cap_cct;
	struct u64map cct_index;	/* parent << 32 | func -> cct node */

	struct kmag_cg_event_count *evcounts;
	size_t nr_evcounts, cap_evcounts;
	struct u64map evcount_index;	/* event name pointer -> evcounts index */

	struct kmag_cg_summary sum;
	bool finished;
};

static void stats_init(struct kmag_cg_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->min_ns = UINT64_MAX;
}

static inline void stats_time(struct kmag_cg_stats *s, uint64_t dur)
{
	s->timed++;
	if (dur < s->min_ns)
		s->min_ns = dur;
	if (dur > s->max_ns)
		s->max_ns = dur;
}

static void stats_merge(struct kmag_cg_stats *d, const struct kmag_cg_stats *s)
{
	d->calls += s->calls;
	d->timed += s->timed;
	d->total_ns += s->total_ns;
	d->self_ns += s->self_ns;
	d->incomplete += s->incomplete;
	if (s->min_ns < d->min_ns)
		d->min_ns = s->min_ns;
	if (s->max_ns > d->max_ns)
		d->max_ns = s->max_ns;
}

struct kmag_cg *kmag_cg_new(const struct kmag_cg_opts *opts)
{
	struct kmag_cg *cg = calloc(1, sizeof(*cg));

	if (!cg)
		return NULL;
	if (opts)
		cg->opts = *opts;
	u64map_init(&cg->edge_index);
	u64map_init(&cg->task_index);
	u64map_init(&cg->cct_index);
	u64map_init(&cg->evcount_index);
	cg->last_task_key = UINT64_MAX;
	cg->pend_free = NONE32;
	if (cg->opts.build_cct) {
		/* index 0: the root of all paths */
		cg->cct = calloc(64, sizeof(*cg->cct));
		if (!cg->cct) {
			free(cg);
			return NULL;
		}
		cg->cap_cct = 64;
		cg->nr_cct = 1;
		cg->cct[0].func = KMAG_FUNC_NONE;
		stats_init(&cg->cct[0].st);
	}
	return cg;
}

void kmag_cg_free(struct kmag_cg *cg)
{
	size_t i;

	if (!cg)
		return;
	for (i = 0; i < cg->nr_tasks; i++)
		free(cg->tasks[i].frames);
	free(cg->tasks);
	free(cg->nodes);
	free(cg->node_of_func);
	free(cg->edges);
	free(cg->out);
	free(cg->in);
	free(cg->pend);
	free(cg->cct);
	u64map_release(&cg->edge_index);
	u64map_release(&cg->task_index);
	u64map_release(&cg->cct_index);
	u64map_release(&cg->evcount_index);
	free(cg->evcounts);
	free(cg);
}

/* ---- nodes and edges ---- */

static uint32_t node_get(struct kmag_cg *cg, kmag_func_t func)
{
	struct kmag_cg_node *n;
	size_t i;

	if (func == KMAG_FUNC_NONE)
		return NONE32;
	if (func < cg->cap_node_of_func && cg->node_of_func[func] != NONE32)
		return cg->node_of_func[func];
	if (func >= cg->cap_node_of_func) {
		size_t old = cg->cap_node_of_func;

		if (kmag__grow(&cg->node_of_func, &cg->cap_node_of_func, (size_t)func + 1,
			       sizeof(uint32_t)))
			return NONE32;
		for (i = old; i < cg->cap_node_of_func; i++)
			cg->node_of_func[i] = NONE32;
	}
	if (kmag__grow(&cg->nodes, &cg->cap_nodes, cg->nr_nodes + 1, sizeof(*cg->nodes)))
		return NONE32;
	n = &cg->nodes[cg->nr_nodes];
	memset(n, 0, sizeof(*n));
	n->func = func;
	stats_init(&n->st);
	cg->node_of_func[func] = (uint32_t)cg->nr_nodes;
	return (uint32_t)cg->nr_nodes++;
}

static uint32_t edge_get(struct kmag_cg *cg, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	size_t c = (size_t)((caller * 0x9e3779b1u) ^ callee) & (ARRAY_SIZE(cg->ecache) - 1);
	bool inserted;
	uint64_t *slot;
	struct kmag_cg_edge *e;

	if (likely(cg->ecache[c].key == key && key))
		return cg->ecache[c].edge;
	slot = u64map_upsert(&cg->edge_index, key, cg->nr_edges, &inserted);
	if (!slot)
		return NONE32;
	if (!inserted) {
		if (*slot != NONE32) {
			cg->ecache[c].key = key;
			cg->ecache[c].edge = (uint32_t)*slot;
		}
		return (uint32_t)*slot;
	}
	if (kmag__grow(&cg->edges, &cg->cap_edges, cg->nr_edges + 1, sizeof(*cg->edges))) {
		*slot = NONE32;	/* leave a harmless tombstone */
		return NONE32;
	}
	e = &cg->edges[cg->nr_edges];
	memset(e, 0, sizeof(*e));
	e->caller = caller;
	e->callee = callee;
	stats_init(&e->st);
	return (uint32_t)cg->nr_edges++;
}

/* ---- calling-context tree ---- */

static uint32_t cct_child(struct kmag_cg *cg, uint32_t parent, kmag_func_t func)
{
	uint64_t key = (uint64_t)parent << 32 | func;
	struct kmag_cct_node *n;
	bool inserted;
	uint64_t *slot;

	if (!cg->opts.build_cct)
		return 0;
	slot = u64map_upsert(&cg->cct_index, key, cg->nr_cct, &inserted);
	if (!slot)
		return 0;
	if (!inserted)
		return (uint32_t)*slot;
	if (kmag__grow(&cg->cct, &cg->cap_cct, cg->nr_cct + 1, sizeof(*cg->cct)))
		return 0;
	n = &cg->cct[cg->nr_cct];
	memset(n, 0, sizeof(*n));
	n->func = func;
	n->parent = parent;
	stats_init(&n->st);
	n->next_sibling = cg->cct[parent].first_child;
	cg->cct[parent].first_child = (uint32_t)cg->nr_cct;
	return (uint32_t)cg->nr_cct++;
}

/* ---- pending child records of placeholder frames ---- */

static uint32_t pend_new(struct kmag_cg *cg, struct frame *parent, uint32_t callee, uint32_t flags)
{
	uint32_t i;
	struct pending *p;

	/* one record per distinct callee under this placeholder */
	for (i = parent->pend_head; i != NONE32; i = cg->pend[i].next)
		if (cg->pend[i].callee == callee) {
			cg->pend[i].edge_flags |= flags;
			return i;
		}
	if (cg->pend_free != NONE32) {
		i = cg->pend_free;
		cg->pend_free = cg->pend[i].next;
	} else {
		if (kmag__grow(&cg->pend, &cg->cap_pend, cg->nr_pend + 1, sizeof(*cg->pend)))
			return NONE32;
		i = (uint32_t)cg->nr_pend++;
	}
	p = &cg->pend[i];
	p->callee = callee;
	p->edge_flags = flags;
	stats_init(&p->st);
	p->next = parent->pend_head;
	parent->pend_head = i;
	return i;
}

/* Attributes (named != NONE32) or drops a placeholder's pending children. */
static void pend_flush(struct kmag_cg *cg, struct frame *f, uint32_t named)
{
	uint32_t i = f->pend_head, next;

	for (; i != NONE32; i = next) {
		struct pending *p = &cg->pend[i];

		next = p->next;
		if (named != NONE32) {
			uint32_t e = edge_get(cg, named, p->callee);

			if (e != NONE32) {
				stats_merge(&cg->edges[e].st, &p->st);
				cg->edges[e].flags |= p->edge_flags;
			}
		}
		p->next = cg->pend_free;
		cg->pend_free = i;
	}
	f->pend_head = NONE32;
}

/* ---- tasks ---- */

static struct task *task_get(struct kmag_cg *cg, const struct kmag_event *ev)
{
	uint64_t key;
	uint64_t *slot;
	bool inserted;

	/* the idle task is pid 0 on every CPU, each with its own stack */
	if (ev->pid > 0)
		key = (uint64_t)(uint32_t)ev->pid;
	else
		key = 1ull << 32 | (uint32_t)(ev->cpu + 1);
	if (key == cg->last_task_key)
		return cg->last_task;
	slot = u64map_upsert(&cg->task_index, key, cg->nr_tasks, &inserted);
	if (!slot)
		return NULL;
	if (inserted) {
		if (kmag__grow(&cg->tasks, &cg->cap_tasks, cg->nr_tasks + 1, sizeof(*cg->tasks)))
			return NULL;
		memset(&cg->tasks[cg->nr_tasks], 0, sizeof(struct task));
		cg->nr_tasks++;
		cg->sum.tasks++;
	}
	cg->last_task_key = key;
	cg->last_task = &cg->tasks[*slot];
	return cg->last_task;
}

static struct frame *frame_push(struct task *t)
{
	struct frame *f;

	if (t->nr == t->cap) {
		size_t cap = t->cap;

		if (kmag__grow(&t->frames, &cap, (size_t)t->nr + 1, sizeof(*t->frames)))
			return NULL;
		t->cap = (uint32_t)cap;
	}
	f = &t->frames[t->nr++];
	memset(f, 0, sizeof(*f));
	f->node = f->edge = f->pend = f->pend_head = NONE32;
	f->last_callee = f->last_edge = NONE32;
	return f;
}

/* Closes the top frame without an exit: its call stays counted, as incomplete. */
static void frame_abandon(struct kmag_cg *cg, struct task *t)
{
	struct frame *f = &t->frames[--t->nr];
	struct frame *parent = t->nr ? &t->frames[t->nr - 1] : NULL;

	if (f->flags & FR_PLACEHOLDER) {
		pend_flush(cg, f, NONE32);
		return;
	}
	cg->nodes[f->node].st.incomplete++;
	if (f->edge != NONE32)
		cg->edges[f->edge].st.incomplete++;
	else if (f->pend != NONE32 && parent && (parent->flags & FR_PLACEHOLDER))
		cg->pend[f->pend].st.incomplete++;
	if (f->cct)
		cg->cct[f->cct].st.incomplete++;
	cg->sum.unfinished_entries++;
}

/* Makes the stack hold frames exactly up to depth @depth - 1. */
static int stack_fit(struct kmag_cg *cg, struct task *t, int32_t depth)
{
	while (t->nr && t->frames[t->nr - 1].depth >= depth)
		frame_abandon(cg, t);
	if (depth > MAX_DEPTH)
		depth = MAX_DEPTH;
	/* missing levels below: placeholders, named later by their exits */
	while ((int32_t)(t->nr ? t->frames[t->nr - 1].depth + 1 : 0) < depth) {
		int32_t d = t->nr ? t->frames[t->nr - 1].depth + 1 : 0;
		uint32_t parent_cct = t->nr ? t->frames[t->nr - 1].cct : 0;
		uint64_t active = t->nr ? t->frames[t->nr - 1].active : 0;
		struct frame *f = frame_push(t);

		if (!f)
			return -ENOMEM;
		f->active = active;
		f->flags = FR_PLACEHOLDER;
		f->depth = d;
		f->entry_ts = KMAG_TS_NONE;
		f->cct = cg->opts.build_cct ? cct_child(cg, parent_cct, KMAG_FUNC_NONE) : 0;
	}
	return 0;
}

static int graph_entry(struct kmag_cg *cg, const struct kmag_event *ev)
{
	struct task *t = task_get(cg, ev);
	struct frame *f, *parent;
	uint32_t node = node_get(cg, ev->func);
	int32_t depth;
	uint32_t i, flags = 0;
	int ret;

	if (!t || node == NONE32)
		return -ENOMEM;
	t->last_cpu = ev->cpu;
	depth = ev->depth >= 0 ? ev->depth : (t->nr ? t->frames[t->nr - 1].depth + 1 : 0);
	ret = stack_fit(cg, t, depth);
	if (ret)
		return ret;
	if (ev->ctx & (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI))
		flags |= FR_IRQ;
	f = frame_push(t);
	if (!f)
		return -ENOMEM;
	parent = t->nr > 1 ? &t->frames[t->nr - 2] : NULL;	/* push may have moved frames */
	f->node = node;
	f->depth = depth;
	f->entry_ts = ev->ts;
	f->flags = flags;
	cg->nodes[node].st.calls++;
	/* recursion: scan the stack only when the bloom set says it is possible */
	f->active = (parent ? parent->active : 0) | 1ull << (node & 63);
	if (parent && (parent->active & 1ull << (node & 63)))
		for (i = t->nr - 1; i-- > 0 && t->nr - 1 - i <= RECURSION_SCAN;)
			if (t->frames[i].node == node) {
				f->flags |= FR_RECURSIVE;
				break;
			}
	if (parent) {
		uint32_t eflags = (flags & FR_IRQ) && !(parent->flags & FR_IRQ) ? KMAG_EDGE_IRQ : 0;

		if (parent->flags & FR_PLACEHOLDER) {
			f->pend = pend_new(cg, parent, node, eflags);
			if (f->pend == NONE32)
				return -ENOMEM;
			cg->pend[f->pend].st.calls++;
		} else {
			uint32_t e;

			if (parent->last_callee == node) {
				e = parent->last_edge;
			} else {
				e = edge_get(cg, parent->node, node);
				if (e == NONE32)
					return -ENOMEM;
				parent->last_callee = node;
				parent->last_edge = e;
			}
			f->edge = e;
			cg->edges[e].st.calls++;
			cg->edges[e].flags |= eflags;
		}
		f->cct = cg->opts.build_cct ? cct_child(cg, parent->cct, ev->func) : 0;
	} else {
		f->cct = cg->opts.build_cct ? cct_child(cg, 0, ev->func) : 0;
	}
	if (f->cct)
		cg->cct[f->cct].st.calls++;
	return 0;
}

/* Completes the top frame with @dur (or KMAG_DURATION_NONE). */
static void frame_complete(struct kmag_cg *cg, struct task *t, uint64_t dur, bool incomplete)
{
	struct frame *f = &t->frames[--t->nr];
	struct frame *parent = t->nr ? &t->frames[t->nr - 1] : NULL;
	struct kmag_cg_node *n = &cg->nodes[f->node];
	struct kmag_cg_stats *es = NULL;
	uint64_t self = 0;

	if (f->flags & FR_TAINTED)
		incomplete = true;
	if (f->edge != NONE32)
		es = &cg->edges[f->edge].st;
	else if (f->pend != NONE32 && parent && (parent->flags & FR_PLACEHOLDER))
		es = &cg->pend[f->pend].st;
	if (incomplete) {
		n->st.incomplete++;
		if (es)
			es->incomplete++;
		if (f->cct)
			cg->cct[f->cct].st.incomplete++;
	}
	if (dur == KMAG_DURATION_NONE)
		return;
	self = dur > f->child_ns ? dur - f->child_ns : 0;
	stats_time(&n->st, dur);
	if (!(f->flags & FR_RECURSIVE))
		n->st.total_ns += dur;
	n->st.self_ns += self;
	if (es) {
		stats_time(es, dur);
		es->total_ns += dur;
		es->self_ns += self;
	}
	if (f->cct) {
		struct kmag_cg_stats *cs = &cg->cct[f->cct].st;

		stats_time(cs, dur);
		cs->total_ns += dur;
		cs->self_ns += self;
	}
	if (parent)
		parent->child_ns += dur;
	cg->sum.has_time = true;
}

static uint64_t exit_duration(const struct kmag_event *ev, const struct frame *f)
{
	if (ev->duration != KMAG_DURATION_NONE)
		return ev->duration;
	if (f && f->entry_ts != KMAG_TS_NONE && ev->ts != KMAG_TS_NONE && ev->ts >= f->entry_ts)
		return ev->ts - f->entry_ts;
	return KMAG_DURATION_NONE;
}

static int graph_exit(struct kmag_cg *cg, const struct kmag_event *ev)
{
	struct task *t = task_get(cg, ev);
	struct frame *f;
	int32_t depth;

	if (!t)
		return -ENOMEM;
	t->last_cpu = ev->cpu;
	depth = ev->depth >= 0 ? ev->depth : (t->nr ? t->frames[t->nr - 1].depth : 0);
	/* frames above the returning one lost their exits */
	while (t->nr && t->frames[t->nr - 1].depth > depth)
		frame_abandon(cg, t);
	f = t->nr ? &t->frames[t->nr - 1] : NULL;
	if (f && f->depth == depth) {
		uint32_t node;

		if (f->flags & FR_PLACEHOLDER) {
			/* the exit names a call whose entry came before the trace (or was lost) */
			struct frame *parent = t->nr > 1 ? &t->frames[t->nr - 2] : NULL;

			if (ev->func == KMAG_FUNC_NONE) {
				frame_abandon(cg, t);
				cg->sum.unmatched_exits++;
				return 0;
			}
			node = node_get(cg, ev->func);
			if (node == NONE32)
				return -ENOMEM;
			pend_flush(cg, f, node);
			f->node = node;
			f->flags &= ~FR_PLACEHOLDER;
			cg->nodes[node].st.calls++;
			cg->sum.unmatched_exits++;
			if (parent && !(parent->flags & FR_PLACEHOLDER)) {
				f->edge = edge_get(cg, parent->node, node);
				if (f->edge == NONE32)
					return -ENOMEM;
				cg->edges[f->edge].st.calls++;
			} else if (parent) {
				f->pend = pend_new(cg, parent, node, 0);
				if (f->pend == NONE32)
					return -ENOMEM;
				cg->pend[f->pend].st.calls++;
			}
			if (f->cct) {
				/* the path was recorded as unknown; keep it so (no re-parenting) */
				cg->cct[f->cct].st.calls++;
			}
			frame_complete(cg, t, exit_duration(ev, NULL), true);
			return 0;
		}
		if (ev->func == KMAG_FUNC_NONE || cg->nodes[f->node].func == ev->func) {
			frame_complete(cg, t, exit_duration(ev, f), false);
			return 0;
		}
		/* a different function returned at this depth: records were lost */
		frame_abandon(cg, t);
	}
	/* no frame at this depth: an exit without a seen entry */
	cg->sum.unmatched_exits++;
	if (ev->func == KMAG_FUNC_NONE)
		return 0;
	{
		uint32_t node = node_get(cg, ev->func);
		struct frame *parent = t->nr && t->frames[t->nr - 1].depth == depth - 1 ?
					       &t->frames[t->nr - 1] : NULL;
		struct frame *nf;
		uint32_t parent_cct = parent ? parent->cct : 0;

		if (node == NONE32)
			return -ENOMEM;
		cg->nodes[node].st.calls++;
		nf = frame_push(t);
		if (!nf)
			return -ENOMEM;
		parent = t->nr > 1 && t->frames[t->nr - 2].depth == depth - 1 ? &t->frames[t->nr - 2] :
										   NULL;
		nf->node = node;
		nf->depth = depth;
		nf->entry_ts = KMAG_TS_NONE;
		if (parent && !(parent->flags & FR_PLACEHOLDER)) {
			nf->edge = edge_get(cg, parent->node, node);
			if (nf->edge == NONE32)
				return -ENOMEM;
			cg->edges[nf->edge].st.calls++;
		} else if (parent) {
			nf->pend = pend_new(cg, parent, node, 0);
			if (nf->pend == NONE32)
				return -ENOMEM;
			cg->pend[nf->pend].st.calls++;
		}
		if (cg->opts.build_cct) {
			nf->cct = cct_child(cg, parent_cct, ev->func);
			if (nf->cct)
				cg->cct[nf->cct].st.calls++;
		}
		frame_complete(cg, t, exit_duration(ev, NULL), true);
	}
	return 0;
}

static int function_call(struct kmag_cg *cg, const struct kmag_event *ev)
{
	uint32_t callee = node_get(cg, ev->func);
	uint32_t caller;

	if (callee == NONE32)
		return ev->func == KMAG_FUNC_NONE ? 0 : -ENOMEM;
	cg->nodes[callee].st.calls += ev->repeat;
	if (ev->parent == KMAG_FUNC_NONE)
		return 0;
	caller = node_get(cg, ev->parent);
	if (caller == NONE32)
		return -ENOMEM;
	{
		uint32_t e = edge_get(cg, caller, callee);

		if (e == NONE32)
			return -ENOMEM;
		cg->edges[e].st.calls += ev->repeat;
	}
	return 0;
}

/* Events were lost on a CPU: every open frame of a task last seen there is suspect. */
static void lost_on_cpu(struct kmag_cg *cg, int cpu)
{
	size_t i;
	uint32_t j;

	for (i = 0; i < cg->nr_tasks; i++) {
		struct task *t = &cg->tasks[i];

		if (t->last_cpu != cpu && cpu >= 0)
			continue;
		for (j = 0; j < t->nr; j++)
			t->frames[j].flags |= FR_TAINTED;
	}
}

static int count_event(struct kmag_cg *cg, const struct kmag_event *ev)
{
	static const char unknown[] = "(unknown event)";
	const char *name = ev->event_name ? ev->event_name : unknown;
	bool inserted;
	uint64_t *slot = u64map_upsert(&cg->evcount_index, (uint64_t)(uintptr_t)name,
				       cg->nr_evcounts, &inserted);

	if (!slot)
		return -ENOMEM;
	if (inserted) {
		if (kmag__grow(&cg->evcounts, &cg->cap_evcounts, cg->nr_evcounts + 1,
			       sizeof(*cg->evcounts)))
			return -ENOMEM;
		cg->evcounts[cg->nr_evcounts++] =
			(struct kmag_cg_event_count){ ev->event_system, name, 0 };
	}
	cg->evcounts[*slot].count++;
	return 0;
}

int kmag_cg_add(struct kmag_cg *cg, const struct kmag_event *ev)
{
	cg->sum.events++;
	switch (ev->type) {
	case KMAG_EV_FUNC:
		cg->sum.func_events++;
		return function_call(cg, ev);
	case KMAG_EV_GRAPH_ENTRY:
		cg->sum.func_events++;
		cg->sum.has_stacks = true;
		if (ev->func == KMAG_FUNC_NONE)
			return 0;
		return graph_entry(cg, ev);
	case KMAG_EV_GRAPH_EXIT:
		cg->sum.func_events++;
		cg->sum.has_stacks = true;
		return graph_exit(cg, ev);
	case KMAG_EV_LOST:
		cg->sum.lost_markers++;
		lost_on_cpu(cg, ev->cpu);
		return 0;
	case KMAG_EV_OTHER:
		cg->sum.other_events++;
		return count_event(cg, ev);
	default:
		return 0;
	}
}

int kmag_cg_event_fn(const struct kmag_event *ev, void *ctx)
{
	return kmag_cg_add(ctx, ev);
}

int kmag_cg_finish(struct kmag_cg *cg)
{
	size_t i;
	uint32_t *pos;

	if (cg->finished)
		return 0;
	for (i = 0; i < cg->nr_tasks; i++) {
		struct task *t = &cg->tasks[i];

		while (t->nr)
			frame_abandon(cg, t);
	}
	cg->out = calloc(cg->nr_edges + 1, sizeof(uint32_t));
	cg->in = calloc(cg->nr_edges + 1, sizeof(uint32_t));
	pos = calloc(cg->nr_nodes + 1, sizeof(uint32_t));
	if (!cg->out || !cg->in || !pos) {
		free(pos);
		return -ENOMEM;
	}
	/* counting sort of edge indexes by caller, then by callee */
	for (i = 0; i < cg->nr_nodes; i++)
		cg->nodes[i].out_count = cg->nodes[i].in_count = 0;
	for (i = 0; i < cg->nr_edges; i++) {
		cg->nodes[cg->edges[i].caller].out_count++;
		cg->nodes[cg->edges[i].callee].in_count++;
	}
	{
		uint32_t o = 0, in = 0;

		for (i = 0; i < cg->nr_nodes; i++) {
			cg->nodes[i].out_first = o;
			cg->nodes[i].in_first = in;
			o += cg->nodes[i].out_count;
			in += cg->nodes[i].in_count;
		}
	}
	for (i = 0; i < cg->nr_nodes; i++)
		pos[i] = cg->nodes[i].out_first;
	for (i = 0; i < cg->nr_edges; i++)
		cg->out[pos[cg->edges[i].caller]++] = (uint32_t)i;
	for (i = 0; i < cg->nr_nodes; i++)
		pos[i] = cg->nodes[i].in_first;
	for (i = 0; i < cg->nr_edges; i++)
		cg->in[pos[cg->edges[i].callee]++] = (uint32_t)i;
	free(pos);
	cg->sum.incomplete_calls = 0;
	for (i = 0; i < cg->nr_nodes; i++)
		cg->sum.incomplete_calls += cg->nodes[i].st.incomplete;
	cg->finished = true;
	return 0;
}

size_t kmag_cg_nr_nodes(const struct kmag_cg *cg)
{
	return cg->nr_nodes;
}

const struct kmag_cg_node *kmag_cg_nodes(const struct kmag_cg *cg)
{
	return cg->nodes;
}

size_t kmag_cg_nr_edges(const struct kmag_cg *cg)
{
	return cg->nr_edges;
}

const struct kmag_cg_edge *kmag_cg_edges(const struct kmag_cg *cg)
{
	return cg->edges;
}

const uint32_t *kmag_cg_out_edges(const struct kmag_cg *cg)
{
	return cg->out;
}

const uint32_t *kmag_cg_in_edges(const struct kmag_cg *cg)
{
	return cg->in;
}

long kmag_cg_node_index(const struct kmag_cg *cg, kmag_func_t func)
{
	if (func >= cg->cap_node_of_func || cg->node_of_func[func] == NONE32)
		return -1;
	return (long)cg->node_of_func[func];
}

long kmag_cg_edge_index(const struct kmag_cg *cg, uint32_t caller, uint32_t callee)
{
	uint64_t *v = u64map_get(&cg->edge_index, (uint64_t)caller << 32 | callee);

	return v && *v != NONE32 ? (long)*v : -1;
}

const struct kmag_cg_summary *kmag_cg_summary(const struct kmag_cg *cg)
{
	return &cg->sum;
}

size_t kmag_cg_nr_cct(const struct kmag_cg *cg)
{
	return cg->opts.build_cct ? cg->nr_cct : 0;
}

const struct kmag_cct_node *kmag_cg_cct(const struct kmag_cg *cg)
{
	return cg->cct;
}

size_t kmag_cg_nr_event_counts(const struct kmag_cg *cg)
{
	return cg->nr_evcounts;
}

const struct kmag_cg_event_count *kmag_cg_event_counts(const struct kmag_cg *cg)
{
	return cg->evcounts;
}
