// SPDX-License-Identifier: MIT
/*
 * libkmag-count.c - a program built against an installed libkmag through
 * pkg-config (tests/e2e/t0060-install.sh): reads a trace with the public API
 * and prints "functions N calls N edges N" of its call graph.
 */
#include <inttypes.h>
#include <stdio.h>

#include <kmag/callgraph.h>
#include <kmag/kmag.h>
#include <kmag/trace.h>

int main(int argc, char **argv)
{
	struct kmag_err err = { 0 };
	struct kmag_trace *t;
	struct kmag_cg *cg;
	const struct kmag_cg_node *nodes;
	uint64_t calls = 0;
	size_t i, n;
	int ret = 1;

	if (argc != 2) {
		fprintf(stderr, "usage: libkmag-count TRACE\n");
		return 2;
	}
	t = kmag_trace_open(argv[1], NULL, &err);
	if (!t) {
		fprintf(stderr, "libkmag-count: %s\n", err.msg);
		return 1;
	}
	cg = kmag_cg_new(NULL);
	if (cg && kmag_trace_read(t, kmag_cg_event_fn, cg, &err) >= 0 && !kmag_cg_finish(cg)) {
		nodes = kmag_cg_nodes(cg);
		n = kmag_cg_nr_nodes(cg);
		for (i = 0; i < n; i++)
			calls += nodes[i].st.calls;
		printf("libkmag %s: functions %zu calls %" PRIu64 " edges %zu\n", kmag_version(), n,
		       calls, kmag_cg_nr_edges(cg));
		ret = 0;
	} else {
		fprintf(stderr, "libkmag-count: %s\n", err.msg[0] ? err.msg : "out of memory");
	}
	kmag_cg_free(cg);
	kmag_trace_close(t);
	return ret;
}
