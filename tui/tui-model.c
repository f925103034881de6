// SPDX-License-Identifier: MIT
/*
 * tui-model.c - the explorer's screens and keys (see tui.h): a stack of
 * views, cursor moves, sorting, folding and search. No terminal here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kmag/render/latency.h"
#include "tui-internal.h"

const char *tui_func_name(const struct tui *t, kmag_func_t f)
{
	const char *s = f == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(t->d.st, f);

	return s ? s : "?";
}

const char *tui_node_name(const struct tui *t, uint32_t node)
{
	return tui_func_name(t, kmag_cg_nodes(t->d.cg)[node].func);
}

static void view_release(struct tui_view *v)
{
	free(v->frows);
	free(v->calls);
	free(v->tend);
	free(v->tparent);
	free(v->tdepth);
	free(v->folded);
	free(v->vis);
	free(v->lat_text);
	free(v->lat_lines);
	memset(v, 0, sizeof(*v));
}

static int resort(struct tui *t)
{
	uint32_t *o = kmag_cg_sorted_nodes(t->d.cg, t->d.st, t->sort);

	if (!o)
		return -ENOMEM;
	free(t->order);
	t->order = o;
	return 0;
}

struct tui *tui_new(const struct tui_data *d)
{
	struct tui *t = calloc(1, sizeof(*t));
	const struct kmag_cg_node *n;

	if (!t)
		return NULL;
	t->d = *d;
	t->nnodes = kmag_cg_nr_nodes(d->cg);
	t->has_time = kmag_cg_summary(d->cg)->has_time;
	t->sort = t->has_time ? KMAG_SORT_TOTAL : KMAG_SORT_CALLS;
	n = kmag_cg_nodes(d->cg);
	for (size_t i = 0; i < t->nnodes; i++) {
		if (n[i].st.total_ns > t->max_total)
			t->max_total = n[i].st.total_ns;
		if (n[i].st.calls > t->max_calls)
			t->max_calls = n[i].st.calls;
	}
	t->cap = 8;
	t->views = calloc(t->cap, sizeof(*t->views));
	if (!t->views || resort(t)) {
		tui_free(t);
		return NULL;
	}
	t->depth = 1;
	t->views[0].kind = TUI_FUNCS;
	t->views[0].nrows = t->nnodes;
	t->page = 20;
	return t;
}

void tui_free(struct tui *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->depth; i++)
		view_release(&t->views[i]);
	free(t->views);
	free(t->order);
	free(t);
}

enum tui_screen tui_screen(const struct tui *t)
{
	return t->views[t->depth - 1].kind;
}

size_t tui_cursor(const struct tui *t)
{
	return t->views[t->depth - 1].cursor;
}

size_t tui_depth(const struct tui *t)
{
	return t->depth;
}

static struct tui_view *push(struct tui *t, enum tui_screen kind)
{
	struct tui_view *v;

	if (t->depth == t->cap) {
		v = realloc(t->views, 2 * t->cap * sizeof(*v));
		if (!v)
			return NULL;
		t->views = v;
		t->cap *= 2;
	}
	v = &t->views[t->depth++];
	memset(v, 0, sizeof(*v));
	v->kind = kind;
	return v;
}

static void pop(struct tui *t)
{
	view_release(tui_top(t));
	t->depth--;
}

/* ---- the function screen: callers, then callees ---- */

static int by_edge_weight(const void *a, const void *b, void *ctx)
{
	const struct kmag_cg_edge *e = kmag_cg_edges(ctx);
	const struct kmag_cg_stats *x = &e[((const struct tui_frow *)a)->edge].st;
	const struct kmag_cg_stats *y = &e[((const struct tui_frow *)b)->edge].st;

	if (x->total_ns != y->total_ns)
		return x->total_ns < y->total_ns ? 1 : -1;
	return x->calls < y->calls ? 1 : x->calls > y->calls ? -1 : 0;
}

