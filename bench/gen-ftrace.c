// SPDX-License-Identifier: MIT
/*
 * gen-ftrace.c - writes synthetic but kernel-like ftrace text for benchmarks.
 *
 *   gen-ftrace [--events N] [--tracer function|function_graph] [--seed S]
 *              [--funcs N] [--cpus N] [--clock counter|seconds] [--map FILE] > trace.txt
 *
 * The function tracer output has the shape of the seed's kernel-magnifier.data
 * (trace_pipe lines, counter clock by default):
 *   kworker/3:1-123   [003] d..1.  1207319054: preempt_count_sub <-_raw_spin_unlock
 * and "CPU:N [LOST M EVENTS]" lines now and then. The call graph behind it has
 * ~3,500 functions in subsystems and layers under ~60 entry points (syscalls,
 * interrupts, workers), a dozen hot lock/RCU/preempt helpers called from
 * everywhere, and 16 CPUs whose call trees interleave in bursts. Everything is
 * derived from --seed, so a run is reproducible. --map also writes a symbol
 * map in the seed's "name|path" format, each subsystem in its kernel file.
 *
 * No library generates this, and the distribution (Zipf entry points, a
 * layered DAG, hot helpers) is the point of the benchmark, so it is written here.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CALLEES 8
#define MAX_DEPTH 28
#define NR_LEVELS 11
#define NR_ENTRIES 60

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: small, fast, deterministic across platforms */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static double rndf(void)
{
	return (double)(rnd() >> 11) / (double)(1ull << 53);
}

static unsigned rndn(unsigned n)
{
	return (unsigned)(rnd() % n);
}

struct func {
	char name[64];
	int level;		/* 0 = entry point; helpers are level NR_LEVELS */
	int sub;		/* subsystem */
	bool irq;		/* an interrupt entry */
	int nr_callees;
	uint32_t callee[MAX_CALLEES];
	float prob[MAX_CALLEES];	/* chance the callee is called at all */
	uint8_t loop[MAX_CALLEES];	/* max repeats (1 = once) */
	float entry_weight;
};

static const char *const subsystems[] = {
	"tcp", "udp", "ip", "sock", "skb", "netif", "ext4", "jbd2", "vfs", "dentry",
	"page", "folio", "mm", "slab", "sched", "task", "irq", "timer", "hrtimer", "rcu",
	"blk", "bio", "nvme", "scsi", "pipe", "futex", "signal", "cgroup", "sec", "xfs",
};
#define NR_SUBS (sizeof(subsystems) / sizeof(subsystems[0]))

/* where each subsystem's functions live, for --map */
static const char *const sub_files[] = {
	"net/ipv4/tcp.c", "net/ipv4/udp.c", "net/ipv4/ip_input.c", "net/core/sock.c",
	"net/core/skbuff.c", "net/core/dev.c", "fs/ext4/inode.c", "fs/jbd2/transaction.c",
	"fs/namei.c", "fs/dcache.c", "mm/page_alloc.c", "mm/filemap.c", "mm/memory.c", "mm/slub.c",
	"kernel/sched/fair.c", "kernel/sched/core.c", "kernel/irq/handle.c", "kernel/time/timer.c",
	"kernel/time/hrtimer.c", "kernel/rcu/tree.c", "block/blk-mq.c", "block/bio.c",
	"drivers/nvme/host/core.c", "drivers/scsi/scsi_lib.c", "fs/pipe.c", "kernel/futex/core.c",
	"kernel/signal.c", "kernel/cgroup/cgroup.c", "security/security.c", "fs/xfs/xfs_inode.c",
};

static const char *const verbs[] = {
	"alloc", "free", "get", "put", "lookup", "insert", "update", "queue", "flush", "check",
	"wake", "find", "map", "unmap", "read", "write", "submit", "complete", "init", "set",
	"clear", "try", "do", "handle", "process", "account", "charge", "release", "prepare", "commit",
};
static const char *const nouns[] = {
	"entry", "node", "page", "buffer", "request", "queue", "state", "lock", "range", "list",
	"work", "event", "ref", "inode", "block", "segment", "path", "slot", "table", "group",
};

