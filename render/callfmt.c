// SPDX-License-Identifier: MIT
/*
 * callfmt.c - a call's arguments and call site as text (see callfmt.h).
 */
#include <stdio.h>
#include <string.h>

#include "kmag/render/callfmt.h"

/* Appends with snprintf() semantics: @len counts what was needed. */
#define APPEND(buf, size, len, ...)                                                       \
	do {                                                                                \
		int n_ = snprintf((len) < (size) ? (buf) + (len) : NULL,                      \
				  (len) < (size) ? (size) - (len) : 0, __VA_ARGS__);          \
		if (n_ > 0)                                                                   \
			(len) += (size_t)n_;                                                  \
	} while (0)

size_t kmag_fmt_args(char *buf, size_t size, const struct kmag_call *call, const char *names)
{
	size_t len = 0, shown = call->nargs;
	const char *n = names;

	if (size)
		buf[0] = '\0';
	if (names) {	/* as many arguments as the function has names (registers) */
		shown = 1;
		for (const char *p = names; *p; p++)
			shown += *p == ',';
		if (!*names)
			shown = 0;
		if (shown > call->nargs)
			shown = call->nargs;
	}
	for (size_t i = 0; i < shown; i++) {
		const char *comma = n ? strchr(n, ',') : NULL;
		size_t nlen = n ? (comma ? (size_t)(comma - n) : strlen(n)) : 0;

		if (i && !(n && !nlen))
			APPEND(buf, size, len, ", ");
		if (n && !nlen)		/* the next register of a struct argument */
			APPEND(buf, size, len, ":");
		else if (nlen)
			APPEND(buf, size, len, "%.*s=", (int)nlen, n);
		APPEND(buf, size, len, "0x%llx", (unsigned long long)call->args[i]);
		if (n)
			n = comma ? comma + 1 : n + nlen;
	}
	return len;
}

size_t kmag_fmt_call_site(char *buf, size_t size, const char *caller, uint32_t caller_off)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	if (!caller)
		return 0;
	if (caller_off == KMAG_OFF_NONE)
		APPEND(buf, size, len, "%s", caller);
	else
		APPEND(buf, size, len, "%s+0x%x", caller, caller_off);
	return len;
}
