// SPDX-License-Identifier: MIT
/*
 * flame.c - the flame-graph model: calling-context trees merged into one tree
 * of frames (optionally leaf-first), and the per-task graph router.
 *
 * A frame is keyed by (parent frame, label): labels are symtab ids for
 * functions, and ids above LABEL_BASE for base frames (tasks). Frames are
 * always created after their parent, so totals are summed in one backward
 * pass over the array.
 */
#define PR_DOMAIN "flame"
#include <stdio.h>

#include "internal.h"
#include "kmag/cgsplit.h"
#include "kmag/flame.h"
#include "kmag/trace.h"
#include "util/u64map.h"

#define LABEL_BASE 0x80000000u		/* base frame k has label LABEL_BASE + k */
#define LABEL_UNKNOWN 0xfffffffeu	/* a frame the trace does not name */

static const char unknown_name[] = "[unknown]";

struct kmag_flame {
	struct kmag_flame_frame *frames;
	size_t nr, cap;
	struct u64map index;		/* parent << 32 | label -> frame */
	const struct kmag_symtab *st;	/* of every added graph */
	char **bases;			/* owned base-frame names */
	size_t nr_bases, cap_bases;
	bool reverse;
	bool finished;
	enum kmag_flame_weight weight;
	bool (*keep)(void *ctx, kmag_func_t func);	/* NULL = every function */
	void *keep_ctx;
	kmag_func_t root;		/* only the calls under it; KMAG_FUNC_NONE: all */
};

void kmag_flame_set_root(struct kmag_flame *f, kmag_func_t root)
{
	f->root = root;
}

/*
 * Which CCT nodes are calls under f->root: the node of a call of root, or of
 * a call its parent node is under (parents come before children). A new
 * array of @n flags to free(); NULL on ENOMEM.
 */
static bool *cct_scope(const struct kmag_flame *f, const struct kmag_cct_node *cct, size_t n)
{
	bool *in = calloc(n + 1, sizeof(*in));
	size_t i;

	if (!in)
		return NULL;
	for (i = 1; i < n; i++)
		in[i] = f->root == KMAG_FUNC_NONE || cct[i].func == f->root ||
			(cct[i].parent < i && in[cct[i].parent]);
	return in;
}

void kmag_flame_set_keep(struct kmag_flame *f, bool (*keep)(void *ctx, kmag_func_t func),
			 void *ctx)
{
	f->keep = keep;
	f->keep_ctx = ctx;
}

/* A frame for @func is drawn (not hidden by the keep filter). */
static bool kept(const struct kmag_flame *f, kmag_func_t func)
{
	return !f->keep || f->keep(f->keep_ctx, func);
}

int kmag_flame_weight_parse(const char *s, enum kmag_flame_weight *out)
{
	if (!strcmp(s, "time"))
		*out = KMAG_FLAME_TIME;
	else if (!strcmp(s, "calls"))
		*out = KMAG_FLAME_CALLS;
	else
		return -EINVAL;
	return 0;
}

struct kmag_flame *kmag_flame_new(bool reverse)
{
	struct kmag_flame *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->reverse = reverse;
	u64map_init(&f->index);
	if (kmag__grow(&f->frames, &f->cap, 64, sizeof(*f->frames))) {
		free(f);
		return NULL;
	}
	memset(&f->frames[0], 0, sizeof(f->frames[0]));
	f->frames[0].name = "all";
	f->nr = 1;
	f->root = KMAG_FUNC_NONE;
	return f;
}

void kmag_flame_free(struct kmag_flame *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->nr_bases; i++)
		free(f->bases[i]);
	free(f->bases);
	free(f->frames);
	u64map_release(&f->index);
	free(f);
}

