// SPDX-License-Identifier: MIT
/*
 * t-cgview.c - the call-graph view: focus, filters, bridges, pruning, hot
 * path and heat, on small graphs written as text.
 */
#include <errno.h>

#include "kmag/callgraph.h"
#include "kmag/cgview.h"
#include "test.h"

/*
 * A graph from function-tracer calls: "A>B*3 B>C" = A calls B three times,
 * B calls C once; "A*2" = A is called twice from outside the trace.
 */
struct tg {
	struct kmag_symtab *st;
	struct kmag_cg *cg;
	const char *hidden;	/* path filter: rejects the names listed (" A B ") */
};

static void tg_build(struct tg *t, const char *spec)
{
	char buf[1024], *save = NULL, *tok;

	t->st = kmag_symtab_new();
	t->cg = kmag_cg_new(NULL);
	CHECK(t->st && t->cg);
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct kmag_event ev = { .type = KMAG_EV_FUNC, .repeat = 1, .cpu = 0, .pid = 1,
					 .depth = -1, .ts = 0, .parent = KMAG_FUNC_NONE };
		char *star = strchr(tok, '*'), *gt = strchr(tok, '>');
		long n = 1, i;

		if (star) {
			*star = '\0';
			n = strtol(star + 1, NULL, 10);
		}
		if (gt) {
			*gt = '\0';
			ev.parent = kmag_symtab_intern(t->st, tok, (size_t)-1);
			ev.func = kmag_symtab_intern(t->st, gt + 1, (size_t)-1);
		} else {
			ev.func = kmag_symtab_intern(t->st, tok, (size_t)-1);
		}
		for (i = 0; i < n; i++)
			CHECK_EQ(kmag_cg_add(t->cg, &ev), 0);
	}
	CHECK_EQ(kmag_cg_finish(t->cg), 0);
}

static void tg_free(struct tg *t)
{
	kmag_cg_free(t->cg);
	kmag_symtab_free(t->st);
}

/* cg node index of @name (must exist) */
static uint32_t N(const struct tg *t, const char *name)
{
	long i = kmag_cg_node_index(t->cg, kmag_symtab_find(t->st, name));

	if (i < 0)
		test_fail(__FILE__, __LINE__, "no node %s", name);
	return (uint32_t)i;
}

/* view index of @name, -1 when hidden */
static long V(const struct tg *t, const struct kmag_cgview *v, const char *name)
{
	return kmag_cgview_find(v, N(t, name));
}

static const struct kmag_cgview_edge *E(const struct tg *t, const struct kmag_cgview *v,
					const char *from, const char *to)
{
	long a = V(t, v, from), b = V(t, v, to);
	const struct kmag_cgview_edge *e = kmag_cgview_edges(v);
	size_t i;

	for (i = 0; a >= 0 && b >= 0 && i < kmag_cgview_nr_edges(v); i++)
		if (e[i].from == (uint32_t)a && e[i].to == (uint32_t)b)
			return &e[i];
	return NULL;
}

static bool keep_unless_listed(void *ctx, uint32_t node)
{
	const struct tg *t = ctx;
	const char *name = kmag_symtab_name(t->st, kmag_cg_nodes(t->cg)[node].func);
	char pad[256];

	snprintf(pad, sizeof(pad), " %s ", name);
	return !strstr(t->hidden, pad);
}

static struct kmag_cgview *view(struct tg *t, struct kmag_cgview_opts o)
{
	struct kmag_cgview *v;

	if (t->hidden) {
		o.keep = keep_unless_listed;
		o.keep_ctx = t;
	}
	v = kmag_cgview_new(t->cg, &o);
	CHECK(v);
	return v;
}

/* View options: focus (-1 = none), depth (-1 = unlimited), call threshold, node limit. */
static struct kmag_cgview_opts O(long root, long callers, int depth, uint64_t calls, size_t max)
{
	return (struct kmag_cgview_opts){ .root = root, .callers = callers, .depth = depth,
					  .hide_calls_upto = calls, .max_nodes = max };
}

#define OPTS() O(-1, -1, -1, 0, 0)

