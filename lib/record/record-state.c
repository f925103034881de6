// SPDX-License-Identifier: MIT
/*
 * record-state.c - save and restore the tracefs files kmag changes.
 *
 * Plain open/read/write on the files rather than libtracefs calls: restoring
 * needs the kernel's per-file semantics spelled out (truncate-on-open for the
 * filter and pid lists, one entry per write so one bad entry cannot drop the
 * rest, "none"/"no pid"/comment lines meaning empty), and it must also work
 * from a state file written by a run that was killed, against the tracing
 * directory recorded there.
 */
#define PR_DOMAIN "record"
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "record-state.h"

#define STATE_MAGIC "kmag-tracefs-state 1\n"
#define MAX_FILE_TEXT (64u << 20)

int kmag__rs_init(struct rec_state *s, const char *dir)
{
	memset(s, 0, sizeof(*s));
	s->dir = strdup(dir);
	return s->dir ? 0 : -ENOMEM;
}

void kmag__rs_release(struct rec_state *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->e[i].rel);
		free(s->e[i].saved);
	}
	free(s->e);
	free(s->dir);
	free(s->path);
	memset(s, 0, sizeof(*s));
}

static int add_entry(struct rec_state *s, const char *rel, char *saved, enum rs_kind kind)
{
	struct rs_entry *e;

	if (kmag__grow(&s->e, &s->cap, s->n + 1, sizeof(*s->e)))
		return -ENOMEM;
	e = &s->e[s->n];
	e->rel = strdup(rel);
	if (!e->rel)
		return -ENOMEM;
	e->saved = saved;
	e->kind = kind;
	s->n++;
	return 0;
}