/* Returns the frame @label under @parent, creating it; UINT32_MAX when out of memory. */
static uint32_t frame_child(struct kmag_flame *f, uint32_t parent, uint32_t label, const char *name)
{
	uint64_t key = (uint64_t)parent << 32 | label;
	struct kmag_flame_frame *fr;
	uint64_t *slot;
	bool inserted;

	if (f->nr >= UINT32_MAX - 1)
		return UINT32_MAX;
	slot = u64map_upsert(&f->index, key, f->nr, &inserted);
	if (!slot)
		return UINT32_MAX;
	if (!inserted)
		return (uint32_t)*slot;
	if (kmag__grow(&f->frames, &f->cap, f->nr + 1, sizeof(*f->frames))) {
		/* keep the map consistent: forget the key again by pointing it at the root */
		*slot = 0;
		return UINT32_MAX;
	}
	fr = &f->frames[f->nr];
	memset(fr, 0, sizeof(*fr));
	fr->name = name;
	fr->parent = parent;
	fr->depth = f->frames[parent].depth + 1;
	fr->next_sibling = f->frames[parent].first_child;
	f->frames[parent].first_child = (uint32_t)f->nr;
	return (uint32_t)f->nr++;
}

static uint32_t func_label(const struct kmag_symtab *st, kmag_func_t func, const char **name)
{
	const char *s = func == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, func);

	if (!s || func >= LABEL_BASE) {
		*name = unknown_name;
		return LABEL_UNKNOWN;
	}
	*name = s;
	return func;
}

/* The base frame for @base (or the root when NULL). */
static uint32_t base_frame(struct kmag_flame *f, const char *base)
{
	size_t i;
	char *copy;

	if (!base)
		return 0;
	for (i = 0; i < f->nr_bases; i++)
		if (!strcmp(f->bases[i], base))
			return frame_child(f, 0, LABEL_BASE + (uint32_t)i, f->bases[i]);
	if (f->nr_bases >= LABEL_UNKNOWN - LABEL_BASE - 1)
		return UINT32_MAX;
	if (kmag__grow(&f->bases, &f->cap_bases, f->nr_bases + 1, sizeof(*f->bases)))
		return UINT32_MAX;
	copy = strdup(base);
	if (!copy)
		return UINT32_MAX;
	/* no ';' or line breaks: they would break the folded format */
	for (i = 0; copy[i]; i++)
		if (copy[i] == ';' || copy[i] == '\n' || copy[i] == '\r')
			copy[i] = ':';
	f->bases[f->nr_bases] = copy;
	return frame_child(f, 0, LABEL_BASE + (uint32_t)f->nr_bases++, copy);
}

static int add_forward(struct kmag_flame *f, const struct kmag_cct_node *cct, size_t n,
		       uint32_t base, const bool *in)
{
	uint32_t *frame_of = malloc(n * sizeof(*frame_of));
	size_t i;

	if (!frame_of)
		return -ENOMEM;
	frame_of[0] = base;
	/* a CCT node is always created after its parent */
	for (i = 1; i < n; i++) {
		const char *name;
		uint32_t label = func_label(f->st, cct[i].func, &name);
		uint32_t p = cct[i].parent < i ? frame_of[cct[i].parent] : UINT32_MAX;
		uint32_t fr;

		if (p == UINT32_MAX) {
			free(frame_of);
			return -EINVAL;
		}
		if (!in[i]) {
			frame_of[i] = base;	/* outside the root's calls: not drawn */
			continue;
		}
		if (!in[cct[i].parent])
			p = base;	/* an outermost call of the root starts a stack */
		if (!kept(f, cct[i].func)) {
			/* hidden: its callees hang on its caller, its own time is the caller's */
			f->frames[p].self_ns += cct[i].st.self_ns;
			frame_of[i] = p;
			continue;
		}
		fr = frame_child(f, p, label, name);
		if (fr == UINT32_MAX) {
			free(frame_of);
			return -ENOMEM;
		}
		f->frames[fr].self_ns += cct[i].st.self_ns;
		f->frames[fr].self_calls += cct[i].st.calls;
		frame_of[i] = fr;
	}
	free(frame_of);
	return 0;
}

