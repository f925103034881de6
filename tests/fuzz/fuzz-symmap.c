// SPDX-License-Identifier: MIT
/*
 * fuzz-symmap: the symbol-map reader (kmag format and the seed's name|path),
 * then lookups and a path filter built from the input's first line.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz-common.h"
#include "kmag/symmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kmag_err err = { 0 };
	struct kmag_symmap *m;
	char path[64], spec[128];
	size_t i, n;
	int fd;

	fd = fuzz_memfile(data, size, path, sizeof(path));
	if (fd < 0)
		return 0;
	m = kmag_symmap_load(path, &err);
	close(fd);
	n = size < sizeof(spec) - 1 ? size : sizeof(spec) - 1;
	memcpy(spec, data, n);
	spec[n] = '\0';
	spec[strcspn(spec, "\n")] = '\0';
	if (m) {
		struct kmag_pathfilter *f = kmag_pathfilter_new(spec, &err);

		for (i = 0; i < kmag_symmap_count(m) && i < 64; i++) {
			const struct kmag_symmap_entry *e = kmag_symmap_entry(m, i);
			bool amb;

			kmag_symmap_lookup(m, e->name, e->addr, &amb);
			if (f)
				kmag_pathfilter_match(f, e->file);
		}
		kmag_symmap_lookup(m, spec, 0, NULL);
		kmag_pathfilter_free(f);
		kmag_symmap_free(m);
	}
	return 0;
}