static int open_func(struct tui *t, uint32_t node)
{
	const struct kmag_cg_node *n = &kmag_cg_nodes(t->d.cg)[node];
	const struct kmag_cg_edge *e = kmag_cg_edges(t->d.cg);
	const uint32_t *in = kmag_cg_in_edges(t->d.cg), *out = kmag_cg_out_edges(t->d.cg);
	struct tui_frow *r = calloc((size_t)n->in_count + n->out_count + 2, sizeof(*r));
	struct tui_view *v;
	size_t k = 0;

	if (!r || !(v = push(t, TUI_FUNC))) {
		free(r);
		return -ENOMEM;
	}
	r[k++] = (struct tui_frow){ .node = node, .edge = -1 };
	for (uint32_t i = 0; i < n->in_count; i++)
		r[k++] = (struct tui_frow){ .node = e[in[n->in_first + i]].caller,
					    .edge = in[n->in_first + i] };
	qsort_r(r + 1, n->in_count, sizeof(*r), by_edge_weight, (void *)t->d.cg);
	r[k++] = (struct tui_frow){ .node = node, .edge = -1, .callee = true };
	for (uint32_t i = 0; i < n->out_count; i++)
		r[k++] = (struct tui_frow){ .node = e[out[n->out_first + i]].callee,
					    .edge = out[n->out_first + i], .callee = true };
	qsort_r(r + 2 + n->in_count, n->out_count, sizeof(*r), by_edge_weight, (void *)t->d.cg);
	v->frows = r;
	v->nrows = k;
	v->node = node;
	/* start on the first callee, else the first caller */
	v->cursor = n->out_count ? 2 + n->in_count : n->in_count ? 1 : 0;
	return 0;
}

/* ---- the calls of one function ---- */

static uint64_t call_dur(const struct kmag_sample_call *c)
{
	return c->tree[0].duration == KMAG_DURATION_NONE ? 0 : c->tree[0].duration;
}

