// SPDX-License-Identifier: MIT
/*
 * tracedat-io.c - the two ways trace.dat bytes are read: a bounded pread()
 * and zstd decompression. Shared by the container parser (tracedat-read.c),
 * the option parser (tracedat-options.c) and the event reader
 * (input-tracedat.c), so none of them depends on another for its I/O.
 */
#define PR_DOMAIN "tracedat"
#include <stdio.h>
#include <unistd.h>
#include <zstd.h>

#include "internal.h"
#include "tracedat.h"

int kmag__tracedat_pread(struct tracedat *td, void *dst, size_t len, uint64_t off, const char *what,
			 struct kmag_err *err)
{
	uint8_t *p = dst;

	if (off > td->file_size || len > td->file_size - off)
		return kmag_err_set(err, EINVAL,
				    "truncated trace.dat: %s needs %zu bytes at offset %llu but the file has %llu",
				    what, len, (unsigned long long)off,
				    (unsigned long long)td->file_size);
	while (len) {
		ssize_t n = pread(td->fd, p, len, (off_t)off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return kmag_err_set(err, errno, "cannot read trace.dat (%s): %s", what,
					    strerror(errno));
		}
		if (n == 0)
			return kmag_err_set(err, EINVAL, "truncated trace.dat: file ended inside %s",
					    what);
		p += n;
		td->bytes_read += (uint64_t)n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int kmag__tracedat_decompress(struct tracedat *td, const void *src, size_t csize, void *dst,
			      size_t usize, const char *what, struct kmag_err *err)
{
	size_t got;

	if (!td->zctx) {
		td->zctx = ZSTD_createDCtx();
		if (!td->zctx)
			return kmag_err_set(err, ENOMEM, "out of memory (zstd context)");
	}
	got = ZSTD_decompressDCtx(td->zctx, dst, usize, src, csize);
	if (ZSTD_isError(got))
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: %s fails to decompress (%s)",
				    what, ZSTD_getErrorName(got));
	if (got != usize)
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: %s decompressed to %zu bytes, header says %zu",
				    what, got, usize);
	return 0;
}
