// SPDX-License-Identifier: MIT
/*
 * errors.c - where errors are born (see include/kmag/errors.h for the rules).
 *
 * A replay subscriber. Every call that returns an error starts a record (it
 * is an origin) or extends the record its last callee returning the same
 * errno handed up. Records travel up the stack in the callers' per-call data,
 * each caller adding itself as a link, until the outermost call of the stack
 * leaves: then its function is the entry point and the record is counted in
 * its group. A record whose error was handled on the way (its run closed)
 * is counted as soon as the group it belongs to is known and already has its
 * example, so memory stays bounded by the stack depth and the errors still
 * waiting for their example.
 */
#define PR_DOMAIN "errors"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "internal.h"
#include "kmag/btf.h"
#include "kmag/callgraph.h"
#include "kmag/cgview.h"
#include "kmag/errors.h"
#include "util/grow.h"
#include "util/u64map.h"

struct rec {
	int errnum;
	bool open;		/* the last link returned errnum: the run goes on */
	bool cut;
	uint32_t n, cap;	/* links, origin first */
	uint32_t run;
	int32_t pid;
	uint64_t start_ns;
	kmag_func_t after;	/* an earlier callee of the origin's caller returning errnum */
	struct kmag_error_link *links;
};

/* The records a call's callees handed up (the replay's per-call data). */
struct pending {
	struct rec **v;
	uint32_t n, cap;
};

struct group {
	struct kmag_error_group pub;
	struct kmag_error_link *chain;	/* owned */
	size_t next;			/* next group of the same (origin, entry), 0 = none */
	const char *origin_name, *entry_name;	/* for sorting, set by finish */
};

/* A function's return type, asked once. */
struct ftype {
	uint8_t asked;
	uint8_t kind;		/* enum kmag_errors_ret */
	uint8_t size;
};

struct kmag_errors {
	const struct kmag_symtab *st;
	kmag_errors_type_fn type_fn;
	void *type_ctx;
	struct ftype *types;
	size_t nr_types;
	struct kmag_replay *replay;
	struct kmag_replay_ops ops;
	struct group *groups;	/* [0] unused: index 0 means none */
	size_t nr_groups, cap_groups;
	struct u64map by_key;	/* origin << 32 | entry -> first group index */
	struct kmag_error_group **sorted;
	struct u64map path_edges;	/* caller << 32 | callee of the error paths */
	struct u64map path_origins;
	struct kmag_errors_stats stats;
	int failed;		/* first -errno */
	kmag_func_t root;	/* only errors born under it; KMAG_FUNC_NONE: all */
	int only;		/* only origins of this errno; 0: all */
};

static void rec_free(struct rec *r)
{
	if (r) {
		free(r->links);
		free(r);
	}
}

static const struct ftype *ftype_of(struct kmag_errors *e, kmag_func_t f)
{
	static const struct ftype unknown;
	struct ftype *t;
	uint32_t size = 0;
	const char *name;

	if (!e->type_fn || f == KMAG_FUNC_NONE)
		return &unknown;
	if (f >= e->nr_types) {
		size_t cap = e->nr_types;

		if (kmag__grow(&e->types, &cap, (size_t)f + 1, sizeof(*e->types)))
			return &unknown;
		memset(e->types + e->nr_types, 0, (cap - e->nr_types) * sizeof(*e->types));
		e->nr_types = cap;
	}
	t = &e->types[f];
	if (!t->asked) {
		name = kmag_symtab_name(e->st, f);
		t->asked = 1;
		t->kind = name ? (uint8_t)e->type_fn(e->type_ctx, name, &size) : 0;
		t->size = (uint8_t)(size && size <= 8 ? size : 8);
	}
	return t;
}

