// SPDX-License-Identifier: MIT
/*
 * cmd-symbols.c - `kmag generate-symbol-map`: function -> source file:line
 * map from a kernel's DWARF debug info.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "kmag/symmap.h"

static const struct cli_command symbols_cmd = {
	.name = "generate-symbol-map",
	.usage = "Usage: kmag generate-symbol-map [options]\n"
		 "\n"
		 "Map every kernel function to the source file and line of its definition\n"
		 "(relative to the kernel tree: net/ipv4/tcp.c:1490), read from the DWARF\n"
		 "debug info of a vmlinux and optionally its modules. report and visualize\n"
		 "use the map for --filter-filepath and to show file:line.\n"
		 "\n",
};

struct progress {
	bool on;
	int last;	/* last percentage shown */
	const char *last_what;
	const char *modules;	/* the -m directory: progress over module files */
	struct cli_live lv;	/* the live line (cli/progress.c) */
};

static void show_progress(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	const char *base = strrchr(what, '/');
	int pct = total ? (int)(done * 100 / total) : 100;

	if (!p->on || (pct == p->last && what == p->last_what))
		return;
	p->last = pct;
	p->last_what = what;
	if (what == p->modules)
		cli_live_show(&p->lv, "reading modules: %3d%% (%llu/%llu files)", pct,
			      (unsigned long long)done, (unsigned long long)total);
	else
		cli_live_show(&p->lv, "reading %s: %3d%% (%llu/%llu compile units)",
			      base && base[1] ? base + 1 : what, pct, (unsigned long long)done,
			      (unsigned long long)total);
}

static void end_progress(struct progress *p)
{
	cli_live_clear(&p->lv);
	p->last = -1;
}

