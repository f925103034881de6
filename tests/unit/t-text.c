// SPDX-License-Identifier: MIT
/*
 * The ftrace text reader on snippets in each printed format.
 */
#include <errno.h>

#include "kmag/callgraph.h"
#include "kmag/trace.h"
#include "test.h"

struct loaded {
	struct kmag_trace *t;
	struct kmag_cg *cg;
	int ret;
	struct kmag_err err;
};

static void load(struct loaded *l, const char *name, const char *text)
{
	const char *path = write_tmp(name, text, strlen(text));

	memset(l, 0, sizeof(*l));
	l->t = kmag_trace_open(path, NULL, &l->err);
	if (!l->t)
		return;
	l->cg = kmag_cg_new(NULL);
	CHECK(l->cg);
	l->ret = kmag_trace_read(l->t, kmag_cg_event_fn, l->cg, &l->err);
	CHECK_EQ(kmag_cg_finish(l->cg), 0);
}

static void unload(struct loaded *l)
{
	kmag_cg_free(l->cg);
	kmag_trace_close(l->t);
}

static const struct kmag_cg_node *node(struct loaded *l, const char *name)
{
	kmag_func_t f = kmag_symtab_find(kmag_trace_symtab(l->t), name);
	long i = f == KMAG_FUNC_NONE ? -1 : kmag_cg_node_index(l->cg, f);

	if (i < 0)
		test_fail(__FILE__, __LINE__, "no node %s", name);
	return &kmag_cg_nodes(l->cg)[i];
}

static uint64_t edge_calls(struct loaded *l, const char *a, const char *b)
{
	struct kmag_symtab *st = kmag_trace_symtab(l->t);
	long ia = kmag_cg_node_index(l->cg, kmag_symtab_find(st, a));
	long ib = kmag_cg_node_index(l->cg, kmag_symtab_find(st, b));
	long e = ia < 0 || ib < 0 ? -1 : kmag_cg_edge_index(l->cg, (uint32_t)ia, (uint32_t)ib);

	return e < 0 ? 0 : kmag_cg_edges(l->cg)[e].st.calls;
}

static const char function_text[] =
	"# tracer: function\n"
	"#\n"
	"# entries-in-buffer/entries-written: 6/6   #P:2\n"
	"#\n"
	"#                                _-----=> irqs-off/BH-disabled\n"
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"
	"#              | |         |   |||||     |         |\n"
	"              ls-97      [001] .....     6.302365: vfs_read <-ksys_read\n"
	"          <idle>-0       [000] d.h1.     6.302370: irq_enter_rcu <-sysvec_apic_timer_interrupt\n"
	" kworker/u4:1-events_unbound-12 [000] .....  6.302380: vfs_write <-ksys_write\n"
	"CPU:1 [LOST 42 EVENTS]\n"
	"              ls-97      [001] .....     6.302400: vfs_read+0x0/0x1a0 <-ksys_read+0x6f/0xf0\n"
	"              ls-97      [001] .....     6.302401: rw_verify_area <-vfs_read\n"
	"              ls-97      [001] .....     6.302402: rw_verify_area <-vfs_read (repeats: 3, last_ts: 6.302409)\n";

static void ftrace_function_text(void)
{
	struct loaded l;
	const struct kmag_trace_info *info;

	load(&l, "fn.txt", function_text);
	CHECK(l.t);
	CHECK_EQ(l.ret, 0);
	info = kmag_trace_info(l.t);
	CHECK_EQ(info->format, KMAG_INPUT_FTRACE_TEXT);
	CHECK_EQ(info->tracer, KMAG_TRACER_FUNCTION);
	CHECK_EQ(info->events, 6);
	CHECK_EQ(info->lost, 42);
	CHECK_EQ(info->nr_cpus, 2);
	CHECK_EQ(info->cpus[1].lost, 42);
	CHECK_EQ(info->first_ts, 6302365000ull);
	CHECK_EQ(node(&l, "vfs_read")->st.calls, 2);
	CHECK_EQ(edge_calls(&l, "ksys_read", "vfs_read"), 2);	/* offsets stripped */
	CHECK_EQ(node(&l, "rw_verify_area")->st.calls, 4);	/* 1 + 3 repeats */
	CHECK_STREQ(kmag_trace_comm(l.t, 12), "kworker/u4:1-events_unbound");
	CHECK_STREQ(kmag_trace_comm(l.t, 97), "ls");
	unload(&l);
}