static int add_reversed(struct kmag_flame *f, const struct kmag_cct_node *cct, size_t n,
			uint32_t base, const bool *in)
{
	size_t i;

	for (i = 1; i < n; i++) {
		uint32_t fr = base, c = (uint32_t)i, steps = 0;

		if ((!cct[i].st.self_ns && !cct[i].st.calls) || !in[i])
			continue;
		/* leaf first: the node itself, then its callers up to the outermost (under the root) */
		while (c != 0 && in[c]) {
			const char *name;
			uint32_t label = func_label(f->st, cct[c].func, &name);

			if (cct[c].parent >= c || ++steps > n)
				return -EINVAL;
			if (kept(f, cct[c].func)) {
				fr = frame_child(f, fr, label, name);
				if (fr == UINT32_MAX)
					return -ENOMEM;
			}
			c = cct[c].parent;
		}
		/* a hidden leaf's time goes to its nearest shown caller, as forward */
		f->frames[fr].self_ns += cct[i].st.self_ns;
		if (kept(f, cct[i].func))
			f->frames[fr].self_calls += cct[i].st.calls;
	}
	return 0;
}

int kmag_flame_add_graph(struct kmag_flame *f, const struct kmag_cg *cg,
			 const struct kmag_symtab *st, const char *base)
{
	size_t n = kmag_cg_nr_cct(cg);
	uint32_t b;
	bool *in;
	int ret;

	if (f->finished || (f->st && f->st != st))
		return -EINVAL;
	if (!kmag_cg_summary(cg)->has_stacks || n == 0)
		return -ENODATA;
	f->st = st;
	b = base_frame(f, base);
	in = cct_scope(f, kmag_cg_cct(cg), n);
	if (b == UINT32_MAX || !in) {
		free(in);
		return -ENOMEM;
	}
	ret = f->reverse ? add_reversed(f, kmag_cg_cct(cg), n, b, in) :
			   add_forward(f, kmag_cg_cct(cg), n, b, in);
	free(in);
	return ret;
}

static int cmp_frame_name(const void *a, const void *b)
{
	const struct kmag_flame_frame *const *x = a, *const *y = b;

	return strcmp((*x)->name, (*y)->name);
}

int kmag_flame_finish(struct kmag_flame *f, enum kmag_flame_weight weight)
{
	struct kmag_flame_frame **kids = NULL;
	size_t cap = 0, i;

	f->weight = weight;
	if (f->finished)
		return 0;
	for (i = 0; i < f->nr; i++) {
		f->frames[i].total_ns = f->frames[i].self_ns;
		f->frames[i].total_calls = f->frames[i].self_calls;
	}
	for (i = f->nr; i-- > 1;) {
		struct kmag_flame_frame *p = &f->frames[f->frames[i].parent];

		p->total_ns += f->frames[i].total_ns;
		p->total_calls += f->frames[i].total_calls;
	}
	/* siblings in name order, as flamegraph.pl draws them (so graphs compare) */
	for (i = 0; i < f->nr; i++) {
		size_t k = 0, j;
		uint32_t c;

		for (c = f->frames[i].first_child; c; c = f->frames[c].next_sibling) {
			if (kmag__grow(&kids, &cap, k + 1, sizeof(*kids))) {
				free(kids);
				return -ENOMEM;
			}
			kids[k++] = &f->frames[c];
		}
		if (k < 2)
			continue;
		qsort(kids, k, sizeof(*kids), cmp_frame_name);
		f->frames[i].first_child = (uint32_t)(kids[0] - f->frames);
		for (j = 0; j + 1 < k; j++)
			kids[j]->next_sibling = (uint32_t)(kids[j + 1] - f->frames);
		kids[k - 1]->next_sibling = 0;
	}
	free(kids);
	f->finished = true;
	return 0;
}

const struct kmag_flame_frame *kmag_flame_frames(const struct kmag_flame *f)
{
	return f->frames;
}

size_t kmag_flame_nr_frames(const struct kmag_flame *f)
{
	return f->nr;
}

bool kmag_flame_reversed(const struct kmag_flame *f)
{
	return f->reverse;
}

enum kmag_flame_weight kmag_flame_weight(const struct kmag_flame *f)
{
	return f->weight;
}

uint64_t kmag_flame_self(const struct kmag_flame *f, uint32_t frame)
{
	const struct kmag_flame_frame *fr = &f->frames[frame];

	return f->weight == KMAG_FLAME_CALLS ? fr->self_calls : fr->self_ns;
}

uint64_t kmag_flame_total(const struct kmag_flame *f, uint32_t frame)
{
	const struct kmag_flame_frame *fr = &f->frames[frame];

	return f->weight == KMAG_FLAME_CALLS ? fr->total_calls : fr->total_ns;
}

