// SPDX-License-Identifier: MIT
/*
 * fuzz-dwarf: `kmag generate-symbol-map` on a hostile vmlinux or module: the
 * ELF/DWARF reading (elfutils underneath, kmag's paths, ranges, module layout
 * and .modinfo parsing on top).
 */
#include "fuzz-common.h"
#include "kmag/symmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *m;
	char path[64];
	int fd;

	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	m = kmag_symmap_new();
	if (m) {
		kmag_symmap_add_vmlinux(m, path, NULL, &stats, &err);
		kmag_err_clear(&err);
		kmag_symmap_add_module(m, path, NULL, NULL, &stats, &err);
		for (size_t i = 0; i < kmag_symmap_count(m) && i < 64; i++)
			kmag_symmap_lookup(m, kmag_symmap_entry(m, i)->name, 0, NULL);
		kmag_symmap_free(m);
	}
	close(fd);
	return 0;
}
