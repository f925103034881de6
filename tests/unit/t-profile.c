// SPDX-License-Identifier: MIT
/*
 * Profiles: graphs summed by name (kmag_cg_merge), a graph written as report
 * JSON and read back (kmag_cg_load_profile), and the read progress hook.
 */
#include <errno.h>
#include <sys/stat.h>

#include "kmag/callgraph.h"
#include "kmag/profile.h"
#include "kmag/render/report.h"
#include "kmag/trace.h"
#include "test.h"

struct g {
	struct kmag_symtab *st;
	struct kmag_cg *cg;
};

static struct kmag_cg_stats stats(uint64_t calls, uint64_t timed, uint64_t total, uint64_t self,
				  uint64_t min, uint64_t max)
{
	return (struct kmag_cg_stats){ .calls = calls, .timed = timed, .total_ns = total,
				       .self_ns = self, .min_ns = timed ? min : UINT64_MAX,
				       .max_ns = max };
}

static kmag_func_t fn(struct g *g, const char *name)
{
	return kmag_symtab_intern(g->st, name, (size_t)-1);
}

static void g_new(struct g *g)
{
	g->st = kmag_symtab_new();
	g->cg = kmag_cg_new(NULL);
	CHECK(g->st && g->cg);
}

static void g_free(struct g *g)
{
	kmag_cg_free(g->cg);
	kmag_symtab_free(g->st);
}

/* Three small graphs: A and C share functions and edges, B has one of its own. */
static void build(struct g *g, int which)
{
	struct kmag_cg_stats s;

	g_new(g);
	switch (which) {
	case 0:
		s = stats(10, 10, 1000, 400, 20, 300);
		CHECK_EQ(kmag_cg_add_node_stats(g->cg, fn(g, "vfs_read"), &s), 0);
		s = stats(10, 10, 600, 600, 10, 90);
		CHECK_EQ(kmag_cg_add_node_stats(g->cg, fn(g, "rw_verify_area"), &s), 0);
		CHECK_EQ(kmag_cg_add_edge_stats(g->cg, fn(g, "vfs_read"), fn(g, "rw_verify_area"), 0, &s), 0);
		CHECK_EQ(kmag_cg_add_event_count(g->cg, "sched", "sched_switch", 5), 0);
		break;
	case 1:
		s = stats(3, 0, 0, 0, 0, 0);	/* untimed (function tracer-like) */
		CHECK_EQ(kmag_cg_add_node_stats(g->cg, fn(g, "ksys_read"), &s), 0);
		s = stats(4, 4, 500, 100, 5, 400);
		CHECK_EQ(kmag_cg_add_node_stats(g->cg, fn(g, "vfs_read"), &s), 0);
		CHECK_EQ(kmag_cg_add_edge_stats(g->cg, fn(g, "ksys_read"), fn(g, "vfs_read"),
						KMAG_EDGE_IRQ, &s), 0);
		break;
	default:
		s = stats(1, 1, 50, 50, 50, 50);
		CHECK_EQ(kmag_cg_add_node_stats(g->cg, fn(g, "rw_verify_area"), &s), 0);
		CHECK_EQ(kmag_cg_add_edge_stats(g->cg, fn(g, "vfs_read"), fn(g, "rw_verify_area"), 0, &s), 0);
		CHECK_EQ(kmag_cg_add_event_count(g->cg, "sched", "sched_switch", 2), 0);
		CHECK_EQ(kmag_cg_add_event_count(g->cg, NULL, "(unknown event)", 1), 0);
		break;
	}
	CHECK_EQ(kmag_cg_finish(g->cg), 0);
}

static const struct kmag_cg_stats *node_st(struct g *g, const char *name)
{
	long n = kmag_cg_node_index(g->cg, kmag_symtab_find(g->st, name));

	CHECK(n >= 0);
	return &kmag_cg_nodes(g->cg)[n].st;
}

static const struct kmag_cg_edge *edge_of(struct g *g, const char *a, const char *b)
{
	long x = kmag_cg_node_index(g->cg, kmag_symtab_find(g->st, a));
	long y = kmag_cg_node_index(g->cg, kmag_symtab_find(g->st, b));
	long e = x < 0 || y < 0 ? -1 : kmag_cg_edge_index(g->cg, (uint32_t)x, (uint32_t)y);

	CHECK(e >= 0);
	return &kmag_cg_edges(g->cg)[e];
}

/* dst = the sum of the graphs @order names (0, 1, 2), each built and freed in turn */
static void merge_in(struct g *dst, const int *order, size_t n)
{
	size_t i;

	g_new(dst);
	for (i = 0; i < n; i++) {
		struct g src;

		build(&src, order[i]);
		CHECK_EQ(kmag_cg_merge(dst->cg, dst->st, src.cg, src.st), 0);
		g_free(&src);	/* the sum keeps nothing of its inputs */
	}
	CHECK_EQ(kmag_cg_finish(dst->cg), 0);
}

