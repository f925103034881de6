// SPDX-License-Identifier: MIT
#include "kmag/symtab.h"
#include "test.h"

static void intern_is_stable(void)
{
	struct kmag_symtab *st = kmag_symtab_new();
	kmag_func_t a, b, c;
	char name[32];
	int i;

	CHECK(st);
	a = kmag_symtab_intern(st, "vfs_read", (size_t)-1);
	b = kmag_symtab_intern(st, "vfs_write", (size_t)-1);
	c = kmag_symtab_intern(st, "vfs_read_extra", 8);	/* first 8 bytes: "vfs_read" */
	CHECK(a != KMAG_FUNC_NONE && b != KMAG_FUNC_NONE);
	CHECK(a != b);
	CHECK_EQ(c, a);
	CHECK_STREQ(kmag_symtab_name(st, a), "vfs_read");
	CHECK_EQ(kmag_symtab_find(st, "vfs_write"), b);
	CHECK_EQ(kmag_symtab_find(st, "nope"), KMAG_FUNC_NONE);
	/* growth keeps old ids valid */
	for (i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "f%d", i);
		CHECK_EQ(kmag_symtab_intern(st, name, (size_t)-1), (kmag_func_t)(i + 2));
	}
	CHECK_STREQ(kmag_symtab_name(st, a), "vfs_read");
	CHECK_EQ(kmag_symtab_find(st, "f4999"), 5001);
	CHECK(kmag_symtab_name(st, 999999) == NULL);
	kmag_symtab_free(st);
}

static void kallsyms_resolution(void)
{
	static const char ksyms[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81001000 t do_one_initcall\n"
		"ffffffff81002000 D some_data\n"	/* data: ignored */
		"ffffffff81003000 t __do_vfs_read\n"	/* aliases: global over local, */
		"ffffffff81003000 T __ia32_vfs_read\n"	/* and the last listed global */
		"ffffffff81003000 T vfs_read\n"
		"ffffffff81004000 W weak_fn\n"
		/* as in Linux 6.19's kallsyms: a function and section labels at one address */
		"ffffffff81005000 T __do_softirq\n"
		"ffffffff81005000 T __kprobes_text_end\n"
		"ffffffff81005000 T __softirqentry_text_start\n"
		"ffffffffc0001000 t ext4_read\t[ext4]\n"
		"garbage line\n"
		"0000000000000000 A zero\n";
	struct kmag_symtab *st = kmag_symtab_new();
	kmag_func_t id;

	CHECK_EQ(kmag_symtab_load_kallsyms(st, ksyms, sizeof(ksyms) - 1), 10);
	id = kmag_symtab_resolve(st, 0xffffffff81003000ull, false);
	CHECK_STREQ(kmag_symtab_name(st, id), "vfs_read");
	id = kmag_symtab_resolve(st, 0xffffffff81003abcull, false);	/* inside */
	CHECK_STREQ(kmag_symtab_name(st, id), "vfs_read");
	id = kmag_symtab_resolve(st, 0xffffffff81002500ull, false);	/* data skipped */
	CHECK_STREQ(kmag_symtab_name(st, id), "do_one_initcall");
	/* the function, as the kernel names it, not the section label listed last */
	id = kmag_symtab_resolve(st, 0xffffffff81005010ull, false);
	CHECK_STREQ(kmag_symtab_name(st, id), "__do_softirq");
	id = kmag_symtab_resolve(st, 0xffffffffc0001010ull, false);
	CHECK_STREQ(kmag_symtab_name(st, id), "ext4_read");
	CHECK_STREQ(kmag_symtab_module(st, id), "ext4");
	CHECK(kmag_symtab_module(st, kmag_symtab_find(st, "vfs_read")) == NULL);
	CHECK_EQ(kmag_symtab_addr(st, kmag_symtab_find(st, "weak_fn")), 0xffffffff81004000ull);
	/* below the first symbol: unknown, or a hex name on request */
	CHECK_EQ(kmag_symtab_resolve(st, 0x1000, false), KMAG_FUNC_NONE);
	id = kmag_symtab_resolve(st, 0x1000, true);
	CHECK_STREQ(kmag_symtab_name(st, id), "0x1000");
	/* far past the last symbol: not attributed to it */
	id = kmag_symtab_resolve(st, 0xffffffffc8000000ull, true);
	CHECK_STREQ(kmag_symtab_name(st, id), "0xffffffffc8000000");
	kmag_symtab_free(st);
}

const struct test_case symtab_tests[] = {
	{ "intern_is_stable", intern_is_stable },
	{ "kallsyms_resolution", kallsyms_resolution },
	TEST_LIST_END,
};