static void ftrace_function_text_tgid_noirqinfo(void)
{
	static const char text[] =
		"# tracer: function\n"
		"#           TASK-PID    TGID     CPU#  TIMESTAMP  FUNCTION\n"
		"              ls-97      (     97) [001]     6.302365: vfs_read <-ksys_read\n"
		"    kworker/0:1-12      (-------) [000]     6.302366: vfs_write <-ksys_write\n";
	struct loaded l;

	load(&l, "tgid.txt", text);
	CHECK(l.t);
	CHECK_EQ(kmag_trace_info(l.t)->events, 2);
	CHECK_EQ(edge_calls(&l, "ksys_write", "vfs_write"), 1);
	CHECK_STREQ(kmag_trace_comm(l.t, 12), "kworker/0:1");
	unload(&l);
}

static const char graph_text[] =
	"# tracer: function_graph\n"
	"#\n"
	"# CPU  DURATION                  FUNCTION CALLS\n"
	"# |     |   |                     |   |   |   |\n"
	" 1)               |  do_sys_openat2() {\n"
	" 1)               |    getname() {\n"
	" 1)   1.644 us    |      kmem_cache_alloc();\n"
	" 1) + 10.370 us   |    }\n"
	" 1)   0.942 us    |    check_stack_object();\n"
	" 1) ! 354.007 us  |  }\n"
	" 0)   ==========> |\n"
	" 0)               |  sysvec_apic_timer_interrupt() {\n"
	" 0)   2.000 us    |    irq_enter_rcu();\n"
	" 0)   3.500 us    |  }\n"
	" 0)   <========== |\n"
	" ------------------------------------------\n"
	" 1)    ls-97    =>  trace-c-95   \n"
	" ------------------------------------------\n"
	"\n"
	" 1)   2.485 us    |  _raw_spin_unlock();\n"
	" 1)               |  /* sched_switch: prev_comm=ls */\n"
	"CPU:0 [LOST 7 EVENTS]\n";

static void ftrace_graph_text(void)
{
	struct loaded l;

	load(&l, "fg.txt", graph_text);
	CHECK(l.t);
	CHECK_EQ(l.ret, 0);
	CHECK_EQ(kmag_trace_info(l.t)->tracer, KMAG_TRACER_FUNCTION_GRAPH);
	CHECK_EQ(node(&l, "do_sys_openat2")->st.total_ns, 354007);
	CHECK_EQ(node(&l, "do_sys_openat2")->st.self_ns, 354007 - 10370 - 942);
	CHECK_EQ(node(&l, "getname")->st.total_ns, 10370);
	CHECK_EQ(edge_calls(&l, "getname", "kmem_cache_alloc"), 1);
	CHECK_EQ(edge_calls(&l, "do_sys_openat2", "check_stack_object"), 1);
	CHECK_EQ(edge_calls(&l, "sysvec_apic_timer_interrupt", "irq_enter_rcu"), 1);
	CHECK_EQ(node(&l, "_raw_spin_unlock")->st.calls, 1);
	CHECK_STREQ(kmag_trace_comm(l.t, 95), "trace-c");
	CHECK_EQ(kmag_trace_info(l.t)->lost, 7);
	CHECK_EQ(kmag_cg_summary(l.cg)->incomplete_calls, 0);
	unload(&l);
}

static void ftrace_graph_text_options(void)
{
	/* funcgraph-abstime, funcgraph-proc, funcgraph-tail, funcgraph-retval */
	static const char text[] =
		"# tracer: function_graph\n"
		"#     TIME        CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
		" 6302.365123 |   1)    ls-97    |               |  do_sys_openat2() {\n"
		" 6302.365125 |   1)    ls-97    |   1.644 us    |    getname(); /* = 0xffff888003a5c000 */\n"
		" 6302.365130 |   1)    ls-97    |   7.000 us    |  } /* do_sys_openat2 = 0x3 */\n"
		" 6302.365140 |   0)  <idle>-0   |   0.500 us    |  tick_nohz_idle_enter();\n";
	struct loaded l;

	load(&l, "fg-opts.txt", text);
	CHECK(l.t);
	CHECK_EQ(l.ret, 0);
	CHECK_EQ(node(&l, "do_sys_openat2")->st.total_ns, 7000);
	CHECK_EQ(edge_calls(&l, "do_sys_openat2", "getname"), 1);
	CHECK_EQ(node(&l, "tick_nohz_idle_enter")->st.calls, 1);
	CHECK_STREQ(kmag_trace_comm(l.t, 97), "ls");
	CHECK_EQ(kmag_trace_info(l.t)->first_ts, 6302365123000ull);
	unload(&l);
}

