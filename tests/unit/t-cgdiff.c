// SPDX-License-Identifier: MIT
#include "kmag/callgraph.h"
#include "kmag/cgdiff.h"
#include "kmag/render/diff.h"
#include "test.h"

/* A function-tracer graph from "parent>child*count" specs. */
static struct kmag_cg *graph(struct kmag_symtab *st, const char *const *calls)
{
	struct kmag_cg *cg = kmag_cg_new(NULL);
	int i;

	CHECK(cg);
	for (i = 0; calls[i]; i++) {
		char buf[64], *gt, *star;
		struct kmag_event ev = { .type = KMAG_EV_FUNC, .pid = 1, .cpu = 0,
					 .ts = (uint64_t)i };

		snprintf(buf, sizeof(buf), "%s", calls[i]);
		gt = strchr(buf, '>');
		star = strchr(buf, '*');
		*gt = *star = '\0';
		ev.parent = kmag_symtab_intern(st, buf, (size_t)-1);
		ev.func = kmag_symtab_intern(st, gt + 1, (size_t)-1);
		ev.repeat = (uint16_t)atoi(star + 1);
		CHECK_EQ(kmag_cg_add(cg, &ev), 0);
	}
	CHECK_EQ(kmag_cg_finish(cg), 0);
	return cg;
}

static const struct kmag_diff_func *func(const struct kmag_cgdiff *d, const char *name)
{
	long i = kmag_cgdiff_find(d, name);

	CHECK(i >= 0);
	return &kmag_cgdiff_funcs(d)[i];
}

static void statuses(void)
{
	static const char *const a_calls[] = { "a>b*2", "a>c*1", "a>e*100", NULL };
	/* B interns names in another order: ids differ, names must match */
	static const char *const b_calls[] = { "a>d*1", "a>b*4", "a>e*105", NULL };
	struct kmag_symtab *sa = kmag_symtab_new(), *sb = kmag_symtab_new();
	struct kmag_cg *a = graph(sa, a_calls), *b = graph(sb, b_calls);
	struct kmag_cgdiff *d = kmag_cgdiff_new(a, sa, b, sb, NULL);
	const struct kmag_diff_edge *e;
	uint32_t *order;
	size_t i, n;

	CHECK(d);
	CHECK_EQ(kmag_cgdiff_nr_funcs(d), 5);
	CHECK_EQ(func(d, "b")->status, KMAG_DIFF_GREW);
	CHECK_EQ(func(d, "b")->a.calls, 2);
	CHECK_EQ(func(d, "b")->b.calls, 4);
	CHECK_EQ(func(d, "c")->status, KMAG_DIFF_REMOVED);
	CHECK_EQ(func(d, "c")->node_b, -1);
	CHECK_EQ(func(d, "d")->status, KMAG_DIFF_ADDED);
	CHECK_EQ(func(d, "d")->node_a, -1);
	CHECK_EQ(func(d, "e")->status, KMAG_DIFF_SAME);	/* +5% is below calls_pct */
	CHECK_EQ(func(d, "a")->status, KMAG_DIFF_SAME);
	CHECK_EQ(kmag_cgdiff_find(d, "zzz"), -1);
	CHECK_EQ(kmag_cgdiff_count_funcs(d, KMAG_DIFF_SAME), 2);
	CHECK(!kmag_cgdiff_has_time(d));

	n = kmag_cgdiff_nr_edges(d);
	CHECK_EQ(n, 4);
	e = kmag_cgdiff_edges(d);
	for (i = 0; i < n; i++) {
		const char *callee = kmag_cgdiff_funcs(d)[e[i].callee].name;

		CHECK_STREQ(kmag_cgdiff_funcs(d)[e[i].caller].name, "a");
		if (!strcmp(callee, "b"))
			CHECK_EQ(e[i].status, KMAG_DIFF_GREW);
		else if (!strcmp(callee, "c"))
			CHECK(e[i].status == KMAG_DIFF_REMOVED && e[i].in_a && !e[i].in_b);
		else if (!strcmp(callee, "d"))
			CHECK(e[i].status == KMAG_DIFF_ADDED && !e[i].in_a && e[i].in_b);
		else
			CHECK_EQ(e[i].status, KMAG_DIFF_SAME);
	}
	/* largest change first: e (5), then b (2), then c and d (1) */
	order = kmag_cgdiff_sorted_funcs(d);
	CHECK(order);
	CHECK_STREQ(kmag_cgdiff_funcs(d)[order[0]].name, "e");
	CHECK_STREQ(kmag_cgdiff_funcs(d)[order[1]].name, "b");
	free(order);
	kmag_cgdiff_free(d);

	/* stricter thresholds: e's 5% now counts */
	{
		struct kmag_diff_opts o;

		kmag_diff_opts_init(&o);
		o.calls_pct = 1;
		d = kmag_cgdiff_new(a, sa, b, sb, &o);
		CHECK_EQ(func(d, "e")->status, KMAG_DIFF_GREW);
		kmag_cgdiff_free(d);
	}
	kmag_cg_free(a);
	kmag_cg_free(b);
	kmag_symtab_free(sa);
	kmag_symtab_free(sb);
}

