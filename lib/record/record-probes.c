// SPDX-License-Identifier: MIT
/*
 * record-probes.c - kprobes, kretprobes, uprobes and uretprobes for `kmag
 * record`: created through libtracefs' dynamic-event API in the recording's
 * own event group "kmag_<pid>", recorded like any other event (they join the
 * -e list, so the format files go into the trace.dat and the events are
 * enabled in the recording's instance), and destroyed when tracefs is put
 * back. A killed run's group is found by its pid and removed by the next
 * run (kmag__rec_probes_cleanup_stale()).
 */
#define PR_DOMAIN "record"
#include <ctype.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <tracefs.h>
#include <unistd.h>

#include "record-internal.h"

#define GROUP_PREFIX "kmag_"
#define MAX_EVENT_NAME 60	/* the kernel's MAX_EVENT_NAME_LEN is 64 */

static const char *const type_opt[] = {
	[KMAG_REC_KPROBE] = "--kprobe",
	[KMAG_REC_KRETPROBE] = "--kretprobe",
	[KMAG_REC_UPROBE] = "--uprobe",
	[KMAG_REC_URETPROBE] = "--uretprobe",
};

static bool is_uprobe(enum kmag_rec_probe_type t)
{
	return t == KMAG_REC_UPROBE || t == KMAG_REC_URETPROBE;
}

static bool is_return(enum kmag_rec_probe_type t)
{
	return t == KMAG_REC_KRETPROBE || t == KMAG_REC_URETPROBE;
}

/*
 * The file offset of function @sym in ELF file @path (what uprobe_events
 * wants): its address in .symtab (or .dynsym) mapped through the PT_LOAD
 * segment holding it. libelf reads the file; the mapping is the ELF rule.
 */
static int elf_symbol_offset(const char *path, const char *sym, unsigned long long *off,
			     struct kmag_err *err)
{
	Elf *elf = NULL;
	Elf_Scn *scn = NULL;
	GElf_Addr addr = 0;
	bool found = false;
	size_t nph, i;
	int fd, ret = 0;

	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return kmag_err_set(err, errno, "cannot open %s for --uprobe: %s", path,
				    strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		ret = kmag_err_set(err, ENOEXEC, "--uprobe: %s is not an ELF executable or library",
				   path);
		goto out;
	}
	while (!found && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
			continue;
		n = sh.sh_size / sh.sh_entsize;
		for (i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_shndx == SHN_UNDEF)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && !strcmp(name, sym)) {
				addr = s.st_value;
				found = true;
				break;
			}
		}
	}
	if (!found) {
		ret = kmag_err_set(err, ENOENT,
				   "--uprobe: %s has no function \"%s\" in its symbol tables (stripped? give PATH:0xOFFSET)",
				   path, sym);
		goto out;
	}
	if (elf_getphdrnum(elf, &nph)) {
		ret = kmag_err_set(err, ENOEXEC, "--uprobe: %s has no program headers", path);
		goto out;
	}
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD && addr >= ph.p_vaddr &&
		    addr < ph.p_vaddr + ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			goto out;
		}
	}
	ret = kmag_err_set(err, ENOEXEC, "--uprobe: %s in %s lies in no loadable segment", sym, path);
out:
	elf_end(elf);
	close(fd);
	return ret;
}

/* An event name from a symbol: [A-Za-z0-9_] only, unique in the group. */
static int make_name(struct kmag_recorder *r, struct rec_probe *p, const char *sym)
{
	char base[MAX_EVENT_NAME + 1];
	size_t n = 0, k;
	int dup = 1;

	if (!isalpha((unsigned char)*sym) && *sym != '_')
		base[n++] = 'p';
	for (; *sym && *sym != '+' && n < MAX_EVENT_NAME - 12; sym++)
		base[n++] = isalnum((unsigned char)*sym) ? *sym : '_';
	base[n] = '\0';
	if (is_return(p->type))
		snprintf(base + n, sizeof(base) - n, "__return");
	for (;;) {
		free(p->event);
		if ((dup == 1 ? asprintf(&p->event, "%s", base) :
				asprintf(&p->event, "%s_%d", base, dup)) < 0) {
			p->event = NULL;
			return -ENOMEM;
		}
		for (k = 0; k < r->nr_probes && strcmp(r->probes[k].event, p->event); k++)
			;
		if (k == r->nr_probes)
			return 0;
		dup++;
	}
}

