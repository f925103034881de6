// SPDX-License-Identifier: MIT
/*
 * stack.c - `kmag stack`: the deepest kernel stack, frame by frame.
 */
#include <string.h>

#include "kmag/render/stack.h"
#include "kmag/report.h"
#include "kmag/stack.h"
#include "render-util.h"

#define BAR_WIDTH 30

int kmag_stack_text(FILE *out, const struct kmag_stack_result *res)
{
	unsigned long biggest = 0;
	size_t i;

	if (!res->nr_frames) {
		fprintf(out, "maximum kernel stack use: %lu bytes; the kernel kept no call chain for it\n",
			res->max_size);
		return render_status(out);
	}
	for (i = 0; i < res->nr_frames; i++)
		if (res->frames[i].size > biggest)
			biggest = res->frames[i].size;
	fprintf(out, "maximum kernel stack use: %lu bytes, %zu frames (deepest call first)\n\n",
		res->max_size, res->nr_frames);
	fprintf(out, "%5s %7s %6s  %-*s  %s\n", "Frame", "Depth", "Size", BAR_WIDTH, "", "Location");
	for (i = 0; i < res->nr_frames; i++) {
		const struct kmag_stack_frame *f = &res->frames[i];
		int bar = biggest ? (int)((f->size * BAR_WIDTH + biggest - 1) / biggest) : 0;

		fprintf(out, "%5zu %7lu %6lu  %-*.*s  ", i, f->depth, f->size, BAR_WIDTH, bar,
			"##############################");
		render_fput_text(out, f->location);
		fputc('\n', out);
	}
	return render_status(out);
}

int kmag_stack_json(FILE *out, const struct kmag_stack_result *res)
{
	size_t i;

	fprintf(out, "{\"max_stack_bytes\":%lu,\"frames\":[", res->max_size);
	for (i = 0; i < res->nr_frames; i++) {
		const struct kmag_stack_frame *f = &res->frames[i];

		fprintf(out, "%s\n{\"depth\":%lu,\"size\":%lu,\"function\":", i ? "," : "", f->depth,
			f->size);
		kmag_fput_json_string(out, f->func);
		fputs(",\"location\":", out);
		kmag_fput_json_string(out, f->location);
		fputc('}', out);
	}
	fputs("\n]}\n", out);
	return render_status(out);
}
