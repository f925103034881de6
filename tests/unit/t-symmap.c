// SPDX-License-Identifier: MIT
#include "kmag/symmap.h"
#include "test.h"

static void seed_format(void)
{
	static const char txt[] = "tcp_sendmsg|net/ipv4/tcp.c\n\nschedule|kernel/sched/core.c\n"
				  "# comment\nfoo|/build/linux/drivers/net/foo.c\n";
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = kmag_symmap_load(write_tmp("seed.map", txt, sizeof(txt) - 1), &err);
	const struct kmag_symmap_entry *e;

	CHECK(m);
	CHECK_EQ(kmag_symmap_count(m), 3);
	e = kmag_symmap_lookup(m, "tcp_sendmsg", 0, NULL);
	CHECK(e);
	CHECK_STREQ(e->file, "net/ipv4/tcp.c");
	/* clones resolve to their origin */
	e = kmag_symmap_lookup(m, "schedule.cold", 0, NULL);
	CHECK(e);
	CHECK_STREQ(e->file, "kernel/sched/core.c");
	CHECK(kmag_symmap_lookup(m, "nothere", 0, NULL) == NULL);
	kmag_symmap_free(m);
}

static void seed_format_errors(void)
{
	static const char extra[] = "a|b.c\nx|y|z\n";
	struct kmag_err err = { 0 };

	CHECK(!kmag_symmap_load(write_tmp("bad.map", extra, sizeof(extra) - 1), &err));
	CHECK(strstr(err.msg, ":2:"));
	CHECK(strstr(err.msg, "more than one"));
	kmag_err_clear(&err);
	CHECK(!kmag_symmap_load(write_tmp("empty.map", "\n\n", 2), &err));
	CHECK(strstr(err.msg, "no entries"));
	kmag_err_clear(&err);
	CHECK(!kmag_symmap_load("/nonexistent/x.map", &err));
	CHECK(strstr(err.msg, "/nonexistent/x.map"));
}

static void kmag_format_roundtrip_and_address(void)
{
	struct kmag_symmap *m = kmag_symmap_new(), *m2;
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_err err = { 0 };
	const struct kmag_symmap_entry *e;
	char path[512];
	bool amb;
	/* two static functions named "helper", KASLR offset 0x1000000 */
	static const char ksyms[] = "ffffffff82000000 T _stext\n"
				    "ffffffff82001000 t helper\n"
				    "ffffffff82002000 t helper\n"
				    "ffffffff82003000 T vfs_read\n";

	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "_stext", "init/main.c", 1, 0xffffffff81000000ull, 16, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "helper", "fs/a.c", 10, 0xffffffff81001000ull, 64, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "helper", "mm/b.c", 20, 0xffffffff81002000ull, 64, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "vfs_read", "fs/read_write.c", 450, 0xffffffff81003000ull, 128, NULL }));
	CHECK(!kmag_symmap_add(m, &(struct kmag_symmap_entry){ "ext4_x", "fs/ext4/x.c", 5, 0x1000, 8, "ext4" }));
	snprintf(path, sizeof(path), "%s/k.map", test_tmpdir());
	CHECK(!kmag_symmap_write(m, path, false, "test", &err));
	m2 = kmag_symmap_load(path, &err);
	CHECK(m2);
	CHECK_EQ(kmag_symmap_count(m2), 5);
	e = kmag_symmap_lookup(m2, "ext4_x", 0, NULL);
	CHECK_STREQ(e->module, "ext4");
	CHECK_EQ(e->line, 5);
	/* without addresses the duplicate is ambiguous */
	e = kmag_symmap_lookup(m2, "helper", 0, &amb);
	CHECK(amb);
	CHECK_EQ(kmag_symtab_load_kallsyms(st, ksyms, sizeof(ksyms) - 1), 4);
	CHECK_EQ(kmag_symmap_bind(m2, st), 0);
	e = kmag_symmap_lookup(m2, "helper", 0xffffffff82002010ull, &amb);
	CHECK(!amb);
	CHECK_STREQ(e->file, "mm/b.c");
	e = kmag_symmap_lookup(m2, "helper", 0xffffffff82001000ull, &amb);
	CHECK_STREQ(e->file, "fs/a.c");
	kmag_symmap_free(m);
	kmag_symmap_free(m2);
	kmag_symtab_free(st);
}

static void path_filters(void)
{
	struct kmag_err err = { 0 };
	struct kmag_pathfilter *f = kmag_pathfilter_new("net,kernel/sched/fair.c", &err);

	CHECK(f);
	CHECK(kmag_pathfilter_match(f, "net/ipv4/tcp.c"));
	CHECK(kmag_pathfilter_match(f, "drivers/net/virtio_net.c"));
	CHECK(kmag_pathfilter_match(f, "kernel/sched/fair.c"));
	CHECK(!kmag_pathfilter_match(f, "kernel/sched/core.c"));
	kmag_pathfilter_free(f);

	f = kmag_pathfilter_new("/net", &err);
	CHECK(kmag_pathfilter_match(f, "net/core/dev.c"));
	CHECK(!kmag_pathfilter_match(f, "drivers/net/virtio_net.c"));
	CHECK(kmag_pathfilter_match(f, "/build/linux-6.1/net/core/dev.c"));	/* seed maps */
	kmag_pathfilter_free(f);

	f = kmag_pathfilter_new("fs/*/inode.c,/mm/*.c", &err);
	CHECK(kmag_pathfilter_match(f, "fs/ext4/inode.c"));
	CHECK(kmag_pathfilter_match(f, "mm/slub.c"));
	CHECK(!kmag_pathfilter_match(f, "fs/read_write.c"));
	kmag_pathfilter_free(f);

	CHECK(!kmag_pathfilter_new(",,", &err));
	CHECK(strstr(err.msg, "empty path filter"));
}

const struct test_case symmap_tests[] = {
	{ "seed_format", seed_format },
	{ "seed_format_errors", seed_format_errors },
	{ "kmag_format_roundtrip_and_address", kmag_format_roundtrip_and_address },
	{ "path_filters", path_filters },
	TEST_LIST_END,
};
