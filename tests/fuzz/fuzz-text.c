// SPDX-License-Identifier: MIT
/*
 * fuzz-text: the ftrace text reader (function and function_graph "trace"
 * files, trace-cmd report text) on arbitrary bytes. A leading "# tracer:"
 * line is added for half of the inputs so the graph parser is reached too.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "kmag/kmag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const heads[] = { "", "# tracer: function_graph\n", "# tracer: function\n",
					     "cpus=2\n" };
	const char *head;
	uint8_t *buf;
	char path[64];
	size_t hl;
	int fd;

	if (!size)
		return 0;
	fuzz_quiet();
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
	fuzz_read_trace(path, KMAG_READER_AUTO, true);
	close(fd);
	return 0;
}
