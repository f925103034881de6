// SPDX-License-Identifier: MIT
/*
 * tracedat-options.c - the trace.dat option records (v6 options section, v7
 * OPTIONS sections): clock, time offsets, uname, CPU count and stats, the
 * tracer's cost kmag record measured, and the
 * v7 BUFFER options that locate each CPU's data. Split from tracedat-read.c,
 * which walks the container and calls kmag__tracedat_option() per option.
 */
#define PR_DOMAIN "tracedat"
#include <stdio.h>

#include "internal.h"
#include "tracedat.h"
#include "tracedat-format.h"

/* "[local] global counter" -> "local" */
char *kmag__tracedat_parse_clock(const char *text, size_t len)
{
	const char *open = memchr(text, '[', len), *close;

	if (!open)
		return NULL;
	close = memchr(open, ']', len - (size_t)(open - text));
	if (!close || close == open + 1)
		return NULL;
	return strndup(open + 1, (size_t)(close - open - 1));
}

static char *opt_string(const uint8_t *data, uint32_t size)
{
	size_t len = strnlen((const char *)data, size);

	return strndup((const char *)data, len);
}

static int add_cpustat(struct tracedat *td, const uint8_t *data, uint32_t size, struct kmag_err *err)
{
	char *s;

	if (kmag__grow(&td->cpustats, &td->cap_cpustats, td->nr_cpustats + 1, sizeof(char *)))
		return kmag_err_set(err, ENOMEM, "out of memory");
	s = opt_string(data, size);
	if (!s)
		return kmag_err_set(err, ENOMEM, "out of memory");
	td->cpustats[td->nr_cpustats++] = s;
	return 0;
}

/* v7 BUFFER / BUFFER_TEXT option payload. */
static int parse_buffer_option(struct tracedat *td, uint16_t id, const uint8_t *data,
			       uint32_t size, struct kmag_err *err)
{
	struct td_buffer b = { 0 };
	uint32_t pos = 8, n, i;
	uint64_t sec_off;
	const char *name, *clock;
	size_t len;

	if (size < 8 + 2)
		goto bad;
	sec_off = td_get64(td, data);
	name = (const char *)data + pos;
	len = strnlen(name, size - pos);
	if (len == size - pos)
		goto bad;
	pos += (uint32_t)len + 1;
	clock = (const char *)data + pos;
	len = strnlen(clock, size - pos);
	if (len == size - pos)
		goto bad;
	pos += (uint32_t)len + 1;

	if (*name) {
		/* another tracefs instance: not read by kmag yet, say so once */
		td->nr_other_buffers++;
		return 0;
	}
	if (td->top.cpus || td->top.latency)
		return kmag_err_set(err, EINVAL, "corrupt trace.dat: two top-instance buffers");
	if (id == TD_OPT_BUFFER_TEXT) {
		td->top.latency = true;
		return 0;
	}
	if (size - pos < 8)
		goto bad;
	b.page_size = td_get32(td, data + pos);
	n = td_get32(td, data + pos + 4);
	pos += 8;
	if (n > TD_MAX_CPUS || (uint64_t)n * 20 > size - pos)
		goto bad;
	b.cpus = calloc(n ? n : 1, sizeof(*b.cpus));
	b.name = strdup(name);
	b.clock = *clock ? strdup(clock) : NULL;
	if (!b.cpus || !b.name || (*clock && !b.clock)) {
		free(b.cpus);
		free(b.name);
		free(b.clock);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	b.nr_cpus = (int)n;
	for (i = 0; i < n; i++, pos += 20) {
		b.cpus[i].cpu = (int)td_get32(td, data + pos);
		b.cpus[i].offset = td_get64(td, data + pos + 4);
		b.cpus[i].size = td_get64(td, data + pos + 12);
	}
	/* the data section header tells whether the CPU data is compressed */
	{
		uint8_t hdr[TD_SECTION_HEADER_SIZE];
		int ret = kmag__tracedat_pread(td, hdr, sizeof(hdr), sec_off,
					       "flyrecord section header", err);

		if (ret) {
			free(b.cpus);
			free(b.name);
			free(b.clock);
			return ret;
		}
		b.compressed = td_get16(td, hdr + 2) & TD_SEC_FL_COMPRESS;
	}
	td->top = b;
	return 0;
bad:
	return kmag_err_set(err, EINVAL, "corrupt trace.dat: malformed BUFFER option (%u bytes)",
			    size);
}

int kmag__tracedat_option(struct tracedat *td, uint16_t id, const uint8_t *data, uint32_t size,
			  struct td_v7_sections *secs, bool *has_clock_opt, struct kmag_err *err)
{
	switch (id) {
	case TD_OPT_DATE:
	case TD_OPT_OFFSET: {
		char *s = opt_string(data, size);
		long long v;

		if (!s)
			return kmag_err_set(err, ENOMEM, "out of memory");
		v = strtoll(s, NULL, 0);
		free(s);
		/* DATE is in microseconds, OFFSET in the clock's unit (ns) */
		td->ts_offset += id == TD_OPT_DATE ? v * 1000 : v;
		break;
	}
	case TD_OPT_CPUSTAT:
		return add_cpustat(td, data, size, err);
	case TD_OPT_BUFFER:
	case TD_OPT_BUFFER_TEXT:
		if (td->version >= 7)
			return parse_buffer_option(td, id, data, size, err);
		td->nr_other_buffers++;	/* v6: only instance buffers use this option */
		break;
	case TD_OPT_TRACECLOCK:
		*has_clock_opt = true;
		if (size) {
			free(td->clock);
			td->clock = kmag__tracedat_parse_clock((const char *)data, strnlen((const char *)data, size));
		}
		break;
	case TD_OPT_UNAME:
		free(td->uname);
		td->uname = opt_string(data, size);
		break;
	case TD_OPT_VERSION:
		free(td->tracer_version);
		td->tracer_version = opt_string(data, size);
		break;
	case TD_OPT_CPUCOUNT:
		if (size >= 4) {
			uint32_t n = td_get32(td, data);

			if (n == 0 || n > TD_MAX_CPUS)
				return kmag_err_set(err, EINVAL,
						    "corrupt trace.dat: CPUCOUNT option says %u CPUs", n);
			td->nr_cpus = (int)n;
		}
		break;
	case TD_OPT_HEADER_INFO:
	case TD_OPT_FTRACE_EVENTS:
	case TD_OPT_EVENT_FORMATS:
	case TD_OPT_KALLSYMS:
	case TD_OPT_PRINTK:
	case TD_OPT_CMDLINES:
	case TD_OPT_BTF_FILE:
		if (secs && size >= 8)
			secs->off[id] = td_get64(td, data);
		break;
	case KMAG_TRACEDAT_OPT_TRACER_COST:
		/* a malformed one is no cost: the times stay the kernel's */
		if (kmag_tracer_cost_parse((const char *)data, size, &td->cost))
			pr_debug("tracer cost option not understood: ignored\n");
		break;
	default:
		break;	/* options kmag has no use for are skipped, as trace-cmd does */
	}
	return 0;
}