/* Splits "ADDR ARGS..." into @p->addr and @p->fetchargs. */
static int split_spec(struct rec_probe *p, const char *spec)
{
	size_t len;

	spec += strspn(spec, " \t");
	len = strcspn(spec, " \t");
	p->addr = strndup(spec, len);
	spec += len;
	spec += strspn(spec, " \t");
	p->fetchargs = *spec ? strdup(spec) : NULL;
	if (!p->addr || (*spec && !p->fetchargs))
		return -ENOMEM;
	len = strlen(p->fetchargs ? p->fetchargs : "");
	while (len && isspace((unsigned char)p->fetchargs[len - 1]))
		p->fetchargs[--len] = '\0';
	return 0;
}

static int check_one(struct kmag_recorder *r, const struct kmag_rec_probe *in, struct kmag_err *err)
{
	struct rec_probe *p = &r->probes[r->nr_probes];
	const char *opt = type_opt[in->type], *sym;
	char *colon;

	memset(p, 0, sizeof(*p));
	p->type = in->type;
	p->spec = in->spec;
	if (split_spec(p, in->spec))
		return kmag_err_set(err, ENOMEM, "out of memory");
	if (!*p->addr)
		return kmag_err_set(err, EINVAL,
				    "%s \"%s\" names no function: give FUNCTION [NAME=FETCHARG ...]",
				    opt, in->spec);
	sym = p->addr;
	if (is_uprobe(p->type)) {
		colon = strrchr(p->addr, ':');
		if (!colon || colon == p->addr || !colon[1])
			return kmag_err_set(err, EINVAL,
					    "%s \"%s\": give PATH:FUNCTION or PATH:0xOFFSET, then the fetch arguments",
					    opt, in->spec);
		*colon = '\0';
		p->path = realpath(p->addr, NULL);
		if (!p->path)
			return kmag_err_set(err, errno, "%s %s: %s", opt, p->addr, strerror(errno));
		sym = colon + 1;
		if (!strncmp(sym, "0x", 2)) {
			char *end;

			errno = 0;
			p->offset = strtoull(sym, &end, 16);
			if (errno || *end || end == sym + 2)
				return kmag_err_set(err, EINVAL, "%s: bad file offset \"%s\"", opt, sym);
			sym = strrchr(p->path, '/') + 1;
		} else {
			char *plus = strchr(sym, '+');
			unsigned long long add = 0;
			int ret;

			if (plus) {
				add = strtoull(plus + 1, NULL, 0);
				*plus = '\0';
			}
			if ((ret = elf_symbol_offset(p->path, sym, &p->offset, err)))
				return ret;
			p->offset += add;
		}
	} else {
		/* "MODULE:symbol" probes a module function: name the event after the symbol */
		colon = strchr(p->addr, ':');
		if (colon)
			sym = colon + 1;
	}
	if (make_name(r, p, sym))
		return kmag_err_set(err, ENOMEM, "out of memory");
	r->nr_probes++;
	return 0;
}

