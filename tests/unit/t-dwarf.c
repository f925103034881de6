// SPDX-License-Identifier: MIT
/*
 * Symbol maps from DWARF: small programs laid out like a kernel tree are
 * built with `gcc -g -O2` at test time, as an executable ("vmlinux") and as a
 * relocatable object with a .modinfo ("testmod.ko"), and read back.
 */
#include <errno.h>
#include <sys/stat.h>

#include "kmag/symmap.h"
#include "test.h"

static const char helpers_h[] =
	"#ifndef HELPERS_H\n"
	"#define HELPERS_H\n"
	"int tcp_like_send(int x);\n"			/* a prototype: not the definition */
	"int pick_next(int x);\n"
	"struct sched_class {\n"
	"	int (*pick_next)(int);\n"		/* a member named like a function */
	"	int weight;\n"
	"};\n"
	"static inline int hdr_mix(int a, int b)\n"
	"{ /* @hdr_mix */\n"
	"	return a * 3 + (b ^ 0x55);\n"
	"}\n"
	"#endif\n";

static const char tcpish_c[] =
	"#include \"../../include/linux/helpers.h\"\n"
	"static int fair_worker = 3;\n"		/* a variable named like a function elsewhere */
	"int (*mix_ptr)(int, int) = hdr_mix;\n"	/* forces an out-of-line copy of hdr_mix */
	"static __attribute__((noinline)) int helper(int x)\n"
	"{ /* @helper_tcp */\n"
	"	return x * 5 + fair_worker;\n"
	"}\n"
	"static __attribute__((noinline)) int scale(int x, int factor)\n"
	"{ /* @scale */\n"
	"	int r = 0;\n"
	"	for (int i = 0; i < factor; i++)\n"
	"		r += x ^ i;\n"
	"	return r;\n"
	"} /* @scale_end */\n"
	"int api_scale1(int x) { return scale(x, 7); }\n"
	"int api_scale2(int x) { return scale(x + 1, 7); }\n"
	"int tcp_like_send(int x)\n"
	"{ /* @tcp_like_send */\n"
	"	return helper(x) + hdr_mix(x, 1);\n"
	"}\n";

static const char fairish_c[] =
	"#include \"../../include/linux/helpers.h\"\n"
	"struct big { long a, b, c, d; };\n"
	"extern int table[256];\n"
	"extern volatile int sink;\n"
	"extern void report_problem(int) __attribute__((cold));\n"
	"static __attribute__((noinline)) int helper(int x)\n"
	"{ /* @helper_fair */\n"
	"	return x * 7 - 1;\n"
	"}\n"
	"static __attribute__((noinline)) long sum_fields(struct big *p, int unused)\n"
	"{ /* @sum_fields */\n"
	"	return p->a * 3 + p->b;\n"
	"}\n"
	"long api_sum(struct big *p, int k) { return sum_fields(p, k) + 1; }\n"
	"long api_sum2(struct big *p, int k) { return sum_fields(p + 1, k * 2) + 2; }\n"
	"static int find_slot(int key)\n"
	"{ /* @find_slot */\n"
	"	if (key == 0)\n"
	"		return 0;\n"
	"	int h = key;\n"
	"	for (int i = 0; i < 256; i++) {\n"
	"		h = h * 31 + table[(h + i) & 255];\n"
	"		if (table[h & 255] == key)\n"
	"			return i;\n"
	"	}\n"
	"	for (int i = 0; i < 256; i++)\n"
	"		table[i] ^= h;\n"
	"	return -1;\n"
	"} /* @find_slot_end */\n"
	"int lookup_a(int k) { return find_slot(k) + 1; }\n"
	"int lookup_b(int k) { return find_slot(k * 3) + 2; }\n"
	"int lookup_c(int k) { return find_slot(k ^ 5) + 3; }\n"
	"int checker(int x)\n"
	"{ /* @checker */\n"
	"	if (__builtin_expect(x < 0, 0)) {\n"
	"		report_problem(x);\n"
	"		sink = x * 7;\n"
	"		report_problem(x + 1);\n"
	"		return -1;\n"
	"	}\n"
	"	return x * 2;\n"
	"} /* @checker_end */\n"
	"int pick_next(int x)\n"
	"{ /* @pick_next */\n"
	"	return helper(x) + tcp_like_send(x);\n"
	"}\n"
	"struct sched_class fair_class = { .pick_next = pick_next, .weight = 1 };\n"
	"int fair_worker(int x)\n"
	"{ /* @fair_worker */\n"
	"	return helper(x) * 2;\n"
	"}\n";