int kmag_errors_call_errno(struct kmag_errors *e, const struct kmag_call *c)
{
	const struct ftype *t;
	uint64_t v = (uint64_t)c->retval;
	int64_t s;

	if (!c->has_retval || c->func == KMAG_FUNC_NONE)
		return 0;
	t = ftype_of(e, c->func);
	switch (t->kind) {
	case KMAG_ERRORS_RET_NONE:
		return 0;
	case KMAG_ERRORS_RET_PTR:	/* ERR_PTR(): the whole register is -errno */
		return (int64_t)v < 0 && (int64_t)v >= -4095 ? (int)-(int64_t)v : 0;
	case KMAG_ERRORS_RET_SINT:	/* the value at the type's size, sign-extended */
		s = t->size >= 8 ? (int64_t)v
				 : (int64_t)(v << (64 - 8 * t->size)) >> (64 - 8 * t->size);
		return s < 0 && s >= -4095 ? (int)-s : 0;
	default:
		return (int)-kmag_call_errno(c->retval);
	}
}

static int fail(struct kmag_errors *e, int err)
{
	if (!e->failed)
		e->failed = err;
	return err;
}

static int rec_add_link(struct rec *r, const struct kmag_call *c, int errnum)
{
	struct kmag_error_link *l;
	size_t cap = r->cap;

	if (r->n == KMAG_ERRORS_MAX_CHAIN) {
		/* keep the links nearest the origin and, in the last slot, the newest (the entry) */
		r->cut = true;
		l = &r->links[r->n - 1];
	} else {
		if (kmag__grow(&r->links, &cap, r->n + 1, sizeof(*r->links)))
			return -ENOMEM;
		r->cap = (uint32_t)cap;
		l = &r->links[r->n++];
	}
	*l = (struct kmag_error_link){
		.func = c->func,
		.duration = c->duration,
		.retval = c->retval,
		.has_retval = c->has_retval,
		.returned_err = errnum && errnum == r->errnum,
	};
	return 0;
}

static struct group *group_find(struct kmag_errors *e, kmag_func_t origin, kmag_func_t entry,
				int errnum, bool create)
{
	uint64_t key = (uint64_t)origin << 32 | entry, *first;
	size_t i;
	bool ins;

	first = u64map_get(&e->by_key, key);
	for (i = first ? *first : 0; i; i = e->groups[i].next)
		if (e->groups[i].pub.errnum == errnum)
			return &e->groups[i];
	if (!create)
		return NULL;
	if (kmag__grow(&e->groups, &e->cap_groups, e->nr_groups + 1, sizeof(*e->groups)))
		return NULL;
	first = u64map_upsert(&e->by_key, key, 0, &ins);
	if (!first)
		return NULL;
	i = e->nr_groups++;
	e->groups[i] = (struct group){
		.pub = { .origin = origin, .entry = entry, .errnum = errnum, .pid = -1,
			 .after = KMAG_FUNC_NONE,
			 .start_ns = KMAG_TS_NONE },
		.next = *first,
	};
	*first = i;
	return &e->groups[i];
}

/* Makes @r (links origin first) @g's example: entry first. */
static int set_example(struct group *g, const struct rec *r)
{
	struct kmag_error_link *chain = malloc(r->n * sizeof(*chain));
	uint32_t i;

	if (!chain)
		return -ENOMEM;
	for (i = 0; i < r->n; i++)
		chain[i] = r->links[r->n - 1 - i];
	free(g->chain);
	g->chain = chain;
	g->pub.chain = chain;
	g->pub.chain_len = r->n;
	g->pub.run = r->run < r->n ? r->run : r->n;
	g->pub.chain_cut = r->cut;
	g->pub.pid = r->pid;
	g->pub.after = r->after;
	g->pub.start_ns = r->start_ns;
	return 0;
}

/*
 * Counts @r under entry point @entry; @whole: @r's links reach the entry (it
 * can be the example). Frees @r.
 */
