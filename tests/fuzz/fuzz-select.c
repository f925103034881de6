// SPDX-License-Identifier: MIT
/*
 * fuzz-select: record-time selection (kmag_symmap_select) over hostile
 * available_filter_functions text; the first line is the path filter.
 */
#include <string.h>

#include "fuzz-common.h"
#include "kmag/symmap.h"

static const struct kmag_symmap_entry entries[] = {
	{ "tcp_sendmsg", "net/ipv4/tcp.c", 1490, 0xffffffff8185ba30ull, 60, NULL },
	{ "helper", "net/core/dev.c", 10, 0xffffffff81800100ull, 64, NULL },
	{ "helper", "kernel/sched/fair.c", 20, 0xffffffff81100000ull, 64, NULL },
	{ "helper", "net/netfilter/nfx.c", 50, KMAG_MODULE_TEXT_BASE + 0x40, 32, "nfx" },
	{ "schedule", "kernel/sched/core.c", 6654, 0xffffffff81a114f0ull, 199, NULL },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmag_symmap *m = kmag_symmap_new();
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f;
	struct kmag_selection sel;
	char spec[128];
	size_t n = size < sizeof(spec) - 1 ? size : sizeof(spec) - 1;

	if (!m)
		return 0;
	for (size_t i = 0; i < sizeof(entries) / sizeof(entries[0]); i++)
		kmag_symmap_add(m, &entries[i]);
	memcpy(spec, data, n);
	spec[n] = '\0';
	spec[strcspn(spec, "\n")] = '\0';
	f = kmag_pathfilter_new(spec, &err);
	if (f && kmag_symmap_select(m, f, (const char *)data, size, &sel, &err) >= 0)
		kmag_selection_release(&sel);
	kmag_pathfilter_free(f);
	kmag_symmap_free(m);
	return 0;
}
