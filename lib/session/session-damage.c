// SPDX-License-Identifier: MIT
/*
 * session-damage.c - what a session tells of the damaged data its reading
 * read past (kmag_trace_damage()): a warning per place for the first ones,
 * then the totals; after a strict stop, how to read on.
 */
#define PR_DOMAIN "session"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "session-internal.h"

/* Places told one by one before only the totals are. */
#define DAMAGE_LINES 10

/* Appends ", N thing(s)" (without the comma first) to @buf at *@n. */
static void add_part(char *buf, size_t size, size_t *n, uint64_t v, const char *one,
		     const char *many)
{
	char num[32];
	int w;

	if (!v || *n >= size)
		return;
	w = snprintf(buf + *n, size - *n, "%s%s %s", *n ? ", " : "",
		     kmag_fmt_count(num, sizeof(num), v), v == 1 ? one : many);
	*n += w > 0 ? (size_t)w : 0;
}

void kmag__session_tell_damage(const struct kmag_session *s, struct kmag_err *err)
{
	const struct kmag_damage_summary *d = kmag_trace_damage(s->trace);
	char line[512], parts[400] = "", b[32], e[32];
	size_t i, n = 0;

	if (d->stopped) {
		/* the error says where; say how to read past it */
		if (err && err->code) {
			size_t len = strlen(err->msg);

			snprintf(err->msg + len, sizeof(err->msg) - len,
				 " (--strict: without it kmag skips the damage and reads on)");
		}
		return;
	}
	if (!d->places)
		return;
	for (i = 0; i < d->nr && i < DAMAGE_LINES; i++)
		kmag__session_warn(s, "%s: damaged: %s", s->name,
				   kmag_damage_describe(s->trace, &d->list[i], line, sizeof(line)));
	if (d->places > i)
		kmag__session_warn(s, "%s: ... and %" PRIu64 " more damaged place%s", s->name,
				   d->places - i, d->places - i == 1 ? "" : "s");
	if (d->skipped_bytes) {
		int w = snprintf(parts, sizeof(parts), "%s bytes skipped (about %s event%s)",
				 kmag_fmt_count(b, sizeof(b), d->skipped_bytes),
				 kmag_fmt_count(e, sizeof(e), d->lost_events),
				 d->lost_events == 1 ? "" : "s");

		n = w > 0 ? (size_t)w : 0;
	}
	add_part(parts, sizeof(parts), &n, d->skipped_lines, "line skipped", "lines skipped");
	add_part(parts, sizeof(parts), &n, d->bad_times, "impossible event time",
		 "impossible event times");
	add_part(parts, sizeof(parts), &n, d->bad_durations, "impossible call duration left out",
		 "impossible call durations left out");
	kmag__session_warn(s, "%s: read past %" PRIu64 " damaged place%s: %s (--strict stops at damage instead)",
			   s->name, d->places, d->places == 1 ? "" : "s",
			   parts[0] ? parts : "nothing lost");
}