static const char *const helper_files[] = {
	"kernel/locking/spinlock.c", "kernel/locking/spinlock.c", "kernel/locking/spinlock.c",
	"kernel/locking/spinlock.c", "kernel/rcu/tree_plugin.h", "kernel/rcu/tree_plugin.h",
	"kernel/sched/core.c", "kernel/sched/core.c", "kernel/locking/mutex.c",
	"kernel/locking/mutex.c", "kernel/rcu/update.c", "kernel/sched/core.c",
};

static const char *const helpers[] = {
	"_raw_spin_lock", "_raw_spin_unlock", "_raw_spin_lock_irqsave",
	"_raw_spin_unlock_irqrestore", "__rcu_read_lock", "__rcu_read_unlock",
	"preempt_count_add", "preempt_count_sub", "mutex_lock", "mutex_unlock",
	"rcu_read_lock_held", "__cond_resched",
};
#define NR_HELPERS (sizeof(helpers) / sizeof(helpers[0]))

static const char *const entry_names[] = {
	"__x64_sys_read", "__x64_sys_write", "__x64_sys_openat", "__x64_sys_close",
	"__x64_sys_futex", "__x64_sys_epoll_wait", "__x64_sys_recvmsg", "__x64_sys_sendmsg",
	"__x64_sys_mmap", "__x64_sys_munmap", "__x64_sys_newfstatat", "__x64_sys_ioctl",
	"__x64_sys_poll", "__x64_sys_clock_nanosleep", "__x64_sys_getdents64", "__x64_sys_brk",
	"__x64_sys_accept4", "__x64_sys_connect", "__x64_sys_sendto", "__x64_sys_recvfrom",
	"__x64_sys_lseek", "__x64_sys_pread64", "__x64_sys_pwrite64", "__x64_sys_fsync",
	"__x64_sys_rt_sigaction", "__x64_sys_rt_sigprocmask", "__x64_sys_sched_yield",
	"__x64_sys_nanosleep", "__x64_sys_wait4", "__x64_sys_execve", "__x64_sys_clone3",
	"__x64_sys_exit_group", "__x64_sys_madvise", "__x64_sys_mprotect", "__x64_sys_select",
	"__x64_sys_splice", "__x64_sys_unlinkat", "__x64_sys_renameat2", "__x64_sys_statx",
	"__x64_sys_io_uring_enter",
	"__sysvec_apic_timer_interrupt", "__sysvec_call_function_single", "common_interrupt",
	"__sysvec_irq_work", "handle_softirqs", "net_rx_action", "run_timer_softirq",
	"rcu_core", "tasklet_action", "blk_done_softirq",
	"worker_thread", "kthread", "ksoftirqd_should_run", "kswapd", "rcu_gp_kthread",
	"smpboot_thread_fn", "do_idle", "schedule_idle", "page_fault_oops", "exc_page_fault",
};

struct task_id {
	const char *comm;
	int pid;
};

static const struct task_id tasks[] = {
	{ "bash", 1204 }, { "nginx", 2211 }, { "nginx", 2212 }, { "postgres", 3301 },
	{ "postgres", 3302 }, { "systemd-journal", 311 }, { "sshd", 877 }, { "chrome", 5120 },
	{ "chrome", 5133 }, { "java", 7001 }, { "java", 7002 }, { "rsyslogd", 640 },
	{ "containerd", 990 }, { "dockerd", 1010 }, { "make", 8800 }, { "cc1", 8812 },
};
#define NR_TASKS (sizeof(tasks) / sizeof(tasks[0]))

struct frame {
	uint32_t func;
	int next;		/* next callee slot to consider */
	int repeats_left;	/* repeats of the current slot still to do */
	uint64_t child_ns;	/* function_graph: time of finished children */
	uint64_t self_ns;
	bool printed_open;	/* function_graph: "f() {" printed */
};

struct cpu {
	struct frame stack[MAX_DEPTH];
	int depth;
	const char *comm;
	int pid;
	bool irq;
};

static struct func *funcs;
static uint32_t nr_funcs;
static bool graph;
static bool counter_clock = true;
static uint64_t now = 1207319054;

static uint32_t pick_entry(void)
{
	/* Zipf-like: entry i has weight 1/(i+1) */
	static double total;
	double r;
	uint32_t i;

	if (!total)
		for (i = 0; i < NR_ENTRIES; i++)
			total += funcs[i].entry_weight;
	r = rndf() * total;
	for (i = 0; i < NR_ENTRIES; i++) {
		r -= funcs[i].entry_weight;
		if (r <= 0)
			return i;
	}
	return NR_ENTRIES - 1;
}

