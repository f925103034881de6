// SPDX-License-Identifier: MIT
/*
 * t-replay-irq.c - interrupts that come in a call's return or entry window
 * (include/kmag/replay.h): nested into the call, as the kernel's fgraph.c
 * counts depths, and never when the records allow another reading.
 */
#include <errno.h>

#include "kmag/replay.h"
#include "test.h"

#define ENTRY KMAG_EV_GRAPH_ENTRY
#define EXIT KMAG_EV_GRAPH_EXIT
#define NODUR KMAG_DURATION_NONE

/* Contexts as a record's common_flags give them: task (irqs on), irqs off, hardirq. */
#define TASK KMAG_CTX_KNOWN
#define OFF (KMAG_CTX_KNOWN | KMAG_CTX_IRQS_OFF)
#define HARD (KMAG_CTX_KNOWN | KMAG_CTX_IRQS_OFF | KMAG_CTX_HARDIRQ)

/* Every call that left, in order, and a log of the hooks: "+f@d", "=f@d", "-f@d". */
struct seen {
	struct kmag_call c[32];
	int n;
	char log[1024];
	size_t len;
};

static void logf_(struct seen *s, char what, const struct kmag_call *c)
{
	s->len += (size_t)snprintf(s->log + s->len, sizeof(s->log) - s->len, "%c%u@%d ", what,
				   c->func == KMAG_FUNC_NONE ? 0 : c->func, c->depth);
}

static int on_enter(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	logf_(ctx, '+', call);
	return 0;
}

static int on_named(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	logf_(ctx, '=', call);
	return 0;
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct seen *s = ctx;

	logf_(s, '-', call);
	if (s->n < 32)
		s->c[s->n++] = *call;
	return 0;
}

static const struct kmag_replay_ops seen_ops = {
	.enter = on_enter, .named = on_named, .leave = on_leave,
};

static struct kmag_replay *new_replay(struct seen *s)
{
	struct kmag_replay *r = kmag_replay_new();

	memset(s, 0, sizeof(*s));
	CHECK(r);
	CHECK_EQ(kmag_replay_subscribe(r, &seen_ops, s), 0);
	return r;
}

static void ev(struct kmag_replay *r, int type, int pid, int cpu, int depth, kmag_func_t f,
	       uint64_t ts, uint64_t dur, uint8_t ctx)
{
	struct kmag_event e = { .type = (uint8_t)type, .pid = pid, .cpu = cpu, .depth = depth,
				.func = f, .ts = ts, .duration = dur, .repeat = 1, .ctx = ctx,
				.calltime = KMAG_TS_NONE, .parent = KMAG_FUNC_NONE };

	CHECK_EQ(kmag_replay_add(r, &e), 0);
}

/* An entry with its call site in function @from (funcgraph-retaddr). */
static void entry_from(struct kmag_replay *r, int pid, int depth, kmag_func_t f, kmag_func_t from,
		       uint64_t ts, uint8_t ctx)
{
	struct kmag_event e = { .type = ENTRY, .pid = pid, .cpu = 0, .depth = depth, .func = f,
				.ts = ts, .duration = NODUR, .repeat = 1, .ctx = ctx,
				.calltime = KMAG_TS_NONE, .parent = from };

	CHECK_EQ(kmag_replay_add(r, &e), 0);
}

static const struct kmag_call *find(const struct seen *s, kmag_func_t f)
{
	for (int i = 0; i < s->n; i++)
		if (s->c[i].func == f)
			return &s->c[i];
	test_fail(__FILE__, __LINE__, "function %u never left", f);
}

/*
 * Linux 6.1, fg-2cpu-v6.dat (dd-375, CPU 1, 138.262617): __srcu_read_lock()
 * returns, ftrace_pop_return_trace() has taken its depth back, and the timer
 * interrupt records irq_enter_rcu() at the depth of the call still open.
 */