int kmag__rec_probes_check(struct kmag_recorder *r, struct kmag_err *err)
{
	const struct kmag_record_opts *o = &r->o;
	bool want_k = false, want_u = false;
	size_t i;
	int ret;

	if (!o->nr_probes)
		return 0;
	for (i = 0; i < o->nr_probes; i++) {
		if (o->probes[i].type > KMAG_REC_URETPROBE || !o->probes[i].spec)
			return kmag_err_set(err, EINVAL, "bad probe %zu", i);
		if (is_uprobe(o->probes[i].type))
			want_u = true;
		else
			want_k = true;
	}
	if (want_k) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/kprobe_events", r->dir);
		if (access(path, F_OK))
			return kmag_err_set(err, ENODEV,
					    "this kernel has no kprobe events (%s is missing: the kernel was built without CONFIG_KPROBE_EVENTS); --kprobe and --kretprobe cannot work here%s",
					    path,
					    want_u ? "" : ", --uprobe may (CONFIG_UPROBE_EVENTS)");
	}
	if (want_u) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/uprobe_events", r->dir);
		if (access(path, F_OK))
			return kmag_err_set(err, ENODEV,
					    "this kernel has no uprobe events (%s is missing: the kernel was built without CONFIG_UPROBE_EVENTS); --uprobe cannot work here",
					    path);
	}
	snprintf(r->probe_group, sizeof(r->probe_group), GROUP_PREFIX "%d", (int)getpid());
	r->probes = calloc(o->nr_probes, sizeof(*r->probes));
	if (!r->probes)
		return kmag_err_set(err, ENOMEM, "out of memory");
	for (i = 0; i < o->nr_probes; i++)
		if ((ret = check_one(r, &o->probes[i], err)))
			return ret;
	/* recorded like -e events: enabled in the instance, formats saved in the file */
	for (i = 0; i < r->nr_probes; i++) {
		struct rec_event *ev = realloc(r->events, (r->nr_events + 1) * sizeof(*ev));

		if (!ev)
			return kmag_err_set(err, ENOMEM, "out of memory");
		r->events = ev;
		ev[r->nr_events] = (struct rec_event){ strdup(r->probe_group),
						       strdup(r->probes[i].event), NULL };
		if (!ev[r->nr_events].system || !ev[r->nr_events].name) {
			free(ev[r->nr_events].system);
			free(ev[r->nr_events].name);
			return kmag_err_set(err, ENOMEM, "out of memory");
		}
		r->nr_events++;
	}
	r->res.probe_group = r->probe_group;
	return 0;
}

/*
 * The kernel's complaint about a rejected probe, from error_log: the error
 * and its "Command:" line with the caret under the bad position, verbatim.
 * @before is the log's last entry before the attempt, so an old entry is
 * not mistaken for this one.
 */
static int kernel_rejects(const struct rec_probe *p, const char *before, int code,
			  struct kmag_err *err)
{
	char *last = tracefs_error_last(NULL), *msg = last;
	int ret;

	if (!last || !*last || (before && !strcmp(before, last))) {
		ret = kmag_err_set(err, code, "the kernel rejects %s \"%s\": %s", type_opt[p->type],
				   p->spec, strerror(code));
		free(last);
		return ret;
	}
	/* "[  2.84] trace_kprobe: error: Invalid register name\n  Command: ...\n   ^" */
	if (*msg == '[' && strchr(msg, ']'))
		msg = strchr(msg, ']') + 1;
	msg += strspn(msg, " ");
	if (strstr(msg, "error: "))
		msg = strstr(msg, "error: ") + 7;
	/* keep the Command: and caret lines (the caret's column counts from the line start) */
	while (*msg && msg[strlen(msg) - 1] == '\n')
		msg[strlen(msg) - 1] = '\0';
	ret = kmag_err_set(err, code, "the kernel rejects %s \"%s\": %s", type_opt[p->type], p->spec,
			   msg);
	free(last);
	return ret;
}