/* ~/.cache/kmag/symbols-<release>.map, creating the directories; NULL if no $HOME. */
static char *default_output(const char *release)
{
	const char *home = getenv("HOME");
	char *path;

	if (!home || !*home)
		return NULL;
	if (asprintf(&path, "%s/.cache", home) < 0)
		return NULL;
	mkdir(path, 0755);
	free(path);
	if (asprintf(&path, "%s/.cache/kmag", home) < 0)
		return NULL;
	mkdir(path, 0755);
	free(path);
	if (asprintf(&path, "%s/.cache/kmag/symbols-%s.map", home, release) < 0)
		return NULL;
	return path;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The command line of generate-symbol-map. */
struct symbols_args {
	const char *vmlinux, *release, *modules, *output;
	int format;		/* kmag, km (the seed's) */
	bool quiet;
	const char *source_root;
};

#define CLI_ARGS struct symbols_args
static const struct cli_option symbols_options[] = {
	CLI_STRING('k', "vmlinux", "FILE", vmlinux,
		   "vmlinux with debug info (default: the running\n"
		   "kernel's, e.g. /usr/lib/debug/boot/vmlinux-$(uname -r)\n"
		   "from Debian's linux-image-<release>-dbg)"),
	CLI_STRING('r', "kernel-release", "R", release,
		   "look for the debug vmlinux of kernel R instead"),
	CLI_STRING('m', "modules", "DIR", modules,
		   "also map the modules below DIR (*.ko, *.ko.debug),\n"
		   "e.g. /usr/lib/debug/lib/modules/<release>"),
	CLI_STRING('o', "output", "MAP", output,
		   "where to write the map (default:\n"
		   "~/.cache/kmag/symbols-<release>.map, found there\n"
		   "automatically by report and visualize)"),
	CLI_CHOICE(0, "format", "FMT", format, "kmag,km", "format",
		   "kmag (default: versioned, with line, address and\n"
		   "module; see doc/symbol-map.md) or km (the seed's\n"
		   "\"name|path\" lines)"),
	CLI_STRING(0, "source-root", "DIR", source_root,
		   "source tree path as recorded in the DWARF, stripped\n"
		   "from file names (default: detected)"),
	CLI_FLAG('q', "quiet", quiet, "no progress and no summary"),
	CLI_HELP_OPTION,
	CLI_END,
};
#undef CLI_ARGS

static int parse_args(int argc, char **argv, struct symbols_args *a)
{
	int ret = cli_parse(&symbols_cmd, argc, argv, symbols_options, a);

	if (ret)
		return ret;
	if (optind < argc)
		return cli_usage_error("generate-symbol-map",
				       "unexpected argument \"%s\" (give the vmlinux with -k)", argv[optind]);
	if (a->vmlinux && a->release)
		return cli_usage_error("generate-symbol-map",
				       "give either -k VMLINUX or -r RELEASE, not both");
	return 0;
}

int cmd_generate_symbol_map(struct kmag_cli *cli, int argc, char **argv)
{
	struct symbols_args a = { 0 };
	struct progress prog = { .on = cli->stderr_tty, .last = -1 };
	struct kmag_symgen_opts opts = { .progress = show_progress, .progress_ctx = &prog };
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = NULL;
	const char *vmlinux, *release, *modules, *output;
	char found[4096], *out_alloc = NULL, comment[600];
	bool seed;
	struct rusage ru;
	double t0 = now();
	int ret = parse_args(argc, argv, &a);

	if (ret)
		return ret < 0 ? EXIT_OK : ret;
	vmlinux = a.vmlinux;
	release = a.release;
	modules = a.modules;
	output = a.output;
	seed = a.format == 1;
	prog.on = prog.on && !a.quiet;
	opts.source_root = a.source_root;
	if (cli_lacks_feature(KMAG_FEATURE_LIBDW, "generate-symbol-map"))
		return EXIT_ERR;
	if (!vmlinux && !(vmlinux = kmag_vmlinux_find(release, found, sizeof(found), &err)))
		return cli_lib_error(&err, "no debug vmlinux found");

	m = kmag_symmap_new();
	if (!m)
		return cli_error("out of memory");
	ret = kmag_symmap_add_vmlinux(m, vmlinux, &opts, &stats, &err);
	end_progress(&prog);
	if (ret < 0)
		goto fail;
	if (modules) {
		prog.modules = modules;
		ret = kmag_symmap_add_modules(m, modules, &opts, &stats, &err);
		end_progress(&prog);
		if (ret < 0)
			goto fail;
	}
	if (!kmag_symmap_kernel_release(m) && release && kmag_symmap_set_kernel_release(m, release)) {
		ret = kmag_err_set(&err, ENOMEM, "out of memory");
		goto fail;
	}
	if (!output) {
		const char *rel = kmag_symmap_kernel_release(m);

		if (!rel) {
			ret = kmag_err_set(&err, EINVAL,
					   "%s does not say which kernel release it is (no linux_banner); name the map with -o MAP",
					   vmlinux);
			goto fail;
		}
		output = out_alloc = default_output(rel);
		if (!output)
			output = "kernel-magnifier.map";
	}
	snprintf(comment, sizeof(comment), "generated by kmag %s from %s%s%s", kmag_version(), vmlinux,
		 modules ? " and modules in " : "", modules ? modules : "");
	ret = kmag_symmap_write(m, output, seed, comment, &err);
	if (ret < 0)
		goto fail;
	if (!a.quiet) {
		getrusage(RUSAGE_SELF, &ru);
		printf("kmag: mapped %llu functions", (unsigned long long)stats.functions);
		if (stats.modules)
			printf(" (%llu modules%s)", (unsigned long long)stats.modules,
			       stats.skipped ? ", some skipped" : "");
		printf(" from %llu compile units to %s in %.1f s, peak memory %ld MiB\n",
		       (unsigned long long)stats.units, output, now() - t0, ru.ru_maxrss / 1024);
		if (stats.skipped)
			printf("kmag: %llu module files had no usable debug info (see the warnings)\n",
			       (unsigned long long)stats.skipped);
	}
	kmag_symmap_free(m);
	free(out_alloc);
	return EXIT_OK;
fail:
	end_progress(&prog);
	kmag_symmap_free(m);
	free(out_alloc);
	return cli_lib_error(&err, "cannot generate the symbol map");
}