/* ---- one graph per task ---- */

struct split_group {
	struct kmag_cg *cg;
	char *name;
};

struct kmag_cg_split {
	struct kmag_trace *trace;
	enum kmag_split_key key;
	struct kmag_cg_opts opts;
	struct split_group *groups;
	size_t nr, cap;
	struct u64map by_pid;		/* pid -> group */
	int last_pid;
	size_t last_group;
};

struct kmag_cg_split *kmag_cg_split_new(struct kmag_trace *t, enum kmag_split_key key,
					const struct kmag_cg_opts *opts)
{
	struct kmag_cg_split *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->trace = t;
	s->key = key;
	if (opts)
		s->opts = *opts;
	s->last_pid = -2;
	u64map_init(&s->by_pid);
	return s;
}

void kmag_cg_split_free(struct kmag_cg_split *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		kmag_cg_free(s->groups[i].cg);
		free(s->groups[i].name);
	}
	free(s->groups);
	u64map_release(&s->by_pid);
	free(s);
}

static long group_add(struct kmag_cg_split *s, const char *name)
{
	struct split_group *g;

	if (kmag__grow(&s->groups, &s->cap, s->nr + 1, sizeof(*s->groups)))
		return -ENOMEM;
	g = &s->groups[s->nr];
	g->name = strdup(name);
	g->cg = kmag_cg_new(&s->opts);
	if (!g->name || !g->cg) {
		free(g->name);
		kmag_cg_free(g->cg);
		return -ENOMEM;
	}
	return (long)s->nr++;
}

/* The group of task @pid; creates it on first sight. */
static long group_of(struct kmag_cg_split *s, int pid)
{
	const char *comm = pid >= 0 && s->trace ? kmag_trace_comm(s->trace, pid) : NULL;
	char name[320];
	uint64_t *slot;
	bool inserted;
	long g = -1;
	size_t i;

	slot = u64map_upsert(&s->by_pid, (uint64_t)(uint32_t)pid, UINT64_MAX, &inserted);
	if (!slot)
		return -ENOMEM;
	if (!inserted && *slot != UINT64_MAX)
		return (long)*slot;
	if (pid < 0)
		snprintf(name, sizeof(name), "[unknown task]");
	else if (s->key == KMAG_SPLIT_COMM)
		snprintf(name, sizeof(name), "%s", comm ? comm : "[unknown comm]");
	else
		snprintf(name, sizeof(name), "%s-%d", comm ? comm : "?", pid);
	if (s->key == KMAG_SPLIT_COMM)
		for (i = 0; i < s->nr && g < 0; i++)
			if (!strcmp(s->groups[i].name, name))
				g = (long)i;
	if (g < 0)
		g = group_add(s, name);
	if (g < 0)
		return g;
	*slot = (uint64_t)g;
	return g;
}

int kmag_cg_split_event_fn(const struct kmag_event *ev, void *ctx)
{
	struct kmag_cg_split *s = ctx;
	size_t i;
	int ret;

	if (ev->type == KMAG_EV_LOST) {
		for (i = 0; i < s->nr; i++) {
			ret = kmag_cg_add(s->groups[i].cg, ev);
			if (ret)
				return ret;
		}
		return 0;
	}
	if (ev->pid != s->last_pid) {
		long g = group_of(s, ev->pid);

		if (g < 0)
			return (int)g;
		s->last_pid = ev->pid;
		s->last_group = (size_t)g;
	}
	return kmag_cg_add(s->groups[s->last_group].cg, ev);
}

int kmag_cg_split_finish(struct kmag_cg_split *s)
{
	size_t i;
	int ret;

	for (i = 0; i < s->nr; i++) {
		ret = kmag_cg_finish(s->groups[i].cg);
		if (ret)
			return ret;
	}
	return 0;
}

size_t kmag_cg_split_count(const struct kmag_cg_split *s)
{
	return s->nr;
}

const struct kmag_cg *kmag_cg_split_graph(const struct kmag_cg_split *s, size_t i)
{
	return i < s->nr ? s->groups[i].cg : NULL;
}

const char *kmag_cg_split_name(const struct kmag_cg_split *s, size_t i)
{
	return i < s->nr ? s->groups[i].name : NULL;
}
