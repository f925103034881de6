// SPDX-License-Identifier: MIT
/*
 * srcline.c - source locations for the functions of a trace, from a symbol
 * map (--symbol-map FILE, or the default map of the recording kernel).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "Linux host 6.1.0-56-cloud-amd64 x86_64" -> "6.1.0-56-cloud-amd64" */
static const char *uname_release(const char *uname, char *buf, size_t len)
{
	const char *p = uname;
	size_t n;
	int field;

	if (!uname)
		return NULL;
	for (field = 0; field < 2; field++) {
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		while (*p == ' ')
			p++;
	}
	n = strcspn(p, " ");
	if (!n || n >= len)
		return NULL;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

int cli_srcline_open(const char *path, struct kmag_trace *t, struct cli_srcline *s)
{
	struct kmag_err err = { 0 };
	char release[256];
	const char *rel;

	memset(s, 0, sizeof(*s));
	s->st = kmag_trace_symtab(t);
	if (!path) {
		/* the default map is used when there is one; its absence is normal */
		rel = uname_release(kmag_trace_info(t)->uname, release, sizeof(release));
		path = kmag_symmap_default_path(rel);
		if (!path)
			return 0;
	}
	s->map = kmag_symmap_load(path, &err);
	if (!s->map)
		return cli_lib_error(&err, "cannot read the symbol map");
	s->path = path;
	/* KASLR: learn the offset from the trace's kallsyms when it has them */
	kmag_symmap_bind(s->map, s->st);
	return 0;
}

const struct kmag_symmap_entry *cli_srcline_lookup(struct cli_srcline *s, kmag_func_t func)
{
	const char *name;

	if (!s->map || func == KMAG_FUNC_NONE)
		return NULL;
	name = kmag_symtab_name(s->st, func);
	if (!name)
		return NULL;
	return kmag_symmap_lookup(s->map, name, kmag_symtab_addr(s->st, func), NULL);
}

const char *cli_srcline_fn(void *ctx, kmag_func_t func)
{
	struct cli_srcline *s = ctx;
	const struct kmag_symmap_entry *e = cli_srcline_lookup(s, func);

	if (!e || !e->file)
		return NULL;
	if (e->line)
		snprintf(s->buf, sizeof(s->buf), "%s:%u", e->file, e->line);
	else
		snprintf(s->buf, sizeof(s->buf), "%s", e->file);
	return s->buf;
}

void cli_srcline_close(struct cli_srcline *s)
{
	kmag_symmap_free(s->map);
	memset(s, 0, sizeof(*s));
}