static const char main_c[] =
	"__asm__(\".globl __fentry__\\n__fentry__: ret\");\n"	/* the kernel's ftrace hook */
	"int table[256];\n"
	"volatile int sink;\n"
	"__attribute__((used)) const char linux_banner[] =\n"
	"	\"Linux version 0.0.1-kmagtest (test@example) #1 SMP\\n\";\n"
	"__attribute__((noinline, cold)) void report_problem(int x) { sink = x; }\n"
	"int tcp_like_send(int x);\n"
	"int pick_next(int x);\n"
	"int checker(int x);\n"
	"int lookup_a(int k);\n"
	"int fair_worker(int x);\n"
	"int main(int argc, char **argv)\n"
	"{ /* @main */\n"
	"	(void)argv;\n"
	"	return tcp_like_send(argc) + pick_next(argc) + checker(argc) + lookup_a(argc) +\n"
	"	       fair_worker(argc);\n"
	"}\n";

static const char modinfo_c[] =
	"__attribute__((section(\".modinfo\"), used, aligned(1)))\n"
	"static const char modinfo[] = \"name=testmod\\0vermagic=0.0.1-kmagtest SMP mod_unload\";\n"
	"__attribute__((section(\".init.text\"), noinline)) int testmod_init(void)\n"
	"{ /* @testmod_init */\n"
	"	return 0;\n"
	"}\n";

static void write_src(const char *root, const char *rel, const char *text)
{
	char path[1024], cmd[1200];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", path);
	CHECK(system(cmd) == 0);
	write_tmp("tmp-src", text, strlen(text));
	snprintf(cmd, sizeof(cmd), "mv '%s/tmp-src' '%s'", test_tmpdir(), path);
	CHECK(system(cmd) == 0);
}

/* Line number of the line holding "@marker" in @text. */
static unsigned line_of(const char *text, const char *marker)
{
	char m[64];
	const char *p;
	unsigned line = 1;

	snprintf(m, sizeof(m), "/* %s */", marker);
	p = strstr(text, m);
	if (!p)
		test_fail(__FILE__, __LINE__, "no marker %s", marker);
	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

/* Builds the tree; returns the source root (static). */
static const char *build_tree(void)
{
	static char src[600];
	char cmd[2400];

	snprintf(src, sizeof(src), "%s/src", test_tmpdir());
	write_src(src, "include/linux/helpers.h", helpers_h);
	write_src(src, "net/ipv4/tcpish.c", tcpish_c);
	write_src(src, "kernel/sched/fairish.c", fairish_c);
	write_src(src, "init/main.c", main_c);
	write_src(src, "kernel/testmod.c", modinfo_c);
	/*
	 * Kernel-like code generation: every function starts with a call to
	 * __fentry__ (-pg -mfentry, linked without profiling runtime). Relative
	 * paths, except one file by absolute path, like O= builds.
	 */
#define CFLAGS "-g -O2 -pg -mfentry -fno-pie "
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gcc " CFLAGS "-c -o tcpish.o net/ipv4/tcpish.c && "
		 "gcc " CFLAGS "-c -o fairish.o '%s/kernel/sched/fairish.c' && "
		 "gcc -g -O2 -fno-pie -c -o main.o init/main.c && "
		 "gcc -no-pie -o vmlinux main.o tcpish.o fairish.o && "
		 "gcc " CFLAGS "-c -o testmod.o kernel/testmod.c && "
		 "ld -r -o testmod.ko testmod.o tcpish.o fairish.o",
		 src, src);
	if (system(cmd))
		test_fail(__FILE__, __LINE__, "building the test programs failed: %s", cmd);
	return src;
}

static const struct kmag_symmap_entry *only(const struct kmag_symmap *m, const char *name)
{
	const struct kmag_symmap_entry *found = NULL;

	for (size_t i = 0; i < kmag_symmap_count(m); i++) {
		const struct kmag_symmap_entry *e = kmag_symmap_entry(m, i);

		if (strcmp(e->name, name))
			continue;
		if (found)
			test_fail(__FILE__, __LINE__, "%s listed twice", name);
		found = e;
	}
	if (!found)
		test_fail(__FILE__, __LINE__, "%s missing from the map", name);
	return found;
}

/*
 * Counts the entries whose name is @prefix + "." ... and contains @kind
 * (".isra"), checking each is in @file within the origin's lines (a clone's
 * entry may be on the declarator line, one before the brace: addr2line agrees).
 */