int kmag__rs_save(struct rec_state *s, const char *rel, enum rs_kind kind, struct kmag_err *err)
{
	char *text;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].rel, rel))
			return 0;
	text = kmag__tracefs_read(s->dir, rel);
	if (!text) {
		if (errno == ENOENT)
			return -ENOENT;
		return kmag_err_set(err, errno, "cannot read %s/%s: %s", s->dir, rel,
				    strerror(errno));
	}
	if (add_entry(s, rel, text, kind)) {
		free(text);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

int kmag__rs_save_text(struct rec_state *s, const char *rel, enum rs_kind kind, const char *text,
		       struct kmag_err *err)
{
	char *copy = strdup(text);
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->e[i].rel, rel)) {
			free(copy);
			return 0;
		}
	if (!copy || add_entry(s, rel, copy, kind)) {
		free(copy);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* The first line without surrounding blanks, in a new string. */
static char *first_value(const char *text)
{
	size_t len;

	while (*text == ' ' || *text == '\t')
		text++;
	len = strcspn(text, "\n");
	while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
		len--;
	return strndup(text, len);
}

/* What to write back for a one-value file. */
static char *restore_value(const struct rs_entry *e)
{
	const char *t = e->saved;

	if (e->kind == RS_CLOCK) {
		const char *open = strchr(t, '['), *close = open ? strchr(open, ']') : NULL;

		return open && close ? strndup(open + 1, (size_t)(close - open - 1)) : first_value(t);
	}
	if (e->kind == RS_BUFSIZE) {
		/*
		 * "7 (expanded: 1408)": the top-level buffer was never used and
		 * is allocated at its full size on first use. That lazy state
		 * cannot be re-created from user space; the full size is what a
		 * later user would get, so that is what is restored.
		 */
		const char *x = strstr(t, "expanded:");

		if (x) {
			x += strlen("expanded:");
			x += strspn(x, " ");
			return strndup(x, strspn(x, "0123456789"));
		}
		return first_value(t);
	}
	if (e->kind == RS_EVFILTER && !strncmp(t, "none", 4))
		return strdup("0");
	return first_value(t);
}

/*
 * One entry of a list file as it must be written back: comment lines and
 * "no pid" are dropped; "func [module]" (how module functions are shown)
 * becomes "func:mod:module".
 */
static char *list_entry(const char *line, size_t len)
{
	const char *br;
	char *out;

	while (len && (line[len - 1] == ' ' || line[len - 1] == '\t' || line[len - 1] == '\r'))
		len--;
	if (!len || line[0] == '#' || (len == 6 && !memcmp(line, "no pid", 6)))
		return NULL;
	/* room for the newline restore_list() appends */
	br = memchr(line, '[', len);
	if (br && br > line && br[-1] == ' ' && line[len - 1] == ']') {
		if (asprintf(&out, "%.*s:mod:%.*s ", (int)(br - 1 - line), line,
			     (int)(line + len - 1 - br - 1), br + 1) < 0)
			return NULL;
		out[strlen(out) - 1] = '\0';
		return out;
	}
	out = malloc(len + 2);
	if (out) {
		memcpy(out, line, len);
		out[len] = '\0';
	}
	return out;
}

static int restore_list(const struct rec_state *s, const struct rs_entry *e, struct kmag_err *err)
{
	const char *p = e->saved;
	int fd = kmag__tracefs_open_write(s->dir, e->rel, err), ret = 0;

	if (fd < 0)
		return fd;
	while (*p) {
		size_t len = strcspn(p, "\n");
		char *entry = list_entry(p, len);

		if (entry) {
			/*
			 * One entry per write, ended by a newline (the kernel
			 * joins a token across writes); keep going after a bad
			 * entry to restore as much as possible.
			 */
			size_t n = strlen(entry);
			int r;

			entry[n] = '\n';
			r = kmag__tracefs_write_str(fd, s->dir, e->rel, entry, n + 1, err);

			if (r && !ret)
				ret = r;
			free(entry);
		}
		p += len;
		if (*p)
			p++;
	}
	if (close(fd) && !ret)
		ret = kmag_err_set(err, errno, "cannot restore %s/%s: %s", s->dir, e->rel,
				   strerror(errno));
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of @text, sorted (list files print in hash order). */
static char **sorted_lines(const char *text, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	while (*text) {
		size_t len = strcspn(text, "\n");

		if (kmag__grow(&v, &cap, *n + 1, sizeof(*v)) || !(v[*n] = strndup(text, len))) {
			while (*n)
				free(v[--*n]);
			free(v);
			return NULL;
		}
		(*n)++;
		text += len;
		if (*text)
			text++;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_str);
	return v;
}

static bool same_text(const struct rs_entry *e, const char *now)
{
	char **a, **b;
	size_t na, nb, i;
	bool same;

	if (!strcmp(e->saved, now))
		return true;
	if (e->kind == RS_BUFSIZE && strstr(e->saved, "expanded:")) {
		/* the size that was to be allocated on first use, rounded up to pages */
		char *want = restore_value(e);
		unsigned long w = want ? strtoul(want, NULL, 10) : 0, g = strtoul(now, NULL, 10);

		free(want);
		return w && g >= w && g <= w + 64;
	}
	if (e->kind != RS_LIST)
		return false;
	a = sorted_lines(e->saved, &na);
	b = sorted_lines(now, &nb);
	same = a && b && na == nb;
	for (i = 0; same && i < na; i++)
		same = !strcmp(a[i], b[i]);
	for (i = 0; a && i < na; i++)
		free(a[i]);
	for (i = 0; b && i < nb; i++)
		free(b[i]);
	free(a);
	free(b);
	return same;
}

/*
 * Before the other files are put back: a function tracer kmag left running is
 * switched off first. Some writes re-register a running tracer (tracing_thresh
 * makes function_graph unregister and register again, re-patching every call
 * site: 11 s of a 6.1 guest's time under emulation), and filter writes
 * re-patch what they change. current_tracer gets its saved value back in
 * its turn (it is saved early, so restored late).
 */
static void stop_tracer(const struct rec_state *s)
{
	struct kmag_err ignored = { 0 };
	char *now = NULL, *was = NULL, *cur = NULL;
	size_t i;

	for (i = 0; i < s->n && strcmp(s->e[i].rel, "current_tracer"); i++)
		;
	if (i == s->n || !(now = kmag__tracefs_read(s->dir, "current_tracer")))
		return;
	was = restore_value(&s->e[i]);
	cur = first_value(now);
	if (was && cur && strcmp(cur, "nop") && strcmp(cur, was))
		kmag__tracefs_write(s->dir, "current_tracer", "nop", &ignored);
	free(now);
	free(was);
	free(cur);
}

int kmag__rs_restore(struct rec_state *s, struct kmag_err *err)
{
	size_t i;
	int ret = 0;

	stop_tracer(s);
	for (i = s->n; i-- > 0;) {
		const struct rs_entry *e = &s->e[i];
		char *now = kmag__tracefs_read(s->dir, e->rel);
		bool same = now && same_text(e, now);
		int r;

		/* a write of the same value is not always free (see stop_tracer()) */
		free(now);
		if (same)
			continue;
		if (e->kind == RS_LIST) {
			r = restore_list(s, e, err);
		} else {
			char *v = restore_value(e);

			r = v ? kmag__tracefs_write(s->dir, e->rel, v, err) :
				kmag_err_set(err, ENOMEM, "out of memory");
			free(v);
		}
		if (r && !ret)
			ret = -EIO;
	}
	/* verify: every file must read back as it was found */
	for (i = 0; i < s->n; i++) {
		const struct rs_entry *e = &s->e[i];
		char *now = kmag__tracefs_read(s->dir, e->rel);

		if (!now || !same_text(e, now)) {
			char *want = restore_value(e);

			kmag_err_set(err, EIO, "could not restore %s/%s to \"%s\"%s%s", s->dir, e->rel,
				     want ? want : "?", now ? "" : ": ", now ? "" : strerror(errno));
			free(want);
			ret = -EIO;
		}
		free(now);
	}
	if (!ret && s->path) {
		if (unlink(s->path) && errno != ENOENT)
			pr_warn("cannot remove %s: %s", s->path, strerror(errno));
		free(s->path);
		s->path = NULL;
	}
	return ret;
}

int kmag__rs_persist(struct rec_state *s, const char *path, struct kmag_err *err)
{
	char *tmp = NULL;
	FILE *f;
	size_t i;
	int ok;

	if (asprintf(&tmp, "%s.new", path) < 0)
		return kmag_err_set(err, ENOMEM, "out of memory");
	f = fopen(tmp, "we");
	if (!f) {
		kmag_err_set(err, errno, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return -EIO;
	}
	fprintf(f, STATE_MAGIC "pid %d\ndir %s\n", (int)getpid(), s->dir);
	for (i = 0; i < s->n; i++)
		fprintf(f, "entry %d %zu %s\n%s\n", (int)s->e[i].kind, strlen(s->e[i].saved),
			s->e[i].rel, s->e[i].saved);
	ok = !ferror(f) && !fflush(f) && !fsync(fileno(f));
	ok = !fclose(f) && ok;
	if (!ok || rename(tmp, path)) {
		kmag_err_set(err, errno, "cannot write the tracefs state file %s: %s", path,
			     strerror(errno));
		unlink(tmp);
		free(tmp);
		return -EIO;
	}
	free(tmp);
	free(s->path);
	s->path = strdup(path);
	return s->path ? 0 : kmag_err_set(err, ENOMEM, "out of memory");
}

int kmag__rs_load(struct rec_state *s, const char *path, struct kmag_err *err)
{
	char line[8192], dir[4096];
	FILE *f = fopen(path, "re");
	int ret = 0;

	memset(s, 0, sizeof(*s));
	if (!f)
		return kmag_err_set(err, errno, "cannot read %s: %s", path, strerror(errno));
	if (!fgets(line, sizeof(line), f) || strcmp(line, STATE_MAGIC) ||
	    !fgets(line, sizeof(line), f) || strncmp(line, "pid ", 4) ||
	    !fgets(dir, sizeof(dir), f) || strncmp(dir, "dir ", 4)) {
		fclose(f);
		return kmag_err_set(err, EINVAL, "%s is not a kmag state file", path);
	}
	dir[strcspn(dir, "\n")] = '\0';
	if (kmag__rs_init(s, dir + 4)) {
		fclose(f);
		return kmag_err_set(err, ENOMEM, "out of memory");
	}
	while (fgets(line, sizeof(line), f)) {
		int kind, off = 0;
		size_t len;
		char *text;

		if (sscanf(line, "entry %d %zu %n", &kind, &len, &off) != 2 || !off ||
		    kind < RS_VALUE || kind > RS_EVFILTER || len > MAX_FILE_TEXT) {
			ret = kmag_err_set(err, EINVAL, "%s: corrupt entry \"%.60s\"", path, line);
			break;
		}
		line[strcspn(line, "\n")] = '\0';
		text = malloc(len + 1);
		if (!text || fread(text, 1, len, f) != len || fgetc(f) != '\n') {
			free(text);
			ret = kmag_err_set(err, EINVAL, "%s: truncated entry for %s", path, line + off);
			break;
		}
		text[len] = '\0';
		if (add_entry(s, line + off, text, (enum rs_kind)kind)) {
			free(text);
			ret = kmag_err_set(err, ENOMEM, "out of memory");
			break;
		}
	}
	fclose(f);
	if (!ret) {
		s->path = strdup(path);
		if (!s->path)
			ret = kmag_err_set(err, ENOMEM, "out of memory");
	}
	if (ret)
		kmag__rs_release(s);
	return ret;
}
