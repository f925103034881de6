// SPDX-License-Identifier: MIT
/*
 * Call-graph reconstruction from hand-written event sequences.
 */
#include "kmag/callgraph.h"
#include "kmag/report.h"
#include "test.h"

struct fixture {
	struct kmag_symtab *st;
	struct kmag_cg *cg;
};

static void setup(struct fixture *f, bool cct)
{
	struct kmag_cg_opts o = { .build_cct = cct };

	f->st = kmag_symtab_new();
	f->cg = kmag_cg_new(&o);
	CHECK(f->st && f->cg);
}

static void teardown(struct fixture *f)
{
	kmag_cg_free(f->cg);
	kmag_symtab_free(f->st);
}

static kmag_func_t fn(struct fixture *f, const char *name)
{
	return kmag_symtab_intern(f->st, name, (size_t)-1);
}

static void ev_base(struct kmag_event *ev, int pid, int cpu, uint64_t ts)
{
	memset(ev, 0, sizeof(*ev));
	ev->pid = pid;
	ev->cpu = cpu;
	ev->ts = ts;
	ev->repeat = 1;
	ev->func = ev->parent = KMAG_FUNC_NONE;
	ev->duration = KMAG_DURATION_NONE;
	ev->calltime = KMAG_TS_NONE;
}