static void build_graph(uint32_t want)
{
	uint32_t level_first[NR_LEVELS + 1], level_count[NR_LEVELS + 1];
	uint32_t i, j, body = want - NR_ENTRIES - NR_HELPERS, pos = NR_ENTRIES;
	/* how the non-entry, non-helper functions spread over levels 1..NR_LEVELS-1 */
	static const double share[NR_LEVELS] = { 0,   .04, .07, .10, .12, .14,
						  .14, .13, .11, .09, .06 };

	funcs = calloc(want, sizeof(*funcs));
	if (!funcs) {
		perror("gen-ftrace");
		exit(1);
	}
	nr_funcs = want;
	for (i = 0; i < NR_ENTRIES; i++) {
		snprintf(funcs[i].name, sizeof(funcs[i].name), "%s", entry_names[i]);
		funcs[i].level = 0;
		funcs[i].sub = (int)rndn(NR_SUBS);
		funcs[i].irq = i >= 40 && i < 50;
		funcs[i].entry_weight = (float)(1.0 / (i % 25 + 1));
	}
	level_first[0] = 0;
	level_count[0] = NR_ENTRIES;
	for (j = 1; j < NR_LEVELS; j++) {
		uint32_t n = j == NR_LEVELS - 1 ? want - NR_HELPERS - pos :
						  (uint32_t)(share[j] * body);

		level_first[j] = pos;
		level_count[j] = n;
		for (i = pos; i < pos + n; i++) {
			struct func *f = &funcs[i];
			int sub = (int)rndn(NR_SUBS);
			size_t len;

			f->level = (int)j;
			f->sub = sub;
			snprintf(f->name, sizeof(f->name), "%s_%s_%s", subsystems[sub],
				 verbs[rndn(sizeof(verbs) / sizeof(verbs[0]))],
				 nouns[rndn(sizeof(nouns) / sizeof(nouns[0]))]);
			/* make names unique the way the kernel does it: a suffix */
			len = strlen(f->name);
			if (rndn(4) == 0)
				snprintf(f->name + len, sizeof(f->name) - len, ".isra.%u", i % 3);
			else
				snprintf(f->name + len, sizeof(f->name) - len, "_%u", i);
		}
		pos += n;
	}
	level_first[NR_LEVELS] = pos;
	level_count[NR_LEVELS] = NR_HELPERS;
	for (i = 0; i < NR_HELPERS; i++) {
		snprintf(funcs[pos + i].name, sizeof(funcs[pos + i].name), "%s", helpers[i]);
		funcs[pos + i].level = NR_LEVELS;
		funcs[pos + i].sub = -1;
	}
	/* the lock helpers call the preempt counters, as on a PREEMPT kernel */
	for (i = 0; i < 4; i++) {
		struct func *f = &funcs[pos + i];

		f->nr_callees = 1;
		f->callee[0] = pos + (i % 2 ? 7 : 6);
		f->prob[0] = 1.0f;
		f->loop[0] = 1;
	}
	/* callees: mostly one to three levels down, mostly the same subsystem */
	for (i = 0; i < pos; i++) {
		struct func *f = &funcs[i];
		int n = f->level == NR_LEVELS - 1 ? (int)rndn(3) : 2 + (int)rndn(5);

		for (j = 0; j < (uint32_t)n && f->nr_callees < MAX_CALLEES - 2; j++) {
			int lv = f->level + 1 + (int)rndn(3);
			uint32_t c, tries;

			if (lv > NR_LEVELS - 1)
				lv = NR_LEVELS - 1;
			if (lv <= f->level)
				break;
			c = level_first[lv] + rndn(level_count[lv]);
			for (tries = 0; tries < 8 && rndn(10) < 7 && funcs[c].sub != f->sub;
			     tries++)
				c = level_first[lv] + rndn(level_count[lv]);
			f->callee[f->nr_callees] = c;
			/* call probability: skewed so a few chains are hot */
			f->prob[f->nr_callees] = (float)(f->level == 0 ? 0.5 + 0.5 * rndf() :
							 0.15 + 0.6 * rndf() * rndf());
			f->loop[f->nr_callees] = rndn(8) == 0 ? (uint8_t)(2 + rndn(6)) : 1;
			f->nr_callees++;
		}
		/* hot helpers: many functions take a lock or enter RCU */
		if (rndn(10) < 6) {
			/* lock/unlock pairs */
			uint32_t h = (uint32_t)rndn(NR_HELPERS / 2) * 2;

			f->callee[f->nr_callees] = pos + h;
			f->prob[f->nr_callees] = 0.9f;
			f->loop[f->nr_callees++] = 1 + (uint8_t)rndn(3);
			f->callee[f->nr_callees] = pos + h + 1;
			f->prob[f->nr_callees] = 0.9f;
			f->loop[f->nr_callees++] = 1 + (uint8_t)rndn(3);
		}
	}
}

