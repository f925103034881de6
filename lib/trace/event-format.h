/* SPDX-License-Identifier: MIT */
/*
 * event-format.h - what an analysis may know of a trace beyond the public
 * API: the libtraceevent format of its events, to decode their fields (the
 * probes' arguments, lib/analysis/probes.c). Internal; the readers' own
 * state stays in trace-internal.h.
 */
#ifndef KMAG_TRACE_EVENT_FORMAT_H
#define KMAG_TRACE_EVENT_FORMAT_H

struct kmag_trace;
struct tep_event;

/* The parsed format of event @id (libtraceevent's), or NULL; borrowed, lives with @t. */
struct tep_event *kmag__trace_event_format(struct kmag_trace *t, int id);

#endif /* KMAG_TRACE_EVENT_FORMAT_H */