int kmag__rec_probes_create(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i;

	for (i = 0; i < r->nr_probes; i++) {
		struct rec_probe *p = &r->probes[i];
		char *before = tracefs_error_last(NULL);
		int ret = 0;

		switch (p->type) {
		case KMAG_REC_KPROBE:
			p->dev = tracefs_kprobe_alloc(r->probe_group, p->event, p->addr, p->fetchargs);
			break;
		case KMAG_REC_KRETPROBE:
			p->dev = tracefs_kretprobe_alloc(r->probe_group, p->event, p->addr,
							 p->fetchargs, 0);
			break;
		case KMAG_REC_UPROBE:
			p->dev = tracefs_uprobe_alloc(r->probe_group, p->event, p->path, p->offset,
						      p->fetchargs);
			break;
		case KMAG_REC_URETPROBE:
			p->dev = tracefs_uretprobe_alloc(r->probe_group, p->event, p->path, p->offset,
							 p->fetchargs);
			break;
		}
		if (!p->dev) {
			free(before);
			return kmag_err_set(err, ENOMEM, "out of memory");
		}
		/* from here on the group may exist in tracefs: restore must remove it */
		r->configured = true;
		if (tracefs_dynevent_create(p->dev)) {
			int e = errno ? errno : EINVAL;

			if (e == EPERM || e == EACCES) {
				char what[128];

				free(before);
				snprintf(what, sizeof(what), "dynamic probes here (%s)", type_opt[p->type]);
				return kmag__tracefs_perm_error(err, what);
			}
			ret = kernel_rejects(p, before, e, err);
			free(before);
			return ret;
		}
		free(before);
		p->created = true;
	}
	return 0;
}

int kmag__rec_probes_destroy(struct kmag_recorder *r, struct kmag_err *err)
{
	size_t i;
	int ret = 0;

	/* newest first; force: also disables the event wherever it is enabled */
	for (i = r->nr_probes; i-- > 0;) {
		struct rec_probe *p = &r->probes[i];

		if (!p->created)
			continue;
		if (tracefs_dynevent_destroy(p->dev, true))
			ret = kmag_err_set(err, errno ? errno : EIO,
					   "cannot remove the probe %s/%s: %s (remove it with: echo '-:%s/%s' >> %s/dynamic_events)",
					   r->probe_group, p->event, strerror(errno ? errno : EIO),
					   r->probe_group, p->event, r->dir);
		else
			p->created = false;
	}
	return ret;
}

void kmag__rec_probes_free(struct kmag_recorder *r)
{
	size_t i;

	/* every slot of the array: a probe whose check failed is filled in part */
	for (i = 0; r->probes && i < r->o.nr_probes; i++) {
		tracefs_dynevent_free(r->probes[i].dev);
		free(r->probes[i].event);
		free(r->probes[i].addr);
		free(r->probes[i].fetchargs);
		free(r->probes[i].path);
	}
	free(r->probes);
	r->probes = NULL;
	r->nr_probes = 0;
}

void kmag__rec_probes_cleanup_stale(struct kmag_recorder *r)
{
	struct tracefs_dynevent **all;
	size_t i;

	all = tracefs_dynevent_get_all(TRACEFS_DYNEVENT_KPROBE | TRACEFS_DYNEVENT_KRETPROBE |
					       TRACEFS_DYNEVENT_UPROBE | TRACEFS_DYNEVENT_URETPROBE,
				       NULL);
	for (i = 0; all && all[i]; i++) {
		char *sys = NULL, *ev = NULL;
		const char *digits;
		int pid;

		tracefs_dynevent_info(all[i], &sys, &ev, NULL, NULL, NULL);
		digits = sys ? sys + strlen(GROUP_PREFIX) : NULL;
		if (sys && !strncmp(sys, GROUP_PREFIX, strlen(GROUP_PREFIX)) && *digits &&
		    strspn(digits, "0123456789") == strlen(digits) &&
		    (pid = atoi(digits)) != getpid() && kmag__rec_owner_gone(r->state_dir, pid)) {
			if (tracefs_dynevent_destroy(all[i], true))
				kmag__rec_note(r, "cannot remove the probe %s/%s left by a killed kmag run (pid %d): %s",
					       sys, ev, pid, strerror(errno));
			else
				kmag__rec_note(r, "removed the probe %s/%s left by a kmag run that was killed (pid %d)",
					       sys, ev, pid);
		}
		free(sys);
		free(ev);
	}
	tracefs_dynevent_list_free(all);
}
