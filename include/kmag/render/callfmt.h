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

/*
 * Writes the call site "ksys_write+0x71" (or "ksys_write" when the offset is
 * unknown) into @buf; empty when @caller is NULL. Returns the length it
 * needed (as snprintf()).
 */
size_t kmag_fmt_call_site(char *buf, size_t size, const char *caller, uint32_t caller_off);

#ifdef __cplusplus
}
#endif

#endif /* KMAG_RENDER_CALLFMT_H */