static size_t clones(const struct kmag_symmap *m, const char *prefix, const char *kind,
		     const char *file, unsigned first_line, unsigned last_line)
{
	size_t n = 0;

	for (size_t i = 0; i < kmag_symmap_count(m); i++) {
		const struct kmag_symmap_entry *e = kmag_symmap_entry(m, i);

		if (strncmp(e->name, prefix, strlen(prefix)) || e->name[strlen(prefix)] != '.' ||
		    !strstr(e->name, kind))
			continue;
		CHECK_STREQ(e->file, file);
		if (e->line + 1 < first_line || e->line > last_line)
			test_fail(__FILE__, __LINE__, "%s at line %u, outside %u..%u", e->name, e->line,
				  first_line, last_line);
		n++;
	}
	return n;
}

static void vmlinux_like(void)
{
	const char *src = build_tree();
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = kmag_symmap_new();
	const struct kmag_symmap_entry *e, *a, *b;
	char path[700];
	size_t n = 0;

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBDW);
	snprintf(path, sizeof(path), "%s/vmlinux", src);
	if (kmag_symmap_add_vmlinux(m, path, NULL, &stats, &err) <= 0)
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	CHECK_EQ(stats.units, 3);
	CHECK_STREQ(kmag_symmap_kernel_release(m), "0.0.1-kmagtest");

	/* a prototype in a header: the definition's file */
	e = only(m, "tcp_like_send");
	CHECK_STREQ(e->file, "net/ipv4/tcpish.c");
	CHECK_EQ(e->line, line_of(tcpish_c, "@tcp_like_send"));
	CHECK(e->addr && e->size);
	/* a struct member with the function's name */
	e = only(m, "pick_next");
	CHECK_STREQ(e->file, "kernel/sched/fairish.c");
	CHECK_EQ(e->line, line_of(fairish_c, "@pick_next"));
	/* a variable with the function's name in another file */
	e = only(m, "fair_worker");
	CHECK_STREQ(e->file, "kernel/sched/fairish.c");
	/* the out-of-line copy of an inline function: defined in the header */
	e = only(m, "hdr_mix");
	CHECK_STREQ(e->file, "include/linux/helpers.h");
	CHECK_EQ(e->line, line_of(helpers_h, "@hdr_mix"));
	e = only(m, "main");
	CHECK_STREQ(e->file, "init/main.c");

	/* same-named static functions stay apart, each with its address */
	for (size_t i = 0; i < kmag_symmap_count(m); i++) {
		e = kmag_symmap_entry(m, i);
		if (strcmp(e->name, "helper"))
			continue;
		n++;
		if (!strcmp(e->file, "net/ipv4/tcpish.c"))
			CHECK_EQ(e->line, line_of(tcpish_c, "@helper_tcp"));
		else if (!strcmp(e->file, "kernel/sched/fairish.c"))
			CHECK_EQ(e->line, line_of(fairish_c, "@helper_fair"));
		else
			test_fail(__FILE__, __LINE__, "helper in %s", e->file);
	}
	CHECK_EQ(n, 2);
	a = kmag_symmap_lookup(m, "helper", 0, NULL);
	CHECK(a);

	/* GCC clones map to their origin: entries of their own, in the origin's body */
	CHECK(clones(m, "scale", ".constprop", "net/ipv4/tcpish.c", line_of(tcpish_c, "@scale"),
		     line_of(tcpish_c, "@scale_end")) >= 1);
	CHECK(clones(m, "sum_fields", ".isra", "kernel/sched/fairish.c",
		     line_of(fairish_c, "@sum_fields"), line_of(fairish_c, "@sum_fields") + 2) >= 1);
	CHECK(clones(m, "find_slot", ".part", "kernel/sched/fairish.c",
		     line_of(fairish_c, "@find_slot"), line_of(fairish_c, "@find_slot_end")) >= 1);
	CHECK(clones(m, "checker", ".cold", "kernel/sched/fairish.c", line_of(fairish_c, "@checker"),
		     line_of(fairish_c, "@checker_end")) >= 1);
	/* a clone name the map lacks still finds its origin */
	b = kmag_symmap_lookup(m, "tcp_like_send.isra.7", 0, NULL);
	CHECK(b && !strcmp(b->file, "net/ipv4/tcpish.c"));
	kmag_symmap_free(m);
}

