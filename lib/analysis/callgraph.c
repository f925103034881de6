// SPDX-License-Identifier: MIT
/*
 * callgraph.c - build the call graph from events.
 *
 * function tracer: each event is one call of func from parent.
 *
 * function_graph: the graph subscribes to the one replay (replay.c), which
 * turns entries and exits into calls on per-task stacks. A call is counted
 * on its node, on the edge from its caller and on its calling-context path
 * when it opens, and its time when it leaves. A placeholder call (its entry
 * came before the trace or was lost) has no function until its exit names
 * it; the calls made under it are kept as pending records and attributed to
 * the edges from the now-known function then.
 * Calls whose entry, exit or caller is missing are counted as incomplete.
 * Durations come from the kernel (calltime/rettime or the printed duration).
 */
#define PR_DOMAIN "callgraph"
#include "internal.h"
#include "kmag/callgraph.h"
#include "kmag/replay.h"
#include "util/u64map.h"
#include "callgraph-internal.h"
#include "dist-internal.h"

/* The graph's data on each open call of the replay. */
struct frame {
	uint32_t node;		/* node index, NONE32 for a placeholder */
	uint32_t edge;		/* edge from the parent frame, NONE32 if none */
	uint32_t pend;		/* pending record in the parent placeholder, NONE32 if none */
	uint32_t pend_head;	/* this placeholder's pending child records */
	uint32_t cct;		/* calling-context node, 0 = none */
	uint32_t last_callee, last_edge;	/* one-entry cache for repeated calls */
	uint64_t inner_ns;	/* opts.errnum: durations of inner calls of the same function
				   that returned it, not yet in its node's total */
};

static const struct kmag_replay_ops graph_ops;

struct kmag_cg *kmag_cg_new_on(struct kmag_replay *r, const struct kmag_cg_opts *opts)
{
	struct kmag_cg *cg = calloc(1, sizeof(*cg));

	if (!cg)
		return NULL;
	if (opts)
		cg->opts = *opts;
	cg->replay = r;
	u64map_init(&cg->edge_index);
	u64map_init(&cg->cct_index);
	u64map_init(&cg->evcount_index);
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
	if (kmag_replay_subscribe(r, &graph_ops, cg)) {
		free(cg->cct);
		free(cg);
		return NULL;
	}
	return cg;
}

struct kmag_cg *kmag_cg_new(const struct kmag_cg_opts *opts)
{
	struct kmag_replay *r = kmag_replay_new();
	struct kmag_cg *cg = r ? kmag_cg_new_on(r, opts) : NULL;

	if (!cg) {
		kmag_replay_free(r);
		return NULL;
	}
	cg->own_replay = true;
	if (opts)
		kmag_replay_set_cost(r, opts->tracer_cost_ns);
	return cg;
}

void kmag_cg_free(struct kmag_cg *cg)
{
	if (!cg)
		return;
	if (cg->own_replay)
		kmag_replay_free(cg->replay);
	free(cg->nodes);
	free(cg->node_of_func);
	free(cg->edges);
	free(cg->out);
	free(cg->in);
	free(cg->pend);
	free(cg->cct);
	for (size_t i = 0; i < cg->cap_dists; i++)
		kmag__dist_release(&cg->dists[i]);
	free(cg->dists);
	u64map_release(&cg->edge_index);
	u64map_release(&cg->cct_index);
	u64map_release(&cg->evcount_index);
	free(cg->evcounts);
	while (cg->nr_owned)
		free(cg->owned[--cg->nr_owned]);
	free(cg->owned);
	free(cg);
}

/* ---- nodes and edges ---- */

uint32_t kmag__cg_node_get(struct kmag_cg *cg, kmag_func_t func)
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

/* The slot of edge caller->callee in the direct-mapped cache. */
static inline size_t ecache_slot(const struct kmag_cg *cg, uint32_t caller, uint32_t callee)
{
	return (size_t)((caller * 0x9e3779b1u) ^ callee) & (ARRAY_SIZE(cg->ecache) - 1);
}