/* The seed's symbol map format: "name|path", one line per function. */
static int write_map(const char *path)
{
	FILE *f = fopen(path, "w");
	uint32_t i, j;

	if (!f) {
		perror(path);
		return -1;
	}
	fprintf(f, "ret_from_fork_asm|arch/x86/entry/entry_64.S\n");
	for (i = 0; i < nr_funcs; i++) {
		const struct func *fn = &funcs[i];

		for (j = 0; j < i && strcmp(funcs[j].name, fn->name); j++)
			;
		if (j < i)
			continue;	/* a name made twice: one entry */
		fprintf(f, "%s|%s\n", fn->name,
			fn->sub < 0 ? helper_files[i - (nr_funcs - NR_HELPERS)] :
				      sub_files[fn->sub]);
	}
	return fclose(f) ? -1 : 0;
}

static void print_ts(char *buf, size_t len)
{
	if (counter_clock)
		snprintf(buf, len, "%" PRIu64, now);
	else
		snprintf(buf, len, "%" PRIu64 ".%06" PRIu64, (uint64_t)(now / 1000000000u),
			 (uint64_t)(now / 1000 % 1000000u));
}

static void emit_function(int cpu, const struct cpu *c, uint32_t fn, uint32_t parent)
{
	char ts[32];

	print_ts(ts, sizeof(ts));
	printf("%16s-%-7d [%03d] %s %s: %s <-%s\n", c->comm, c->pid, cpu,
	       c->irq ? "d.h1." : "d..1.", ts, funcs[fn].name,
	       parent == UINT32_MAX ? "ret_from_fork_asm" : funcs[parent].name);
}

static void graph_indent(int depth)
{
	int i;

	for (i = 0; i < depth; i++)
		fputs("  ", stdout);
}

static void fmt_us(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%4" PRIu64 ".%03" PRIu64 " us  ", ns / 1000, ns % 1000);
}

/* Chooses the next callee of @f, or -1 when the call returns. */
static int next_callee(struct frame *f)
{
	const struct func *fn = &funcs[f->func];

	if (f->repeats_left > 0) {
		f->repeats_left--;
		return (int)fn->callee[f->next - 1];
	}
	while (f->next < fn->nr_callees) {
		int slot = f->next++;

		if (rndf() < fn->prob[slot]) {
			f->repeats_left = fn->loop[slot] > 1 ? (int)rndn(fn->loop[slot]) : 0;
			return (int)fn->callee[slot];
		}
	}
	return -1;
}

static void push(struct cpu *c, uint32_t fn)
{
	struct frame *f = &c->stack[c->depth++];

	memset(f, 0, sizeof(*f));
	f->func = fn;
	f->self_ns = funcs[fn].level == NR_LEVELS ? 40 + rndn(120) : 200 + rndn(3000);
}

