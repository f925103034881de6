// SPDX-License-Identifier: MIT
/*
 * fuzz-render-text: ftrace text (as fuzz-text: the first byte picks a
 * "# tracer:" head) read into a call graph and rendered into every output
 * (fuzz-render.h): reports, exports, DOT, chart, explorer and diff pages,
 * flame graphs, Chrome JSON and the slowest calls, checked for well-formed
 * JSON, CSV, DOT, SVG and HTML.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-render.h"

static struct kmag_cg *empty;	/* the diff's other side: a graph with nothing */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_quiet();
	empty = kmag_cg_new(NULL);
	if (!empty || kmag_cg_finish(empty))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const heads[] = { "", "# tracer: function_graph\n", "# tracer: function\n",
					     "cpus=2\n" };
	const char *head;
	uint8_t *buf;
	char path[64];
	size_t hl;
	int fd;

	if (!size || size > (256u << 10))
		return 0;
	head = heads[data[0] % 4];
	hl = strlen(head);
	buf = malloc(hl + size);
	if (!buf)
		return 0;
	memcpy(buf, head, hl);
	memcpy(buf + hl, data + 1, size - 1);
	fd = fuzz_memfile(buf, hl + size - 1, path, sizeof(path));
	free(buf);
	if (fd < 0)
		return 0;
	/* the empty graph has no functions: any symbol table serves as its names */
	fuzz_render_trace(path, KMAG_READER_AUTO, empty);
	close(fd);
	return 0;
}