static void text_rendering(void)
{
	static const char *const a_calls[] = { "a>b*2", "a>c*1", NULL };
	static const char *const b_calls[] = { "a>b*4", "a>d*1", NULL };
	struct kmag_symtab *sa = kmag_symtab_new(), *sb = kmag_symtab_new();
	struct kmag_cg *a = graph(sa, a_calls), *b = graph(sb, b_calls);
	struct kmag_cgdiff *d = kmag_cgdiff_new(a, sa, b, sb, NULL);
	struct kmag_trace_info info = { .tracer = KMAG_TRACER_FUNCTION, .first_ts = KMAG_TS_NONE,
					.last_ts = KMAG_TS_NONE };
	struct kmag_diff_report r = { .diff = d, .input_a = "a.dat", .input_b = "b.dat",
				      .info_a = &info, .info_b = &info };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	CHECK_EQ(kmag_diff_text(out, &r), 0);
	fclose(out);
	CHECK(strstr(buf, "# functions: 3 in A, 3 in B: 1 added, 1 removed, 1 grew, 0 shrank, 1 unchanged\n"));
	CHECK(strstr(buf, "          1           -  d\n"));
	CHECK(strstr(buf, "          2           4        +2           -           -            -  b\n"));
	CHECK(strstr(buf, "          0           1        +1            - added     a -> d\n"));
	free(buf);
	kmag_cgdiff_free(d);
	kmag_cg_free(a);
	kmag_cg_free(b);
	kmag_symtab_free(sa);
	kmag_symtab_free(sb);
}

/* The function @name of A is paired with @name_b of B by rule @why. */
static void paired(const struct kmag_cgdiff *d, const char *name, const char *name_b,
		   enum kmag_diff_rename why)
{
	const struct kmag_diff_func *f = func(d, name);

	CHECK_EQ(f->rename, why);
	CHECK(f->node_a >= 0 && f->node_b >= 0);
	CHECK_STREQ(f->name_b, name_b);
	CHECK_EQ(kmag_cgdiff_find(d, name_b), kmag_cgdiff_find(d, name));
}

static void not_paired(const struct kmag_cgdiff *d, const char *name)
{
	const struct kmag_diff_func *f = func(d, name);

	CHECK_EQ(f->rename, KMAG_RENAME_NONE);
	CHECK(f->status == KMAG_DIFF_ADDED || f->status == KMAG_DIFF_REMOVED);
}

static void renames(void)
{
	static const char *const a_calls[] = {
		"top>f.isra.0*3",	/* clone: f.constprop.0 in B */
		"top>g*2",		/* g.part.0.cold in B */
		"top>kmalloc_x*5",	/* kmalloc_x_noprof in B */
		"top>__fdget*4",	/* fdget in B, called from top too */
		"top>__elsewhere*1",	/* B's elsewhere is called from other */
		"top>h.isra.0*1", "top>h.part.0*1",	/* two candidates: ambiguous */
		"top>__kept*1",		/* B has kept, and also knows __kept */
		"top>same*1", NULL,
	};
	static const char *const b_calls[] = {
		"top>f.constprop.0*3", "top>g.part.0.cold*2", "top>kmalloc_x_noprof*5",
		"top>fdget*4", "other>elsewhere*1", "top>h.constprop.0*1", "top>kept*1",
		"top>same*1", NULL,
	};
	struct kmag_symtab *sa = kmag_symtab_new(), *sb = kmag_symtab_new();
	struct kmag_cg *a = graph(sa, a_calls), *b;
	struct kmag_cgdiff *d;
	const struct kmag_diff_edge *e;
	size_t i;

	/* B's kernel still has __kept (as a trace.dat's kallsyms would say) */
	CHECK(kmag_symtab_intern(sb, "__kept", (size_t)-1) != KMAG_FUNC_NONE);
	b = graph(sb, b_calls);
	d = kmag_cgdiff_new(a, sa, b, sb, NULL);
	CHECK(d);
	paired(d, "f.isra.0", "f.constprop.0", KMAG_RENAME_CLONE);
	paired(d, "g", "g.part.0.cold", KMAG_RENAME_CLONE);
	paired(d, "kmalloc_x", "kmalloc_x_noprof", KMAG_RENAME_NOPROF);
	paired(d, "__fdget", "fdget", KMAG_RENAME_PREFIX);
	not_paired(d, "__elsewhere");	/* not at the same place */
	not_paired(d, "elsewhere");
	not_paired(d, "h.isra.0");	/* ambiguous */
	not_paired(d, "h.constprop.0");
	not_paired(d, "__kept");	/* still in B's kernel */
	CHECK_EQ(kmag_cgdiff_nr_renamed(d), 4);
	CHECK_STREQ(kmag_diff_rename_name(KMAG_RENAME_PREFIX), "prefix");
	CHECK(!kmag_diff_rename_name(KMAG_RENAME_NONE));
	/* a pair's calls compare as one function's, its edge as one edge */
	CHECK_EQ(func(d, "__fdget")->status, KMAG_DIFF_SAME);
	e = kmag_cgdiff_edges(d);
	for (i = 0; i < kmag_cgdiff_nr_edges(d); i++)
		if (!strcmp(kmag_cgdiff_funcs(d)[e[i].callee].name, "kmalloc_x"))
			CHECK(e[i].in_a && e[i].in_b && e[i].status == KMAG_DIFF_SAME);
	kmag_cgdiff_free(d);
	kmag_cg_free(a);
	kmag_cg_free(b);
	kmag_symtab_free(sa);
	kmag_symtab_free(sb);
}

const struct test_case cgdiff_tests[] = {
	{ "renamed and cloned functions paired by the rules", renames },
	{ "statuses by name and thresholds", statuses },
	{ "text rendering", text_rendering },
	TEST_LIST_END,
};