/* Advances CPU @cpu by one step; returns the number of events written (0 or 1 or 2). */
static int step(int cpu, struct cpu *c)
{
	struct frame *f;
	int callee;

	if (c->depth == 0) {
		uint32_t e = pick_entry();
		const struct task_id *t = &tasks[rndn(NR_TASKS)];

		c->irq = funcs[e].irq;
		if (!c->irq) {
			c->comm = t->comm;
			c->pid = t->pid;
		}
		if (e >= 50 && e < 56) {
			static char kw[16][24];

			snprintf(kw[cpu % 16], sizeof(kw[0]), "kworker/%d:1", cpu);
			c->comm = kw[cpu % 16];
			c->pid = 100 + cpu;
		}
		push(c, e);
		if (!graph) {
			emit_function(cpu, c, e, UINT32_MAX);
			return 1;
		}
	}
	f = &c->stack[c->depth - 1];
	callee = c->depth < MAX_DEPTH ? next_callee(f) : -1;
	if (graph) {
		if (callee >= 0 && !f->printed_open) {
			printf("%2d)               |  ", cpu);
			graph_indent(c->depth - 1);
			printf("%s() {\n", funcs[f->func].name);
			f->printed_open = true;
			push(c, (uint32_t)callee);
			return 1;
		}
		if (callee >= 0) {
			push(c, (uint32_t)callee);
			return 0;
		}
		{
			uint64_t dur = f->self_ns + f->child_ns;
			char d[32];

			fmt_us(d, sizeof(d), dur);
			if (f->printed_open) {
				printf("%2d) %s  |  ", cpu, d);
				graph_indent(c->depth - 1);
				printf("} /* %s */\n", funcs[f->func].name);
			} else {
				printf("%2d) %s  |  ", cpu, d);
				graph_indent(c->depth - 1);
				printf("%s();\n", funcs[f->func].name);
			}
			c->depth--;
			if (c->depth)
				c->stack[c->depth - 1].child_ns += dur;
			now += dur;
			return f->printed_open ? 1 : 2;
		}
	}
	if (callee < 0) {
		c->depth--;
		return 0;
	}
	push(c, (uint32_t)callee);
	now += 30 + rndn(200);
	emit_function(cpu, c, (uint32_t)callee, f->func);
	return 1;
}

static const char usage[] =
	"Usage: gen-ftrace [--events N] [--tracer function|function_graph] [--seed S]\n"
	"                  [--funcs N] [--cpus N] [--clock counter|seconds] [--map FILE]\n"
	"                  > trace.txt\n";

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "events", required_argument, NULL, 'n' },
		{ "tracer", required_argument, NULL, 't' },
		{ "seed", required_argument, NULL, 's' },
		{ "funcs", required_argument, NULL, 'f' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "clock", required_argument, NULL, 'k' },
		{ "map", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t events = 100000, written = 0, next_lost;
	uint32_t nfuncs = 3500;
	const char *map = NULL;
	int ncpus = 16, opt, i;
	struct cpu *cpus;
	static char outbuf[1 << 20];

	rng_state = 0x9e3779b97f4a7c15ULL;
	while ((opt = getopt_long(argc, argv, "n:t:s:f:c:k:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'n':
			events = strtoull(optarg, NULL, 10);
			break;
		case 't':
			if (!strcmp(optarg, "function_graph"))
				graph = true;
			else if (strcmp(optarg, "function")) {
				fputs(usage, stderr);
				return 2;
			}
			break;
		case 's':
			rng_state = strtoull(optarg, NULL, 0) | 1;
			break;
		case 'f':
			nfuncs = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'c':
			ncpus = atoi(optarg);
			break;
		case 'k':
			counter_clock = !strcmp(optarg, "counter");
			break;
		case 'm':
			map = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (nfuncs < NR_ENTRIES + NR_HELPERS + 100 || ncpus < 1 || ncpus > 256 || !events) {
		fputs("gen-ftrace: need --funcs >= 172, --cpus 1..256, --events >= 1\n", stderr);
		return 2;
	}
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	build_graph(nfuncs);
	if (map && write_map(map))
		return 1;
	cpus = calloc((size_t)ncpus, sizeof(*cpus));
	if (!cpus)
		return 1;
	for (i = 0; i < ncpus; i++) {
		cpus[i].comm = "<idle>";	/* an interrupt before any task ran on the CPU */
		cpus[i].pid = 0;
	}
	if (graph)
		printf("# tracer: function_graph\n#\n# CPU  DURATION                  FUNCTION CALLS\n"
		       "# |     |   |                     |   |   |   |\n");
	next_lost = 150000 + rndn(150000);
	while (written < events) {
		int cpu = (int)rndn((unsigned)ncpus);
		int burst = 1 + (int)rndn(40);

		for (i = 0; i < burst && written < events; i++)
			written += (uint64_t)step(cpu, &cpus[cpu]);
		if (written >= next_lost) {
			int lc = (int)rndn((unsigned)ncpus);

			printf("CPU:%d [LOST %u EVENTS]\n", lc, 100 + rndn(5000));
			/* the CPU's call tree continues somewhere we did not see */
			cpus[lc].depth = cpus[lc].depth > 2 ? 2 : cpus[lc].depth;
			next_lost = written + 150000 + rndn(150000);
		}
	}
	free(cpus);
	free(funcs);
	return fflush(stdout) ? 1 : 0;
}
