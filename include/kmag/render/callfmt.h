/* SPDX-License-Identifier: MIT */
/*
 * callfmt.h - one call's details as text, the same in every per-call view
 * (kmag replay, the explorer's Calls view, the terminal UI): its arguments
 * and its call site, as the kernel's function_graph text shows them.
 */
#ifndef KMAG_RENDER_CALLFMT_H
#define KMAG_RENDER_CALLFMT_H

#include <stddef.h>

#include "../replay.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Writes @call's arguments into @buf (@size bytes, always NUL-terminated):
 * "fd=0x3, buf=0x7ffd5000, count=0x400" with @names (kmag_trace_arg_names():
 * "fd,buf,count", only as many arguments as names), or every saved register
 * "0x3, 0x7ffd5000, ..." when @names is NULL. A struct passed in several
 * registers shows as "how=0x1:0x2". Empty when the call has none. Returns
 * the length it needed (as snprintf()).
 */
size_t kmag_fmt_args(char *buf, size_t size, const struct kmag_call *call, const char *names);

struct kmag_btf_func;
struct kmag_trace;
/*
 * Writes @call's arguments as the kernel's print_function_args() does from
 * @proto (kmag_trace_arg_proto()): as many as the prototype has, each
 * "name=" then signed integers and enums in decimal ("%ld" of the whole
 * register), unsigned integers, bools and pointers as 0x%lx, other types as
 * "(STRUCT)[0x1:0x2]" (one register per long), "..." past the saved
 * registers. Empty when the call saved no registers. Returns the length it
 * needed (as snprintf()).
 */
size_t kmag_fmt_args_btf(char *buf, size_t size, const struct kmag_call *call,
			 const struct kmag_btf_func *proto);
/*
 * @call's arguments in @trace's best knowledge: as the kernel prints them when
 * the trace has BTF (kmag_trace_set_btf(); nothing for a function the BTF
 * lacks, as the kernel), else kmag_fmt_args() with the trace's own names.
 */
size_t kmag_fmt_trace_args(char *buf, size_t size, const struct kmag_call *call,
			   const struct kmag_trace *trace);

/*
 * Writes the call site "ksys_write+0x71" (or "ksys_write" when the offset is
 * unknown) into @buf; empty when @caller is NULL. Returns the length it
 * needed (as snprintf()).
 */
size_t kmag_fmt_call_site(char *buf, size_t size, const char *caller, uint32_t caller_off);

/*
 * Writes @call's return value as `kmag replay` shows it: an error code in
 * decimal with its name ("-9 EBADF", kmag_call_errno()), anything else in hex
 * ("0x1000"); empty when the call has none. Returns the length it needed (as
 * snprintf()).
 */
size_t kmag_fmt_retval(char *buf, size_t size, const struct kmag_call *call);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_CALLFMT_H */
