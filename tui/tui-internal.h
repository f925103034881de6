/* SPDX-License-Identifier: MIT */
/*
 * tui-internal.h - the explorer's state, shared by tui-model.c (keys) and
 * tui-render.c (text).
 */
#ifndef KMAG_TUI_INTERNAL_H
#define KMAG_TUI_INTERNAL_H

#include "kmag/report.h"
#include "tui.h"

/* A row of the function screen: a heading or one caller/callee edge. */
struct tui_frow {
	uint32_t node;		/* cg node of the caller or callee */
	long edge;		/* cg edge index, -1 for a heading */
	bool callee;		/* in the callees part */
};

enum tui_calls_sort { TUI_CALLS_BY_START, TUI_CALLS_BY_DURATION };

/* One screen on the stack. */
struct tui_view {
	enum tui_screen kind;
	size_t cursor, top;	/* selected row; first row shown */
	size_t nrows;
	uint32_t node;		/* FUNC, CALLS: cg node of the function */
	/* FUNC */
	struct tui_frow *frows;
	/* CALLS: the function's kept calls (borrowed from the sample), in the order shown */
	const struct kmag_sample_call **calls;
	const struct kmag_sample_func *sfunc;	/* what was seen and kept; NULL: none */
	enum tui_calls_sort calls_sort;
	/* TREE: the call and its kept tree (borrowed from the sample) */
	const struct kmag_sample_call *call;
	uint32_t *tend;		/* per tree node: index after its subtree */
	uint32_t *tparent;	/* per tree node: its parent's index (root: itself) */
	uint32_t *tdepth;	/* per tree node: levels below the call */
	uint8_t *folded;	/* per tree node */
	uint32_t *vis;		/* visible tree nodes, in order; nrows of them */
	/* LATENCY: `kmag report --latency`'s text (render/latency.c), split into nrows lines */
	char *lat_text;
	char **lat_lines;
};

struct tui {
	struct tui_data d;
	uint32_t *order;	/* cg nodes in the table's order */
	size_t nnodes;
	enum kmag_sort_key sort;
	bool has_time;
	uint64_t max_total, max_calls;	/* for heat */
	struct tui_view *views;	/* the stack; views[depth - 1] is shown */
	size_t depth, cap;
	size_t page;		/* body rows of the last render */
	/* search */
	bool searching;		/* the prompt is open */
	char pat[128];
	size_t patlen;
	size_t search_from;	/* cursor when the prompt opened */
	bool nomatch;
	char msg[160];		/* one-shot status message */
};

static inline struct tui_view *tui_top(struct tui *t)
{
	return &t->views[t->depth - 1];
}

/* Function name of a cg node / of a function id, "?" for none. */
const char *tui_node_name(const struct tui *t, uint32_t node);
const char *tui_func_name(const struct tui *t, kmag_func_t f);
/*
 * Lines of the help screen, for the model's scrolling: tui-render.c's text
 * (checked there at compile time, so the model needs nothing of the render).
 */
#define TUI_HELP_LINES 24
/* Recomputes @v's visible tree rows after a fold changed. */
void tui_tree_relayout(struct tui_view *v);

#endif /* KMAG_TUI_INTERNAL_H */
