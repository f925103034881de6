// SPDX-License-Identifier: MIT
/*
 * formats.c - which output formats each output option works with: the one
 * table every command asks (issue 18, defect 4). An option missing here
 * works in every format of its command; one listed is refused, with this
 * table's words, in the formats it does not name.
 */
#include <string.h>
#include <strings.h>

#include "cli.h"

static const struct format_rule {
	const char *cmd;
	const char *option;
	const char *formats;	/* comma-separated */
} rules[] = {
	{ "report", "--probes", "text,json" },
	{ "report", "--slowest", "text,json" },
	{ "report", "--errors", "text,json" },
	{ "report", "--arg", "text,json" },
	{ "report", "--latency", "text,json" },
	{ "report", "--vmlinux", "text,json" },
	{ "export", "--table", "csv" },
	{ "export", "--weight", "folded" },
	{ "export", "--split-size", "chrome" },
	{ "export", "--vmlinux", "perfetto,pprof" },
	{ "export", "--btf", "perfetto" },
	{ "export", "--filter-filepath", "csv,json,dot" },
	{ "export", "--symbol-file-path", "csv,json,dot,pprof" },
	{ "diff", "--limit", "text" },
	{ "diff", "--all", "dot,html" },
};

static bool in_list(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (;;) {
		if (!strncmp(list, word, n) && (list[n] == ',' || !list[n]))
			return true;
		list = strchr(list, ',');
		if (!list)
			return false;
		list++;
	}
}

void cli_say_list(const char *list, char *buf, size_t len)
{
	const char *last = strrchr(list, ',');
	size_t n = 0;

	buf[0] = '\0';
	for (; *list && n + 6 < len; list++) {
		if (*list != ',') {
			buf[n++] = *list;
			continue;
		}
		n += (size_t)snprintf(buf + n, len - n, "%s", list == last ? " or " : ", ");
	}
	buf[n < len ? n : len - 1] = '\0';
}

int cli_format_check(const char *cmd, const char *option, const char *format)
{
	char formats[128];
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		if (strcmp(rules[i].cmd, cmd) || strcmp(rules[i].option, option))
			continue;
		if (in_list(rules[i].formats, format))
			return 0;
		cli_say_list(rules[i].formats, formats, sizeof(formats));
		return cli_usage_error(cmd, "%s works with the %s format%s, not %s", option, formats,
				       strchr(rules[i].formats, ',') ? "s" : "", format);
	}
	return 0;
}

/* What a file name's extension says it holds, for every command. */
static const struct ext_rule {
	const char *ext;
	const char *formats;	/* the first is the one picked when no format is given */
} exts[] = {
	{ ".svg", "svg" },
	{ ".png", "png" },
	{ ".pdf", "pdf" },
	{ ".html", "html" },
	{ ".htm", "html" },
	{ ".json", "json,chrome" },
	{ ".csv", "csv" },
	{ ".dot", "dot" },
	{ ".gv", "dot" },
	{ ".folded", "folded" },
	{ ".pftrace", "perfetto" },
	{ ".perfetto-trace", "perfetto" },
	{ ".pb.gz", "pprof" },
	{ ".pprof", "pprof" },
};

static const char *ext_formats(const char *path)
{
	size_t n = strlen(path), i, e;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		e = strlen(exts[i].ext);
		if (n > e && !strcasecmp(path + n - e, exts[i].ext) && path[n - e - 1] != '/')
			return exts[i].formats;
	}
	return NULL;
}

/* The extension of @format's files (".dot"), or "something else". */
static const char *ext_for(const char *format)
{
	size_t i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (in_list(exts[i].formats, format))
			return exts[i].ext;
	return "something else";
}

int cli_output_format(const char *cmd, const char *path, const char *supported,
		      const char **format)
{
	static char picked[16];
	const char *list, *p;
	char can[128];
	size_t n;

	if (!path || !strcmp(path, "-") || !(list = ext_formats(path)))
		return 0;
	if (*format) {
		if (in_list(list, *format))
			return 0;
		return cli_usage_error(cmd, "\"%s\" is named %s but would hold %s; name it %s%s", path,
				       strrchr(path, '.'), *format, ext_for(*format),
				       !strcmp(*format, "dot") ? " (and draw it with dot -Tsvg)" : "");
	}
	for (p = list; *p; p += n + (p[n] == ',')) {
		n = strcspn(p, ",");
		if (n < sizeof(picked)) {
			memcpy(picked, p, n);
			picked[n] = '\0';
			if (in_list(supported, picked)) {
				*format = picked;
				return 0;
			}
		}
	}
	cli_say_list(supported, can, sizeof(can));
	return cli_usage_error(cmd, "\"%s\" is named %s, which kmag %s does not write (it writes %s)",
			       path, strrchr(path, '.'), cmd, can);
}