static void return_window_nests_the_interrupt(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	ev(r, ENTRY, 7, 1, 0, 1, 100, NODUR, TASK);		/* tomoyo_check_open_permission */
	ev(r, ENTRY, 7, 1, 1, 2, 110, NODUR, TASK);		/* __srcu_read_lock */
	ev(r, ENTRY, 7, 1, 1, 3, 200, NODUR, OFF);		/* irq_enter_rcu, at its depth */
	ev(r, EXIT, 7, 1, 1, 3, 210, 10, OFF);
	ev(r, ENTRY, 7, 1, 1, 4, 210, NODUR, HARD);		/* __sysvec_apic_timer_interrupt */
	ev(r, ENTRY, 7, 1, 2, 5, 220, NODUR, HARD);		/* hrtimer_interrupt */
	ev(r, EXIT, 7, 1, 2, 5, 250, 30, HARD);
	ev(r, EXIT, 7, 1, 1, 4, 260, 50, HARD);
	ev(r, ENTRY, 7, 1, 1, 6, 260, NODUR, OFF);		/* irq_exit_rcu */
	ev(r, EXIT, 7, 1, 1, 6, 270, 10, OFF);
	ev(r, EXIT, 7, 1, 1, 2, 280, 170, TASK);		/* __srcu_read_lock returns */
	ev(r, ENTRY, 7, 1, 1, 8, 290, NODUR, OFF);		/* a call made with irqs off: a sibling */
	ev(r, EXIT, 7, 1, 1, 8, 295, 5, OFF);
	ev(r, EXIT, 7, 1, 0, 1, 300, 200, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +2@1 +3@2 -3@2 +4@2 +5@3 -5@3 -4@2 +6@2 -6@2 -2@1 +8@1 -8@1 -1@0 ");
	/* one call, whole, holding the interrupt: its duration is the kernel's, which covers it */
	CHECK_EQ(find(&s, 2)->flags, 0);
	CHECK_EQ(find(&s, 2)->duration, 170);
	CHECK_EQ(find(&s, 2)->child_ns, 70);
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 2)->id);
	CHECK_EQ(find(&s, 4)->parent_id, find(&s, 2)->id);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 4)->id);
	CHECK_EQ(find(&s, 8)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 175);
	CHECK_EQ(kmag_replay_stats(r)->unmatched_exits, 0);
	CHECK_EQ(kmag_replay_stats(r)->unfinished_entries, 0);
	kmag_replay_free(r);
}

/*
 * function_graph_enter() counts the depth before the entry is written: the
 * interrupt comes one level too deep, then the call's entry. The call opens
 * first (from the interrupt's first event), the interrupt inside it.
 */
static void entry_window_nests_the_interrupt(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	ev(r, ENTRY, 7, 1, 0, 1, 100, NODUR, TASK);		/* inode_permission */
	ev(r, ENTRY, 7, 1, 2, 3, 120, NODUR, OFF);		/* irq_enter_rcu, two levels deeper */
	ev(r, EXIT, 7, 1, 2, 3, 130, 10, OFF);
	ev(r, ENTRY, 7, 1, 2, 4, 130, NODUR, HARD);
	ev(r, ENTRY, 7, 1, 3, 5, 131, NODUR, HARD);
	ev(r, EXIT, 7, 1, 3, 5, 140, 9, HARD);
	ev(r, EXIT, 7, 1, 2, 4, 150, 20, HARD);
	ev(r, ENTRY, 7, 1, 1, 2, 160, NODUR, TASK);		/* generic_permission's entry */
	ev(r, EXIT, 7, 1, 1, 2, 165, 44, TASK);			/* its calltime was before the irq */
	ev(r, EXIT, 7, 1, 0, 1, 170, 70, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +2@1 +3@2 -3@2 +4@2 +5@3 -5@3 -4@2 -2@1 -1@0 ");
	CHECK_EQ(find(&s, 2)->flags, 0);
	CHECK_EQ(find(&s, 2)->start_ns, 120);	/* the interrupt's first event */
	CHECK_EQ(find(&s, 2)->start_src, KMAG_START_IRQ);
	CHECK_EQ(find(&s, 2)->end_ns, 164);
	CHECK_EQ(find(&s, 2)->exit_ns, 165);
	CHECK_EQ(find(&s, 2)->child_ns, 30);
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 2)->id);
	CHECK_EQ(find(&s, 4)->parent_id, find(&s, 2)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 44);
	CHECK_EQ(kmag_replay_stats(r)->unmatched_exits, 0);
	kmag_replay_free(r);
}

/*
 * fg-filtered-v6.dat (wl.sh-219, 44.182604): __get_vma_policy() lasted 2.836
 * us by the kernel's clock, the interrupt at its depth 392 us: rettime was
 * stamped before the interrupt came. The call ends where the interrupt
 * begins, and the interrupt follows it among its caller's calls.
 */