static void entry(struct fixture *f, int pid, int cpu, uint64_t ts, const char *name, int depth)
{
	struct kmag_event ev;

	ev_base(&ev, pid, cpu, ts);
	ev.type = KMAG_EV_GRAPH_ENTRY;
	ev.func = fn(f, name);
	ev.depth = depth;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

static void entry_irq(struct fixture *f, int pid, int cpu, uint64_t ts, const char *name, int depth)
{
	struct kmag_event ev;

	ev_base(&ev, pid, cpu, ts);
	ev.type = KMAG_EV_GRAPH_ENTRY;
	ev.ctx = KMAG_CTX_KNOWN | KMAG_CTX_HARDIRQ;
	ev.func = fn(f, name);
	ev.depth = depth;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

/* an exit carrying the kernel's duration (calltime/rettime) */
static void exit_(struct fixture *f, int pid, int cpu, uint64_t ts, const char *name, int depth,
		  uint64_t dur)
{
	struct kmag_event ev;

	ev_base(&ev, pid, cpu, ts);
	ev.type = KMAG_EV_GRAPH_EXIT;
	ev.func = name ? fn(f, name) : KMAG_FUNC_NONE;
	ev.depth = depth;
	ev.duration = dur;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

/* an exit with a return value (funcgraph-retval) */
static void exit_ret(struct fixture *f, uint64_t ts, const char *name, int depth, uint64_t dur,
		     int64_t retval)
{
	struct kmag_event ev;

	ev_base(&ev, 10, 0, ts);
	ev.type = KMAG_EV_GRAPH_EXIT;
	ev.func = fn(f, name);
	ev.depth = depth;
	ev.duration = dur;
	ev.retval = retval;
	ev.has_retval = true;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

static void lost(struct fixture *f, int cpu)
{
	struct kmag_event ev;

	ev_base(&ev, -1, cpu, KMAG_TS_NONE);
	ev.type = KMAG_EV_LOST;
	ev.lost = 10;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

static void call(struct fixture *f, const char *name, const char *parent, int repeat)
{
	struct kmag_event ev;

	ev_base(&ev, 1, 0, 0);
	ev.type = KMAG_EV_FUNC;
	ev.func = fn(f, name);
	ev.parent = parent ? fn(f, parent) : KMAG_FUNC_NONE;
	ev.repeat = (uint16_t)repeat;
	CHECK_EQ(kmag_cg_add(f->cg, &ev), 0);
}

static const struct kmag_cg_node *node(struct fixture *f, const char *name)
{
	long i = kmag_cg_node_index(f->cg, kmag_symtab_find(f->st, name));

	if (i < 0)
		test_fail(__FILE__, __LINE__, "no node %s", name);
	return &kmag_cg_nodes(f->cg)[i];
}

static const struct kmag_cg_edge *edge(struct fixture *f, const char *a, const char *b)
{
	long ia = kmag_cg_node_index(f->cg, kmag_symtab_find(f->st, a));
	long ib = kmag_cg_node_index(f->cg, kmag_symtab_find(f->st, b));
	long e = ia < 0 || ib < 0 ? -1 : kmag_cg_edge_index(f->cg, (uint32_t)ia, (uint32_t)ib);

	return e < 0 ? NULL : &kmag_cg_edges(f->cg)[e];
}

static void function_tracer_edges(void)
{
	struct fixture f;

	setup(&f, false);
	call(&f, "vfs_read", "ksys_read", 1);
	call(&f, "vfs_read", "ksys_read", 1);
	call(&f, "vfs_read", "kernel_read", 3);		/* func_repeats */
	call(&f, "rw_verify_area", "vfs_read", 1);
	call(&f, "ksys_read", NULL, 1);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(node(&f, "vfs_read")->st.calls, 5);
	CHECK_EQ(node(&f, "ksys_read")->st.calls, 1);
	CHECK_EQ(node(&f, "kernel_read")->st.calls, 0);	/* only seen as a caller */
	CHECK_EQ(edge(&f, "ksys_read", "vfs_read")->st.calls, 2);
	CHECK_EQ(edge(&f, "kernel_read", "vfs_read")->st.calls, 3);
	CHECK_EQ(kmag_cg_nr_edges(f.cg), 3);
	CHECK(!kmag_cg_summary(f.cg)->has_time);
	CHECK(!kmag_cg_summary(f.cg)->has_stacks);
	/* adjacency */
	{
		const struct kmag_cg_node *n = node(&f, "vfs_read");

		CHECK_EQ(n->in_count, 2);
		CHECK_EQ(n->out_count, 1);
		CHECK_EQ(kmag_cg_edges(f.cg)[kmag_cg_out_edges(f.cg)[n->out_first]].callee,
			 kmag_cg_node_index(f.cg, kmag_symtab_find(f.st, "rw_verify_area")));
	}
	teardown(&f);
}

/* A() { B(); B() { C(); } }  with exact kernel durations */
static void graph_basic_times(void)
{
	struct fixture f;

	setup(&f, true);
	entry(&f, 10, 0, 1000, "A", 0);
	entry(&f, 10, 0, 1100, "B", 1);
	exit_(&f, 10, 0, 1200, "B", 1, 100);
	entry(&f, 10, 0, 1300, "B", 1);
	entry(&f, 10, 0, 1350, "C", 2);
	exit_(&f, 10, 0, 1400, "C", 2, 50);
	exit_(&f, 10, 0, 1600, "B", 1, 300);
	exit_(&f, 10, 0, 2000, "A", 0, 1000);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);

	CHECK_EQ(node(&f, "A")->st.calls, 1);
	CHECK_EQ(node(&f, "A")->st.total_ns, 1000);
	CHECK_EQ(node(&f, "A")->st.self_ns, 600);
	CHECK_EQ(node(&f, "B")->st.calls, 2);
	CHECK_EQ(node(&f, "B")->st.total_ns, 400);
	CHECK_EQ(node(&f, "B")->st.self_ns, 350);
	CHECK_EQ(node(&f, "B")->st.min_ns, 100);
	CHECK_EQ(node(&f, "B")->st.max_ns, 300);
	CHECK_EQ(node(&f, "C")->st.self_ns, 50);
	CHECK_EQ(edge(&f, "A", "B")->st.calls, 2);
	CHECK_EQ(edge(&f, "A", "B")->st.total_ns, 400);
	CHECK_EQ(edge(&f, "B", "C")->st.calls, 1);
	CHECK(edge(&f, "A", "C") == NULL);
	CHECK_EQ(kmag_cg_summary(f.cg)->incomplete_calls, 0);
	CHECK(kmag_cg_summary(f.cg)->has_time);
	/* calling-context tree: root -> A -> B -> C, one node per path */
	{
		const struct kmag_cct_node *cct = kmag_cg_cct(f.cg);

		CHECK_EQ(kmag_cg_nr_cct(f.cg), 4);
		CHECK_EQ(cct[cct[0].first_child].st.total_ns, 1000);
		CHECK_STREQ(kmag_symtab_name(f.st, cct[cct[0].first_child].func), "A");
	}
	teardown(&f);
}

/* The trace starts inside B (called by A): exits arrive for frames never entered. */
static void graph_started_mid_call(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 100, "C", 2);		/* B and A are open, unseen */
	exit_(&f, 10, 0, 150, "C", 2, 50);
	exit_(&f, 10, 0, 300, "B", 1, 400);	/* names the placeholder at depth 1 */
	entry(&f, 10, 0, 320, "D", 1);
	exit_(&f, 10, 0, 330, "D", 1, 10);
	exit_(&f, 10, 0, 500, "A", 0, 1000);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);

	/* C's caller was learnt from B's exit */
	CHECK_EQ(edge(&f, "B", "C")->st.calls, 1);
	CHECK_EQ(edge(&f, "B", "C")->st.total_ns, 50);
	/* B's caller: depth 0 was a placeholder, named A by A's exit */
	CHECK_EQ(edge(&f, "A", "B")->st.calls, 1);
	CHECK_EQ(edge(&f, "A", "D")->st.calls, 1);
	/* B and A were not entered in the trace: counted, incomplete, with the kernel's time */
	CHECK_EQ(node(&f, "B")->st.calls, 1);
	CHECK_EQ(node(&f, "B")->st.incomplete, 1);
	CHECK_EQ(node(&f, "B")->st.total_ns, 400);
	CHECK_EQ(node(&f, "A")->st.incomplete, 1);
	CHECK_EQ(node(&f, "C")->st.incomplete, 0);
	CHECK_EQ(node(&f, "D")->st.incomplete, 0);
	CHECK_EQ(kmag_cg_summary(f.cg)->unmatched_exits, 2);
	teardown(&f);
}

/* Entries whose exits never come (trace stops, or records lost). */
static void graph_unfinished_and_lost(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 100, "A", 0);
	entry(&f, 10, 0, 110, "B", 1);
	lost(&f, 0);				/* events dropped on CPU 0 */
	/* B's exit and a call to X are lost; next we see A call C */
	entry(&f, 10, 0, 200, "C", 1);		/* closes B (its exit was lost) */
	exit_(&f, 10, 0, 210, "C", 1, 10);
	exit_(&f, 10, 0, 300, "A", 0, 200);
	entry(&f, 10, 0, 400, "E", 0);		/* never exits: trace ended */
	CHECK_EQ(kmag_cg_finish(f.cg), 0);

	CHECK_EQ(node(&f, "B")->st.calls, 1);
	CHECK_EQ(node(&f, "B")->st.incomplete, 1);
	CHECK_EQ(node(&f, "B")->st.timed, 0);		/* no time guessed */
	CHECK_EQ(node(&f, "A")->st.incomplete, 1);	/* open across the loss: self time unreliable */
	CHECK_EQ(node(&f, "A")->st.total_ns, 200);	/* but the kernel's duration is exact */
	CHECK_EQ(node(&f, "C")->st.incomplete, 0);
	CHECK_EQ(node(&f, "E")->st.incomplete, 1);
	CHECK_EQ(edge(&f, "A", "C")->st.calls, 1);
	CHECK_EQ(kmag_cg_summary(f.cg)->unfinished_entries, 2);
	teardown(&f);
}

/* Two tasks interleaved on one CPU (context switches), one migrating CPUs. */
static void graph_tasks_and_migration(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 100, "A", 0);
	entry(&f, 20, 0, 110, "X", 0);	/* task 20 runs on CPU 0 while 10 sleeps in A */
	entry(&f, 20, 0, 120, "Y", 1);
	exit_(&f, 20, 0, 130, "Y", 1, 10);
	entry(&f, 10, 1, 140, "B", 1);	/* task 10 resumes on CPU 1 */
	exit_(&f, 10, 1, 150, "B", 1, 10);
	exit_(&f, 10, 1, 160, "A", 0, 60);
	exit_(&f, 20, 0, 170, "X", 0, 60);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(edge(&f, "A", "B")->st.calls, 1);
	CHECK_EQ(edge(&f, "X", "Y")->st.calls, 1);
	CHECK(edge(&f, "X", "B") == NULL);
	CHECK(edge(&f, "A", "Y") == NULL);
	CHECK_EQ(kmag_cg_summary(f.cg)->incomplete_calls, 0);
	CHECK_EQ(kmag_cg_summary(f.cg)->tasks, 2);
	teardown(&f);
}

