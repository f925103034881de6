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

static const char symbols_usage[] =
	"Usage: kmag generate-symbol-map [options]\n"
	"\n"
	"Map every kernel function to the source file and line of its definition\n"
	"(relative to the kernel tree: net/ipv4/tcp.c:1490), read from the DWARF\n"
	"debug info of a vmlinux and optionally its modules. report and visualize\n"
	"use the map for --filter-filepath and to show file:line.\n"
	"\n"
	"  -k, --vmlinux FILE        vmlinux with debug info (default: the running\n"
	"                            kernel's, e.g. /usr/lib/debug/boot/vmlinux-$(uname -r)\n"
	"                            from Debian's linux-image-<release>-dbg)\n"
	"  -r, --kernel-release R    look for the debug vmlinux of kernel R instead\n"
	"  -m, --modules DIR         also map the modules below DIR (*.ko, *.ko.debug),\n"
	"                            e.g. /usr/lib/debug/lib/modules/<release>\n"
	"  -o, --output MAP          where to write the map (default:\n"
	"                            ~/.cache/kmag/symbols-<release>.map, found there\n"
	"                            automatically by report and visualize)\n"
	"      --format FMT          kmag (default: versioned, with line, address and\n"
	"                            module; see doc/symbol-map.md) or km (the seed's\n"
	"                            \"name|path\" lines)\n"
	"      --source-root DIR     source tree path as recorded in the DWARF, stripped\n"
	"                            from file names (default: detected)\n"
	"  -q, --quiet               no progress and no summary\n"
	"  -h, --help                show this help\n";

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

int cmd_generate_symbol_map(struct kmag_cli *cli, int argc, char **argv)
{
	enum { OPT_FORMAT = 0x100, OPT_SOURCE_ROOT };
	static const struct option longopts[] = {
		{ "vmlinux", required_argument, NULL, 'k' },
		{ "kernel-release", required_argument, NULL, 'r' },
		{ "modules", required_argument, NULL, 'm' },
		{ "output", required_argument, NULL, 'o' },
		{ "format", required_argument, NULL, OPT_FORMAT },
		{ "source-root", required_argument, NULL, OPT_SOURCE_ROOT },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *vmlinux = NULL, *release = NULL, *modules = NULL, *output = NULL;
	struct progress prog = { .on = cli->stderr_tty, .last = -1 };
	struct kmag_symgen_opts opts = { .progress = show_progress, .progress_ctx = &prog };
	struct kmag_symgen_stats stats = { 0 };
	struct kmag_err err = { 0 };
	struct kmag_symmap *m = NULL;
	char found[4096], *out_alloc = NULL, comment[600];
	bool seed = false, quiet = false;
	struct rusage ru;
	double t0 = now();
	int opt, ret;

	while ((opt = cli_getopt(argc, argv, ":k:r:m:o:qh", longopts)) != -1) {
		switch (opt) {
		case 'k':
			vmlinux = optarg;
			break;
		case 'r':
			release = optarg;
			break;
		case 'm':
			modules = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "km"))
				seed = true;
			else if (strcmp(optarg, "kmag"))
				return cli_usage_error("generate-symbol-map",
						       "unknown format \"%s\" (choose kmag or km)", optarg);
			break;
		case OPT_SOURCE_ROOT:
			opts.source_root = optarg;
			break;
		case 'q':
			quiet = true;
			prog.on = false;
			break;
		case 'h':
			fputs(symbols_usage, stdout);
			return EXIT_OK;
		default:
			return cli_bad_option("generate-symbol-map", opt, argv);
		}
	}
	if (optind < argc)
		return cli_usage_error("generate-symbol-map",
				       "unexpected argument \"%s\" (give the vmlinux with -k)", argv[optind]);
	if (vmlinux && release)
		return cli_usage_error("generate-symbol-map",
				       "give either -k VMLINUX or -r RELEASE, not both");
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
	if (!quiet) {
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
