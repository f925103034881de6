// SPDX-License-Identifier: MIT
/*
 * record-opts.c - the checks of `kmag record`'s options that need no kernel:
 * one place for them, run by the CLI right after parsing (a usage error) and
 * again by kmag_recorder_new(). Also the --cpu / --cpumask parsers and the
 * tracer names.
 */
#include <stdio.h>

#include "analysis/trigger.h"
#include "record-internal.h"

const char *kmag_rec_tracer_name(enum kmag_rec_tracer t)
{
	switch (t) {
	case KMAG_REC_TRACER_AUTO:
		return "auto";
	case KMAG_REC_TRACER_NONE:
		return "nop";
	case KMAG_REC_TRACER_FUNCTION:
		return "function";
	case KMAG_REC_TRACER_FUNCTION_GRAPH:
		return "function_graph";
	}
	return "?";
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * A tracing_cpumask-style hex mask: "3", "0x3", or the kernel's 32-bit groups
 * ("ff,ffffffff": every group after the first has 8 digits).
 */
static bool is_hex_mask(const char *s)
{
	const char *comma = strchr(s, ',');

	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	if (!*s || *s == ',' || strspn(s, "0123456789abcdefABCDEF,") != strlen(s))
		return false;
	while (comma) {
		const char *next = strchr(comma + 1, ',');
		size_t len = next ? (size_t)(next - comma - 1) : strlen(comma + 1);

		if (len != 8)
			return false;
		comma = next;
	}
	return true;
}

int kmag__rec_parse_cpumask(const char *spec, uint64_t *mask)
{
	const char *s = spec;
	size_t len, bit = 0;

	memset(mask, 0, REC_MASK_WORDS * sizeof(uint64_t));
	if (!is_hex_mask(s))
		return -EINVAL;
	if (!strncmp(s, "0x", 2) || !strncmp(s, "0X", 2))
		s += 2;
	len = strlen(s);
	while (len--) {
		int v = hexval(s[len]);

		if (v < 0)
			continue;	/* a group comma */
		for (int b = 0; b < 4; b++, bit++)
			if (v & (1 << b)) {
				if (bit >= REC_MAX_CPUS)
					return -ERANGE;
				mask[bit / 64] |= 1ull << (bit % 64);
			}
	}
	return 0;
}

int kmag__rec_parse_cpus(const struct kmag_record_opts *o, uint64_t *mask, struct kmag_err *err)
{
	size_t i;

	memset(mask, 0, REC_MASK_WORDS * sizeof(uint64_t));
	if (o->cpus && o->cpumask)
		return kmag_err_set(err, EINVAL,
				    "give the CPUs once: --cpu LIST (0-3,8) or --cpumask MASK (hex), not both");
	if (o->cpus)
		return kmag__parse_cpulist_err(o->cpus, mask, REC_MAX_CPUS, err);
	if (!o->cpumask)
		return 0;
	if (kmag__rec_parse_cpumask(o->cpumask, mask)) {
		uint64_t list[REC_MASK_WORDS];

		/* "0-3" or "1,3" is a list of CPUs: --cpu reads those */
		if (!kmag__parse_cpulist(o->cpumask, list, REC_MAX_CPUS))
			return kmag_err_set(err, EINVAL,
					    "--cpumask takes a hex mask, as tracing_cpumask does (3 = CPUs 0-1); for the CPUs %s use --cpu %s",
					    o->cpumask, o->cpumask);
		return kmag_err_set(err, EINVAL,
				    "--cpumask %s is not a hex CPU mask (3 = CPUs 0-1, 0x10 = CPU 4; at most %d CPUs)",
				    o->cpumask, REC_MAX_CPUS);
	}
	for (i = 0; i < REC_MASK_WORDS; i++)
		if (mask[i])
			return 0;
	return kmag_err_set(err, EINVAL, "--cpumask %s selects no CPU", o->cpumask);
}

/* --flight, --trigger, --after, --snapshots. */
static int check_flight(const struct kmag_record_opts *o, struct kmag_err *err)
{
	size_t i;

	if (!o->flight_bytes) {
		if (o->nr_triggers || o->after_ns || o->snapshots)
			return kmag_err_set(err, EINVAL,
					    "--trigger, --after and --snapshots work with the flight recorder: add --flight SIZE");
		return 0;
	}
	if (o->file_version == 6 || o->compression == KMAG_REC_COMPRESS_NONE)
		return kmag_err_set(err, EINVAL,
				    "--flight keeps zstd blocks and writes trace.dat v7 with zstd: leave out --file-version 6 and --compression none");
	if (o->after_ns > 3600ull * 1000000000ull)
		return kmag_err_set(err, EINVAL, "--after is at most an hour");
	if (o->snapshots > 1000)
		return kmag_err_set(err, EINVAL, "--snapshots is 1..1000");
	for (i = 0; i < o->nr_triggers; i++) {
		struct kmag__trigger t;
		int ret = kmag__trigger_parse(o->triggers[i], &t, err);

		if (ret)
			return ret;
		kmag__trigger_release(&t);
	}
	return 0;
}

int kmag_record_opts_check(const struct kmag_record_opts *o, struct kmag_err *err)
{
	uint64_t mask[REC_MASK_WORDS];
	bool graph_opts = o->nr_graph_funcs || o->max_graph_depth;
	enum kmag_rec_tracer t = o->tracer;
	size_t i;
	int ret;

	if ((ret = kmag__rec_parse_cpus(o, mask, err)))
		return ret;
	/* with the tracer chosen by the kernel (auto), kmag_recorder_new() checks these */
	if ((t == KMAG_REC_TRACER_FUNCTION || t == KMAG_REC_TRACER_NONE) && graph_opts)
		return kmag_err_set(err, EINVAL,
				    "-g and --max-graph-depth need the function_graph tracer (not -p %s)",
				    kmag_rec_tracer_name(t));
	if ((t == KMAG_REC_TRACER_FUNCTION || t == KMAG_REC_TRACER_NONE) && o->threshold_us)
		return kmag_err_set(err, EINVAL,
				    "--threshold needs the function_graph tracer (it times calls; not -p %s)",
				    kmag_rec_tracer_name(t));
	if ((ret = check_flight(o, err)))
		return ret;
	if (t == KMAG_REC_TRACER_NONE && !o->nr_events && !o->nr_probes && !kmag__rec_event_triggers(o))
		return kmag_err_set(err, EINVAL,
				    "-p nop records only tracepoint events and probes, and none was given: add -e SYSTEM:EVENT or --kprobe/--uprobe");
	if (t == KMAG_REC_TRACER_NONE && o->args)
		return kmag_err_set(err, EINVAL,
				    "--args records function arguments: it needs a function tracer (function_graph or function), not -p nop");
	if (t == KMAG_REC_TRACER_NONE && (rec_filters_funcs(o) || o->nr_notrace))
		return kmag_err_set(err, EINVAL,
				    "-l, --func-list, --filter-filepath and -n need a function tracer, not -p nop");
	if (o->max_graph_depth > 1000)
		return kmag_err_set(err, EINVAL, "--max-graph-depth must be 1..1000");
	if (o->threshold_us > 100000000)
		return kmag_err_set(err, EINVAL, "--threshold is in microseconds, 1..100000000");
	if (o->buffer_kb && o->buffer_kb < 4)
		return kmag_err_set(err, EINVAL, "--buffer-size is in KiB per CPU and must be at least 4");
	if (o->follow_forks && !o->nr_pids)
		return kmag_err_set(err, EINVAL, "-c follows the children of -P tasks; give -P PID");
	if (o->command && o->nr_pids)
		return kmag_err_set(err, EINVAL, "give either -P or a command after --, not both");
	for (i = 0; i < o->nr_pids; i++)
		if (o->pids[i] <= 0)
			return kmag_err_set(err, EINVAL, "-P %d is not a process id", (int)o->pids[i]);
	if (o->file_version && o->file_version != 6 && o->file_version != 7)
		return kmag_err_set(err, EINVAL, "--file-version must be 6 or 7");
	if (o->file_version == 6 && o->compression == KMAG_REC_COMPRESS_ZSTD)
		return kmag_err_set(err, EINVAL,
				    "trace.dat v6 cannot be compressed (use --file-version 7)");
	if (!o->output || !*o->output)
		return kmag_err_set(err, EINVAL, "no output file given");
	if (!o->path_map != !o->path_filter)
		return kmag_err_set(err, EINVAL,
				    "a path filter needs a symbol map, and a symbol map a filter");
	return 0;
}