/* An interrupt nests on the interrupted task's stack, one level deeper. */
static void graph_interrupt_nesting(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 100, "copy_page", 0);
	entry_irq(&f, 10, 0, 110, "timer_interrupt", 1);
	entry_irq(&f, 10, 0, 112, "tick", 2);
	exit_(&f, 10, 0, 118, "tick", 2, 6);
	exit_(&f, 10, 0, 120, "timer_interrupt", 1, 10);
	exit_(&f, 10, 0, 200, "copy_page", 0, 100);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK(edge(&f, "copy_page", "timer_interrupt")->flags & KMAG_EDGE_IRQ);
	CHECK(!(edge(&f, "timer_interrupt", "tick")->flags & KMAG_EDGE_IRQ));
	CHECK_EQ(node(&f, "copy_page")->st.self_ns, 90);
	teardown(&f);
}

/* Recursion: inclusive time is not counted twice. */
static void graph_recursion(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 0, "walk", 0);
	entry(&f, 10, 0, 10, "walk", 1);
	exit_(&f, 10, 0, 40, "walk", 1, 30);
	exit_(&f, 10, 0, 100, "walk", 0, 100);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(node(&f, "walk")->st.calls, 2);
	CHECK_EQ(node(&f, "walk")->st.total_ns, 100);
	CHECK_EQ(node(&f, "walk")->st.self_ns, 100);	/* 70 + 30 */
	CHECK_EQ(edge(&f, "walk", "walk")->st.calls, 1);
	/* the mean call is (100 + 30) / 2, not the outermost-only total over both calls */
	CHECK_EQ(node(&f, "walk")->st.sum_ns, 130);
	CHECK_EQ(kmag_stats_value(&node(&f, "walk")->st, KMAG_SORT_AVG), 65);
	teardown(&f);
}

