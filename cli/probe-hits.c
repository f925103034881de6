// SPDX-License-Identifier: MIT
/*
 * probe-hits.c - hits of dynamic probes (kmag record --kprobe/--uprobe) on
 * the traced functions, collected while a command reads its call graph, so
 * pictures and pages can mark the probed functions.
 */
#include "cli.h"
#include "kmag/probes.h"

int cli_probe_hits_after_open(void *ctx, struct kmag_trace *t)
{
	struct cli_probe_hits *p = ctx;
	int ret = p->sm ? cli_symmap_after_open(p->sm, t) : 0;

	if (ret)
		return ret;
	/* only trace.dat files carry the event formats that make probes known */
	if (kmag_trace_info(t)->format == KMAG_INPUT_TRACEDAT) {
		p->probes = kmag_probes_new(t);
		if (!p->probes)
			return cli_error("out of memory");
	}
	return 0;
}

int cli_probe_hits_tap(const struct kmag_event *ev, void *ctx)
{
	struct cli_probe_hits *p = ctx;

	return p->probes ? kmag_probes_add(p->probes, ev) : 0;
}

uint64_t cli_probe_hits_of(void *ctx, kmag_func_t func)
{
	const struct cli_probe_hits *p = ctx;

	return kmag_probes_hits_of(p->probes, func);
}

bool cli_probe_hits_any(const struct cli_probe_hits *p)
{
	return p->probes && kmag_probes_count(p->probes) > 0;
}

void cli_probe_hits_release(struct cli_probe_hits *p)
{
	kmag_probes_free(p->probes);
	p->probes = NULL;
}
