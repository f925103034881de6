// SPDX-License-Identifier: MIT
/*
 * t-btf.c - kmag_btf on BTF this test writes with libbpf's own writer: the
 * prototypes read back are the ones written, types seen through typedefs and
 * modifiers as the kernel's print_function_args() sees them.
 */
#include "config.h"
#include <errno.h>

#include "test.h"
#include "kmag/btf.h"

#if KMAG_HAVE_BTF
#include <bpf/btf.h>

/*
 * typedef long ssize_t_; struct file; struct pair { long a, b; }; enum e { A = 1 };
 * ssize_t_ vfs_write(struct file *file, const char *buf, unsigned long count, long long *pos);
 * void voidf(struct pair p, enum e mode, _Bool on, ...);
 * _Bool boolf(void);   int a7(int, int, int, int, int, int, int);
 */
static struct kmag_btf *sample(void)
{
	struct btf *b = btf__new_empty();
	int t_long, t_ulong, t_char, t_bool, t_int, t_ll, t_ssize, t_file, t_pfile, t_cchar, t_pcchar;
	int t_pll, t_pair, t_enum, proto, t_pint, i;
	const void *raw;
	uint32_t size;
	struct kmag_err err = { 0 };
	struct kmag_btf *k;

	CHECK(b);
	t_long = btf__add_int(b, "long int", 8, BTF_INT_SIGNED);
	t_ulong = btf__add_int(b, "long unsigned int", 8, 0);
	t_char = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	t_bool = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	t_int = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	t_ll = btf__add_int(b, "long long int", 8, BTF_INT_SIGNED);
	t_ssize = btf__add_typedef(b, "ssize_t_", t_long);
	t_file = btf__add_fwd(b, "file", BTF_FWD_STRUCT);
	t_pfile = btf__add_ptr(b, t_file);
	t_cchar = btf__add_const(b, t_char);
	t_pcchar = btf__add_ptr(b, t_cchar);
	t_pll = btf__add_ptr(b, t_ll);
	t_pair = btf__add_struct(b, "pair", 16);
	CHECK(btf__add_field(b, "a", t_long, 0, 0) == 0);
	CHECK(btf__add_field(b, "b", t_long, 64, 0) == 0);
	t_enum = btf__add_enum(b, "e", 4);
	CHECK(btf__add_enum_value(b, "A", 1) == 0);
	CHECK(t_ulong > 0 && t_bool > 0 && t_ssize > 0 && t_pfile > 0 && t_pcchar > 0 && t_pll > 0);

	proto = btf__add_func_proto(b, t_ssize);
	CHECK(btf__add_func_param(b, "file", t_pfile) == 0);
	CHECK(btf__add_func_param(b, "buf", t_pcchar) == 0);
	CHECK(btf__add_func_param(b, "count", t_ulong) == 0);
	CHECK(btf__add_func_param(b, "pos", t_pll) == 0);
	CHECK(btf__add_func(b, "vfs_write", BTF_FUNC_GLOBAL, proto) > 0);

	proto = btf__add_func_proto(b, 0);
	CHECK(btf__add_func_param(b, "p", t_pair) == 0);
	CHECK(btf__add_func_param(b, "mode", t_enum) == 0);
	CHECK(btf__add_func_param(b, "on", t_bool) == 0);
	CHECK(btf__add_func_param(b, NULL, 0) == 0);	/* ... */
	CHECK(btf__add_func(b, "voidf", BTF_FUNC_STATIC, proto) > 0);

	proto = btf__add_func_proto(b, t_bool);
	CHECK(btf__add_func(b, "boolf", BTF_FUNC_STATIC, proto) > 0);

	proto = btf__add_func_proto(b, t_int);
	for (i = 0; i < 7; i++) {
		char n[8];

		snprintf(n, sizeof(n), "a%d", i);
		CHECK(btf__add_func_param(b, n, t_int) == 0);
	}
	CHECK(btf__add_func(b, "a7", BTF_FUNC_STATIC, proto) > 0);
	t_pint = btf__add_ptr(b, t_int);
	proto = btf__add_func_proto(b, t_pint);
	CHECK(btf__add_func(b, "getp", BTF_FUNC_STATIC, proto) > 0);

	raw = btf__raw_data(b, &size);
	CHECK(raw && size);
	k = kmag_btf_from_blob(raw, size, &err);
	btf__free(b);	/* the kmag_btf keeps its own copy */
	if (!k)
		test_fail(__FILE__, __LINE__, "kmag_btf_from_blob: %s", err.msg);
	return k;
}