/*
 * opts.errnum: only the calls that returned it count, an edge only where the
 * caller returned it too; a recursion's total stays outermost-only among them.
 */
static void graph_errno(void)
{
	struct kmag_cg_opts o = { .errnum = 22 };
	struct fixture f;

	f.st = kmag_symtab_new();
	f.cg = kmag_cg_new(&o);
	CHECK(f.st && f.cg);
	entry(&f, 10, 0, 0, "A", 0);
	entry(&f, 10, 0, 10, "B", 1);
	entry(&f, 10, 0, 20, "walk", 2);
	entry(&f, 10, 0, 30, "walk", 3);
	exit_ret(&f, 60, "walk", 3, 30, -22);
	exit_ret(&f, 100, "walk", 2, 80, -22);
	exit_ret(&f, 110, "B", 1, 100, -22);
	entry(&f, 10, 0, 120, "D", 1);
	entry(&f, 10, 0, 130, "walk", 2);
	entry(&f, 10, 0, 140, "walk", 3);
	exit_ret(&f, 150, "walk", 3, 10, -22);	/* inside a walk that handles it */
	exit_ret(&f, 160, "walk", 2, 30, 0);
	entry(&f, 10, 0, 165, "E", 2);
	exit_ret(&f, 170, "E", 2, 5, -22);
	exit_ret(&f, 180, "D", 1, 60, 0);
	entry(&f, 10, 0, 185, "C", 1);
	exit_ret(&f, 190, "C", 1, 5, -5);	/* another error */
	exit_ret(&f, 200, "A", 0, 200, 0xffffffea);	/* an int's -22, as the kernel reads it */
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(node(&f, "A")->st.calls, 1);
	CHECK_EQ(node(&f, "A")->st.total_ns, 200);
	CHECK_EQ(node(&f, "A")->st.self_ns, 35);	/* its own: less B, D and C */
	CHECK_EQ(node(&f, "B")->st.calls, 1);
	CHECK_EQ(node(&f, "walk")->st.calls, 3);
	CHECK_EQ(node(&f, "walk")->st.sum_ns, 120);
	CHECK_EQ(node(&f, "walk")->st.total_ns, 90);	/* 80 (30 inside), and 10 */
	CHECK_EQ(node(&f, "E")->st.calls, 1);
	CHECK(kmag_cg_node_index(f.cg, kmag_symtab_find(f.st, "D")) < 0);
	CHECK(kmag_cg_node_index(f.cg, kmag_symtab_find(f.st, "C")) < 0);
	CHECK_EQ(kmag_cg_nr_nodes(f.cg), 4);
	CHECK_EQ(edge(&f, "A", "B")->st.calls, 1);
	CHECK_EQ(edge(&f, "A", "B")->st.total_ns, 100);
	CHECK_EQ(edge(&f, "B", "walk")->st.calls, 1);
	CHECK_EQ(edge(&f, "walk", "walk")->st.calls, 1);	/* the handled one's caller: none */
	CHECK(!edge(&f, "A", "E"));
	CHECK_EQ(kmag_cg_nr_edges(f.cg), 3);
	teardown(&f);
}

