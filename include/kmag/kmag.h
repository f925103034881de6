/* SPDX-License-Identifier: MIT */
/*
 * kmag.h - libkmag basics: version, error reporting, logging.
 *
 * libkmag never exits and never writes to stdout. Functions returning int give
 * 0 (or a count) on success and -errno on failure; functions returning a pointer
 * give NULL and set errno. Where a failure needs a human explanation the
 * function also takes an optional struct kmag_err * which it fills on failure.
 */
#ifndef KMAG_KMAG_H
#define KMAG_KMAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "kmag/version.h"	/* KMAG_VERSION_STRING, generated from meson.build */

/* Returns the library version; a static string. */
const char *kmag_version(void);

/*
 * Writes the duration @ns as kmag's tables, pictures and messages print it
 * ("812 ns", "5.428 ms", "1.250 s") into @buf (@len bytes, always
 * NUL-terminated); returns @buf.
 */
char *kmag_format_duration(char *buf, size_t len, uint64_t ns);

/*
 * An error explanation for the user: one line, naming the cause and, where
 * known, the fix. The first error set wins, so the innermost (most precise)
 * explanation survives as the failure propagates outwards.
 */
struct kmag_err {
	int code;	/* positive errno value, 0 while no error is set */
	char msg[512];	/* NUL-terminated, no trailing newline */
};

/* Sets @err (if non-NULL and still empty). Returns -@code for chaining. */
int kmag_err_set(struct kmag_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Clears @err so it can be reused. */
void kmag_err_clear(struct kmag_err *err);

/*
 * Writes @v with thousands separators ("1,234,567") into @buf (@len bytes,
 * always NUL-terminated); returns @buf. The one digit grouping of kmag's
 * tables, pictures, pages and messages (here, below the renderers, because
 * the library's own messages group digits too: a session's damage warning).
 */
char *kmag_fmt_count(char *buf, size_t len, uint64_t v);

/*
 * A warning for the user: one line, without a "warning:" prefix; @msg is
 * borrowed for the call. Objects that take one warn through it, else log.
 */
typedef void (*kmag_warn_fn)(void *ctx, const char *msg);

enum kmag_log_level {
	KMAG_LOG_WARN = 0,
	KMAG_LOG_INFO = 1,
	KMAG_LOG_DEBUG = 2,
};

/* Receives one formatted message (no trailing newline). errno is preserved. */
typedef void (*kmag_log_fn)(enum kmag_log_level level, const char *domain, const char *msg);

/*
 * Installs the process-wide log sink (NULL restores the default, which writes
 * warnings to stderr) and the most verbose level delivered.
 */
void kmag_set_log(kmag_log_fn fn, enum kmag_log_level max_level);

/* Optional libraries a build of kmag may lack (meson features of the same name). */
enum kmag_feature {
	KMAG_FEATURE_GRAPHVIZ,		/* call-graph pictures, DOT output */
	KMAG_FEATURE_CAIRO,		/* visualize's bar chart */
	KMAG_FEATURE_LIBTRACECMD,	/* the libtracecmd trace.dat reader */
	KMAG_FEATURE_LIBDW,		/* reading DWARF (symbol maps, source paths) */
	KMAG_FEATURE_TUI,		/* the terminal explorer (ncurses) */
	KMAG_FEATURE_BTF,		/* the kernel's BTF types (libbpf) */
	KMAG_FEATURE_COUNT,
};

/* True when this build has @f. */
bool kmag_has_feature(enum kmag_feature f);
/* @f as meson and `kmag --version` spell it ("graphviz"); a static string. */
const char *kmag_feature_name(enum kmag_feature f);
/*
 * Returns 0 when this build has @f. Otherwise sets @err to "<what> needs
 * <library>: this kmag was built without it (apt install <package>, then
 * rebuild)" and returns -ENOTSUP.
 */
int kmag_need_feature(enum kmag_feature f, const char *what, struct kmag_err *err);

/*
 * "Did you mean": up to four of the @n @names that look like @word, the
 * closest first, each after @prefix, as "a, b, c" in @buf (@size bytes,
 * "" when none). A name looks like @word when it is a small typo of it (one
 * edit: a character wrong, missing, extra, or two swapped; two for words of
 * five characters or more), or when one starts with the other. The one
 * suggestion mechanism of kmag: options, commands, functions, events,
 * argument names. Returns how many were written.
 */
size_t kmag_suggest(const char *word, const char *const *names, size_t n, const char *prefix,
		    char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_KMAG_H */
