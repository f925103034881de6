// SPDX-License-Identifier: MIT
/* Using a symbol map: per-trace locations, path matching, record-time selection. */
#include "kmag/symmap.h"
#include "test.h"

/* vmlinux: two static "helper"s; module "nfx": a third "helper" and its own function. */
static struct kmag_symmap *sample_map(void)
{
	struct kmag_symmap *m = kmag_symmap_new();
	const uint64_t mb = KMAG_MODULE_TEXT_BASE;

	CHECK(m);
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "tcp_sendmsg", "net/ipv4/tcp.c", 1490, 0xffffffff81800000ull, 0x100, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "helper", "net/core/dev.c", 10, 0xffffffff81800100ull, 0x40, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "helper", "kernel/sched/fair.c", 20, 0xffffffff81100000ull, 0x40, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "pick_next_task_fair", "kernel/sched/fair.c", 7795, 0xffffffff81100100ull, 0x300, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "schedule", "kernel/sched/core.c", 6654, 0xffffffff81a00000ull, 0xc0, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "nfx_hook", "net/netfilter/nfx.c", 5, mb + 0x10, 0x20, "nfx" }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "helper", "net/netfilter/nfx.c", 50, mb + 0x40, 0x20, "nfx" }));
	return m;
}

static const char kallsyms[] =
	"ffffffff84800000 T schedule\n"			/* link addresses + KASLR */
	"ffffffff83f00000 t helper\n"
	"ffffffff84800000 T schedule_alias_never_mapped\n"
	"ffffffff84600000 T tcp_sendmsg\n"
	"ffffffff84600100 t helper\n"
	"ffffffff83f00100 t pick_next_task_fair\n"
	"ffffffffc0001010 t nfx_hook\t[nfx]\n"
	"ffffffffc0001040 t helper\t[nfx]\n";

static void split_duplicates(void)
{
	struct kmag_symtab *st = kmag_symtab_new();
	kmag_func_t a, b, c;

	CHECK(kmag_symtab_load_kallsyms(st, kallsyms, sizeof(kallsyms) - 1) == 8);
	a = kmag_symtab_find(st, "helper");
	CHECK_EQ(kmag_symtab_split_duplicates(st), 2);
	CHECK_EQ(kmag_symtab_find(st, "helper"), a);
	b = kmag_symtab_resolve(st, 0xffffffff84600104ull, false);
	c = kmag_symtab_resolve(st, 0xffffffffc0001044ull, false);
	CHECK(b != a && c != a && b != c);
	CHECK_STREQ(kmag_symtab_name(st, b), "helper");
	CHECK_STREQ(kmag_symtab_name(st, c), "helper");
	CHECK_EQ(kmag_symtab_addr(st, b), 0xffffffff84600100ull);
	CHECK_STREQ(kmag_symtab_module(st, c), "nfx");
	CHECK_EQ(kmag_symtab_resolve(st, 0xffffffff83f00008ull, false), a);
	/* interning after the split still finds the first id, and new names work */
	CHECK_EQ(kmag_symtab_intern(st, "helper", (size_t)-1), a);
	for (int i = 0; i < 3000; i++) {
		char name[32];

		snprintf(name, sizeof(name), "f%d", i);
		CHECK(kmag_symtab_intern(st, name, (size_t)-1) != KMAG_FUNC_NONE);
	}
	CHECK_EQ(kmag_symtab_find(st, "helper"), a);
	CHECK_EQ(kmag_symtab_split_duplicates(st), 0);
	kmag_symtab_free(st);
}