static int count_rec(struct kmag_errors *e, struct rec *r, kmag_func_t entry, bool whole)
{
	struct group *g = group_find(e, r->links[0].func, entry, r->errnum, true);
	bool reached = whole && r->open;
	int ret = 0;

	if (!g) {
		rec_free(r);
		return -ENOMEM;
	}
	g->pub.count++;
	if (reached)
		g->pub.reached++;
	if (whole && (!g->chain || (reached && g->pub.reached == 1)))
		ret = set_example(g, r);
	rec_free(r);
	return ret;
}

/* The function of the outermost open call, KMAG_FUNC_NONE when unnamed (yet). */
static kmag_func_t entry_now(const struct kmag_errors *e)
{
	size_t n = kmag_replay_nr_open(e->replay);

	return n ? kmag_replay_open(e->replay, 0)->func : KMAG_FUNC_NONE;
}

/*
 * Whether the leaving @call is under the root (kmag_errors_set_root()): a
 * call of it, or one of the calls still open around it is. Asked only of
 * calls that return an error, so the walk up the stack is rare.
 */
static bool under_root(const struct kmag_errors *e, const struct kmag_call *call)
{
	size_t i, n = kmag_replay_nr_open(e->replay);

	if (e->root == KMAG_FUNC_NONE || call->func == e->root)
		return true;
	for (i = 0; i < n; i++)
		if (kmag_replay_open(e->replay, i)->func == e->root)
			return true;
	return false;
}

static int on_leave(void *ctx, const struct kmag_call *call, void *data,
		    const struct kmag_call *parent, void *parent_data)
{
	struct kmag_errors *e = ctx;
	struct pending *d = data, *pd = parent_data;
	int errnum, ret = 0;
	uint32_t i;
	int64_t match = -1;
	struct rec *r;
	(void)parent;

	if (e->failed)
		goto out;
	if (call->func != KMAG_FUNC_NONE) {
		e->stats.calls++;
		e->stats.calls_with_retval += call->has_retval;
	}
	errnum = kmag_errors_call_errno(e, call);
	if (errnum) {
		e->stats.error_returns++;
		if (!ftype_of(e, call->func)->kind)
			e->stats.untyped_returns++;
	} else if (call->has_retval && kmag_call_errno(call->retval)) {
		e->stats.not_by_type++;
	}
	for (i = 0; i < d->n; i++)
		if (errnum && d->v[i]->open && d->v[i]->errnum == errnum)
			match = i;
	for (i = 0; i < d->n; i++) {
		r = d->v[i];
		if ((int64_t)i != match && r->open) {
			r->open = false;
			/* handled here: count it now when its group has its example */
			kmag_func_t entry = pd ? entry_now(e) : call->func;
			struct group *g = entry == KMAG_FUNC_NONE ? NULL :
					  group_find(e, r->links[0].func, entry, r->errnum, false);

			if (pd && g && g->chain) {
				if ((ret = count_rec(e, r, entry, false)))
					goto out;
				d->v[i] = NULL;
				continue;
			}
		}
		if ((ret = rec_add_link(r, call, errnum)))
			goto out;
		if ((int64_t)i == match)
			r->run++;
	}
	/* a new origin; outside the root's calls none is (their callers are outside too) */
	if (errnum && match < 0 && (!e->only || errnum == e->only) && under_root(e, call)) {
		size_t cap = d->cap;

		r = calloc(1, sizeof(*r));
		if (!r || kmag__grow(&d->v, &cap, d->n + 1, sizeof(*d->v))) {
			free(r);
			ret = -ENOMEM;
			goto out;
		}
		d->cap = (uint32_t)cap;
		*r = (struct rec){ .errnum = errnum, .open = true, .run = 1, .pid = call->pid,
				   .start_ns = call->start_ns, .after = KMAG_FUNC_NONE };
		for (i = 0; pd && i < pd->n; i++)	/* the caller's earlier callees */
			if (pd->v[i]->open && pd->v[i]->errnum == errnum)
				r->after = pd->v[i]->links[pd->v[i]->n - 1].func;
		d->v[d->n++] = r;
		e->stats.origins++;
		if ((ret = rec_add_link(r, call, errnum)))
			goto out;
	}
	for (i = 0; i < d->n; i++) {
		if (!(r = d->v[i]))
			continue;
		d->v[i] = NULL;
		if (pd) {
			size_t cap = pd->cap;

			if (kmag__grow(&pd->v, &cap, pd->n + 1, sizeof(*pd->v))) {
				rec_free(r);
				ret = -ENOMEM;
				goto out;
			}
			pd->cap = (uint32_t)cap;
			pd->v[pd->n++] = r;
		} else if ((ret = count_rec(e, r, call->func, true))) {
			goto out;
		}
	}
out:
	for (i = 0; i < d->n; i++)
		rec_free(d->v[i]);
	free(d->v);
	*d = (struct pending){ 0 };
	return ret ? fail(e, ret) : 0;
}