static void merge_sums(void)
{
	static const int abc[] = { 0, 1, 2 };
	struct g m;
	const struct kmag_cg_stats *s;
	const struct kmag_cg_event_count *ev;

	merge_in(&m, abc, 3);
	CHECK_EQ(kmag_cg_nr_nodes(m.cg), 3);
	s = node_st(&m, "vfs_read");
	CHECK_EQ(s->calls, 14);
	CHECK_EQ(s->timed, 14);
	CHECK_EQ(s->total_ns, 1500);
	CHECK_EQ(s->self_ns, 500);
	CHECK_EQ(s->min_ns, 5);
	CHECK_EQ(s->max_ns, 400);
	s = node_st(&m, "rw_verify_area");
	CHECK_EQ(s->calls, 11);
	CHECK_EQ(s->min_ns, 10);
	CHECK_EQ(s->max_ns, 90);
	s = node_st(&m, "ksys_read");
	CHECK_EQ(s->timed, 0);
	CHECK_EQ(s->min_ns, UINT64_MAX);	/* no timed call: no minimum */
	CHECK_EQ(edge_of(&m, "vfs_read", "rw_verify_area")->st.calls, 11);
	CHECK_EQ(edge_of(&m, "vfs_read", "rw_verify_area")->st.total_ns, 650);
	CHECK_EQ(edge_of(&m, "vfs_read", "rw_verify_area")->flags, 0);
	CHECK_EQ(edge_of(&m, "ksys_read", "vfs_read")->flags, KMAG_EDGE_IRQ);
	CHECK_EQ(kmag_cg_nr_event_counts(m.cg), 2);
	ev = kmag_cg_event_counts(m.cg);
	CHECK_STREQ(ev[0].system, "sched");
	CHECK_STREQ(ev[0].name, "sched_switch");
	CHECK_EQ(ev[0].count, 7);
	CHECK(ev[1].system == NULL);
	CHECK_EQ(ev[1].count, 1);
	g_free(&m);
}

static void same_graph(struct g *a, struct g *b)
{
	size_t i;

	CHECK_EQ(kmag_cg_nr_nodes(a->cg), kmag_cg_nr_nodes(b->cg));
	CHECK_EQ(kmag_cg_nr_edges(a->cg), kmag_cg_nr_edges(b->cg));
	for (i = 0; i < kmag_cg_nr_nodes(a->cg); i++) {
		const struct kmag_cg_node *n = &kmag_cg_nodes(a->cg)[i];
		const char *name = kmag_symtab_name(a->st, n->func);

		CHECK(!memcmp(&n->st, node_st(b, name), sizeof(n->st)));
	}
	for (i = 0; i < kmag_cg_nr_edges(a->cg); i++) {
		const struct kmag_cg_edge *e = &kmag_cg_edges(a->cg)[i];
		const char *from = kmag_symtab_name(a->st, kmag_cg_nodes(a->cg)[e->caller].func);
		const char *to = kmag_symtab_name(a->st, kmag_cg_nodes(a->cg)[e->callee].func);
		const struct kmag_cg_edge *o = edge_of(b, from, to);

		CHECK(!memcmp(&e->st, &o->st, sizeof(e->st)));
		CHECK_EQ(e->flags, o->flags);
	}
	CHECK_EQ(kmag_cg_summary(a->cg)->incomplete_calls, kmag_cg_summary(b->cg)->incomplete_calls);
}

static void merge_order_free(void)
{
	static const int abc[] = { 0, 1, 2 }, cab[] = { 2, 0, 1 }, ab[] = { 0, 1 };
	struct g x, y, z, c;

	merge_in(&x, abc, 3);
	merge_in(&y, cab, 3);
	same_graph(&x, &y);
	/* merge(merge(A, B), C) */
	merge_in(&z, ab, 2);
	{
		struct g zc;

		g_new(&zc);
		build(&c, 2);
		CHECK_EQ(kmag_cg_merge(zc.cg, zc.st, z.cg, z.st), 0);
		CHECK_EQ(kmag_cg_merge(zc.cg, zc.st, c.cg, c.st), 0);
		CHECK_EQ(kmag_cg_finish(zc.cg), 0);
		same_graph(&x, &zc);
		g_free(&zc);
		g_free(&c);
	}
	g_free(&x);
	g_free(&y);
	g_free(&z);
}