static void prototypes(void)
{
	struct kmag_btf *k = sample();
	struct kmag_btf_func f;

	CHECK_EQ(kmag_btf_nr_funcs(k), 5);
	CHECK_EQ(kmag_btf_func(k, "vfs_write", &f), 0);
	CHECK_STREQ(f.name, "vfs_write");
	CHECK_EQ(f.ret.kind, KMAG_BTF_INT);	/* through the typedef */
	CHECK(f.ret.is_signed);
	CHECK_EQ(f.ret.size, 8);
	CHECK_EQ(f.nparams, 4);
	CHECK(!f.variadic);
	CHECK_STREQ(f.params[0].name, "file");
	CHECK_EQ(f.params[0].type.kind, KMAG_BTF_PTR);
	CHECK_STREQ(f.params[1].name, "buf");
	CHECK_EQ(f.params[1].type.kind, KMAG_BTF_PTR);	/* const char * */
	CHECK_STREQ(f.params[2].name, "count");
	CHECK_EQ(f.params[2].type.kind, KMAG_BTF_INT);
	CHECK(!f.params[2].type.is_signed);
	CHECK_EQ(f.params[2].type.nregs, 1);
	CHECK_EQ(kmag_btf_func_nregs(&f, 6), 4);

	CHECK_EQ(kmag_btf_func(k, "voidf", &f), 0);
	CHECK_EQ(f.ret.kind, KMAG_BTF_VOID);
	CHECK_EQ(f.nparams, 3);
	CHECK(f.variadic);
	CHECK_EQ(f.params[0].type.kind, KMAG_BTF_OTHER);
	CHECK_STREQ(f.params[0].type.kind_name, "STRUCT");
	CHECK_EQ(f.params[0].type.size, 16);
	CHECK_EQ(f.params[0].type.nregs, 2);
	CHECK_EQ(f.params[1].type.kind, KMAG_BTF_ENUM);
	CHECK_EQ(f.params[2].type.kind, KMAG_BTF_BOOL);
	CHECK_EQ(kmag_btf_func_nregs(&f, 6), 4);
	CHECK_EQ(kmag_btf_func_nregs(&f, 2), 2);

	CHECK_EQ(kmag_btf_func(k, "boolf", &f), 0);
	CHECK_EQ(f.ret.kind, KMAG_BTF_BOOL);
	CHECK_EQ(f.nparams, 0);
	CHECK_EQ(kmag_btf_func(k, "a7", &f), 0);
	CHECK_EQ(f.nparams, 7);
	CHECK_EQ(kmag_btf_func_nregs(&f, 6), 6);

	CHECK_EQ(kmag_btf_func(k, "vfs_writ", &f), -ENOENT);
	CHECK_EQ(kmag_btf_func(k, "zzz", &f), -ENOENT);
	CHECK_EQ(kmag_btf_func(k, "a", &f), -ENOENT);
	CHECK_EQ(kmag_btf_func(k, "vfs_write.isra.0", &f), -ENOENT);	/* as the kernel */
	kmag_btf_free(k);
}

static void errors_by_type(void)
{
	struct kmag_btf *k = sample();
	struct kmag_btf_func f;
	int e = 0;

	CHECK_EQ(kmag_btf_func(k, "a7", &f), 0);	/* int */
	CHECK(kmag_btf_ret_is_error(&f.ret, 0xfffffffeULL, &e));	/* -2 in 32 bits */
	CHECK_EQ(e, 2);
	CHECK(!kmag_btf_ret_is_error(&f.ret, 0, NULL));
	CHECK(!kmag_btf_ret_is_error(&f.ret, 0xffff0000ULL, NULL));	/* -65536: no errno */
	CHECK_EQ(kmag_btf_func(k, "vfs_write", &f), 0);	/* ssize_t */
	CHECK(kmag_btf_ret_is_error(&f.ret, (uint64_t)-9, &e));
	CHECK_EQ(e, 9);
	CHECK(!kmag_btf_ret_is_error(&f.ret, 0xfffffff7ULL, NULL));	/* positive in 64 bits */
	CHECK_EQ(kmag_btf_func(k, "getp", &f), 0);
	CHECK_EQ(f.ret.kind, KMAG_BTF_PTR);
	CHECK(kmag_btf_ret_is_error(&f.ret, (uint64_t)-12, &e));	/* ERR_PTR(-ENOMEM) */
	CHECK_EQ(e, 12);
	CHECK(!kmag_btf_ret_is_error(&f.ret, 0xffff888002bc8000ULL, NULL));
	CHECK_EQ(kmag_btf_func(k, "voidf", &f), 0);
	CHECK(!kmag_btf_ret_is_error(&f.ret, (uint64_t)-2, NULL));
	CHECK_EQ(kmag_btf_func(k, "boolf", &f), 0);
	CHECK(!kmag_btf_ret_is_error(&f.ret, (uint64_t)-2, NULL));
	kmag_btf_free(k);
}

static void bad_input(void)
{
	struct kmag_err err = { 0 };
	static const char junk[] = "not BTF at all, just text";

	CHECK(kmag_btf_from_blob(junk, sizeof(junk), &err) == NULL);
	CHECK(err.code && strstr(err.msg, "not valid BTF"));
	kmag_err_clear(&err);
	CHECK(kmag_btf_open("/nonexistent/vmlinux", &err) == NULL);
	CHECK(strstr(err.msg, "/nonexistent/vmlinux"));
	kmag_btf_free(NULL);
}
#else
static void prototypes(void)
{
	TEST_NEED_FEATURE(KMAG_FEATURE_BTF);
}

static void errors_by_type(void)
{
	TEST_NEED_FEATURE(KMAG_FEATURE_BTF);
}

static void bad_input(void)
{
	struct kmag_err err = { 0 };

	CHECK(kmag_btf_open("/sys/kernel/btf/vmlinux", &err) == NULL);
	CHECK(strstr(err.msg, "libbpf-dev"));
}
#endif

const struct test_case btf_tests[] = {
	{ "prototypes", prototypes },
	{ "errors_by_type", errors_by_type },
	{ "bad_input", bad_input },
	TEST_LIST_END,
};