struct kmag_errors *kmag_errors_new(const struct kmag_symtab *st)
{
	struct kmag_errors *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->st = st;
	e->root = KMAG_FUNC_NONE;
	e->ops = (struct kmag_replay_ops){ .data_size = sizeof(struct pending), .leave = on_leave };
	u64map_init(&e->by_key);
	u64map_init(&e->path_edges);
	u64map_init(&e->path_origins);
	e->nr_groups = 1;	/* index 0 means none */
	if (kmag__grow(&e->groups, &e->cap_groups, 1, sizeof(*e->groups))) {
		free(e);
		errno = ENOMEM;
		return NULL;
	}
	return e;
}

void kmag_errors_free(struct kmag_errors *e)
{
	size_t i;

	if (!e)
		return;
	for (i = 1; i < e->nr_groups; i++)
		free(e->groups[i].chain);
	free(e->groups);
	free(e->sorted);
	free(e->types);
	u64map_release(&e->by_key);
	u64map_release(&e->path_edges);
	u64map_release(&e->path_origins);
	free(e);
}

void kmag_errors_set_errno(struct kmag_errors *e, int errnum)
{
	e->only = errnum > 0 ? errnum : 0;
	e->stats.errnum = e->only;
}

void kmag_errors_set_types(struct kmag_errors *e, kmag_errors_type_fn fn, void *ctx)
{
	e->type_fn = fn;
	e->type_ctx = ctx;
	e->stats.types = fn != NULL;
}

static enum kmag_errors_ret btf_type(void *ctx, const char *name, uint32_t *size)
{
	struct kmag_btf_func f;

	if (kmag_btf_func(ctx, name, &f))
		return KMAG_ERRORS_RET_UNKNOWN;
	switch (f.ret.kind) {
	case KMAG_BTF_INT:
		if (!f.ret.is_signed)
			return KMAG_ERRORS_RET_NONE;
		/* fallthrough */
	case KMAG_BTF_ENUM:
		*size = f.ret.size;
		return KMAG_ERRORS_RET_SINT;
	case KMAG_BTF_PTR:
		return KMAG_ERRORS_RET_PTR;
	case KMAG_BTF_UNKNOWN:
		return KMAG_ERRORS_RET_UNKNOWN;
	default:	/* void, bool, structs, enum64, ... */
		return KMAG_ERRORS_RET_NONE;
	}
}

void kmag_errors_use_btf(struct kmag_errors *e, const struct kmag_btf *btf)
{
	/* the callback's context is const-free; kmag_btf_func() only reads it */
	kmag_errors_set_types(e, btf ? btf_type : NULL, (void *)btf);
}

int kmag_errors_subscribe(struct kmag_errors *e, struct kmag_replay *r)
{
	e->replay = r;
	return kmag_replay_subscribe(r, &e->ops, e);
}