/* A trace's graph, written as report JSON and read back, is the same graph. */
static void roundtrip(const char *rel)
{
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(fixture(rel), NULL, &err), *p;
	struct kmag_cg *cg = kmag_cg_new(NULL), *back = kmag_cg_new(NULL);
	struct kmag_report r = { .focus = -1 };
	struct g a, b;
	const char *path;
	FILE *f;

	CHECK(t && cg && back);
	CHECK_EQ(kmag_trace_read(t, kmag_cg_event_fn, cg, &err), 0);
	CHECK_EQ(kmag_cg_finish(cg), 0);
	r.cg = cg;
	r.st = kmag_trace_symtab(t);
	r.info = kmag_trace_info(t);
	r.input = rel;
	path = write_tmp("profile.json", "", 0);
	f = fopen(path, "w");
	CHECK(f);
	CHECK_EQ(kmag_report_json(f, &r), 0);
	CHECK_EQ(fclose(f), 0);

	p = kmag_trace_open(path, NULL, &err);
	CHECK(p);
	CHECK_EQ(kmag_trace_info(p)->format, KMAG_INPUT_PROFILE);
	CHECK_EQ(kmag_trace_read(p, kmag_cg_event_fn, back, &err), 0);
	CHECK_EQ(kmag_cg_load_profile(back, p, &err), 0);
	CHECK_EQ(kmag_cg_finish(back), 0);
	CHECK_EQ(kmag_trace_info(p)->events, kmag_trace_info(t)->events);
	CHECK_EQ(kmag_trace_info(p)->nr_sources, 1);
	CHECK_STREQ(kmag_trace_info(p)->sources[0].name, rel);
	CHECK_EQ(kmag_cg_summary(back)->has_time, kmag_cg_summary(cg)->has_time);
	a = (struct g){ kmag_trace_symtab(t), cg };
	b = (struct g){ kmag_trace_symtab(p), back };
	same_graph(&a, &b);
	same_graph(&b, &a);
	kmag_cg_free(back);
	kmag_cg_free(cg);
	kmag_trace_close(p);
	kmag_trace_close(t);
}

static void profile_roundtrip_graph(void)
{
	roundtrip("traces/fg-filtered.dat");
}

static void profile_roundtrip_function(void)
{
	roundtrip("traces/fn-filtered.dat");
}

static void profile_not_a_trace_read(void)
{
	struct kmag_err err = { 0 };
	struct kmag_cg *cg = kmag_cg_new(NULL);
	struct kmag_trace *t = kmag_trace_open(fixture("traces/fn-text.txt"), NULL, &err);

	CHECK(t && cg);
	CHECK_EQ(kmag_cg_load_profile(cg, t, &err), -EINVAL);
	kmag_cg_free(cg);
	kmag_trace_close(t);
}

struct seen {
	size_t calls;
	struct kmag_trace_progress last;
	bool monotonic;
};

static void on_progress(const struct kmag_trace_progress *p, void *ctx)
{
	struct seen *s = ctx;

	if (s->calls && (p->events < s->last.events || p->bytes < s->last.bytes))
		s->monotonic = false;
	s->last = *p;
	s->calls++;
}

/* The hook sees counts that grow to the trace's own, bytes up to the file's size. */
static void progress(const char *path, size_t min_calls)
{
	struct kmag_err err = { 0 };
	struct kmag_trace *t = kmag_trace_open(path, NULL, &err);
	struct kmag_cg *cg = kmag_cg_new(NULL);
	struct seen s = { .monotonic = true };
	struct stat sb;

	CHECK(t && cg);
	CHECK_EQ(stat(path, &sb), 0);
	kmag_trace_set_progress(t, on_progress, &s);
	CHECK_EQ(kmag_trace_read(t, kmag_cg_event_fn, cg, &err), 0);
	CHECK(s.calls >= min_calls);
	CHECK(s.monotonic);
	CHECK_EQ(s.last.events, kmag_trace_info(t)->events);
	CHECK_EQ(s.last.size, (uint64_t)sb.st_size);
	CHECK(s.last.bytes > 0 && s.last.bytes <= s.last.size);
	kmag_cg_free(cg);
	kmag_trace_close(t);
}

static void progress_tracedat(void)
{
	progress(fixture("traces/fn-filtered.dat"), 1);
}

static void progress_text(void)
{
	/* the hook runs every 8192 events and at the end: a text of 20000 calls */
	static const char head[] = "# tracer: function\n#\n";
	size_t cap = sizeof(head) + 20000 * 80, len = 0, i;
	char *text = malloc(cap);
	const char *path;

	CHECK(text);
	len += (size_t)snprintf(text, cap, "%s", head);
	for (i = 0; i < 20000; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"              sh-103     [000] .....  %4zu.%06zu: ksys_dup3 <-__x64_sys_dup2\n",
					1 + i / 1000, i % 1000);
	path = write_tmp("calls.txt", text, len);
	free(text);
	progress(path, 3);
}

const struct test_case profile_tests[] = {
	{ "merge_sums", merge_sums },
	{ "merge_order_free", merge_order_free },
	{ "profile_roundtrip_graph", profile_roundtrip_graph },
	{ "profile_roundtrip_function", profile_roundtrip_function },
	{ "profile_not_a_trace_read", profile_not_a_trace_read },
	{ "progress_tracedat", progress_tracedat },
	{ "progress_text", progress_text },
	TEST_LIST_END,
};