static void return_window_after_rettime(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	ev(r, ENTRY, 7, 1, 0, 1, 100, NODUR, TASK);		/* vma_alloc_folio */
	ev(r, ENTRY, 7, 1, 1, 2, 110, NODUR, TASK);		/* __get_vma_policy */
	ev(r, ENTRY, 7, 1, 1, 3, 200, NODUR, OFF);		/* irq_enter_rcu */
	ev(r, EXIT, 7, 1, 1, 3, 210, 10, OFF);
	ev(r, ENTRY, 7, 1, 1, 4, 210, NODUR, HARD);
	ev(r, EXIT, 7, 1, 1, 4, 260, 50, HARD);
	ev(r, EXIT, 7, 1, 1, 2, 280, 3, TASK);			/* returned after 3 */
	ev(r, EXIT, 7, 1, 0, 1, 300, 200, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +2@1 -2@1 +3@1 -3@1 +4@1 -4@1 -1@0 ");
	CHECK_EQ(find(&s, 2)->flags, 0);
	CHECK_EQ(find(&s, 2)->duration, 3);
	CHECK_EQ(find(&s, 2)->exit_ns, 200);	/* its record came after the interrupt */
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 63);
	kmag_replay_free(r);
}

/*
 * fg619-hex-tail.dat (wl.sh-174, 213.546294): shmem_file_write_iter()'s
 * duration does not hold the interrupt before its entry: its calltime came
 * after it. The interrupt is its caller's, before it.
 */
static void entry_window_before_calltime(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	ev(r, ENTRY, 7, 1, 0, 1, 100, NODUR, TASK);		/* vfs_write */
	ev(r, ENTRY, 7, 1, 2, 3, 120, NODUR, OFF);		/* irq_enter_rcu */
	ev(r, EXIT, 7, 1, 2, 3, 130, 10, OFF);
	ev(r, ENTRY, 7, 1, 2, 4, 130, NODUR, HARD);
	ev(r, EXIT, 7, 1, 2, 4, 150, 20, HARD);
	ev(r, ENTRY, 7, 1, 1, 2, 160, NODUR, TASK);		/* shmem_file_write_iter */
	ev(r, ENTRY, 7, 1, 2, 5, 161, NODUR, TASK);		/* down_write */
	ev(r, EXIT, 7, 1, 2, 5, 162, 1, TASK);
	ev(r, EXIT, 7, 1, 1, 2, 170, 10, TASK);
	ev(r, EXIT, 7, 1, 0, 1, 180, 80, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +3@1 -3@1 +4@1 -4@1 +2@1 +5@2 -5@2 -2@1 -1@0 ");
	CHECK_EQ(find(&s, 2)->start_ns, 160);
	CHECK_EQ(find(&s, 2)->start_src, KMAG_START_ENTRY);
	CHECK_EQ(find(&s, 2)->child_ns, 1);
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 2)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 40);
	kmag_replay_free(r);
}

/* The depths say a call's exit is missing: none of these is an interrupt in a window. */
static void sibling_calls_are_not_nested(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	/* the same context: an exit was lost (no marker), the next call is a sibling */
	ev(r, ENTRY, 3, 0, 0, 1, 10, NODUR, TASK);
	ev(r, ENTRY, 3, 0, 1, 2, 20, NODUR, TASK);
	ev(r, ENTRY, 3, 0, 1, 3, 30, NODUR, TASK);
	ev(r, EXIT, 3, 0, 1, 3, 35, 5, TASK);
	/* less interrupted: a call entered in a hardirq, then irqs-off code at its depth */
	ev(r, ENTRY, 3, 0, 1, 4, 40, NODUR, HARD);
	ev(r, ENTRY, 3, 0, 1, 5, 50, NODUR, OFF);
	ev(r, EXIT, 3, 0, 1, 5, 55, 5, OFF);
	ev(r, EXIT, 3, 0, 0, 1, 60, 50, TASK);
	/* the input has no context flags (text without the latency columns) */
	ev(r, ENTRY, 4, 0, 0, 6, 70, NODUR, 0);
	ev(r, ENTRY, 4, 0, 1, 7, 80, NODUR, 0);
	ev(r, ENTRY, 4, 0, 1, 8, 90, NODUR, KMAG_CTX_HARDIRQ);
	ev(r, EXIT, 4, 0, 1, 8, 95, 5, KMAG_CTX_HARDIRQ);
	ev(r, EXIT, 4, 0, 0, 6, 99, 29, 0);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(find(&s, 2)->flags, KMAG_CALL_NO_EXIT);
	CHECK_EQ(find(&s, 3)->depth, 1);
	CHECK_EQ(find(&s, 4)->flags, KMAG_CALL_NO_EXIT);
	CHECK_EQ(find(&s, 5)->depth, 1);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 7)->flags, KMAG_CALL_NO_EXIT);
	CHECK_EQ(find(&s, 8)->depth, 1);
	kmag_replay_free(r);
}