/* Same-named statics told apart by address once bound to a (relocated) kallsyms. */
static void statics_by_address(void)
{
	const char *src = build_tree();
	struct kmag_symtab *st = kmag_symtab_new();
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = kmag_symmap_new();
	const struct kmag_symmap_entry *e, *h[2] = { NULL, NULL };
	char path[700], *ksyms = NULL, line[256];
	size_t len = 0, nh = 0;
	const uint64_t kaslr = 0x3a00000;
	bool amb;

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBDW);
	snprintf(path, sizeof(path), "%s/vmlinux", src);
	CHECK(kmag_symmap_add_vmlinux(m, path, NULL, NULL, &err) > 0);
	for (size_t i = 0; i < kmag_symmap_count(m); i++) {
		int n;

		e = kmag_symmap_entry(m, i);
		n = snprintf(line, sizeof(line), "%llx t %s\n",
			     (unsigned long long)(e->addr + kaslr), e->name);
		ksyms = realloc(ksyms, len + (size_t)n + 1);
		memcpy(ksyms + len, line, (size_t)n + 1);
		len += (size_t)n;
		if (!strcmp(e->name, "helper"))
			h[nh++] = e;
	}
	CHECK_EQ(nh, 2);
	e = kmag_symmap_lookup(m, "helper", 0, &amb);
	CHECK(amb);
	CHECK(kmag_symtab_load_kallsyms(st, ksyms, len) > 0);
	CHECK_EQ(kmag_symmap_bind(m, st), 0);
	for (size_t i = 0; i < 2; i++) {
		e = kmag_symmap_lookup(m, "helper", h[i]->addr + kaslr + 1, &amb);
		CHECK(!amb);
		CHECK(e == h[i]);
	}
	free(ksyms);
	kmag_symtab_free(st);
	kmag_symmap_free(m);
}

/* Reads "value" of symbol @name from `nm` of @path; 0 if absent. */
static unsigned long long nm_value(const char *path, const char *name)
{
	char cmd[800], buf[512];
	unsigned long long v = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "nm '%s'", path);
	p = popen(cmd, "r");
	CHECK(p);
	while (fgets(buf, sizeof(buf), p)) {
		unsigned long long a;
		char type, sym[400];

		if (sscanf(buf, "%llx %c %399s", &a, &type, sym) == 3 && !strcmp(sym, name))
			v = a;
	}
	pclose(p);
	return v;
}

static void module_object(void)
{
	const char *src = build_tree();
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = kmag_symmap_new();
	const struct kmag_symmap_entry *e;
	char path[700];

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBDW);
	snprintf(path, sizeof(path), "%s/testmod.ko", src);
	if (kmag_symmap_add_modules(m, src, NULL, &stats, &err) != 1)
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	CHECK_EQ(stats.modules, 1);
	CHECK_STREQ(kmag_symmap_kernel_release(m), "0.0.1-kmagtest");
	/* relocated DWARF: names and files right (unrelocated, names would all be wrong) */
	e = only(m, "tcp_like_send");
	CHECK_STREQ(e->module, "testmod");
	CHECK_STREQ(e->file, "net/ipv4/tcpish.c");
	CHECK_EQ(e->line, line_of(tcpish_c, "@tcp_like_send"));
	e = only(m, "pick_next");
	CHECK_STREQ(e->file, "kernel/sched/fairish.c");
	/* kernel module layout: .text first, so .text functions sit at their section offset */
	CHECK_EQ(e->addr, KMAG_MODULE_TEXT_BASE + nm_value(path, "pick_next"));
	CHECK(e->addr != only(m, "tcp_like_send")->addr);
	/* init code is freed after loading: no runtime address */
	e = only(m, "testmod_init");
	CHECK_EQ(e->addr, 0);
	CHECK_STREQ(e->file, "kernel/testmod.c");
	CHECK(clones(m, "scale", ".constprop", "net/ipv4/tcpish.c", line_of(tcpish_c, "@scale"),
		     line_of(tcpish_c, "@scale_end")) >= 1);

	/* loaded at some module address: bound per module, statics told apart */
	{
		const uint64_t base = 0xffffffffc0340000ull;
		struct kmag_symtab *st = kmag_symtab_new();
		char *ksyms = NULL, line[256];
		size_t len = 0;
		bool amb;

		for (size_t i = 0; i < kmag_symmap_count(m); i++) {
			int n;

			e = kmag_symmap_entry(m, i);
			if (!e->addr)
				continue;
			n = snprintf(line, sizeof(line), "%llx t %s\t[testmod]\n",
				     (unsigned long long)(e->addr - KMAG_MODULE_TEXT_BASE + base),
				     e->name);
			ksyms = realloc(ksyms, len + (size_t)n + 1);
			memcpy(ksyms + len, line, (size_t)n + 1);
			len += (size_t)n;
		}
		CHECK(kmag_symtab_load_kallsyms(st, ksyms, len) > 0);
		CHECK_EQ(kmag_symmap_bind(m, st), 0);
		for (size_t i = 0; i < kmag_symmap_count(m); i++) {
			const struct kmag_symmap_entry *h = kmag_symmap_entry(m, i);

			if (strcmp(h->name, "helper"))
				continue;
			e = kmag_symmap_lookup(m, "helper", h->addr - KMAG_MODULE_TEXT_BASE + base + 2, &amb);
			CHECK(e == h && !amb);
		}
		free(ksyms);
		kmag_symtab_free(st);
	}
	kmag_symmap_free(m);
}