static void everything_shown_by_default(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;

	tg_build(&t, "A*2 A>B*3 B>C*5 A>C");
	v = view(&t, OPTS());
	CHECK_EQ(kmag_cgview_nr_nodes(v), 3);
	CHECK_EQ(kmag_cgview_nr_edges(v), 3);
	CHECK(E(&t, v, "A", "B") && E(&t, v, "B", "C") && E(&t, v, "A", "C"));
	CHECK_EQ(E(&t, v, "B", "C")->weight, 5);
	CHECK_EQ(kmag_cgview_summary(v)->hidden[KMAG_HIDE_NONE], 3);
	CHECK(kmag_cgview_nodes(v)[V(&t, v, "A")].flags & KMAG_VIEW_ENTRY);
	CHECK(!(kmag_cgview_nodes(v)[V(&t, v, "C")].flags & KMAG_VIEW_ENTRY));
	kmag_cgview_free(v);
	tg_free(&t);
}

static void path_filter_bridges_cut_chains(void)
{
	struct tg t = { .hidden = " B X1 X2 " };
	const struct kmag_cgview_edge *e;
	struct kmag_cgview *v;
	const uint32_t *chain;

	/* A -> B(hidden) -> C, and A -> X1 -> X2 (hidden) -> D */
	tg_build(&t, "A>B*4 B>C*3 A>X1*9 X1>X2*9 X2>D*2");
	v = view(&t, OPTS());
	CHECK_EQ(kmag_cgview_nr_nodes(v), 3);
	CHECK_EQ(V(&t, v, "B"), -1);
	CHECK_EQ(kmag_cgview_hidden(v, N(&t, "B")), KMAG_HIDE_PATH);
	e = E(&t, v, "A", "C");
	CHECK(e && (e->flags & KMAG_VIEW_BRIDGE));
	CHECK_EQ(e->edge, -1);
	CHECK_EQ(e->via, 1);
	CHECK_EQ(e->weight, 3);	/* the smallest count along A->B->C */
	chain = kmag_cgview_via(v, e);
	CHECK(chain && chain[0] == N(&t, "B"));
	e = E(&t, v, "A", "D");
	CHECK(e && e->via == 2);
	chain = kmag_cgview_via(v, e);
	CHECK(chain[0] == N(&t, "X1") && chain[1] == N(&t, "X2"));
	CHECK_EQ(e->weight, 2);
	CHECK_EQ(kmag_cgview_summary(v)->bridges, 2);
	CHECK_EQ(kmag_cgview_summary(v)->hidden[KMAG_HIDE_PATH], 3);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void bridges_never_duplicate_calls_or_run_too_long(void)
{
	struct tg t = { .hidden = " B H1 H2 H3 H4 H5 " };
	struct kmag_cgview *v;

	/* a direct call A -> C exists: no bridge next to it */
	tg_build(&t, "A>B B>C A>C E>H1 H1>H2 H2>H3 H3>H4 H4>H5 H5>F");
	v = view(&t, OPTS());
	CHECK(E(&t, v, "A", "C") && !(E(&t, v, "A", "C")->flags & KMAG_VIEW_BRIDGE));
	/* E reaches F only through five hidden functions: longer than any bridge */
	CHECK(!E(&t, v, "E", "F"));
	kmag_cgview_free(v);
	tg_free(&t);
	/* ... but four is still bridged */
	t = (struct tg){ .hidden = " H1 H2 H3 H4 " };
	tg_build(&t, "E>H1 H1>H2 H2>H3 H3>H4 H4>F");
	v = view(&t, OPTS());
	CHECK(E(&t, v, "E", "F") && E(&t, v, "E", "F")->via == KMAG_CGVIEW_MAX_VIA);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void bridges_through_a_hub_stay_few(void)
{
	struct tg t = { .hidden = " H " };
	struct kmag_cgview *v;
	size_t i, per_node[16] = { 0 };
	const struct kmag_cgview_edge *e;

	/* five callers and five callees of one hidden hub: 25 possible bridges */
	tg_build(&t, "A1>H*1 A2>H*2 A3>H*3 A4>H*4 A5>H*5 H>C1*1 H>C2*2 H>C3*3 H>C4*4 H>C5*50");
	v = view(&t, OPTS());
	e = kmag_cgview_edges(v);
	CHECK(kmag_cgview_summary(v)->bridges <= 10);
	for (i = 0; i < kmag_cgview_nr_edges(v); i++) {
		per_node[e[i].from]++;
		per_node[e[i].to]++;
	}
	/* every shown function keeps at least one link to the rest */
	for (i = 0; i < kmag_cgview_nr_nodes(v); i++)
		CHECK(per_node[i] >= 1);
	/* the strongest chain A5 -> H -> C5 is among them */
	CHECK(E(&t, v, "A5", "C5"));
	kmag_cgview_free(v);
	tg_free(&t);
}

static void few_calls_hide_functions_with_their_edges(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;

	/* B is called once: hiding it removes A->B and B->C, no bridge, C stays */
	tg_build(&t, "A*5 A>B B>C*7 A>D*3");
	v = view(&t, O(-1, -1, -1, 1, 0));
	CHECK_EQ(V(&t, v, "B"), -1);
	CHECK_EQ(kmag_cgview_hidden(v, N(&t, "B")), KMAG_HIDE_FEW_CALLS);
	CHECK(V(&t, v, "C") >= 0 && V(&t, v, "A") >= 0 && V(&t, v, "D") >= 0);
	CHECK(!E(&t, v, "A", "C"));
	CHECK_EQ(kmag_cgview_nr_edges(v), 1);	/* only A->D */
	kmag_cgview_free(v);
	/* the threshold hides functions, never just edges: C (7 calls) stays at 3 */
	v = view(&t, O(-1, -1, -1, 3, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 2);	/* A (5) and C (7) */
	CHECK_EQ(V(&t, v, "D"), -1);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void focus_root_callers_depth(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;

	tg_build(&t, "A>B B>C C>D X>C Y>Z");
	v = view(&t, O(N(&t, "A"), -1, -1, 0, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 4);	/* A B C D */
	CHECK_EQ(V(&t, v, "X"), -1);
	CHECK_EQ(kmag_cgview_hidden(v, N(&t, "Y")), KMAG_HIDE_FOCUS);
	CHECK(kmag_cgview_nodes(v)[V(&t, v, "A")].flags & KMAG_VIEW_FOCUS);
	kmag_cgview_free(v);
	v = view(&t, O(N(&t, "A"), -1, 1, 0, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 2);	/* A B */
	kmag_cgview_free(v);
	v = view(&t, O(-1, N(&t, "C"), -1, 0, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 4);	/* A B X C */
	CHECK_EQ(V(&t, v, "D"), -1);
	kmag_cgview_free(v);
	v = view(&t, O(N(&t, "A"), N(&t, "C"), -1, 0, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 3);	/* A B C: the paths between */
	kmag_cgview_free(v);
	/* depth alone counts from the entry points (A, X, Y) */
	v = view(&t, O(-1, -1, 1, 0, 0));
	CHECK(V(&t, v, "B") >= 0 && V(&t, v, "C") >= 0 && V(&t, v, "Z") >= 0);
	CHECK_EQ(V(&t, v, "D"), -1);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void focus_function_survives_filters(void)
{
	struct tg t = { .hidden = " A " };
	struct kmag_cgview *v;

	tg_build(&t, "A>B A>C*5");
	v = view(&t, O(N(&t, "A"), -1, -1, 3, 0));
	CHECK(V(&t, v, "A") >= 0);	/* rejected by path and calls, but asked for */
	CHECK_EQ(V(&t, v, "B"), -1);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void pruning_keeps_heavy_functions_connected(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;
	const struct kmag_cgview_summary *s;

	/* Hot (heaviest) hangs under R -> X1 -> X2; L1..L4 are light but heavier than X1/X2 */
	tg_build(&t, "R*1 R>X1 X1>X2 X2>Hot*100 R>L1*9 R>L2*8 R>L3*7 R>L4*6");
	v = view(&t, O(-1, -1, -1, 0, 4));
	s = kmag_cgview_summary(v);
	CHECK_EQ(s->shown_nodes, 4);
	CHECK(V(&t, v, "Hot") >= 0 && V(&t, v, "X2") >= 0 && V(&t, v, "X1") >= 0 &&
	      V(&t, v, "R") >= 0);
	CHECK_EQ(s->hidden[KMAG_HIDE_PRUNED], 4);
	CHECK_EQ(s->pruned_weight, 9 + 8 + 7 + 6);
	CHECK_EQ(kmag_cgview_nodes(v)[V(&t, v, "R")].pruned_callees, 4);
	CHECK_EQ(kmag_cgview_nodes(v)[V(&t, v, "R")].hidden_callees, 4);
	kmag_cgview_free(v);
	/* room for one more: the heaviest light one */
	v = view(&t, O(-1, -1, -1, 0, 5));
	CHECK(V(&t, v, "L1") >= 0 && V(&t, v, "L2") < 0);
	kmag_cgview_free(v);
	/* 0 = no limit */
	v = view(&t, O(-1, -1, -1, 0, 0));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 8);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void pruning_bridges_a_chain_that_does_not_fit(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;
	const struct kmag_cgview_edge *e;
	const uint32_t *chain;

	/* Hot is five deep; only three functions fit */
	tg_build(&t, "R*1 R>X1 X1>X2 X2>X3 X3>Hot*100 R>L1*9 R>L2*8");
	v = view(&t, O(-1, -1, -1, 0, 3));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 3);
	CHECK(V(&t, v, "Hot") >= 0 && V(&t, v, "R") >= 0 && V(&t, v, "L1") >= 0);
	e = E(&t, v, "R", "Hot");
	CHECK(e && (e->flags & KMAG_VIEW_BRIDGE));
	CHECK_EQ(e->via, 3);
	chain = kmag_cgview_via(v, e);
	CHECK(chain[0] == N(&t, "X1") && chain[1] == N(&t, "X2") && chain[2] == N(&t, "X3"));
	CHECK_EQ(e->weight, 1);
	CHECK_EQ(kmag_cgview_summary(v)->bridges, 1);
	kmag_cgview_free(v);
	/* with --callers the chain runs the other way: Hot's callees */
	tg_free(&t);
	tg_build(&t, "Top*7 Top>Y1*5 Y1>Y2*5 Y2>Y3*5 Y3>Leaf*5 Top>Z*6");
	v = view(&t, O(-1, N(&t, "Leaf"), -1, 0, 2));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 2);	/* Leaf (focus) and Top (heaviest) */
	e = E(&t, v, "Top", "Leaf");
	CHECK(e && e->via == 3);
	chain = kmag_cgview_via(v, e);
	CHECK(chain[0] == N(&t, "Y1") && chain[2] == N(&t, "Y3"));
	kmag_cgview_free(v);
	tg_free(&t);
}

static void pruning_keeps_chains_whole_or_counts_them(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;
	struct kmag_cgview_chain ch[2];
	struct kmag_cgview_opts o;
	uint32_t c1[3], c2[2];

	/* light chains R>E1>E2 and R>F1 next to heavy leaves L1..L4 */
	tg_build(&t, "R*1 R>E1 E1>E2 R>F1 R>L1*9 R>L2*8 R>L3*7 R>L4*6");
	c1[0] = N(&t, "R");
	c1[1] = N(&t, "E1");
	c1[2] = N(&t, "E2");
	c2[0] = N(&t, "R");
	c2[1] = N(&t, "F1");
	ch[0] = (struct kmag_cgview_chain){ c1, 3 };
	ch[1] = (struct kmag_cgview_chain){ c2, 2 };
	o = O(-1, -1, -1, 0, 5);
	o.chains = ch;
	o.nr_chains = 2;
	v = view(&t, o);
	/* both chains (4 functions), then the heaviest leaf */
	CHECK(V(&t, v, "E1") >= 0 && V(&t, v, "E2") >= 0 && V(&t, v, "F1") >= 0);
	CHECK(V(&t, v, "L1") >= 0 && V(&t, v, "L2") < 0);
	CHECK(E(&t, v, "E1", "E2"));
	CHECK_EQ(kmag_cgview_summary(v)->chains_hidden, 0);
	kmag_cgview_free(v);
	/* room for the first chain only: the second is cut, and counted */
	o.max_nodes = 3;
	v = view(&t, o);
	CHECK(V(&t, v, "E1") >= 0 && V(&t, v, "E2") >= 0 && V(&t, v, "F1") < 0);
	CHECK_EQ(kmag_cgview_summary(v)->chains_hidden, 1);
	kmag_cgview_free(v);
	/* no pruning: nothing to count */
	o.max_nodes = 0;
	v = view(&t, o);
	CHECK_EQ(kmag_cgview_summary(v)->chains_hidden, 0);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void hot_path_starts_where_most_traced_calls_came_from(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;

	/* untraced callers (never called themselves): A made 3 calls, B 7 */
	tg_build(&t, "A>X*3 B>Y*4 B>Z*3");
	v = view(&t, OPTS());
	CHECK_EQ(kmag_cgview_summary(v)->hot_start, V(&t, v, "B"));
	CHECK(E(&t, v, "B", "Y")->flags & KMAG_VIEW_HOT);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void hot_path_follows_heaviest_calls(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;
	const struct kmag_cgview_node *n;

	tg_build(&t, "R*3 R>A*10 R>B*2 A>C*1 A>D*8 D>R*5");
	v = view(&t, O(N(&t, "R"), -1, -1, 0, 0));
	n = kmag_cgview_nodes(v);
	CHECK(n[V(&t, v, "R")].flags & KMAG_VIEW_HOT);
	CHECK(n[V(&t, v, "A")].flags & KMAG_VIEW_HOT);
	CHECK(n[V(&t, v, "D")].flags & KMAG_VIEW_HOT);
	CHECK(!(n[V(&t, v, "B")].flags & KMAG_VIEW_HOT));
	CHECK(!(n[V(&t, v, "C")].flags & KMAG_VIEW_HOT));
	CHECK(E(&t, v, "R", "A")->flags & KMAG_VIEW_HOT);
	CHECK(E(&t, v, "A", "D")->flags & KMAG_VIEW_HOT);
	CHECK(!(E(&t, v, "D", "R")->flags & KMAG_VIEW_HOT));	/* no going round */
	CHECK_EQ(kmag_cgview_summary(v)->hot_len, 3);
	CHECK_EQ(kmag_cgview_summary(v)->hot_start, V(&t, v, "R"));
	kmag_cgview_free(v);
	tg_free(&t);
}

static void heat_follows_weight(void)
{
	struct tg t = { 0 };
	struct kmag_cgview *v;
	const struct kmag_cgview_node *n;
	double ha, hb, hc;

	tg_build(&t, "R>A*1 R>B*100 R>C*10000");
	v = view(&t, OPTS());
	n = kmag_cgview_nodes(v);
	ha = n[V(&t, v, "A")].heat;
	hb = n[V(&t, v, "B")].heat;
	hc = n[V(&t, v, "C")].heat;
	CHECK(kmag_cgview_summary(v)->log_scale);	/* 1 .. 10000 */
	CHECK(ha == 0.0 && hc == 1.0);
	CHECK(hb > 0.4 && hb < 0.6);	/* the middle on a log scale */
	CHECK_EQ(n[V(&t, v, "R")].heat, 0.0);	/* never called: below the scale */
	CHECK_EQ(kmag_cgview_weight_at(v, 1.0), 10000);
	CHECK_EQ(kmag_cgview_weight_at(v, 0.0), 1);
	kmag_cgview_free(v);
	tg_free(&t);
	/* a narrow spread stays linear */
	tg_build(&t, "R>A*10 R>B*15 R>C*20");
	v = view(&t, OPTS());
	n = kmag_cgview_nodes(v);
	CHECK(!kmag_cgview_summary(v)->log_scale);
	CHECK(n[V(&t, v, "B")].heat > 0.49 && n[V(&t, v, "B")].heat < 0.51);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void heat_colours(void)
{
	uint8_t rgb[3];

	CHECK(!kmag_heat_rgb(0, rgb));
	CHECK(rgb[0] == 0xff && rgb[1] == 0xff && rgb[2] == 0xcc);
	CHECK(kmag_heat_rgb(1, rgb));
	CHECK(rgb[0] == 0x80 && rgb[1] == 0x00 && rgb[2] == 0x26);
	kmag_heat_rgb(2.5, rgb);	/* clamped */
	CHECK(rgb[0] == 0x80);
	kmag_heat_rgb(-1, rgb);
	CHECK(rgb[2] == 0xcc);
	/* hotter is darker: green channel falls monotonically */
	{
		int last = 256, i;

		for (i = 0; i <= 20; i++) {
			kmag_heat_rgb(i / 20.0, rgb);
			CHECK(rgb[1] <= last);
			last = rgb[1];
		}
	}
}

static void empty_and_single(void)
{
	struct tg t = { .hidden = " A B " };
	struct kmag_cgview *v;
	uint32_t top[4];

	tg_build(&t, "A>B*2");
	v = view(&t, OPTS());
	CHECK_EQ(kmag_cgview_nr_nodes(v), 0);
	CHECK_EQ(kmag_cgview_nr_edges(v), 0);
	CHECK_EQ(kmag_cgview_summary(v)->hot_start, -1);
	CHECK_EQ(kmag_cgview_top(v, top, 4), 0);
	kmag_cgview_free(v);
	tg_free(&t);
	t = (struct tg){ 0 };
	tg_build(&t, "A*3");
	v = view(&t, O(-1, -1, -1, 0, 1));
	CHECK_EQ(kmag_cgview_nr_nodes(v), 1);
	CHECK_EQ(kmag_cgview_nodes(v)[0].heat, 1.0);
	CHECK_EQ(kmag_cgview_summary(v)->hot_len, 1);
	kmag_cgview_free(v);
	tg_free(&t);
	/* an empty graph */
	t.st = kmag_symtab_new();
	t.cg = kmag_cg_new(NULL);
	CHECK_EQ(kmag_cg_finish(t.cg), 0);
	v = view(&t, OPTS());
	CHECK_EQ(kmag_cgview_nr_nodes(v), 0);
	kmag_cgview_free(v);
	tg_free(&t);
	kmag_cgview_free(NULL);
}

static void top_includes_pruned_not_filtered(void)
{
	struct tg t = { .hidden = " F " };
	struct kmag_cgview *v;
	uint32_t top[8];
	size_t n;

	tg_build(&t, "R>A*50 R>B*40 R>F*100 R>C*30");
	v = view(&t, O(-1, -1, -1, 0, 2));
	n = kmag_cgview_top(v, top, 8);
	CHECK_EQ(n, 4);	/* A B C R, not the path-hidden F */
	CHECK_EQ(top[0], N(&t, "A"));
	CHECK_EQ(top[1], N(&t, "B"));
	CHECK_EQ(top[2], N(&t, "C"));
	CHECK_EQ(kmag_cgview_top(v, top, 1), 1);
	kmag_cgview_free(v);
	tg_free(&t);
}

static void bad_focus_index(void)
{
	struct tg t = { 0 };
	struct kmag_cgview_opts o = O(99, -1, -1, 0, 0);

	tg_build(&t, "A>B");
	errno = 0;
	CHECK(!kmag_cgview_new(t.cg, &o));
	CHECK_EQ(errno, EINVAL);
	tg_free(&t);
}

const struct test_case cgview_tests[] = {
	{ "everything_shown_by_default", everything_shown_by_default },
	{ "path_filter_bridges_cut_chains", path_filter_bridges_cut_chains },
	{ "bridges_never_duplicate_calls_or_run_too_long", bridges_never_duplicate_calls_or_run_too_long },
	{ "bridges_through_a_hub_stay_few", bridges_through_a_hub_stay_few },
	{ "few_calls_hide_functions_with_their_edges", few_calls_hide_functions_with_their_edges },
	{ "focus_root_callers_depth", focus_root_callers_depth },
	{ "focus_function_survives_filters", focus_function_survives_filters },
	{ "pruning_keeps_heavy_functions_connected", pruning_keeps_heavy_functions_connected },
	{ "pruning_bridges_a_chain_that_does_not_fit", pruning_bridges_a_chain_that_does_not_fit },
	{ "pruning_keeps_chains_whole_or_counts_them", pruning_keeps_chains_whole_or_counts_them },
	{ "hot_path_follows_heaviest_calls", hot_path_follows_heaviest_calls },
	{ "hot_path_starts_where_most_traced_calls_came_from",
	  hot_path_starts_where_most_traced_calls_came_from },
	{ "heat_follows_weight", heat_follows_weight },
	{ "heat_colours", heat_colours },
	{ "empty_and_single", empty_and_single },
	{ "top_includes_pruned_not_filtered", top_includes_pruned_not_filtered },
	{ "bad_focus_index", bad_focus_index },
	TEST_LIST_END,
};