/* Events lost on the CPU while the call was open: its exit may be among them. */
static void no_nesting_across_lost_events(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);
	struct kmag_event lost = { .type = KMAG_EV_LOST, .cpu = 0, .lost = 12 };

	ev(r, ENTRY, 3, 0, 0, 1, 10, NODUR, TASK);
	ev(r, ENTRY, 3, 0, 1, 2, 20, NODUR, TASK);
	CHECK_EQ(kmag_replay_add(r, &lost), 0);
	ev(r, ENTRY, 3, 0, 1, 3, 30, NODUR, OFF);
	ev(r, EXIT, 3, 0, 1, 3, 35, 5, OFF);
	/* the entry window: lost events before the missing level's interrupt */
	CHECK_EQ(kmag_replay_add(r, &lost), 0);
	ev(r, ENTRY, 3, 0, 2, 4, 40, NODUR, HARD);
	ev(r, EXIT, 3, 0, 2, 4, 45, 5, HARD);
	ev(r, ENTRY, 3, 0, 1, 5, 50, NODUR, TASK);
	ev(r, EXIT, 3, 0, 1, 5, 55, 5, TASK);
	CHECK_EQ(kmag_replay_finish(r, 100), 0);
	CHECK_EQ(find(&s, 2)->flags, KMAG_CALL_NO_EXIT | KMAG_CALL_LOST);
	CHECK_EQ(find(&s, 3)->depth, 1);
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 4)->depth, 2);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 1)->id);
	CHECK(find(&s, 4)->parent_id != find(&s, 5)->id);
	CHECK_EQ(find(&s, 5)->start_src, KMAG_START_ENTRY);
	kmag_replay_free(r);
}

/*
 * An interrupt two levels deep whose missing level never enters: when the
 * open call returns, no call was there (see entry_window_after_an_exit) and
 * the interrupt is the open call's; when another task runs on the CPU first,
 * its events are replayed as they came, below a placeholder.
 */
static void held_interrupts_without_their_call_come_as_they_were(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	/* the open call returns instead */
	ev(r, ENTRY, 5, 0, 0, 1, 10, NODUR, TASK);
	ev(r, ENTRY, 5, 0, 2, 2, 20, NODUR, OFF);
	ev(r, EXIT, 5, 0, 2, 2, 25, 5, OFF);
	ev(r, EXIT, 5, 0, 0, 1, 30, 20, TASK);
	/* another task runs on the CPU before the missing level enters */
	ev(r, ENTRY, 6, 1, 0, 3, 40, NODUR, TASK);
	ev(r, ENTRY, 6, 1, 2, 4, 41, NODUR, OFF);
	ev(r, ENTRY, 8, 1, 0, 9, 50, NODUR, TASK);
	ev(r, EXIT, 8, 1, 0, 9, 55, 5, TASK);
	ev(r, EXIT, 6, 1, 2, 4, 60, 19, OFF);
	ev(r, ENTRY, 6, 1, 1, 5, 61, NODUR, TASK);
	ev(r, EXIT, 6, 1, 1, 5, 62, 1, TASK);
	ev(r, EXIT, 6, 1, 0, 3, 70, 30, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	/* in the order the events came: task 6's entry shown before task 8's call */
	CHECK_STREQ(s.log, "+1@0 +2@1 -2@1 -1@0 +3@0 +0@1 +4@2 +9@0 -9@0 -4@2 -0@1 "
			   "+5@1 -5@1 -3@0 ");
	CHECK_EQ(find(&s, 2)->depth, 1);
	CHECK_EQ(find(&s, 2)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 4)->depth, 2);
	CHECK_EQ(find(&s, 5)->start_src, KMAG_START_ENTRY);
	CHECK_EQ(find(&s, 5)->child_ns, 0);
	kmag_replay_free(r);
}