static int by_duration(const void *a, const void *b)
{
	const struct kmag_sample_call *x = *(const struct kmag_sample_call *const *)a;
	const struct kmag_sample_call *y = *(const struct kmag_sample_call *const *)b;

	if (call_dur(x) != call_dur(y))
		return call_dur(x) < call_dur(y) ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int by_start(const void *a, const void *b)
{
	const struct kmag_sample_call *x = *(const struct kmag_sample_call *const *)a;
	const struct kmag_sample_call *y = *(const struct kmag_sample_call *const *)b;

	if (x->tree[0].start_ns != y->tree[0].start_ns)
		return x->tree[0].start_ns < y->tree[0].start_ns ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void sort_calls(struct tui_view *v)
{
	qsort(v->calls, v->nrows, sizeof(*v->calls),
	      v->calls_sort == TUI_CALLS_BY_DURATION ? by_duration : by_start);
}

/* The sample's record of function @f (its functions are sorted by id), or NULL. */
static const struct kmag_sample_func *sample_func(const struct kmag_callsample *s, kmag_func_t f)
{
	size_t lo = 0, hi, n;
	const struct kmag_sample_func *fs = kmag_callsample_funcs(s, &n);

	for (hi = n; lo < hi;) {
		size_t mid = (lo + hi) / 2;

		if (fs[mid].func == f)
			return &fs[mid];
		if (fs[mid].func < f)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static int open_calls(struct tui *t, uint32_t node)
{
	const struct kmag_sample_func *sf = NULL;
	const struct kmag_sample_call *all;
	struct tui_view *v;
	size_t n = 0, nr;

	if (t->d.sample)
		sf = sample_func(t->d.sample, kmag_cg_nodes(t->d.cg)[node].func);
	if (!(v = push(t, TUI_CALLS)))
		return -ENOMEM;
	v->node = node;
	v->sfunc = sf;
	if (sf && sf->nr_calls) {
		all = kmag_callsample_calls(t->d.sample, &nr);
		n = sf->nr_calls;
		v->calls = malloc(n * sizeof(*v->calls));
		if (!v->calls) {
			pop(t);
			return -ENOMEM;
		}
		for (size_t i = 0; i < n; i++)	/* by start, as the sample keeps them */
			v->calls[i] = &all[sf->first_call + i];
	}
	v->nrows = n;
	return 0;
}

/* ---- one call's tree ---- */

void tui_tree_relayout(struct tui_view *v)
{
	uint32_t n = (uint32_t)v->call->nr_tree, k = 0;

	for (uint32_t i = 0; i < n; i = v->folded[i] ? v->tend[i] : i + 1)
		v->vis[k++] = i;
	v->nrows = k;
}

static int open_tree(struct tui *t, const struct kmag_sample_call *c)
{
	const struct kmag_sample_node *tr = c->tree;
	uint32_t n = (uint32_t)c->nr_tree, *stack;
	struct tui_view *v;
	size_t sp = 0;

	if (!(v = push(t, TUI_TREE)))
		return -ENOMEM;
	v->call = c;
	if (!n)
		return 0;
	v->tend = malloc(n * sizeof(*v->tend));
	v->tparent = malloc(n * sizeof(*v->tparent));
	v->tdepth = malloc(n * sizeof(*v->tdepth));
	v->vis = malloc(n * sizeof(*v->vis));
	v->folded = calloc(n, 1);
	stack = malloc(n * sizeof(*stack));
	if (!v->tend || !v->tparent || !v->tdepth || !v->vis || !v->folded || !stack) {
		free(stack);
		pop(t);
		return -ENOMEM;
	}
	/* preorder with parents: a node's subtree ends where a node outside it starts */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t p = i && tr[i].parent < i ? tr[i].parent : i;

		while (sp && stack[sp - 1] != p)
			v->tend[stack[--sp]] = i;
		v->tparent[i] = p;
		v->tdepth[i] = p == i ? 0 : v->tdepth[p] + 1;
		stack[sp++] = i;
	}
	while (sp)
		v->tend[stack[--sp]] = n;
	free(stack);
	tui_tree_relayout(v);
	return 0;
}

/* Index of the visible row showing tree node @node (or its nearest shown ancestor). */
static size_t tree_row_of(const struct tui_view *v, uint32_t node)
{
	size_t lo = 0, hi = v->nrows;

	while (hi - lo > 1) {	/* vis is increasing */
		size_t mid = (lo + hi) / 2;

		if (v->vis[mid] <= node)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void tree_fold(struct tui_view *v, int how)	/* -1 fold, 1 unfold, 0 toggle */
{
	uint32_t node = v->vis[v->cursor];
	bool leaf = v->tend[node] == node + 1;

	if (leaf || (how < 0 && v->folded[node])) {
		if (how < 0) {	/* on a leaf or folded call, left goes to the caller */
			v->cursor = tree_row_of(v, v->tparent[node]);
			return;
		}
		if (leaf)
			return;
	}
	if (how > 0 && !v->folded[node]) {	/* right on an open call: its first callee */
		v->cursor++;
		return;
	}
	v->folded[node] = how == 0 ? !v->folded[node] : how < 0;
	tui_tree_relayout(v);
	v->cursor = tree_row_of(v, node);
}

/* ---- search ---- */

static const char *row_name(struct tui *t, struct tui_view *v, size_t i)
{
	switch (v->kind) {
	case TUI_FUNCS:
		return tui_node_name(t, t->order[i]);
	case TUI_FUNC:
		return v->frows[i].edge < 0 ? NULL : tui_node_name(t, v->frows[i].node);
	case TUI_CALLS:
		return t->d.trace ? kmag_trace_comm(t->d.trace, v->calls[i]->pid) : NULL;
	case TUI_TREE:
		return tui_func_name(t, v->call->tree[i].func);
	default:
		return NULL;
	}
}

/* Search domain size: the tree searches folded calls too. */
static size_t domain_size(const struct tui_view *v)
{
	if (v->kind == TUI_TREE)
		return v->call->nr_tree;
	return v->kind == TUI_HELP ? 0 : v->nrows;
}

static size_t domain_of_cursor(const struct tui_view *v)
{
	return v->kind == TUI_TREE && v->nrows ? v->vis[v->cursor] : v->cursor;
}

static void goto_domain(struct tui_view *v, size_t i)
{
	if (v->kind != TUI_TREE) {
		v->cursor = i;
		return;
	}
	/* unfold every ancestor of the match */
	for (uint32_t p = (uint32_t)i; v->tparent[p] != p;) {
		p = v->tparent[p];
		v->folded[p] = 0;
	}
	tui_tree_relayout(v);
	v->cursor = tree_row_of(v, (uint32_t)i);
}

/* Moves to the next (@dir 1) or previous (-1) match from domain index @from (itself included). */
static bool search(struct tui *t, size_t from, int dir)
{
	struct tui_view *v = tui_top(t);
	size_t n = domain_size(v);
	const char *s;

	if (!t->patlen || !n)
		return false;
	for (size_t k = 0; k < n; k++) {
		size_t i = dir > 0 ? (from + k) % n : (from + n - k % n) % n;

		if ((s = row_name(t, v, i)) && strcasestr(s, t->pat)) {
			goto_domain(v, i);
			return true;
		}
	}
	return false;
}

static int search_key(struct tui *t, int key)
{
	struct tui_view *v = tui_top(t);

	switch (key) {
	case TUI_KEY_ENTER:
		t->searching = false;
		if (t->nomatch)
			snprintf(t->msg, sizeof(t->msg), "no match for \"%s\"", t->pat);
		return 1;
	case TUI_KEY_ESC:
		t->searching = false;
		t->patlen = 0;
		t->pat[0] = 0;
		if (v->kind != TUI_TREE)
			v->cursor = t->search_from;
		return 1;
	case TUI_KEY_BACKSPACE:
		if (t->patlen)
			t->pat[--t->patlen] = 0;
		break;
	default:
		if (key < 0x20 || key > 0x7e || t->patlen + 1 >= sizeof(t->pat))
			return 1;
		t->pat[t->patlen++] = (char)key;
		t->pat[t->patlen] = 0;
		break;
	}
	/* incremental: the first match from where the prompt opened */
	t->nomatch = t->patlen && !search(t, t->search_from, 1);
	return 1;
}

/* ---- keys ---- */

static void move(struct tui *t, struct tui_view *v, long delta)
{
	long c = (long)v->cursor + delta;

	if (!v->nrows)
		return;
	if (c < 0)
		c = 0;
	if (c >= (long)v->nrows)
		c = (long)v->nrows - 1;
	v->cursor = (size_t)c;
}

static const char *sort_names[] = {
	[KMAG_SORT_CALLS] = "calls", [KMAG_SORT_TOTAL] = "total", [KMAG_SORT_SELF] = "self",
};

static int set_sort(struct tui *t, enum kmag_sort_key k)
{
	struct tui_view *v = &t->views[0];
	uint32_t node = v->nrows ? t->order[v->cursor] : 0;

	if (!t->has_time && k != KMAG_SORT_CALLS) {
		snprintf(t->msg, sizeof(t->msg), "this trace has no durations: sorted by calls");
		return 1;
	}
	t->sort = k;
	if (resort(t))
		return -ENOMEM;
	/* the cursor stays on its function */
	for (size_t i = 0; i < v->nrows; i++)
		if (t->order[i] == node)
			v->cursor = i;
	snprintf(t->msg, sizeof(t->msg), "sorted by %s", sort_names[k]);
	return 1;
}

/*
 * l: the function's durations as `kmag report --latency` prints them (the
 * same renderer, its lines shown as they are).
 */
static int open_latency(struct tui *t, uint32_t node)
{
	const struct kmag_dist *d = kmag_cg_node_dist(t->d.cg, node);
	struct kmag_latency l = { .name = tui_node_name(t, node),
				  .st = &kmag_cg_nodes(t->d.cg)[node].st, .dist = d };
	struct tui_view *v;
	size_t size = 0, n = 0, i;
	char *text = NULL, *p;
	FILE *f;

	if (!d) {
		snprintf(t->msg, sizeof(t->msg), "%s: no call with a duration%s", l.name,
			 t->has_time ? "" : " (a function-tracer trace has none)");
		return 1;
	}
	f = open_memstream(&text, &size);
	if (!f)
		return -ENOMEM;
	if (kmag_latency_text(f, &l) | fclose(f)) {
		free(text);
		return -ENOMEM;
	}
	for (p = text; *p; p++)
		n += *p == '\n';
	if (!(v = push(t, TUI_LATENCY))) {
		free(text);
		return -ENOMEM;
	}
	v->node = node;
	v->lat_text = text;
	v->lat_lines = calloc(n + 1, sizeof(*v->lat_lines));
	if (!v->lat_lines) {
		pop(t);
		return -ENOMEM;
	}
	for (i = 0, p = text; i < n; i++) {
		v->lat_lines[i] = p;
		p = strchr(p, '\n');
		*p++ = 0;
	}
	v->nrows = n;
	return 1;
}

/* The function of the current row (l), NONE32 when it has none. */
static uint32_t row_node(struct tui *t, struct tui_view *v)
{
	long ni;

	switch (v->kind) {
	case TUI_FUNCS:
		return t->order[v->cursor];
	case TUI_FUNC:
		return v->frows[v->cursor].edge < 0 ? v->node : v->frows[v->cursor].node;
	case TUI_CALLS:
		return v->node;
	case TUI_TREE:
		ni = kmag_cg_node_index(t->d.cg, v->call->tree[v->vis[v->cursor]].func);
		return ni < 0 ? UINT32_MAX : (uint32_t)ni;
	default:
		return UINT32_MAX;
	}
}

/* Enter / c / f on the current row. */
static int open_row(struct tui *t, struct tui_view *v, int key)
{
	uint32_t node;
	long ni;

	switch (v->kind) {
	case TUI_FUNCS:
		node = t->order[v->cursor];
		return key == 'c' ? open_calls(t, node) : open_func(t, node);
	case TUI_FUNC:
		if (key == 'c')	/* the calls of this screen's function */
			return open_calls(t, v->node);
		if (v->frows[v->cursor].edge < 0)
			return 0;
		return open_func(t, v->frows[v->cursor].node);
	case TUI_CALLS:
		if (key == 'c')
			return 0;
		if (key == 'f')
			return open_func(t, v->node);
		return open_tree(t, v->calls[v->cursor]);
	case TUI_TREE:
		if (key == 'f' || key == 'c') {
			ni = kmag_cg_node_index(t->d.cg, v->call->tree[v->vis[v->cursor]].func);
			if (ni < 0)
				return 0;
			return key == 'c' ? open_calls(t, (uint32_t)ni) : open_func(t, (uint32_t)ni);
		}
		tree_fold(v, 0);
		return 0;
	default:
		return 0;
	}
}

/* The keys that act on the current row (the screen has rows; not the help). */
static int row_key(struct tui *t, struct tui_view *v, int key)
{
	int ret;

	switch (key) {
	case 's':	/* cycles the table's sort: total, self, calls */
		if (v->kind == TUI_CALLS) {
			v->calls_sort = !v->calls_sort;
			sort_calls(v);
			snprintf(t->msg, sizeof(t->msg), "calls sorted by %s",
				 v->calls_sort ? "duration" : "start time");
			return 1;
		}
		if (v->kind != TUI_FUNCS)
			return 1;
		ret = set_sort(t, t->sort == KMAG_SORT_TOTAL ? KMAG_SORT_SELF :
				  t->sort == KMAG_SORT_SELF ? KMAG_SORT_CALLS : KMAG_SORT_TOTAL);
		return ret;
	case '1': case '2': case '3':
		if (v->kind != TUI_FUNCS)
			return 1;
		return set_sort(t, key == '1' ? KMAG_SORT_CALLS : key == '2' ? KMAG_SORT_TOTAL :
				KMAG_SORT_SELF);
	case TUI_KEY_LEFT: case '-':
		if (v->kind == TUI_TREE)
			tree_fold(v, -1);
		return 1;
	case TUI_KEY_RIGHT: case '+':
		if (v->kind == TUI_TREE)
			tree_fold(v, 1);
		return 1;
	case TUI_KEY_ENTER: case 'c': case 'f':
		ret = open_row(t, v, key);
		return ret < 0 ? ret : 1;
	case 'l':
		if (row_node(t, v) == UINT32_MAX)
			return 1;
		return open_latency(t, row_node(t, v));
	}
	return 1;
}

int tui_key(struct tui *t, int key)
{
	struct tui_view *v = tui_top(t);
	long page = t->page > 1 ? (long)t->page - 1 : 1;

	t->msg[0] = 0;
	if (t->searching)
		return search_key(t, key);
	switch (key) {
	case 'q':
	case TUI_KEY_ESC:
		if (t->depth == 1)
			return key == 'q' ? 0 : 1;
		pop(t);
		return 1;
	case 'Q':
		return 0;
	case '?':
		if (v->kind != TUI_HELP) {
			if (!(v = push(t, TUI_HELP)))
				return -ENOMEM;
			v->nrows = TUI_HELP_LINES;
		}
		return 1;
	case TUI_KEY_UP: case 'k': move(t, v, -1); return 1;
	case TUI_KEY_DOWN: case 'j': move(t, v, 1); return 1;
	case TUI_KEY_PGUP: move(t, v, -page); return 1;
	case TUI_KEY_PGDN: case ' ':
		if (key == ' ' && v->kind == TUI_TREE && v->nrows)
			tree_fold(v, 0);
		else
			move(t, v, page);
		return 1;
	case TUI_KEY_HOME: case 'g': v->cursor = 0; return 1;
	case TUI_KEY_END: case 'G': move(t, v, (long)v->nrows); return 1;
	case '/':
		if (v->kind == TUI_HELP)
			return 1;
		t->searching = true;
		t->nomatch = false;
		t->patlen = 0;
		t->pat[0] = 0;
		t->search_from = domain_of_cursor(v);
		return 1;
	case 'n':
	case 'N':
		if (!t->patlen) {
			snprintf(t->msg, sizeof(t->msg), "no search yet: press / first");
			return 1;
		}
		if (!search(t, domain_of_cursor(v) + (key == 'n' ? 1 : domain_size(v) - 1),
			    key == 'n' ? 1 : -1))
			snprintf(t->msg, sizeof(t->msg), "no match for \"%s\"", t->pat);
		return 1;
	}
	if (!v->nrows || v->kind == TUI_HELP || v->kind == TUI_LATENCY)
		return 1;
	return row_key(t, v, key);
}
