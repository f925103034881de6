// SPDX-License-Identifier: MIT
/* Kernel-tree-relative paths from DWARF paths, for the build layouts seen in the wild. */
#include "symbols/srcpath.h"
#include "test.h"

static const char *rel(const struct srcroots *r, const char *raw, const char *comp_dir)
{
	static char buf[1024];

	CHECK(srcroots_relative(r, raw, comp_dir, buf, sizeof(buf)) >= 0);
	return buf;
}

static void clean(void)
{
	char a[] = "./arch/x86/kernel/../../x86/xen//xen-head.S", b[] = "/a/./b/../../../c",
	     c[] = "../../linux/kernel/./fork.c", d[] = "a/..", e[] = "/";

	srcpath_clean(a);
	CHECK_STREQ(a, "arch/x86/xen/xen-head.S");
	srcpath_clean(b);
	CHECK_STREQ(b, "/c");
	srcpath_clean(c);
	CHECK_STREQ(c, "../../linux/kernel/fork.c");
	srcpath_clean(d);
	CHECK_STREQ(d, "");
	srcpath_clean(e);
	CHECK_STREQ(e, "/");
}

/* Debian 6.1: C units relative with a relative comp_dir, assembly units absolute. */
static void debian_layout(void)
{
	const char *cd_c = "debian/build/build_amd64_none_cloud-amd64";
	const char *cd_s = "/build/reproducible-path/linux-6.1.192/debian/build/build_amd64_none_cloud-amd64";
	struct srcroots r;

	CHECK(!srcroots_init(&r, NULL));
	CHECK(!srcroots_add_unit(&r, "arch/x86/kernel/head64.c", cd_c));
	CHECK(!srcroots_add_unit(&r, "kernel/sched/fair.c", cd_c));
	CHECK(!srcroots_add_unit(&r, "net/ipv4/tcp.c", cd_c));
	CHECK(!srcroots_add_unit(&r, "/build/reproducible-path/linux-6.1.192/arch/x86/kernel/head_64.S", cd_s));
	CHECK(!srcroots_add_unit(&r, "/build/reproducible-path/linux-6.1.192/arch/x86/entry/entry_64.S", cd_s));
	CHECK(!srcroots_finish(&r, NULL));
	CHECK_STREQ(rel(&r, "net/ipv4/tcp.c", cd_c), "net/ipv4/tcp.c");
	CHECK_STREQ(rel(&r, "./arch/x86/include/generated/asm/syscalls_64.h", cd_c),
		    "arch/x86/include/generated/asm/syscalls_64.h");
	CHECK_STREQ(rel(&r, "/build/reproducible-path/linux-6.1.192/arch/x86/kernel/../../x86/xen/xen-head.S", cd_s),
		    "arch/x86/xen/xen-head.S");
	/* a header generated in the build directory */
	CHECK_STREQ(rel(&r, "/build/reproducible-path/linux-6.1.192/debian/build/build_amd64_none_cloud-amd64/include/generated/autoconf.h", cd_s),
		    "include/generated/autoconf.h");
	/* outside the tree: stays absolute */
	CHECK_STREQ(rel(&r, "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h", cd_s),
		    "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h");
	srcroots_release(&r);
}

/* make O=../build with srctree ../linux, and a tree below a directory named "net". */
static void out_of_tree_and_tricky_parent(void)
{
	struct srcroots r;

	CHECK(!srcroots_init(&r, NULL));
	CHECK(!srcroots_add_unit(&r, "../net/linux/kernel/sched/fair.c", "/home/u/src/build"));
	CHECK(!srcroots_add_unit(&r, "../net/linux/mm/slub.c", "/home/u/src/build"));
	CHECK(!srcroots_add_unit(&r, "../net/linux/drivers/net/virtio_net.c", "/home/u/src/build"));
	CHECK(!srcroots_finish(&r, NULL));
	CHECK_STREQ(rel(&r, "../net/linux/include/linux/sched.h", "/home/u/src/build"),
		    "include/linux/sched.h");
	CHECK_STREQ(rel(&r, "/home/u/src/net/linux/kernel/sched/fair.c", "/home/u/src/build"),
		    "kernel/sched/fair.c");
	CHECK_STREQ(rel(&r, "include/generated/bounds.h", "/home/u/src/build"),
		    "include/generated/bounds.h");
	srcroots_release(&r);
}

/* A module of one or two units: drivers/net/ must not become the root. */
static void small_module_units(void)
{
	struct srcroots r;

	CHECK(!srcroots_init(&r, NULL));
	CHECK(!srcroots_add_unit(&r, "/b/linux/drivers/net/virtio_net.c", "/b/linux"));
	CHECK(!srcroots_add_unit(&r, "/b/linux/drivers/net/virtio_net.mod.c", "/b/linux"));
	CHECK(!srcroots_finish(&r, NULL));
	CHECK_STREQ(rel(&r, "/b/linux/drivers/net/virtio_net.c", "/b/linux"), "drivers/net/virtio_net.c");
	srcroots_release(&r);

	CHECK(!srcroots_init(&r, NULL));
	CHECK(!srcroots_add_unit(&r, "/b/linux/arch/x86/crypto/aesni-intel_glue.c", "/x"));
	CHECK(!srcroots_finish(&r, NULL));
	CHECK_STREQ(rel(&r, "/b/linux/arch/x86/crypto/aesni-intel_glue.c", "/x"),
		    "arch/x86/crypto/aesni-intel_glue.c");
	srcroots_release(&r);

	/* roots learnt from the vmlinux win over a module's own vote */
	CHECK(!srcroots_init(&r, NULL));
	CHECK(!srcroots_add_unit(&r, "/q/kernel/net/x.c", "/q"));
	CHECK(!srcroots_finish(&r, (const char *const[]){ "/q/", NULL }));
	CHECK_STREQ(rel(&r, "/q/kernel/net/x.c", "/elsewhere"), "kernel/net/x.c");
	srcroots_release(&r);
}

static void forced_root(void)
{
	struct srcroots r;

	CHECK(!srcroots_init(&r, "/srv/k/"));
	CHECK(!srcroots_add_unit(&r, "/srv/k/fs/open.c", "/srv/k"));
	CHECK(!srcroots_finish(&r, NULL));
	CHECK_STREQ(rel(&r, "/srv/k/fs/open.c", NULL), "fs/open.c");
	CHECK_STREQ(rel(&r, "/srv/kx/fs/open.c", NULL), "/srv/kx/fs/open.c");
	srcroots_release(&r);
}

const struct test_case srcpath_tests[] = {
	{ "clean", clean },
	{ "debian_layout", debian_layout },
	{ "out_of_tree_and_tricky_parent", out_of_tree_and_tricky_parent },
	{ "small_module_units", small_module_units },
	{ "forced_root", forced_root },
	TEST_LIST_END,
};
