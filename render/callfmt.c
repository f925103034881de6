// SPDX-License-Identifier: MIT
/*
 * callfmt.c - a call's arguments and call site as text (see callfmt.h).
 */
#include <stdio.h>
#include <string.h>

#include "kmag/btf.h"
#include "kmag/errors.h"
#include "kmag/render/callfmt.h"
#include "kmag/trace.h"

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

size_t kmag_fmt_args_btf(char *buf, size_t size, const struct kmag_call *call,
			 const struct kmag_btf_func *proto)
{
	size_t len = 0, a = 0, max = call->nargs;

	if (size)
		buf[0] = '\0';
	if (!max)
		return 0;
	for (uint32_t p = 0; p < proto->nparams && p < KMAG_BTF_MAX_PARAMS; a++, p++) {
		const struct kmag_btf_type *t = &proto->params[p].type;
		unsigned long arg;

		if (p)
			APPEND(buf, size, len, ", ");
		if (a >= max) {	/* only what the arch saves (6 registers on x86_64) */
			APPEND(buf, size, len, "...");
			break;
		}
		arg = (unsigned long)call->args[a];
		APPEND(buf, size, len, "%s=", proto->params[p].name);
		switch (t->kind) {
		case KMAG_BTF_UNKNOWN:
			APPEND(buf, size, len, "?0x%lx", arg);
			break;
		case KMAG_BTF_INT:
			if (t->is_signed)
				APPEND(buf, size, len, "%ld", (long)arg);
			else
				APPEND(buf, size, len, "0x%lx", arg);
			break;
		case KMAG_BTF_ENUM:
			APPEND(buf, size, len, "%ld", (long)arg);
			break;
		case KMAG_BTF_OTHER:
			APPEND(buf, size, len, "(%s)[0x%lx", t->kind_name, arg);
			for (uint32_t x = sizeof(long); x < t->size; x += sizeof(long)) {
				arg = a + 1 < max ? (unsigned long)call->args[++a] : 0;
				APPEND(buf, size, len, ":0x%lx", arg);
			}
			APPEND(buf, size, len, "]");
			break;
		default:	/* pointers, bools (unsigned ints to the kernel) */
			APPEND(buf, size, len, "0x%lx", arg);
			break;
		}
	}
	return len;
}

size_t kmag_fmt_trace_args(char *buf, size_t size, const struct kmag_call *call,
			   const struct kmag_trace *trace)
{
	const struct kmag_btf_func *proto;

	if (trace && kmag_trace_get_btf(trace)) {
		proto = kmag_trace_arg_proto(trace, call->func);
		if (proto)
			return kmag_fmt_args_btf(buf, size, call, proto);
		if (size)
			buf[0] = '\0';
		return 0;
	}
	return kmag_fmt_args(buf, size, call, trace ? kmag_trace_arg_names(trace, call->func) : NULL);
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

size_t kmag_fmt_retval(char *buf, size_t size, const struct kmag_call *call)
{
	int64_t e = call->has_retval ? kmag_call_errno(call->retval) : 0;
	const char *name = e ? kmag_errno_name((int)-e) : NULL;
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	if (!call->has_retval)
		return 0;
	if (e)
		APPEND(buf, size, len, "%lld%s%s", (long long)e, name ? " " : "", name ? name : "");
	else
		APPEND(buf, size, len, "0x%llx", (unsigned long long)call->retval);
	return len;
}
