// SPDX-License-Identifier: MIT
/*
 * fuzz-tracedat: kmag's trace.dat reader (v6 and v7: container, sections,
 * zstd, formats, page walk, decode) on arbitrary bytes. Seeds: the fixtures.
 */
#include "fuzz-common.h"
#include "kmag/kmag.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd;

	fuzz_quiet();
	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	fuzz_read_trace(path, KMAG_READER_BUILTIN, true);
	close(fd);
	return 0;
}
