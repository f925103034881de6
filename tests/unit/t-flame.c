// SPDX-License-Identifier: MIT
#include <errno.h>

#include "kmag/callgraph.h"
#include "kmag/cgsplit.h"
#include "kmag/flame.h"
#include "kmag/render/flame.h"
#include "test.h"

struct fx {
	struct kmag_symtab *st;
	struct kmag_cg *cg;
	uint64_t ts;
};

static void fx_init(struct fx *x)
{
	struct kmag_cg_opts o = { .build_cct = true };

	x->st = kmag_symtab_new();
	x->cg = kmag_cg_new(&o);
	x->ts = 1000;
	CHECK(x->st && x->cg);
}

static void fx_release(struct fx *x)
{
	kmag_cg_free(x->cg);
	kmag_symtab_free(x->st);
}

/* entry of @name at @depth for task @pid, @dt ns after the previous event */
static void enter(struct fx *x, int pid, int depth, const char *name, uint64_t dt)
{
	struct kmag_event ev = { .type = KMAG_EV_GRAPH_ENTRY, .cpu = 0, .pid = pid,
				 .depth = depth, .repeat = 1, .parent = KMAG_FUNC_NONE,
				 .duration = KMAG_DURATION_NONE };

	x->ts += dt;
	ev.ts = x->ts;
	ev.func = kmag_symtab_intern(x->st, name, (size_t)-1);
	CHECK_EQ(kmag_cg_add(x->cg, &ev), 0);
}

static void leave(struct fx *x, int pid, int depth, const char *name, uint64_t dt, uint64_t dur)
{
	struct kmag_event ev = { .type = KMAG_EV_GRAPH_EXIT, .cpu = 0, .pid = pid, .depth = depth,
				 .repeat = 1, .parent = KMAG_FUNC_NONE };

	x->ts += dt;
	ev.ts = x->ts;
	ev.func = kmag_symtab_intern(x->st, name, (size_t)-1);
	ev.duration = dur;
	ev.calltime = x->ts - dur;
	CHECK_EQ(kmag_cg_add(x->cg, &ev), 0);
}

/* a() { b() { c(); } c(); }: a 100 ns, b 40 ns, c 10 ns twice */
static void feed_abc(struct fx *x, int pid)
{
	enter(x, pid, 0, "a", 1);
	enter(x, pid, 1, "b", 10);
	enter(x, pid, 2, "c", 10);
	leave(x, pid, 2, "c", 10, 10);
	leave(x, pid, 1, "b", 20, 40);
	enter(x, pid, 1, "c", 10);
	leave(x, pid, 1, "c", 10, 10);
	leave(x, pid, 0, "a", 30, 100);
}

static char *folded(struct kmag_flame *f)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK(out);
	CHECK_EQ(kmag_flame_write_folded(out, f), 0);
	fclose(out);
	return buf;
}

static void forward_stacks(void)
{
	struct fx x;
	struct kmag_flame *f;
	char *s;

	fx_init(&x);
	feed_abc(&x, 7);
	CHECK_EQ(kmag_cg_finish(x.cg), 0);
	f = kmag_flame_new(false);
	CHECK_EQ(kmag_flame_add_graph(f, x.cg, x.st, NULL), 0);
	CHECK_EQ(kmag_flame_finish(f, KMAG_FLAME_TIME), 0);
	s = folded(f);
	/* self times: a 100-40-10, b 40-10, c 10 and 10; siblings in name order */
	CHECK_STREQ(s, "a 50\na;b 30\na;b;c 10\na;c 10\n");
	CHECK_EQ(kmag_flame_total(f, 0), 100);
	free(s);
	kmag_flame_free(f);

	f = kmag_flame_new(false);
	CHECK_EQ(kmag_flame_add_graph(f, x.cg, x.st, NULL), 0);
	CHECK_EQ(kmag_flame_finish(f, KMAG_FLAME_CALLS), 0);
	s = folded(f);
	CHECK_STREQ(s, "a 1\na;b 1\na;b;c 1\na;c 1\n");
	CHECK_EQ(kmag_flame_total(f, 0), 4);
	free(s);
	kmag_flame_free(f);
	fx_release(&x);
}

static void reversed_stacks(void)
{
	struct fx x;
	struct kmag_flame *f;
	char *s;

	fx_init(&x);
	feed_abc(&x, 7);
	CHECK_EQ(kmag_cg_finish(x.cg), 0);
	f = kmag_flame_new(true);
	CHECK_EQ(kmag_flame_add_graph(f, x.cg, x.st, "task"), 0);
	CHECK_EQ(kmag_flame_finish(f, KMAG_FLAME_TIME), 0);
	s = folded(f);
	/* leaf first; c's two stacks stay apart (different callers) */
	CHECK_STREQ(s, "task;a 50\ntask;b;a 30\ntask;c;a 10\ntask;c;b;a 10\n");
	CHECK(kmag_flame_reversed(f));
	free(s);
	kmag_flame_free(f);
	fx_release(&x);
}