/* Split debug files (*.ko.debug, code sections NOBITS) give the same map; one wins per module. */
static void module_debug_file(void)
{
	const char *src = build_tree();
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *a = kmag_symmap_new(), *b = kmag_symmap_new();
	char cmd[4096], dir[700];

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBDW);
	snprintf(dir, sizeof(dir), "%s/dbg", src);
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s' && cp '%s/testmod.ko' '%s/' && "
		 "objcopy --only-keep-debug '%s/testmod.ko' '%s/testmod.ko.debug'", dir, src, dir, src,
		 dir);
	CHECK(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "%s/testmod.ko", src);
	CHECK(kmag_symmap_add_module(a, cmd, NULL, NULL, NULL, &err) > 0);
	/* the directory holds testmod.ko and testmod.ko.debug: read once */
	if (kmag_symmap_add_modules(b, dir, NULL, &stats, &err) != 1)
		test_fail(__FILE__, __LINE__, "%s", err.msg);
	CHECK_EQ(stats.modules, 1);
	CHECK_EQ(kmag_symmap_count(b), kmag_symmap_count(a));
	for (size_t i = 0; i < kmag_symmap_count(a); i++) {
		const struct kmag_symmap_entry *x = kmag_symmap_entry(a, i), *y = kmag_symmap_entry(b, i);

		CHECK_STREQ(x->name, y->name);
		CHECK_STREQ(x->file, y->file);
		CHECK_STREQ(y->module, "testmod");
		CHECK_EQ(x->line, y->line);
		CHECK_EQ(x->addr, y->addr);
	}
	kmag_symmap_free(a);
	kmag_symmap_free(b);
}

static void errors(void)
{
	const char *src = build_tree();
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = kmag_symmap_new();
	char path[700], buf[512];

	TEST_NEED_FEATURE(KMAG_FEATURE_LIBDW);
	snprintf(path, sizeof(path), "%s/nothere", src);
	CHECK(kmag_symmap_add_vmlinux(m, path, NULL, NULL, &err) == -ENOENT);
	CHECK(strstr(err.msg, "nothere"));
	kmag_err_clear(&err);
	CHECK(kmag_symmap_add_vmlinux(m, write_tmp("junk", "not an elf file", 15), NULL, NULL, &err) < 0);
	CHECK(strstr(err.msg, "junk"));
	kmag_err_clear(&err);
	/* stripped of debug info */
	snprintf(buf, sizeof(buf), "cd '%s' && strip -g -o vmlinux.nodebug vmlinux", src);
	CHECK(system(buf) == 0);
	snprintf(path, sizeof(path), "%s/vmlinux.nodebug", src);
	CHECK(kmag_symmap_add_vmlinux(m, path, NULL, NULL, &err) < 0);
	CHECK(strstr(err.msg, "no DWARF"));
	kmag_err_clear(&err);
	snprintf(path, sizeof(path), "%s/include", src);
	CHECK(kmag_symmap_add_modules(m, path, NULL, NULL, &err) == -ENOENT);
	CHECK(strstr(err.msg, "no kernel module"));
	kmag_err_clear(&err);
	CHECK(kmag_symmap_add_modules(m, "/nonexistent-dir", NULL, NULL, &err) < 0);
	CHECK(strstr(err.msg, "/nonexistent-dir"));
	kmag_err_clear(&err);
	/* no debug vmlinux for a made-up release: the package to install is named */
	CHECK(!kmag_vmlinux_find("0.0.0-kmag-none", buf, sizeof(buf), &err));
	CHECK(strstr(err.msg, "0.0.0-kmag-none"));
	CHECK(strstr(err.msg, "-k VMLINUX"));
	kmag_symmap_free(m);
}

const struct test_case dwarf_tests[] = {
	{ "vmlinux_like", vmlinux_like },
	{ "statics_by_address", statics_by_address },
	{ "module_object", module_object },
	{ "module_debug_file", module_debug_file },
	{ "errors", errors },
	TEST_LIST_END,
};
