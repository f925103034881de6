// SPDX-License-Identifier: MIT
/*
 * t-errors.c - where errors are born (lib/analysis/errors.c) on call trees
 * written by hand: the expected origins follow from errors.h's definition.
 */
#include <errno.h>
#include <string.h>

#include "kmag/errors.h"
#include "kmag/replay.h"
#include "test.h"

struct fx {
	struct kmag_symtab *st;
	struct kmag_replay *r;
	struct kmag_errors *e;
	uint64_t ts;
};

static void fx_init(struct fx *x, kmag_errors_type_fn types)
{
	x->st = kmag_symtab_new();
	x->r = kmag_replay_new();
	x->e = kmag_errors_new(x->st);
	x->ts = 1000;
	CHECK(x->st && x->r && x->e);
	if (types)
		kmag_errors_set_types(x->e, types, NULL);
	CHECK_EQ(kmag_errors_subscribe(x->e, x->r), 0);
}

static void in(struct fx *x, int depth, const char *f)
{
	struct kmag_event e = { .type = KMAG_EV_GRAPH_ENTRY, .pid = 7, .cpu = 0, .depth = depth,
				.func = kmag_symtab_intern(x->st, f, strlen(f)), .ts = x->ts += 10,
				.duration = KMAG_DURATION_NONE, .repeat = 1,
				.calltime = KMAG_TS_NONE, .parent = KMAG_FUNC_NONE };

	CHECK_EQ(kmag_replay_add(x->r, &e), 0);
}

static void out(struct fx *x, int depth, const char *f, int64_t ret)
{
	struct kmag_event e = { .type = KMAG_EV_GRAPH_EXIT, .pid = 7, .cpu = 0, .depth = depth,
				.func = kmag_symtab_intern(x->st, f, strlen(f)), .ts = x->ts += 10,
				.duration = 5, .repeat = 1, .calltime = KMAG_TS_NONE,
				.parent = KMAG_FUNC_NONE, .retval = ret, .has_retval = true };

	CHECK_EQ(kmag_replay_add(x->r, &e), 0);
}

static void leaf(struct fx *x, int depth, const char *f, int64_t ret)
{
	in(x, depth, f);
	out(x, depth, f, ret);
}

static const struct kmag_error_group *find(struct fx *x, const char *origin, int errnum)
{
	size_t i;

	for (i = 0; i < kmag_errors_nr_groups(x->e); i++) {
		const struct kmag_error_group *g = kmag_errors_group(x->e, i);

		if (g->errnum == errnum && !strcmp(kmag_symtab_name(x->st, g->origin), origin))
			return g;
	}
	return NULL;
}

static void fx_finish(struct fx *x)
{
	CHECK_EQ(kmag_replay_finish(x->r, KMAG_TS_NONE), 0);
	CHECK_EQ(kmag_errors_finish(x->e), 0);
}

static void fx_release(struct fx *x)
{
	kmag_errors_free(x->e);
	kmag_replay_free(x->r);
	kmag_symtab_free(x->st);
}

/* sys -> a -> b, all -2: born in b, reached sys; the chain sys, a, b */
static void passed_up(void)
{
	const struct kmag_error_group *g;
	struct fx x;

	fx_init(&x, NULL);
	in(&x, 0, "sys");
	in(&x, 1, "a");
	leaf(&x, 2, "ok", 0);
	leaf(&x, 2, "b", -2);
	out(&x, 1, "a", -2);
	out(&x, 0, "sys", -2);
	fx_finish(&x);
	CHECK_EQ(kmag_errors_nr_groups(x.e), 1);
	g = find(&x, "b", 2);
	CHECK(g);
	CHECK_STREQ(kmag_symtab_name(x.st, g->entry), "sys");
	CHECK_EQ(g->count, 1);
	CHECK_EQ(g->reached, 1);
	CHECK_EQ(g->chain_len, 3);
	CHECK_EQ(g->run, 3);
	CHECK_STREQ(kmag_symtab_name(x.st, g->chain[0].func), "sys");
	CHECK_STREQ(kmag_symtab_name(x.st, g->chain[2].func), "b");
	CHECK_EQ(g->chain[2].duration, 5);
	CHECK_EQ(g->after, KMAG_FUNC_NONE);
	CHECK_EQ(kmag_errors_stats(x.e)->error_returns, 3);
	CHECK_EQ(kmag_errors_stats(x.e)->origins, 1);
	fx_release(&x);
}

/* sys -22 -> a -22 -> b -2: a transformed ENOENT into EINVAL: two origins */
static void transformed(void)
{
	const struct kmag_error_group *g;
	struct fx x;

	fx_init(&x, NULL);
	in(&x, 0, "sys");
	in(&x, 1, "a");
	leaf(&x, 2, "b", -2);
	out(&x, 1, "a", -22);
	out(&x, 0, "sys", -22);
	fx_finish(&x);
	CHECK_EQ(kmag_errors_nr_groups(x.e), 2);
	CHECK((g = find(&x, "a", 22)) && g->reached == 1 && g->run == 2 && g->chain_len == 2);
	CHECK((g = find(&x, "b", 2)) && g->reached == 0 && g->run == 1 && g->chain_len == 3);
	/* the one that reached the entry comes first */
	CHECK_EQ(kmag_errors_group(x.e, 0)->errnum, 22);
	fx_release(&x);
}