static int cmp_group(const void *pa, const void *pb)
{
	/* pub is the first member of struct group */
	const struct group *a = *(const struct group *const *)pa;
	const struct group *b = *(const struct group *const *)pb;
	int c;

	if (!a->pub.reached != !b->pub.reached)
		return a->pub.reached ? -1 : 1;
	if (a->pub.count != b->pub.count)
		return a->pub.count > b->pub.count ? -1 : 1;
	if ((c = strcmp(a->origin_name, b->origin_name)))
		return c;
	if (a->pub.errnum != b->pub.errnum)
		return a->pub.errnum < b->pub.errnum ? -1 : 1;
	return strcmp(a->entry_name, b->entry_name);
}

static const char *name_or_empty(const struct kmag_symtab *st, kmag_func_t f)
{
	const char *n = f == KMAG_FUNC_NONE ? NULL : kmag_symtab_name(st, f);

	return n ? n : "";
}

/* The error paths: the example chains of the groups whose error reached the entry. */
static int mark_paths(struct kmag_errors *e)
{
	bool ins;
	size_t i;
	uint32_t k;

	for (i = 1; i < e->nr_groups; i++) {
		const struct kmag_error_group *g = &e->groups[i].pub;

		if (!g->reached || !g->chain_len)
			continue;
		if (!u64map_upsert(&e->path_origins, g->origin, 1, &ins))
			return fail(e, -ENOMEM);
		for (k = 1; k < g->chain_len; k++) {
			uint64_t key = (uint64_t)g->chain[k - 1].func << 32 | g->chain[k].func;

			if (g->chain_cut && k == 1)	/* links left out between them */
				continue;
			if (!u64map_upsert(&e->path_edges, key, 1, &ins))
				return fail(e, -ENOMEM);
		}
	}
	return 0;
}

void kmag_errors_set_root(struct kmag_errors *e, kmag_func_t root)
{
	e->root = root;
}

int kmag_errors_finish(struct kmag_errors *e)
{
	size_t i, n = e->nr_groups - 1;

	if (e->failed)
		return e->failed;
	free(e->sorted);
	e->sorted = malloc((n ? n : 1) * sizeof(*e->sorted));
	if (!e->sorted)
		return fail(e, -ENOMEM);
	for (i = 0; i < n; i++) {
		struct group *g = &e->groups[i + 1];

		g->origin_name = name_or_empty(e->st, g->pub.origin);
		g->entry_name = name_or_empty(e->st, g->pub.entry);
		e->sorted[i] = &g->pub;
	}
	qsort(e->sorted, n, sizeof(*e->sorted), cmp_group);
	return mark_paths(e);
}

bool kmag_errors_path_edge(const struct kmag_errors *e, kmag_func_t caller, kmag_func_t callee)
{
	return u64map_get(&e->path_edges, (uint64_t)caller << 32 | callee) != NULL;
}

bool kmag_errors_path_origin(const struct kmag_errors *e, kmag_func_t func)
{
	return u64map_get(&e->path_origins, func) != NULL;
}

struct kmag_cgview_chain *kmag_errors_view_chains(const struct kmag_errors *e,
						   const struct kmag_cg *cg, size_t *nr)
{
	size_t n = kmag_errors_nr_groups(e), links = 0, i;
	struct kmag_cgview_chain *out;
	uint32_t *node, k;

	*nr = 0;
	for (i = 0; i < n; i++)
		links += e->sorted[i]->chain_len;
	if (!links) {
		errno = 0;
		return NULL;
	}
	/* the chains, then every chain's nodes, in one block */
	out = malloc(n * sizeof(*out) + links * sizeof(uint32_t));
	if (!out) {
		errno = ENOMEM;
		return NULL;
	}
	node = (uint32_t *)(out + n);
	for (i = 0; i < n; i++) {
		const struct kmag_error_group *g = e->sorted[i];
		struct kmag_cgview_chain *c = &out[*nr];

		c->nodes = node;
		c->len = 0;
		for (k = 0; k < g->chain_len; k++) {
			long x = kmag_cg_node_index(cg, g->chain[k].func);

			if (x >= 0)
				node[c->len++] = (uint32_t)x;
		}
		if (c->len) {
			node += c->len;
			(*nr)++;
		}
	}
	return out;
}