/*
 * Linux 6.19 stamps rettime before it writes the exit and takes the depth
 * back after: tests/fixtures/traces/vm-irq/fg619-dd-irq.dat (dd-74, 5.630269).
 * rw_verify_area() lasted 2.378 us by the kernel's clock; the interrupt came
 * after that, at the depth of its own calls, and its exit record after the
 * interrupt. The call ends where the interrupt begins, which follows it
 * among its caller's calls.
 */
static void tail_window_after_rettime(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	entry_from(r, 7, 0, 1, 20, 100, TASK);			/* vfs_read <- ksys_read */
	entry_from(r, 7, 1, 2, 1, 101, TASK);			/* rw_verify_area <- vfs_read */
	entry_from(r, 7, 2, 3, 1, 102, TASK);			/* its call (inlined in vfs_read) */
	ev(r, EXIT, 7, 0, 2, 3, 103, 1, TASK);
	entry_from(r, 7, 2, 4, 21, 110, OFF);			/* irq_enter_rcu <- sysvec_... */
	ev(r, EXIT, 7, 0, 2, 4, 111, 1, OFF);
	entry_from(r, 7, 2, 5, 21, 112, HARD);			/* __sysvec_apic_timer_interrupt */
	entry_from(r, 7, 3, 6, 5, 113, HARD);
	ev(r, EXIT, 7, 0, 3, 6, 150, 37, HARD);
	ev(r, EXIT, 7, 0, 2, 5, 151, 39, HARD);
	ev(r, EXIT, 7, 0, 1, 2, 160, 3, TASK);			/* returned after 3 */
	entry_from(r, 7, 1, 8, 1, 161, TASK);			/* read_zero <- vfs_read */
	ev(r, EXIT, 7, 0, 1, 8, 162, 1, TASK);
	ev(r, EXIT, 7, 0, 0, 1, 170, 70, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +2@1 +3@2 -3@2 -2@1 +4@1 -4@1 +5@1 +6@2 -6@2 -5@1 +8@1 -8@1 -1@0 ");
	CHECK_EQ(find(&s, 2)->flags, 0);
	CHECK_EQ(find(&s, 2)->duration, 3);
	CHECK_EQ(find(&s, 2)->child_ns, 1);
	CHECK_EQ(find(&s, 2)->exit_ns, 110);	/* its record came after the interrupt */
	CHECK_EQ(find(&s, 4)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 6)->parent_id, find(&s, 5)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 3 + 1 + 39 + 1);
	CHECK_EQ(kmag_replay_stats(r)->unmatched_exits, 0);
	CHECK_EQ(kmag_replay_stats(r)->unfinished_entries, 0);
	kmag_replay_free(r);
}

/*
 * The same records, but the call's duration holds the interrupt (it came
 * before rettime): it stays inside, as the depths say. So does one after
 * which the call makes another call. A call made with interrupts off from
 * the open call itself (its call site) is not held.
 */