static void report_text(void)
{
	static const char text[] =
		"cpus=2\n"
		"              ls-97    [001]     6.302365: funcgraph_entry:      ! 354.007 us |  mutex_unlock();\n"
		"       trace-cmd-95    [000]     6.303271: funcgraph_entry:                   |  finish_task_switch.isra.0() {\n"
		"       trace-cmd-95    [000]     6.303277: funcgraph_entry:        2.485 us   |    _raw_spin_unlock();\n"
		"       trace-cmd-95    [000]     6.303284: funcgraph_exit:       + 16.782 us  |  }\n"
		"CPU:1 [12 EVENTS DROPPED]\n"
		"              ls-97    [001]     6.303300: sched_switch:         prev_comm=ls prev_pid=97\n";
	struct loaded l;

	load(&l, "report.txt", text);
	CHECK(l.t);
	CHECK_EQ(l.ret, 0);
	CHECK_EQ(kmag_trace_info(l.t)->format, KMAG_INPUT_REPORT_TEXT);
	CHECK_EQ(kmag_trace_info(l.t)->tracer, KMAG_TRACER_FUNCTION_GRAPH);
	/* leaves are one line but two records */
	CHECK_EQ(kmag_trace_info(l.t)->events, 7);
	CHECK_EQ(kmag_trace_info(l.t)->lost, 12);
	CHECK_EQ(node(&l, "finish_task_switch.isra.0")->st.total_ns, 16782);
	CHECK_EQ(edge_calls(&l, "finish_task_switch.isra.0", "_raw_spin_unlock"), 1);
	CHECK_EQ(node(&l, "mutex_unlock")->st.max_ns, 354007);
	unload(&l);
}

static void report_text_function(void)
{
	static const char text[] =
		"cpus=1\n"
		"              ls-97    [000]     6.302365: function:             vfs_read <-- ksys_read\n"
		"              ls-97    [000]     6.302366: function:             vfs_read <-- ksys_read\n";
	struct loaded l;

	load(&l, "report-fn.txt", text);
	CHECK(l.t);
	CHECK_EQ(kmag_trace_info(l.t)->tracer, KMAG_TRACER_FUNCTION);
	CHECK_EQ(edge_calls(&l, "ksys_read", "vfs_read"), 2);
	unload(&l);
}

/*
 * The interrupt of fg-2cpu-v6.dat (dd-375, CPU 1, 138.262617) in the return
 * window of __srcu_read_lock() (see t-replay-irq.c), in the two texts with
 * context flags: it is nested into the call, which stays one call.
 */
static void check_nested_interrupt(struct loaded *l)
{
	CHECK(l->t);
	CHECK_EQ(l->ret, 0);
	CHECK_EQ(node(l, "__srcu_read_lock")->st.calls, 1);
	CHECK_EQ(node(l, "__srcu_read_lock")->st.total_ns, 4729753);
	CHECK_EQ(node(l, "__srcu_read_lock")->st.self_ns, 4729753 - 3427 - 5000);
	CHECK_EQ(edge_calls(l, "__srcu_read_lock", "irq_enter_rcu"), 1);
	CHECK_EQ(edge_calls(l, "__srcu_read_lock", "__sysvec_apic_timer_interrupt"), 1);
	CHECK_EQ(edge_calls(l, "tomoyo_check_open_permission", "irq_enter_rcu"), 0);
	CHECK_EQ(kmag_cg_summary(l->cg)->incomplete_calls, 0);
}

static void latency_flags_text(void)
{
	/* the kernel's trace file with options/latency-format */
	static const char text[] =
		"# tracer: function_graph\n"
		"#\n"
		"#      _-----=> irqs-off\n"
		"#     / _----=> need-resched\n"
		"#    | / _---=> hardirq/softirq\n"
		"#    || / _--=> preempt-depth\n"
		"#    ||| /\n"
		"# CPU||||     DURATION                  FUNCTION CALLS\n"
		"# |  ||||      |   |                     |   |   |   |\n"
		" 1)  ...1. |               |  tomoyo_check_open_permission() {\n"
		" 1)  ...1. |               |    __srcu_read_lock() {\n"
		" 1)  d..2. |   3.427 us    |    irq_enter_rcu();\n"
		" 1)  d.h2. |   5.000 us    |    __sysvec_apic_timer_interrupt();\n"
		" 1)  .N... | # 4729.753 us |    }\n"
		" 1)  .N... | # 4744.010 us |  }\n";
	/* `trace-cmd report -l`: the CPU and the flags in one column */
	static const char report[] =
		"cpus=2\n"
		"      dd-375     1...1.   138.262615: funcgraph_entry:                   |  tomoyo_check_open_permission() {\n"
		"      dd-375     1...1.   138.262617: funcgraph_entry:                   |    __srcu_read_lock() {\n"
		"      dd-375     1d..2.   138.265497: funcgraph_entry:        3.427 us   |    irq_enter_rcu();\n"
		"      dd-375     1d.h2.   138.265501: funcgraph_entry:        5.000 us   |    __sysvec_apic_timer_interrupt();\n"
		"      dd-375     1.N...   138.267345: funcgraph_exit:       # 4729.753 us |    }\n"
		"      dd-375     1.N...   138.267358: funcgraph_exit:       # 4744.010 us |  }\n";
	struct loaded l;

	load(&l, "fg-lat.txt", text);
	check_nested_interrupt(&l);
	unload(&l);
	load(&l, "report-l.txt", report);
	check_nested_interrupt(&l);
	CHECK_EQ(kmag_trace_info(l.t)->format, KMAG_INPUT_REPORT_TEXT);
	CHECK_EQ(kmag_trace_info(l.t)->first_ts, 138262615000ull);
	CHECK_STREQ(kmag_trace_comm(l.t, 375), "dd");
	unload(&l);
}