uint32_t kmag__cg_edge_get(struct kmag_cg *cg, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	size_t c = ecache_slot(cg, caller, callee);
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

int kmag__cg_dist_add(struct kmag_cg *cg, uint32_t node, uint64_t dur,
		      const struct kmag_dist *src)
{
	if (node >= cg->cap_dists) {
		size_t old = cg->cap_dists;

		if (kmag__grow(&cg->dists, &cg->cap_dists, (size_t)node + 1, sizeof(*cg->dists)))
			return -ENOMEM;
		for (size_t i = old; i < cg->cap_dists; i++)
			kmag__dist_init(&cg->dists[i]);
	}
	return src ? kmag_dist_merge(&cg->dists[node], src) :
		     kmag__dist_add(&cg->dists[node], dur);
}

const struct kmag_dist *kmag_cg_node_dist(const struct kmag_cg *cg, size_t i)
{
	const struct kmag_dist *d = i < cg->cap_dists ? &cg->dists[i] : NULL;

	/* a graph made of sums may hold the calls of some sources only: then none */
	return d && kmag_dist_count(d) && kmag_dist_count(d) == cg->nodes[i].st.timed ? d : NULL;
}

/*
 * kmag__cg_node_get() and kmag__cg_edge_get() for a function and an edge
 * seen before, inline: they run for every call, and the calls cost more
 * than the look-ups (the new ones take the functions above).
 */
static inline uint32_t node_of(struct kmag_cg *cg, kmag_func_t func)
{
	if (likely(func < cg->cap_node_of_func) && likely(cg->node_of_func[func] != NONE32))
		return cg->node_of_func[func];
	return kmag__cg_node_get(cg, func);
}

static inline uint32_t edge_of(struct kmag_cg *cg, uint32_t caller, uint32_t callee)
{
	uint64_t key = (uint64_t)caller << 32 | callee;
	size_t c = ecache_slot(cg, caller, callee);

	if (likely(cg->ecache[c].key == key && key))
		return cg->ecache[c].edge;
	return kmag__cg_edge_get(cg, caller, callee);
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
			uint32_t e = kmag__cg_edge_get(cg, named, p->callee);

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

/* ---- the replay's calls ---- */

static bool in_irq(const struct kmag_call *c)
{
	return c->ctx & (KMAG_CTX_HARDIRQ | KMAG_CTX_SOFTIRQ | KMAG_CTX_NMI);
}

/* Counts call @node on the pending list of its parent frame, a placeholder. */
static __attribute__((noinline)) int count_pending(struct kmag_cg *cg, struct frame *f,
						   uint32_t node, struct frame *pf, uint32_t eflags)
{
	f->pend = pend_new(cg, pf, node, eflags);
	if (f->pend == NONE32)
		return -ENOMEM;
	cg->pend[f->pend].st.calls++;
	return 0;
}

/* Counts call @node on the edge from its parent frame (or the parent's pending list). */
static inline int count_edge(struct kmag_cg *cg, struct frame *f, uint32_t node, struct frame *pf,
			     uint32_t eflags)
{
	uint32_t e;

	if (unlikely(pf->node == NONE32))
		return count_pending(cg, f, node, pf, eflags);
	if (pf->last_callee == node) {
		e = pf->last_edge;
	} else {
		e = edge_of(cg, pf->node, node);
		if (e == NONE32)
			return -ENOMEM;
		pf->last_callee = node;
		pf->last_edge = e;
	}
	f->edge = e;
	cg->edges[e].st.calls++;
	cg->edges[e].flags |= eflags;
	return 0;
}

/* ---- opts.errnum: only the calls that returned one error ---- */

/* The data of the nearest open call of @func on the current task, or NULL. */
static struct frame *outer_call_of(struct kmag_cg *cg, kmag_func_t func)
{
	size_t i = kmag_replay_nr_open(cg->replay);

	while (i-- > 0)
		if (kmag_replay_open(cg->replay, i)->func == func)
			return kmag_replay_open_data(cg->replay, i, &graph_ops);
	return NULL;
}

/*
 * Adds @dur to the total of @node's function, outermost only as in the
 * whole graph: inside an outer call of the same function it waits in that
 * call's frame, which counts it if it does not return the error itself.
 */
static void errno_total(struct kmag_cg *cg, const struct kmag_call *call, uint32_t node,
			uint64_t dur)
{
	struct frame *outer = (call->flags & KMAG_CALL_RECURSIVE) ?
				      outer_call_of(cg, call->func) : NULL;

	if (outer)
		outer->inner_ns += dur;
	else
		cg->nodes[node].st.total_ns += dur;
}

/* Counts a call that returned opts.errnum into @st: calls, incomplete, time, self. */
static void errno_count(struct kmag_cg_stats *st, const struct kmag_call *call)
{
	st->calls++;
	st->incomplete += !!(call->flags & KMAG_CALL_INCOMPLETE);
	if (call->duration == KMAG_DURATION_NONE)
		return;
	stats_time(st, call->duration);
	st->self_ns += kmag_call_self(call);
}

/*
 * A call leaves: counted if it returned opts.errnum, with the edges to its
 * callees that returned it too (held in its frame until now); the edge from
 * its caller waits in the caller's frame, counted if the caller returns it.
 */
static int errno_leave(struct kmag_cg *cg, const struct kmag_call *call, struct frame *f,
		       const struct kmag_call *parent, struct frame *pf)
{
	uint32_t node, p;

	if (!call->has_retval || call->func == KMAG_FUNC_NONE ||
	    kmag_call_errno(call->retval) != -(int64_t)cg->opts.errnum) {
		pend_flush(cg, f, NONE32);	/* its callees' errors ended here */
		if (f->inner_ns && (node = kmag__cg_node_get(cg, call->func)) != NONE32)
			errno_total(cg, call, node, f->inner_ns);
		return 0;
	}
	if ((node = kmag__cg_node_get(cg, call->func)) == NONE32)
		return -ENOMEM;
	pend_flush(cg, f, node);
	errno_count(&cg->nodes[node].st, call);
	if (call->duration != KMAG_DURATION_NONE) {
		errno_total(cg, call, node, call->duration);	/* (its inner ones are in it) */
		cg->sum.has_time = true;
		/* the durations of the calls counted, as on_leave() keeps them */
		if (cg->opts.durations && kmag__cg_dist_add(cg, node, call->duration, NULL))
			return -ENOMEM;
	}
	if (!pf)
		return 0;
	p = pend_new(cg, pf, node, in_irq(call) && !in_irq(parent) ? KMAG_EDGE_IRQ : 0);
	if (p == NONE32)
		return -ENOMEM;
	errno_count(&cg->pend[p].st, call);
	if (call->duration != KMAG_DURATION_NONE)
		cg->pend[p].st.total_ns += call->duration;
	return 0;
}

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_cg *cg = ctx;
	struct frame *f = data, *pf = parent_data;
	uint32_t parent_cct = pf ? pf->cct : 0;
	int ret;

	f->node = f->edge = f->pend = f->pend_head = NONE32;
	f->last_callee = f->last_edge = NONE32;
	f->inner_ns = 0;
	f->cct = 0;
	if (cg->opts.errnum)
		return 0;	/* counted when it leaves, if it returned the error */
	f->cct = cg->opts.build_cct ? cct_child(cg, parent_cct, call->func) : 0;
	if (call->func == KMAG_FUNC_NONE)
		return 0;	/* a placeholder: counted when its exit names it */
	f->node = node_of(cg, call->func);
	if (f->node == NONE32)
		return -ENOMEM;
	cg->nodes[f->node].st.calls++;
	if (f->cct)
		cg->cct[f->cct].st.calls++;
	if (!pf)
		return 0;
	ret = count_edge(cg, f, f->node, pf,
			 in_irq(call) && !in_irq(parent) ? KMAG_EDGE_IRQ : 0);
	return ret;
}

static int on_named(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_cg *cg = ctx;
	struct frame *f = data, *pf = parent_data;
	uint32_t node;

	if (cg->opts.errnum)
		return 0;	/* counted when it leaves (errno_leave()) */
	if ((node = kmag__cg_node_get(cg, call->func)) == NONE32)
		return -ENOMEM;
	pend_flush(cg, f, node);
	f->node = node;
	cg->nodes[node].st.calls++;
	/*
	 * Its own calls and time go to the path of the function now named; the
	 * calls it made stay under the unknown path they were recorded on (no
	 * re-parenting).
	 */
	if (f->cct) {
		f->cct = cct_child(cg, cg->cct[f->cct].parent, call->func);
		if (f->cct)
			cg->cct[f->cct].st.calls++;
	}
	return pf ? count_edge(cg, f, node, pf, 0) : 0;
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_cg *cg = ctx;
	struct frame *f = data, *pf = parent_data;
	struct kmag_cg_node *n;
	struct kmag_cg_stats *es = NULL;
	uint64_t dur = call->duration, self;

	if (cg->opts.errnum)
		return errno_leave(cg, call, f, parent, pf);
	if (f->node == NONE32) {	/* a placeholder no exit named */
		pend_flush(cg, f, NONE32);
		return 0;
	}
	n = &cg->nodes[f->node];
	if (f->edge != NONE32)
		es = &cg->edges[f->edge].st;
	else if (f->pend != NONE32 && pf && pf->node == NONE32)
		es = &cg->pend[f->pend].st;
	if (call->flags & KMAG_CALL_INCOMPLETE) {
		n->st.incomplete++;
		if (es)
			es->incomplete++;
		if (f->cct)
			cg->cct[f->cct].st.incomplete++;
	}
	if (dur == KMAG_DURATION_NONE)
		return 0;
	self = kmag_call_self(call);
	stats_time(&n->st, dur);
	/* the distribution of exactly the calls Avg, min and max are taken over */
	if (cg->opts.durations &&
	    (likely(f->node < cg->cap_dists) ? kmag__dist_add(&cg->dists[f->node], dur) :
					       kmag__cg_dist_add(cg, f->node, dur, NULL)))
		return -ENOMEM;
	if (!(call->flags & KMAG_CALL_RECURSIVE))
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
	cg->sum.has_time = true;
	(void)parent;
	return 0;
}

static int on_event(void *ctx, const struct kmag_event *ev);

static const struct kmag_replay_ops graph_ops = {
	.data_size = sizeof(struct frame),
	.enter = on_enter,
	.named = on_named,
	.leave = on_leave,
	.event = on_event,
};

static int function_call(struct kmag_cg *cg, const struct kmag_event *ev)
{
	uint32_t callee = kmag__cg_node_get(cg, ev->func);
	uint32_t caller;

	if (callee == NONE32)
		return ev->func == KMAG_FUNC_NONE ? 0 : -ENOMEM;
	cg->nodes[callee].st.calls += ev->repeat;
	if (ev->parent == KMAG_FUNC_NONE)
		return 0;
	caller = kmag__cg_node_get(cg, ev->parent);
	if (caller == NONE32)
		return -ENOMEM;
	{
		uint32_t e = kmag__cg_edge_get(cg, caller, callee);

		if (e == NONE32)
			return -ENOMEM;
		cg->edges[e].st.calls += ev->repeat;
	}
	return 0;
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

/* The replay's other events: function tracer calls, lost markers, other events. */
static int on_event(void *ctx, const struct kmag_event *ev)
{
	struct kmag_cg *cg = ctx;

	cg->sum.events++;
	switch (ev->type) {
	case KMAG_EV_FUNC:
		cg->sum.func_events++;
		return function_call(cg, ev);
	case KMAG_EV_LOST:
		cg->sum.lost_markers++;
		return 0;
	case KMAG_EV_OTHER:
		cg->sum.other_events++;
		return count_event(cg, ev);
	default:
		return 0;
	}
}

int kmag_cg_add(struct kmag_cg *cg, const struct kmag_event *ev)
{
	return kmag_replay_add(cg->replay, ev);
}

struct kmag_replay *kmag_cg_replay(struct kmag_cg *cg)
{
	return cg->replay;
}

int kmag_cg_event_fn(const struct kmag_event *ev, void *ctx)
{
	return kmag_cg_add(ctx, ev);
}

/* Builds the adjacency lists (edges by caller and by callee) and the incomplete count. */
static int build_adjacency(struct kmag_cg *cg)
{
	size_t i;
	uint32_t *pos;

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
	return 0;
}

int kmag_cg_finish(struct kmag_cg *cg)
{
	const struct kmag_replay_stats *rs = kmag_replay_stats(cg->replay);
	int ret;

	if (cg->finished)
		return 0;
	/* a shared replay is finished by its owner, before */
	ret = cg->own_replay ? kmag_replay_finish(cg->replay, KMAG_TS_NONE) : 0;
	if (ret)
		return ret;
	/* added to what kmag_cg_add_summary() may have put there (profiles) */
	cg->sum.events += rs->graph_events;
	cg->sum.func_events += rs->graph_events;
	cg->sum.has_stacks |= rs->graph_events > 0;
	cg->sum.unmatched_exits += rs->unmatched_exits;
	cg->sum.unfinished_entries += rs->unfinished_entries;
	cg->sum.tasks += rs->tasks;
	ret = build_adjacency(cg);
	if (ret)
		return ret;
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

/* ---- a graph of the calls made under one function ---- */

/* Whether an ancestor of CCT node @i, up to the scope's root, runs the same function. */
static bool cct_recursive(const struct kmag_cct_node *cct, const bool *scope, uint32_t i)
{
	uint32_t p = cct[i].parent;
	unsigned steps = 0;

	while (p && scope[p] && ++steps < 4096) {
		if (cct[p].func == cct[i].func)
			return true;
		p = cct[p].parent;
	}
	return false;
}

/* Adds the stats of CCT node @i of the scope to node @func and its edge from @caller. */
static int scoped_add(struct kmag_cg *g, const struct kmag_cct_node *n, kmag_func_t caller,
		      bool recursive)
{
	uint32_t node = kmag__cg_node_get(g, n->func);
	struct kmag_cg_stats st = n->st;

	if (node == NONE32)
		return -ENOMEM;
	if (recursive)
		st.total_ns = 0;	/* counted at the outer activation, as in the whole graph */
	stats_merge(&g->nodes[node].st, &st);
	if (caller != KMAG_FUNC_NONE) {
		uint32_t from = kmag__cg_node_get(g, caller);
		uint32_t e = from == NONE32 ? NONE32 : kmag__cg_edge_get(g, from, node);

		if (e == NONE32)
			return -ENOMEM;
		stats_merge(&g->edges[e].st, &n->st);
	}
	return 0;
}

struct kmag_cg *kmag_cg_new_scoped(const struct kmag_cg *cg, kmag_func_t root)
{
	struct kmag_cg *g;
	bool *scope;
	size_t i;

	if (!cg->opts.build_cct || !cg->finished) {
		errno = EINVAL;
		return NULL;
	}
	g = kmag_cg_new(NULL);
	scope = calloc(cg->nr_cct + 1, sizeof(*scope));
	if (!g || !scope)
		goto oom;
	/* parents come before their children in the array */
	for (i = 1; i < cg->nr_cct; i++) {
		const struct kmag_cct_node *n = &cg->cct[i];
		bool parent_in = n->parent && scope[n->parent];

		scope[i] = parent_in || n->func == root;
		if (!scope[i] || n->func == KMAG_FUNC_NONE)
			continue;
		if (scoped_add(g, n, parent_in ? cg->cct[n->parent].func : KMAG_FUNC_NONE,
			       cct_recursive(cg->cct, scope, (uint32_t)i)))
			goto oom;
	}
	free(scope);
	g->sum = cg->sum;
	if (build_adjacency(g))
		goto oom;
	g->finished = true;
	return g;
oom:
	errno = ENOMEM;
	free(scope);
	kmag_cg_free(g);
	return NULL;
}