size_t kmag_errors_nr_groups(const struct kmag_errors *e)
{
	return e->sorted ? e->nr_groups - 1 : 0;
}

const struct kmag_error_group *kmag_errors_group(const struct kmag_errors *e, size_t i)
{
	return e->sorted && i < e->nr_groups - 1 ? e->sorted[i] : NULL;
}

const struct kmag_errors_stats *kmag_errors_stats(const struct kmag_errors *e)
{
	return &e->stats;
}

/* glibc names the user-space errnos; the kernel's own (include/linux/errno.h) are ours. */
static const char *const kernel_errnos[] = {
	[512 - 512] = "ERESTARTSYS", [513 - 512] = "ERESTARTNOINTR",
	[514 - 512] = "ERESTARTNOHAND", [515 - 512] = "ENOIOCTLCMD",
	[516 - 512] = "ERESTART_RESTARTBLOCK", [517 - 512] = "EPROBE_DEFER",
	[518 - 512] = "EOPENSTALE", [519 - 512] = "ENOPARAM",
	[521 - 512] = "EBADHANDLE", [522 - 512] = "ENOTSYNC", [523 - 512] = "EBADCOOKIE",
	[524 - 512] = "ENOTSUPP", [525 - 512] = "ETOOSMALL", [526 - 512] = "ESERVERFAULT",
	[527 - 512] = "EBADTYPE", [528 - 512] = "EJUKEBOX", [529 - 512] = "EIOCBQUEUED",
	[530 - 512] = "ERECALLCONFLICT", [531 - 512] = "ENOGRACE",
};

const char *kmag_errno_name(int errnum)
{
	size_t k = (size_t)errnum - 512;

	if (errnum >= 512 && k < sizeof(kernel_errnos) / sizeof(kernel_errnos[0]))
		return kernel_errnos[k];
	return errnum > 0 && errnum < 512 ? strerrorname_np(errnum) : NULL;
}

#define MAX_ERRNO 4095

int kmag_errno_parse(const char *text, struct kmag_err *err)
{
	const char *names[MAX_ERRNO + 1];
	char upper[64], similar[200];
	size_t n = 0, i;
	char *end;
	long v;
	int e;

	if (text[0] == '-' && isalpha((unsigned char)text[1]))
		text++;	/* -EINVAL, as the kernel's sources write it */
	if (isdigit((unsigned char)text[0]) || (text[0] == '-' && isdigit((unsigned char)text[1]))) {
		errno = 0;
		v = strtol(text, &end, 10);
		v = v < 0 ? -v : v;
		if (errno || *end || !v || v > MAX_ERRNO)
			return kmag_err_set(err, EINVAL,
					    "\"%s\" is no error number: give 1 to %d (22 or -22) or a name like EINVAL",
					    text, MAX_ERRNO);
		return (int)v;
	}
	for (e = 1; e <= MAX_ERRNO; e++) {
		const char *name = kmag_errno_name(e);

		if (name && !strcasecmp(name, text))
			return e;
		if (name)
			names[n++] = name;
	}
	/* the names are upper case: so is a typo of one */
	for (i = 0; text[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)toupper((unsigned char)text[i]);
	upper[i] = '\0';
	if (kmag_suggest(upper, names, n, "", similar, sizeof(similar)))
		return kmag_err_set(err, EINVAL, "\"%s\" is no errno name; did you mean %s?", text,
				    similar);
	return kmag_err_set(err, EINVAL,
			    "\"%s\" is no errno name or number: give a name like EINVAL or ENOENT, or a number like 22",
			    text);
}
