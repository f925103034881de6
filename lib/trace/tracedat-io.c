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
		/* (the prefetch threads read too: the count is shared) */
		__atomic_fetch_add(&td->bytes_read, (uint64_t)n, __ATOMIC_RELAXED);
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

int kmag__tracedat_decompress(struct tracedat *td, const void *src, size_t csize, void *dst,
			      size_t usize, const char *what, struct kmag_err *err)
{
	return kmag__zstd_decompress(&td->zctx, src, csize, dst, usize, what, err);
}

int kmag__zstd_decompress(void **zctx, const void *src, size_t csize, void *dst, size_t usize,
			  const char *what, struct kmag_err *err)
{
	size_t got;

	if (!*zctx) {
		*zctx = ZSTD_createDCtx();
		if (!*zctx)
			return kmag_err_set(err, ENOMEM, "out of memory (zstd context)");
	}
	got = ZSTD_decompressDCtx(*zctx, dst, usize, src, csize);
	if (ZSTD_isError(got))
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: %s fails to decompress (%s)",
				    what, ZSTD_getErrorName(got));
	if (got != usize)
		return kmag_err_set(err, EINVAL,
				    "corrupt trace.dat: %s decompressed to %zu bytes, header says %zu",
				    what, got, usize);
	return 0;
}

int kmag__tracedat_check_chunks(struct tracedat *td, struct kmag_err *err)
{
	uint8_t *src = NULL, *dst = NULL;
	size_t src_cap = 0, dst_cap = 0;
	int i, ret = 0;

	for (i = 0; i < td->top.nr_cpus && !ret; i++) {
		const struct td_cpu_data *d = &td->top.cpus[i];
		uint64_t pos = d->offset + 4, end;
		uint32_t n;
		uint8_t h[8];

		if (!d->size)
			continue;
		end = d->size > td->file_size - pos ? td->file_size : pos + d->size;
		if ((ret = kmag__tracedat_pread(td, h, 4, d->offset, "chunk count", err)))
			break;
		for (n = td_get32(td, h); n && !ret; n--) {
			uint32_t csize, usize;
			char what[80];

			snprintf(what, sizeof(what), "CPU %d's zstd chunk at file offset %llu", d->cpu,
				 (unsigned long long)pos);
			if (end - pos < 8 ||
			    (ret = kmag__tracedat_pread(td, h, 8, pos, what, err)))
				goto bad;
			csize = td_get32(td, h);
			usize = td_get32(td, h + 4);
			if (csize > end - pos - 8 || usize > (64u << 20))
				goto bad;
			if (kmag__grow(&src, &src_cap, csize ? csize : 1, 1) ||
			    kmag__grow(&dst, &dst_cap, usize ? usize : 1, 1)) {
				ret = kmag_err_set(err, ENOMEM, "out of memory");
				break;
			}
			if ((ret = kmag__tracedat_pread(td, src, csize, pos + 8, what, err)))
				break;
			if (usize && kmag__tracedat_decompress(td, src, csize, dst, usize, what, NULL))
				goto bad;
			pos += 8 + (uint64_t)csize;
			continue;
bad:
			ret = kmag_err_set(err, EINVAL,
					   "damaged trace.dat: %s cannot be read, and libtracecmd does not survive it; read the file with the built-in reader (--reader builtin), which skips the damage",
					   what);
		}
	}
	free(src);
	free(dst);
	return ret;
}

void kmag__zstd_free(void *zctx)
{
	ZSTD_freeDCtx(zctx);	/* (NULL is fine) */
}