/* Text traces: "}" lines do not name the function, and the idle task is per CPU. */
static void graph_unnamed_exits_and_idle(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 0, 0, KMAG_TS_NONE, "do_idle", 0);
	entry(&f, 0, 1, KMAG_TS_NONE, "do_idle", 0);
	entry(&f, 0, 0, KMAG_TS_NONE, "cpuidle_enter", 1);
	exit_(&f, 0, 0, KMAG_TS_NONE, NULL, 1, 500);
	exit_(&f, 0, 1, KMAG_TS_NONE, NULL, 0, 900);
	exit_(&f, 0, 0, KMAG_TS_NONE, NULL, 0, 700);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(node(&f, "do_idle")->st.calls, 2);
	CHECK_EQ(node(&f, "do_idle")->st.total_ns, 1600);
	CHECK_EQ(node(&f, "cpuidle_enter")->st.total_ns, 500);
	CHECK_EQ(kmag_cg_summary(f.cg)->incomplete_calls, 0);
	teardown(&f);
}

/* A mismatched exit at a depth (records lost in between) never corrupts other frames. */
static void graph_mismatch(void)
{
	struct fixture f;

	setup(&f, false);
	entry(&f, 10, 0, 0, "A", 0);
	entry(&f, 10, 0, 10, "B", 1);
	exit_(&f, 10, 0, 20, "Z", 1, 5);	/* B's exit and Z's entry were lost */
	entry(&f, 10, 0, 30, "C", 1);
	exit_(&f, 10, 0, 40, "C", 1, 10);
	exit_(&f, 10, 0, 50, "A", 0, 50);
	CHECK_EQ(kmag_cg_finish(f.cg), 0);
	CHECK_EQ(node(&f, "B")->st.incomplete, 1);
	CHECK_EQ(node(&f, "Z")->st.incomplete, 1);
	CHECK_EQ(edge(&f, "A", "Z")->st.calls, 1);	/* depth says A called Z */
	CHECK_EQ(edge(&f, "A", "C")->st.calls, 1);
	CHECK_EQ(node(&f, "A")->st.incomplete, 0);
	CHECK_EQ(node(&f, "A")->st.total_ns, 50);
	teardown(&f);
}

const struct test_case callgraph_tests[] = {
	{ "function_tracer_edges", function_tracer_edges },
	{ "graph_basic_times", graph_basic_times },
	{ "graph_started_mid_call", graph_started_mid_call },
	{ "graph_unfinished_and_lost", graph_unfinished_and_lost },
	{ "graph_tasks_and_migration", graph_tasks_and_migration },
	{ "graph_interrupt_nesting", graph_interrupt_nesting },
	{ "graph_recursion", graph_recursion },
	{ "graph_errno", graph_errno },
	{ "graph_unnamed_exits_and_idle", graph_unnamed_exits_and_idle },
	{ "graph_mismatch", graph_mismatch },
	TEST_LIST_END,
};
