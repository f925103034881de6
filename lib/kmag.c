// SPDX-License-Identifier: MIT
/*
 * kmag.c - version, error and log plumbing, small shared helpers.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>

#include "config.h"
#include "internal.h"

char *kmag_format_duration(char *buf, size_t len, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, len, "%" PRIu64 " ns", ns);
	else if (ns < 1000000)
		snprintf(buf, len, "%.3f us", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, len, "%.3f s", (double)ns / 1e9);
	return buf;
}

const char *kmag_version(void)
{
	return KMAG_VERSION_STRING;
}

int kmag_err_set(struct kmag_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (code < 0)
		code = -code;
	if (!code)
		code = EINVAL;
	if (err && !err->code) {
		err->code = code;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return -code;
}

void kmag_err_clear(struct kmag_err *err)
{
	if (err) {
		err->code = 0;
		err->msg[0] = '\0';
	}
}

/*
 * The log sink is process-wide by design (like libbpf_set_print): it is the
 * one piece of configuration a program sets once, before any object exists.
 */
static kmag_log_fn log_fn;
static enum kmag_log_level log_max = KMAG_LOG_WARN;

void kmag_set_log(kmag_log_fn fn, enum kmag_log_level max_level)
{
	log_fn = fn;
	log_max = max_level;
}

void kmag__log(enum kmag_log_level level, const char *domain, const char *fmt, ...)
{
	int saved = errno;
	char buf[1024];
	va_list ap;

	if (level > log_max)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (log_fn)
		log_fn(level, domain, buf);
	else
		fprintf(stderr, "kmag: %s%s\n", level == KMAG_LOG_WARN ? "warning: " : "", buf);
	errno = saved;
}

void kmag__tell(kmag_warn_fn fn, void *ctx, enum kmag_log_level level, const char *domain,
		const char *fmt, ...)
{
	int saved = errno;
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (fn)
		fn(ctx, buf);
	else
		kmag__log(level, domain, "%s", buf);
	errno = saved;
}

int kmag__glob_match(const char *pattern, const char *str)
{
	return fnmatch(pattern, str, 0) == 0;
}

int kmag__parse_cpulist(const char *spec, uint64_t *bits, unsigned nbits)
{
	const char *p = spec;

	memset(bits, 0, ((nbits + 63) / 64) * sizeof(uint64_t));
	if (!*p)
		return -EINVAL;
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		a = strtoul(p, &end, 10);
		b = a;
		p = end;
		if (*p == '-') {
			p++;
			if (*p < '0' || *p > '9')
				return -EINVAL;
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b || b >= nbits)
			return -ERANGE;
		for (; a <= b; a++)
			bits[a / 64] |= 1ULL << (a % 64);
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	return 0;
}

static const struct {
	const char *name;	/* the meson option */
	const char *library;	/* for the message */
	const char *package;	/* Debian's development package */
	bool have;
} features[KMAG_FEATURE_COUNT] = {
	[KMAG_FEATURE_GRAPHVIZ] = { "graphviz", "Graphviz", "libgraphviz-dev", KMAG_HAVE_GRAPHVIZ },
	[KMAG_FEATURE_CAIRO] = { "cairo", "cairo", "libcairo2-dev", KMAG_HAVE_CAIRO },
	[KMAG_FEATURE_LIBTRACECMD] = { "libtracecmd", "libtracecmd", "libtracecmd-dev",
				       KMAG_HAVE_LIBTRACECMD },
	[KMAG_FEATURE_LIBDW] = { "libdw", "libdw (elfutils)", "libdw-dev", KMAG_HAVE_LIBDW },
	[KMAG_FEATURE_TUI] = { "tui", "ncurses", "libncurses-dev", KMAG_HAVE_TUI },
	[KMAG_FEATURE_BTF] = { "btf", "libbpf", "libbpf-dev", KMAG_HAVE_BTF },
};

bool kmag_has_feature(enum kmag_feature f)
{
	return (unsigned)f < KMAG_FEATURE_COUNT && features[f].have;
}

const char *kmag_feature_name(enum kmag_feature f)
{
	return (unsigned)f < KMAG_FEATURE_COUNT ? features[f].name : "?";
}

int kmag_need_feature(enum kmag_feature f, const char *what, struct kmag_err *err)
{
	if (kmag_has_feature(f))
		return 0;
	if ((unsigned)f >= KMAG_FEATURE_COUNT)
		return kmag_err_set(err, EINVAL, "%s needs an unknown feature %d", what, (int)f);
	return kmag_err_set(err, ENOTSUP,
			    "%s needs %s: this kmag was built without it (apt install %s, then rebuild)",
			    what, features[f].library, features[f].package);
}

int kmag__parse_cpulist_err(const char *spec, uint64_t *bits, unsigned nbits, struct kmag_err *err)
{
	int ret = kmag__parse_cpulist(spec, bits, nbits);

	if (ret)
		return kmag_err_set(err, EINVAL, "invalid CPU list \"%s\" (expected e.g. 0-3,8)", spec);
	return 0;
}

char *kmag_fmt_count(char *buf, size_t len, uint64_t v)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%" PRIu64, v), i;
	size_t o = 0;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}