static void locations_with_addresses(void)
{
	struct kmag_symmap *m = sample_map();
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f = kmag_pathfilter_new("/net", &err);
	struct kmag_srcloc *s;
	kmag_func_t h_fair, h_dev, h_nfx;
	bool amb;

	CHECK(kmag_symtab_load_kallsyms(st, kallsyms, sizeof(kallsyms) - 1) > 0);
	CHECK(kmag_symtab_split_duplicates(st) == 2);
	s = kmag_srcloc_new(m, st);
	CHECK(s);
	CHECK(kmag_srcloc_stats(s).bound);
	h_fair = kmag_symtab_resolve(st, 0xffffffff83f00000ull, false);
	h_dev = kmag_symtab_resolve(st, 0xffffffff84600100ull, false);
	h_nfx = kmag_symtab_resolve(st, 0xffffffffc0001040ull, false);
	CHECK_STREQ(kmag_srcloc_label(s, h_fair), "kernel/sched/fair.c:20");
	CHECK_STREQ(kmag_srcloc_label(s, h_dev), "net/core/dev.c:10");
	CHECK_STREQ(kmag_srcloc_label(s, h_nfx), "net/netfilter/nfx.c:50");
	CHECK(kmag_srcloc_entry(s, h_nfx, &amb) && !amb);
	CHECK_STREQ(kmag_srcloc_report_cb(s, kmag_symtab_find(st, "tcp_sendmsg")), "net/ipv4/tcp.c:1490");
	/* a name only kallsyms knows */
	CHECK(!kmag_srcloc_label(s, kmag_symtab_find(st, "schedule_alias_never_mapped")));
	CHECK(!kmag_srcloc_match(s, f, kmag_symtab_find(st, "schedule_alias_never_mapped")));
	/* path matching per function */
	CHECK(!kmag_srcloc_match(s, f, h_fair));
	CHECK(kmag_srcloc_match(s, f, h_dev));
	CHECK(kmag_srcloc_match(s, f, h_nfx));
	CHECK(kmag_srcloc_visible_cb(s, h_fair));	/* no filter attached */
	kmag_srcloc_set_filter(s, f);
	CHECK(!kmag_srcloc_visible_cb(s, h_fair));
	CHECK(kmag_srcloc_visible_cb(s, h_dev));
	CHECK_EQ(kmag_srcloc_stats(s).ambiguous, 0);
	CHECK_EQ(kmag_srcloc_stats(s).unmapped, 1);
	kmag_srcloc_free(s);
	kmag_pathfilter_free(f);
	kmag_symtab_free(st);
	kmag_symmap_free(m);
}

/* Text traces have names only: same-named statics are ambiguous and say so. */
static void locations_names_only(void)
{
	struct kmag_symmap *m = sample_map();
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *fair = kmag_pathfilter_new("kernel/sched/fair.c", &err);
	struct kmag_pathfilter *sound = kmag_pathfilter_new("sound/", &err);
	kmag_func_t h = kmag_symtab_intern(st, "helper", (size_t)-1);
	kmag_func_t clone = kmag_symtab_intern(st, "pick_next_task_fair.isra.0", (size_t)-1);
	struct kmag_srcloc *s = kmag_srcloc_new(m, st);
	bool amb;

	CHECK(!kmag_srcloc_stats(s).bound);
	CHECK(kmag_srcloc_entry(s, h, &amb) && amb);
	/* three entries, three files: the first plus two more */
	CHECK_STREQ(kmag_srcloc_label(s, h), "net/core/dev.c:10 (+2 more)");
	CHECK(kmag_srcloc_match(s, fair, h));	/* one of its files matches */
	CHECK(!kmag_srcloc_match(s, sound, h));
	CHECK_STREQ(kmag_srcloc_label(s, clone), "kernel/sched/fair.c:7795");
	CHECK_EQ(kmag_srcloc_stats(s).ambiguous, 1);
	kmag_srcloc_free(s);
	kmag_pathfilter_free(fair);
	kmag_pathfilter_free(sound);
	kmag_symtab_free(st);
	kmag_symmap_free(m);
}

static const char available[] =
	"tcp_sendmsg\n"
	"helper\n"
	"pick_next_task_fair\n"
	"schedule\n"
	"not_in_map\n"
	"helper\n"
	"nfx_hook [nfx]\n"
	"helper [nfx]\n"
	"__ftrace_invalid_address___64\n"
	"\n";