static void function_tracer_has_no_stacks(void)
{
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_cg_opts o = { .build_cct = true };
	struct kmag_cg *cg = kmag_cg_new(&o);
	struct kmag_event ev = { .type = KMAG_EV_FUNC, .pid = 1, .repeat = 1, .ts = 5 };
	struct kmag_flame *f = kmag_flame_new(false);

	ev.func = kmag_symtab_intern(st, "b", (size_t)-1);
	ev.parent = kmag_symtab_intern(st, "a", (size_t)-1);
	CHECK_EQ(kmag_cg_add(cg, &ev), 0);
	CHECK_EQ(kmag_cg_finish(cg), 0);
	CHECK_EQ(kmag_flame_add_graph(f, cg, st, NULL), -ENODATA);
	kmag_flame_free(f);
	kmag_cg_free(cg);
	kmag_symtab_free(st);
}

static void split_per_task(void)
{
	struct kmag_cg_opts o = { .build_cct = true };
	struct kmag_cg_split *sp = kmag_cg_split_new(NULL, KMAG_SPLIT_PID, &o);
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_flame *f = kmag_flame_new(false);
	struct kmag_event ev = { .type = KMAG_EV_GRAPH_ENTRY, .cpu = 0, .depth = 0, .repeat = 1,
				 .parent = KMAG_FUNC_NONE, .duration = KMAG_DURATION_NONE };
	char *s;

	CHECK(sp && st && f);
	ev.func = kmag_symtab_intern(st, "a", (size_t)-1);
	ev.pid = 5;
	ev.ts = 10;
	CHECK_EQ(kmag_cg_split_event_fn(&ev, sp), 0);
	ev.pid = 6;
	ev.ts = 11;
	CHECK_EQ(kmag_cg_split_event_fn(&ev, sp), 0);
	ev.type = KMAG_EV_GRAPH_EXIT;
	ev.pid = 5;
	ev.ts = 20;
	ev.duration = 10;
	CHECK_EQ(kmag_cg_split_event_fn(&ev, sp), 0);
	ev.pid = 6;
	ev.ts = 41;
	ev.duration = 30;
	CHECK_EQ(kmag_cg_split_event_fn(&ev, sp), 0);
	CHECK_EQ(kmag_cg_split_finish(sp), 0);
	CHECK_EQ(kmag_cg_split_count(sp), 2);
	CHECK_STREQ(kmag_cg_split_name(sp, 0), "?-5");
	for (size_t i = 0; i < 2; i++)
		CHECK_EQ(kmag_flame_add_graph(f, kmag_cg_split_graph(sp, i), st,
					      kmag_cg_split_name(sp, i)), 0);
	CHECK_EQ(kmag_flame_finish(f, KMAG_FLAME_TIME), 0);
	s = folded(f);
	CHECK_STREQ(s, "?-5;a 10\n?-6;a 30\n");
	free(s);
	kmag_flame_free(f);
	kmag_cg_split_free(sp);
	kmag_symtab_free(st);
}

static void svg_is_written(void)
{
	struct fx x;
	struct kmag_flame *f;
	struct kmag_flame_svg_opts o = { .title = "<t>", .min_width = 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *out;

	fx_init(&x);
	feed_abc(&x, 7);
	CHECK_EQ(kmag_cg_finish(x.cg), 0);
	f = kmag_flame_new(false);
	CHECK_EQ(kmag_flame_add_graph(f, x.cg, x.st, NULL), 0);
	CHECK_EQ(kmag_flame_finish(f, KMAG_FLAME_TIME), 0);
	out = open_memstream(&buf, &len);
	CHECK_EQ(kmag_flame_write_svg(out, f, &o), 0);
	fclose(out);
	CHECK(strstr(buf, "<title>a\n100 ns (100.00%) incl. callees, self 50 ns, 1 calls of this stack</title>"));
	CHECK(strstr(buf, "<text id=\"title\" x=\"600.0\" y=\"24\">&lt;t&gt;</text>"));
	/* root + 4 stacks */
	{
		int frames = 0;
		const char *p;

		for (p = buf; (p = strstr(p, "<g data-d=")); p++)
			frames++;
		CHECK_EQ(frames, 5);
	}
	free(buf);
	kmag_flame_free(f);
	fx_release(&x);
}

const struct test_case flame_tests[] = {
	{ "forward stacks and weights", forward_stacks },
	{ "reversed stacks", reversed_stacks },
	{ "function tracer has no stacks", function_tracer_has_no_stacks },
	{ "one graph per task", split_per_task },
	{ "svg frames and hover text", svg_is_written },
	TEST_LIST_END,
};