/*
 * A damaged line (a byte that is not UTF-8, a NUL, a line that is no
 * event) is skipped and recorded, the rest read; strict reading stops
 * there; text that is mostly not text is refused as binary.
 */
static void bad_text(void)
{
	struct loaded l;
	const struct kmag_damage_summary *d;
	static const char bin[] = "# tracer: function\n  ls-97 [000] 1.0: a <-b\n\xff\xfe bad\n"
				  "  ls-97 [000] 1.5: c <-b\n";
	static const char nul[] = "# tracer: function\n  ls-97 [000] 1.0: a <-b\nx\0y\n";
	char junk[64 * 40 + 64];
	size_t i, n;

	load(&l, "nothing.txt", "hello world\nthis is not a trace\n");
	CHECK(!l.t);
	CHECK(strstr(l.err.msg, "neither a trace.dat file nor ftrace text"));

	load(&l, "bad-utf8.txt", bin);
	CHECK(l.t);
	CHECK_EQ(l.ret, 0);
	CHECK(node(&l, "a"));
	CHECK(node(&l, "c"));
	d = kmag_trace_damage(l.t);
	CHECK_EQ(d->places, 1);
	CHECK_EQ(d->skipped_lines, 1);
	CHECK_EQ(d->list[0].kind, KMAG_DAMAGE_SKIPPED);
	CHECK_EQ(d->list[0].line, 3);
	CHECK_EQ(d->list[0].column, 1);
	CHECK_EQ(d->list[0].bytes, 6);
	CHECK(strstr(d->list[0].why, "not UTF-8"));
	unload(&l);

	memset(&l, 0, sizeof(l));
	l.t = kmag_trace_open(write_tmp("bad-utf8.txt", bin, sizeof(bin) - 1), NULL, &l.err);
	CHECK(l.t);
	kmag_trace_set_strict(l.t, true);
	l.cg = kmag_cg_new(NULL);
	l.ret = kmag_trace_read(l.t, kmag_cg_event_fn, l.cg, &l.err);
	CHECK_EQ(l.ret, -EILSEQ);
	CHECK(strstr(l.err.msg, "damaged text: line 3, column 1: a byte that is not UTF-8 text"));
	CHECK(kmag_trace_damage(l.t)->stopped);
	unload(&l);

	memset(&l, 0, sizeof(l));
	l.t = kmag_trace_open(write_tmp("nul.txt", nul, sizeof(nul) - 1), NULL, &l.err);
	CHECK(l.t);
	l.cg = kmag_cg_new(NULL);
	l.ret = kmag_trace_read(l.t, kmag_cg_event_fn, l.cg, &l.err);
	CHECK_EQ(l.ret, 0);
	d = kmag_trace_damage(l.t);
	CHECK_EQ(d->places, 1);
	CHECK_EQ(d->list[0].column, 2);
	CHECK(strstr(d->list[0].why, "NUL"));
	unload(&l);

	/* a header, then lines of binary data: no text, refused as a whole */
	n = (size_t)snprintf(junk, sizeof(junk), "# tracer: function\n");
	for (i = 0; i < 40; i++)
		n += (size_t)snprintf(junk + n, sizeof(junk) - n, "\x89PNG\x1a%02zu\n", i);
	load(&l, "binary.txt", junk);
	CHECK(l.t);
	CHECK(l.ret < 0);
	CHECK(strstr(l.err.msg, "is this a binary file?"));
	unload(&l);
}

const struct test_case text_tests[] = {
	{ "ftrace_function_text", ftrace_function_text },
	{ "ftrace_function_text_tgid_noirqinfo", ftrace_function_text_tgid_noirqinfo },
	{ "ftrace_graph_text", ftrace_graph_text },
	{ "ftrace_graph_text_options", ftrace_graph_text_options },
	{ "report_text", report_text },
	{ "report_text_function", report_text_function },
	{ "latency flags in the kernel's text and trace-cmd report -l", latency_flags_text },
	{ "bad_text", bad_text },
	TEST_LIST_END,
};