static void select_names(void)
{
	struct kmag_symmap *m = sample_map();
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f = kmag_pathfilter_new("net/", &err);
	struct kmag_selection sel;

	CHECK_EQ(kmag_symmap_select(m, f, available, sizeof(available) - 1, &sel, &err), 5);
	CHECK_EQ(sel.available, 8);
	CHECK_EQ(sel.unmapped, 1);
	CHECK_STREQ(sel.funcs[0].name, "tcp_sendmsg");
	CHECK_EQ(sel.funcs[0].index, 1);
	CHECK(!sel.funcs[0].ambiguous);
	/* both vmlinux "helper"s: one is in net/, and without addresses both must go */
	CHECK_STREQ(sel.funcs[1].name, "helper");
	CHECK_EQ(sel.funcs[1].index, 2);
	CHECK(sel.funcs[1].ambiguous);
	CHECK_EQ(sel.funcs[2].index, 6);
	CHECK_STREQ(sel.funcs[3].name, "nfx_hook");
	CHECK_STREQ(sel.funcs[3].module, "nfx");
	CHECK_STREQ(sel.funcs[3].entry->file, "net/netfilter/nfx.c");
	CHECK_STREQ(sel.funcs[4].name, "helper");
	CHECK_STREQ(sel.funcs[4].module, "nfx");
	CHECK_EQ(sel.funcs[4].index, 8);
	CHECK(!sel.funcs[4].ambiguous);
	CHECK_EQ(sel.ambiguous, 2);
	kmag_selection_release(&sel);
	kmag_pathfilter_free(f);

	f = kmag_pathfilter_new("kernel/sched", &err);
	CHECK_EQ(kmag_symmap_select(m, f, available, sizeof(available) - 1, &sel, &err), 4);
	CHECK_STREQ(sel.funcs[0].name, "helper");
	CHECK_STREQ(sel.funcs[0].entry->file, "kernel/sched/fair.c");	/* the one that matched */
	CHECK_STREQ(sel.funcs[1].name, "pick_next_task_fair");
	CHECK_STREQ(sel.funcs[2].name, "schedule");
	CHECK_STREQ(sel.funcs[3].name, "helper");
	CHECK_EQ(sel.funcs[3].index, 6);
	kmag_selection_release(&sel);
	kmag_pathfilter_free(f);

	f = kmag_pathfilter_new("sound", &err);
	CHECK_EQ(kmag_symmap_select(m, f, available, sizeof(available) - 1, &sel, &err), 0);
	CHECK_EQ(sel.available, 8);
	kmag_selection_release(&sel);
	CHECK(kmag_symmap_select(m, f, "a\0b\n", 4, &sel, &err) < 0);
	CHECK(strstr(err.msg, "NUL"));
	kmag_pathfilter_free(f);
	kmag_symmap_free(m);
}

/* available_filter_functions_addrs + a map bound to kallsyms: duplicates resolved exactly. */
static void select_with_addresses(void)
{
	static const char addrs[] =
		"ffffffff84600000 tcp_sendmsg\n"
		"ffffffff84600100 helper\n"
		"ffffffff83f00000 helper\n"
		"ffffffffc0001040 helper [nfx]\n";
	struct kmag_symmap *m = sample_map();
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f = kmag_pathfilter_new("net/core", &err);
	struct kmag_selection sel;

	CHECK(kmag_symtab_load_kallsyms(st, kallsyms, sizeof(kallsyms) - 1) > 0);
	CHECK_EQ(kmag_symmap_bind(m, st), 0);
	CHECK_EQ(kmag_symmap_select(m, f, addrs, sizeof(addrs) - 1, &sel, &err), 1);
	CHECK_STREQ(sel.funcs[0].name, "helper");
	CHECK_EQ(sel.funcs[0].index, 2);
	CHECK(!sel.funcs[0].ambiguous);
	CHECK_EQ(sel.ambiguous, 0);
	kmag_selection_release(&sel);
	kmag_pathfilter_free(f);
	kmag_symtab_free(st);
	kmag_symmap_free(m);
}

static void release_roundtrip(void)
{
	static const char v9[] = "# kmag symbol map v9\nx\ty\t1\t0\t0\t-\n";
	struct kmag_symmap *m = sample_map(), *m2;
	struct kmag_err err = { 0 };
	char path[600];

	CHECK(!kmag_symmap_kernel_release(m));
	CHECK(!kmag_symmap_set_kernel_release(m, "6.1.0-56-cloud-amd64"));
	snprintf(path, sizeof(path), "%s/r.map", test_tmpdir());
	CHECK(!kmag_symmap_write(m, path, false, "test", &err));
	m2 = kmag_symmap_load(path, &err);
	CHECK(m2);
	CHECK_STREQ(kmag_symmap_kernel_release(m2), "6.1.0-56-cloud-amd64");
	CHECK_EQ(kmag_symmap_count(m2), kmag_symmap_count(m));
	kmag_symmap_free(m2);
	kmag_symmap_free(m);
	/* a version from the future is refused with a fix */
	CHECK(!kmag_symmap_load(write_tmp("v9.map", v9, sizeof(v9) - 1), &err));
	CHECK(strstr(err.msg, "generate-symbol-map"));
}

const struct test_case srcloc_tests[] = {
	{ "split_duplicates", split_duplicates },
	{ "locations_with_addresses", locations_with_addresses },
	{ "locations_names_only", locations_names_only },
	{ "select_names", select_names },
	{ "select_with_addresses", select_with_addresses },
	{ "release_roundtrip", release_roundtrip },
	TEST_LIST_END,
};
