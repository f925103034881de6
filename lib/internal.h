/* SPDX-License-Identifier: MIT */
/*
 * internal.h - helpers shared inside libkmag only. Not installed, not for cli/.
 */
#ifndef KMAG_INTERNAL_H
#define KMAG_INTERNAL_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kmag/kmag.h"
#include "util/grow.h"
#include "util/hash.h"

#define __hidden __attribute__((visibility("hidden")))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#ifndef PR_DOMAIN
#define PR_DOMAIN "kmag"
#endif

void kmag__log(enum kmag_log_level level, const char *domain, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/*
 * A message for the user through a caller's callback (@fn(@ctx, msg): notes,
 * warnings), else logged at @level: the one way lib/ tells the user something.
 */
void kmag__tell(kmag_warn_fn fn, void *ctx, enum kmag_log_level level, const char *domain,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
#define pr_warn(fmt, ...) kmag__log(KMAG_LOG_WARN, PR_DOMAIN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) kmag__log(KMAG_LOG_INFO, PR_DOMAIN, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) kmag__log(KMAG_LOG_DEBUG, PR_DOMAIN, fmt, ##__VA_ARGS__)

/* Simple glob match ('*', '?', '[...]'), as fnmatch(3) without flags. */
int kmag__glob_match(const char *pattern, const char *str);

/* Parses a CPU list ("0-3,8") into a bitmap of @nbits. Returns 0 or -EINVAL. */
int kmag__parse_cpulist(const char *spec, uint64_t *bits, unsigned nbits);
/* The same, with the one message every --cpu option gives in @err. */
int kmag__parse_cpulist_err(const char *spec, uint64_t *bits, unsigned nbits, struct kmag_err *err);

#endif /* KMAG_INTERNAL_H */