/* two callees return -2, the caller passes up the last: the first is handled */
static void last_callee_passes_it_up(void)
{
	const struct kmag_error_group *g;
	struct fx x;

	fx_init(&x, NULL);
	in(&x, 0, "sys");
	leaf(&x, 1, "first", -2);
	leaf(&x, 1, "second", -2);
	out(&x, 0, "sys", -2);
	fx_finish(&x);
	CHECK((g = find(&x, "second", 2)) && g->reached == 1);
	CHECK_STREQ(kmag_symtab_name(x.st, g->after), "first");
	CHECK((g = find(&x, "first", 2)) && g->reached == 0 && g->after == KMAG_FUNC_NONE);
	fx_release(&x);
}

static enum kmag_errors_ret types(void *ctx, const char *f, uint32_t *size)
{
	(void)ctx;
	if (!strcmp(f, "v") || !strcmp(f, "flag"))
		return KMAG_ERRORS_RET_NONE;	/* void, bool */
	if (!strcmp(f, "p"))
		return KMAG_ERRORS_RET_PTR;
	*size = 4;
	return KMAG_ERRORS_RET_SINT;
}

/* void/bool registers never count; a pointer only as a 64-bit ERR_PTR; int at 32 bits */
static void return_types(void)
{
	const struct kmag_error_group *g;
	struct fx x;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		fx_init(&x, pass ? types : NULL);
		in(&x, 0, "sys");
		leaf(&x, 1, "v", -5);
		leaf(&x, 1, "flag", -1);
		leaf(&x, 1, "p", 0xffffffefll);		/* no ERR_PTR: upper half clear */
		leaf(&x, 1, "p", -12);			/* ERR_PTR(-ENOMEM) */
		leaf(&x, 1, "i", 0x12345678fffffff2ll);	/* int -14 in a dirty register */
		out(&x, 0, "sys", 0);
		fx_finish(&x);
		CHECK_EQ(!!find(&x, "v", 5), !pass);
		CHECK_EQ(!!find(&x, "flag", 1), !pass);
		CHECK_EQ(!!find(&x, "p", 17), !pass);
		CHECK(find(&x, "p", 12));
		CHECK_EQ(!!find(&x, "i", 14), pass);
		CHECK_EQ(kmag_errors_stats(x.e)->types, pass);
		CHECK_EQ(kmag_errors_stats(x.e)->not_by_type, pass ? 3 : 0);
		g = find(&x, "p", 12);
		CHECK(g && g->reached == 0);
		fx_release(&x);
	}
}

static void errno_names(void)
{
	CHECK_STREQ(kmag_errno_name(2), "ENOENT");
	CHECK_STREQ(kmag_errno_name(515), "ENOIOCTLCMD");
	CHECK_STREQ(kmag_errno_name(512), "ERESTARTSYS");
	CHECK(!kmag_errno_name(520));
	CHECK(!kmag_errno_name(4000));
	CHECK(!kmag_errno_name(0));
}

/* kmag_errors_set_errno(): sys -22 -> a -22 -> b -2: only EINVAL's origin, a */
static void only_one_errno(void)
{
	struct fx x;

	fx_init(&x, NULL);
	kmag_errors_set_errno(x.e, 22);
	in(&x, 0, "sys");
	in(&x, 1, "a");
	leaf(&x, 2, "b", -2);
	out(&x, 1, "a", -22);
	out(&x, 0, "sys", -22);
	fx_finish(&x);
	CHECK_EQ(kmag_errors_nr_groups(x.e), 1);
	CHECK(find(&x, "a", 22));
	CHECK(!find(&x, "b", 2));
	CHECK_EQ(kmag_errors_stats(x.e)->error_returns, 3);
	CHECK_EQ(kmag_errors_stats(x.e)->origins, 1);
	fx_release(&x);
}

/* kmag_errno_parse(): names in any case, numbers with or without the minus, "did you mean" */
static void errno_parse(void)
{
	struct kmag_err err = { 0 };

	CHECK_EQ(kmag_errno_parse("EINVAL", NULL), 22);
	CHECK_EQ(kmag_errno_parse("einval", NULL), 22);
	CHECK_EQ(kmag_errno_parse("-EINVAL", NULL), 22);
	CHECK_EQ(kmag_errno_parse("22", NULL), 22);
	CHECK_EQ(kmag_errno_parse("-22", NULL), 22);
	CHECK_EQ(kmag_errno_parse("ENOIOCTLCMD", NULL), 515);
	CHECK_EQ(kmag_errno_parse("4095", NULL), 4095);
	CHECK_EQ(kmag_errno_parse("4096", NULL), -EINVAL);
	CHECK_EQ(kmag_errno_parse("0", NULL), -EINVAL);
	CHECK_EQ(kmag_errno_parse("22x", NULL), -EINVAL);
	CHECK_EQ(kmag_errno_parse("", NULL), -EINVAL);
	CHECK_EQ(kmag_errno_parse("einvl", &err), -EINVAL);
	CHECK(!strncmp(err.msg, "\"einvl\" is no errno name; did you mean EINVAL", 45));
	kmag_err_clear(&err);
	CHECK_EQ(kmag_errno_parse("bogus", &err), -EINVAL);
	CHECK(strstr(err.msg, "is no errno name or number"));
}

const struct test_case errors_tests[] = {
	{ "an error passed up keeps its origin", passed_up },
	{ "a transformed error has two origins", transformed },
	{ "the last callee passes the errno up", last_callee_passes_it_up },
	{ "return types: void, bool, pointers, ints", return_types },
	{ "errno names, the kernel's own too", errno_names },
	{ "only the origins of one errno", only_one_errno },
	{ "errno names and numbers parsed", errno_parse },
	TEST_LIST_END,
};