static void tail_window_inside(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);
	struct kmag_event e = { .type = ENTRY, .pid = 9, .cpu = 1, .depth = 1, .func = 12,
				.ts = 300, .duration = NODUR, .repeat = 1, .ctx = OFF,
				.calltime = KMAG_TS_NONE, .parent = 11 };

	ev(r, ENTRY, 7, 0, 0, 1, 100, NODUR, TASK);
	ev(r, ENTRY, 7, 0, 1, 4, 110, NODUR, OFF);		/* irq_enter_rcu */
	ev(r, EXIT, 7, 0, 1, 4, 111, 1, OFF);
	ev(r, ENTRY, 7, 0, 1, 5, 112, NODUR, HARD);
	ev(r, EXIT, 7, 0, 1, 5, 151, 39, HARD);
	ev(r, EXIT, 7, 0, 0, 1, 160, 45, TASK);			/* 45 >= 1 + 39 */
	ev(r, ENTRY, 8, 0, 0, 2, 200, NODUR, TASK);
	ev(r, ENTRY, 8, 0, 1, 6, 210, NODUR, HARD);
	ev(r, EXIT, 8, 0, 1, 6, 220, 10, HARD);
	ev(r, ENTRY, 8, 0, 1, 7, 230, NODUR, TASK);		/* it makes another call */
	ev(r, EXIT, 8, 0, 1, 7, 231, 1, TASK);
	ev(r, EXIT, 8, 0, 0, 2, 240, 5, TASK);			/* the clocks disagree */
	/* do_idle (11) calls arch_cpu_idle_enter (12) with interrupts off */
	ev(r, ENTRY, 9, 1, 0, 11, 290, NODUR, TASK);
	CHECK_EQ(kmag_replay_add(r, &e), 0);
	CHECK_STREQ(s.log, "+1@0 +4@1 -4@1 +5@1 -5@1 -1@0 +2@0 +6@1 -6@1 +7@1 -7@1 -2@0 +11@0 +12@1 ");
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_EQ(find(&s, 4)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 5)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 40);
	CHECK_EQ(find(&s, 6)->parent_id, find(&s, 2)->id);
	kmag_replay_free(r);
}

/*
 * Linux 6.19 writes a call's exit before it takes its depth back: an
 * interrupt there comes two levels below the open call, and no call enters
 * the level between (fg619-dd-irq.dat, 5.634270: rcu_all_qs() returned,
 * __cond_resched() is open). The interrupt ran in the open call.
 */
static void entry_window_after_an_exit(void)
{
	struct seen s;
	struct kmag_replay *r = new_replay(&s);

	ev(r, ENTRY, 7, 0, 0, 1, 100, NODUR, TASK);		/* __cond_resched */
	ev(r, ENTRY, 7, 0, 1, 2, 101, NODUR, TASK);		/* rcu_all_qs */
	ev(r, EXIT, 7, 0, 1, 2, 102, 1, TASK);
	ev(r, ENTRY, 7, 0, 2, 3, 110, NODUR, OFF);		/* irq_enter_rcu */
	ev(r, EXIT, 7, 0, 2, 3, 111, 1, OFF);
	ev(r, ENTRY, 7, 0, 2, 4, 112, NODUR, HARD);
	ev(r, ENTRY, 7, 0, 3, 5, 113, NODUR, HARD);
	ev(r, EXIT, 7, 0, 3, 5, 150, 37, HARD);
	ev(r, EXIT, 7, 0, 2, 4, 151, 39, HARD);
	ev(r, EXIT, 7, 0, 0, 1, 160, 60, TASK);
	CHECK_EQ(kmag_replay_finish(r, KMAG_TS_NONE), 0);
	CHECK_STREQ(s.log, "+1@0 +2@1 -2@1 +3@1 -3@1 +4@1 +5@2 -5@2 -4@1 -1@0 ");
	CHECK_EQ(find(&s, 3)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 4)->parent_id, find(&s, 1)->id);
	CHECK_EQ(find(&s, 1)->child_ns, 41);
	CHECK_EQ(find(&s, 1)->flags, 0);
	CHECK_EQ(kmag_replay_stats(r)->unmatched_exits, 0);
	CHECK_EQ(kmag_replay_stats(r)->unfinished_entries, 0);
	kmag_replay_free(r);
}

const struct test_case replay_irq_tests[] = {
	{ "an interrupt in a call's return window is nested into it",
	  return_window_nests_the_interrupt },
	{ "an interrupt in a call's entry window is nested into it",
	  entry_window_nests_the_interrupt },
	{ "an interrupt after a call's rettime follows the call", return_window_after_rettime },
	{ "an interrupt before a call's calltime comes before it", entry_window_before_calltime },
	{ "sibling calls are not nested: same or less interrupted context, no flags",
	  sibling_calls_are_not_nested },
	{ "no nesting across lost events", no_nesting_across_lost_events },
	{ "a held interrupt whose call never enters: the open call's, or as it came",
	  held_interrupts_without_their_call_come_as_they_were },
	{ "an interrupt after a call's rettime, at its calls' depth, follows the call",
	  tail_window_after_rettime },
	{ "an interrupt one level below a call that holds it stays inside",
	  tail_window_inside },
	{ "an interrupt after an exit, before the depth is taken back, is the open call's",
	  entry_window_after_an_exit },
	TEST_LIST_END,
};
