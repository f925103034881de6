// SPDX-License-Identifier: MIT
/*
 * fuzz-render-tracedat: a whole trace.dat (as fuzz-tracedat; seeds are the
 * trimmed real traces, so kallsyms, cmdlines and events all mutate) read by
 * the built-in reader into a call graph and rendered into every output
 * (fuzz-render.h), checked for well-formed JSON, CSV, DOT, SVG and HTML.
 */
#include <stdlib.h>

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
	char path[64];
	int fd;

	if (size > (1u << 20))
		return 0;
	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	fuzz_render_trace(path, KMAG_READER_BUILTIN, empty);
	close(fd);
	return 0;
}
