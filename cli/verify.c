/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * --verify: the rulings of a casebook's directories run again and
 * compared with what they expect.
 */
#define _POSIX_C_SOURCE 200809L
#define _XOPEN_SOURCE 700	/* realpath() */

#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"

/*
 * --verify: runs the rulings in directories laid out as the casebook's
 * and compares what the program writes with what they expect.  Each case
 * runs this same program in a child, in the case's directory, so that its
 * options, messages and exit status are exactly what a user gets, and a
 * case that crashes or leaks cannot take the others with it.  The child's
 * result, messages and next map come back through pipes: nothing is
 * written to a file.
 */

/* A growing buffer, for what a case writes and for a JSON Pointer. */
struct buf {
	char	*p;
	size_t	 len, cap;
};

static bool
buf_add(struct buf *b, const char *s, size_t n)
{
	char	*p;
	size_t	 cap;

	if (b->len + n + 1 > b->cap) {
		cap = b->cap == 0 ? 4096 : b->cap;
		while (cap < b->len + n + 1)
			cap *= 2;
		if ((p = realloc(b->p, cap)) == NULL)
			return false;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
	return true;
}

static void
buf_release(struct buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

/*
 * What a case's file can be besides readable: a name that leads out of
 * the case (absolute, "..", or a symbolic link to outside), or not a
 * regular file (a named pipe would make --verify wait for ever).
 */
#define CASE_OUT	(-2)
#define CASE_NOTREG	(-3)

static const char *
case_error(int e)
{
	if (e == CASE_OUT)
		return "leads out of the case";
	if (e == CASE_NOTREG)
		return "not a regular file";
	return strerror(e);
}

/*
 * Checks name, a file of the case in dir (base: the case's real path):
 * 0 when it is a regular file in the case, CASE_OUT, CASE_NOTREG, or an
 * errno value (ENOENT: no such file).
 */
static int
case_path(const char *base, const char *dir, const char *name)
{
	struct stat	 st;
	const char	*p;
	char		*path, *real;
	size_t		 n = strlen(base);
	int		 e = 0;

	if (name[0] == '/')
		return CASE_OUT;
	for (p = name; *p != '\0'; p += strcspn(p, "/"), p += *p == '/')
		if (strncmp(p, "..", 2) == 0 && (p[2] == '/' || p[2] == '\0'))
			return CASE_OUT;
	if ((path = malloc(strlen(dir) + strlen(name) + 2)) == NULL)
		return ENOMEM;
	sprintf(path, "%s/%s", dir, name);
	real = realpath(path, NULL);
	if (real == NULL)
		e = errno;
	else if (n > 0 && base[n - 1] == '/' ? strncmp(real, base, n) != 0 :
	    strncmp(real, base, n) != 0 || real[n] != '/')
		e = CASE_OUT;
	else if (stat(real, &st) != 0)
		e = errno;
	else if (!S_ISREG(st.st_mode))
		e = CASE_NOTREG;
	free(real);
	free(path);
	return e;
}

/*
 * Reads name in the directory dfd into b.  0, ENOENT when there is no
 * such file, CASE_NOTREG, or another errno value.  Opened without
 * waiting (O_NONBLOCK): a named pipe is refused, never read.
 */
static int
read_at(int dfd, const char *name, struct buf *b)
{
	struct stat	 st;
	char	 chunk[65536];
	ssize_t	 r;
	int	 fd, e;

	if ((fd = openat(dfd, name, O_RDONLY | O_NOCTTY | O_NONBLOCK)) == -1)
		return errno;
	if (fstat(fd, &st) != 0) {
		e = errno;
		close(fd);
		return e;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return CASE_NOTREG;
	}
	for (;;) {
		if ((r = read(fd, chunk, sizeof(chunk))) == -1) {
			if (errno == EINTR)
				continue;
			e = errno;
			close(fd);
			return e;
		}
		if (r == 0)
			break;
		if (b->len + (size_t)r > max_input) {
			close(fd);
			return EFBIG;
		}
		if (!buf_add(b, chunk, (size_t)r)) {
			close(fd);
			return ENOMEM;
		}
	}
	close(fd);
	/* An empty file still gives a string. */
	return buf_add(b, "", 0) ? 0 : ENOMEM;
}

/* read_at() for a file of the case, which must not lead out of it. */
static int
read_case(const char *base, const char *dir, int dfd, const char *name,
    struct buf *b)
{
	int	 e;

	if ((e = case_path(base, dir, name)) != 0)
		return e;
	return read_at(dfd, name, b);
}

static int
cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The case's orders, "orders/NAME.json", "orders/NAME.txt" and
 * "NAME.eml" (a mail), in the byte order of their names, as the
 * casebook's shell passes them in the C locale.  NULL terminated; *n is
 * their number.  NULL when memory runs out.
 */
static char **
list_orders(int dfd, size_t *n)
{
	struct dirent	*de;
	DIR		*d;
	char		**v, **nv;
	size_t		 cap = 8, len;
	int		 fd;

	*n = 0;
	if ((v = calloc(cap + 1, sizeof(*v))) == NULL)
		return NULL;
	if ((fd = openat(dfd, "orders", O_RDONLY | O_DIRECTORY)) == -1)
		return v;
	if ((d = fdopendir(fd)) == NULL) {
		close(fd);
		return v;
	}
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		/* As the globs orders/ *.json, *.txt (orders as text) and
		 * *.eml (a mail): no dot files. */
		if (de->d_name[0] == '.' || len < 5 ||
		    (strcmp(de->d_name + len - 5, ".json") != 0 &&
		    strcmp(de->d_name + len - 4, ".txt") != 0 &&
		    strcmp(de->d_name + len - 4, ".eml") != 0))
			continue;
		if (*n == cap) {
			cap *= 2;
			if ((nv = realloc(v, (cap + 1) * sizeof(*v))) == NULL)
				goto fail;
			v = nv;
		}
		if ((v[*n] = malloc(len + 8)) == NULL)
			goto fail;
		snprintf(v[*n], len + 8, "orders/%s", de->d_name);
		v[++*n] = NULL;
	}
	closedir(d);
	qsort(v, *n, sizeof(*v), cmp_names);
	return v;
fail:
	closedir(d);
	while (*n > 0)
		free(v[--*n]);
	free(v);
	return NULL;
}

/*
 * The options a case's args may hold (issue 26: an archive is input, not
 * instructions): none that names a file outside the case or a key.
 * Long options are written in full, as getopt_long would otherwise take
 * "--trace-f" for --trace-file.
 */
static const char *const case_flags[] = {
	"check", "trace", "strict", "text", NULL
};
static const char *const case_valued[] = {
	"seed", "ruleset", "threads", "for", "reach", "unit", "rolls",
	"svg-region", NULL
};

/* Why the long option name (len bytes) may not be in a case. */
static const char *
case_refusal(const char *name, size_t len)
{
	static const char *const writes[] = {
		"output", "next", "svg", "svg-next", "svg-start",
		"trace-file", "outdir", "new-secret", "png", "replay", "sheet",
		NULL
	};
	static const char *const reads[] = { "audit", "rerun", NULL };
	static const char *const all[] = {
		"check", "trace", "strict", "text", "seed", "ruleset",
		"threads", "for", "reach", "unit", "rolls", "output", "next",
		"svg", "svg-next", "svg-start", "trace-file", "outdir",
		"new-secret", "secret", "verify", "max-input", "help",
		"version", "audit", "commit", "game", "rerun", "replay", "png",
		"png-width", "orders-json", "orders-text", "svg-region", "sheet",
		NULL
	};
	int	 k, hits = 0;

	for (k = 0; writes[k] != NULL; k++)
		if (strlen(writes[k]) == len && strncmp(name, writes[k],
		    len) == 0)
			return "writes a file";
	for (k = 0; reads[k] != NULL; k++)
		if (strlen(reads[k]) == len && strncmp(name, reads[k],
		    len) == 0)
			return "names a file";
	if (len == 6 && strncmp(name, "secret", len) == 0)
		return "names a key";
	if (len == 6 && strncmp(name, "verify", len) == 0)
		return "runs other cases";
	for (k = 0; all[k] != NULL; k++)
		if (strlen(all[k]) == len && strncmp(name, all[k], len) == 0)
			return "is not an option of a case";
	for (k = 0; all[k] != NULL; k++)
		if (strncmp(name, all[k], len) == 0)
			hits++;
	return hits > 0 ? "is not written in full" :
	    "is not an option of arbiter";
}

/*
 * Checks a case's args, tok[0..n-1], as getopt_long would read them
 * (short options grouped, a value in the same word or the next): only
 * -c, -t, -s, -r and the long options above.  *rolls is the file of
 * --rolls, or NULL.  True when the case may run; else false with reason.
 */
static bool
case_args(char *const tok[], size_t n, const char **rolls, char *reason,
    size_t size)
{
	const char	*t, *eq, *p;
	size_t		 i, len;
	int		 k;

	*rolls = NULL;
	for (i = 0; i < n; i++) {
		t = tok[i];
		if (t[0] != '-' || t[1] == '\0') {
			snprintf(reason, size, "args: \"%s\" names a file: a "
			    "case's files are its map.json and orders/*.json",
			    t);
			return false;
		}
		if (t[1] == '-' && t[2] == '\0') {
			snprintf(reason, size, "args: -- ends the options: a "
			    "case's files are its map.json and orders/*.json");
			return false;
		}
		if (t[1] == '-') {
			eq = strchr(t, '=');
			len = eq != NULL ? (size_t)(eq - t - 2) : strlen(t + 2);
			for (k = 0; case_flags[k] != NULL; k++)
				if (strlen(case_flags[k]) == len &&
				    strncmp(t + 2, case_flags[k], len) == 0)
					break;
			if (case_flags[k] != NULL && eq == NULL)
				continue;
			if (case_flags[k] != NULL) {
				snprintf(reason, size, "args: --%s takes no "
				    "value", case_flags[k]);
				return false;
			}
			for (k = 0; case_valued[k] != NULL; k++)
				if (strlen(case_valued[k]) == len &&
				    strncmp(t + 2, case_valued[k], len) == 0)
					break;
			if (case_valued[k] == NULL) {
				snprintf(reason, size, "args: %.*s %s",
				    (int)len + 2, t, case_refusal(t + 2, len));
				return false;
			}
			if (eq == NULL && i + 1 == n) {
				snprintf(reason, size, "args: --%s needs a "
				    "value", case_valued[k]);
				return false;
			}
			p = eq != NULL ? eq + 1 : tok[++i];
			if (strcmp(case_valued[k], "rolls") == 0)
				*rolls = p;
			continue;
		}
		for (p = t + 1; *p != '\0'; p++) {
			if (*p == 'c' || *p == 't')
				continue;
			if (*p != 's' && *p != 'r') {
				snprintf(reason, size, "args: -%c %s", *p,
				    *p == 'o' || *p == 'n' ? "writes a file" :
				    *p == 'h' || *p == 'V' ?
				    "is not an option of a case" :
				    "is not an option of arbiter");
				return false;
			}
			if (p[1] == '\0' && i + 1 == n) {
				snprintf(reason, size, "args: -%c needs a "
				    "value", *p);
				return false;
			}
			if (p[1] == '\0')
				i++;
			break;
		}
	}
	return true;
}

/* What a case wrote, and how it ended. */
struct outcome {
	struct buf	 out, err, next;
	int		 status;	/* exit status, or -1 */
	int		 sig;		/* the signal that killed it, or 0 */
};

/*
 * Runs self with argv in the directory dfd, the child's standard output,
 * standard error and descriptor 3 (its next map, with -n /dev/fd/3)
 * read into o.  False when the child could not be started, with errno.
 */
static bool
run_case(const char *self, char *const argv[], int dfd, struct outcome *o)
{
	struct pollfd	 pfd[3];
	struct buf	*bufs[3];
	char		 chunk[65536];
	ssize_t		 r;
	pid_t		 pid;
	int		 p[3][2], i, j, open_fds, st, e;

	bufs[0] = &o->out;
	bufs[1] = &o->err;
	bufs[2] = &o->next;
	for (i = 0; i < 3; i++)
		p[i][0] = p[i][1] = -1;
	for (i = 0; i < 3; i++) {
		if (pipe(p[i]) != 0)
			goto fail;
		for (j = 0; j < 2; j++)
			fcntl(p[i][j], F_SETFD, FD_CLOEXEC);
	}
	fflush(stdout);
	if ((pid = fork()) == -1)
		goto fail;
	if (pid == 0) {
		int	 w[3];

		/* Into the case, then the pipes out of the way of 1, 2 and
		 * 3 (which dfd may be) before those are replaced. */
		if (fchdir(dfd) != 0)
			_exit(EXIT_INTERNAL);
		for (i = 0; i < 3; i++)
			if ((w[i] = fcntl(p[i][1], F_DUPFD_CLOEXEC, 10)) == -1)
				_exit(EXIT_INTERNAL);
		if (dup2(w[0], STDOUT_FILENO) == -1 ||
		    dup2(w[1], STDERR_FILENO) == -1 || dup2(w[2], 3) == -1)
			_exit(EXIT_INTERNAL);
		if (self != NULL)
			execv(self, argv);
		else {
			execv("/proc/self/exe", argv);
			execvp(argv[0], argv);
		}
		fprintf(stderr, "%s: cannot run %s: %s\n", progname,
		    self != NULL ? self : argv[0], strerror(errno));
		_exit(EXIT_INTERNAL);
	}
	for (i = 0; i < 3; i++) {
		close(p[i][1]);
		p[i][1] = -1;
		pfd[i].fd = p[i][0];
		pfd[i].events = POLLIN;
	}
	/* Read all three at once: a child blocked on one full pipe while
	 * we wait on another would never finish. */
	for (open_fds = 3; open_fds > 0;) {
		if (poll(pfd, 3, -1) == -1) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < 3; i++) {
			if (pfd[i].fd == -1 || pfd[i].revents == 0)
				continue;
			r = read(pfd[i].fd, chunk, sizeof(chunk));
			if (r == -1 && errno == EINTR)
				continue;
			if (r > 0 && buf_add(bufs[i], chunk, (size_t)r))
				continue;
			/* The end, an error or no memory: stop reading;
			 * the child then sees a broken pipe. */
			close(pfd[i].fd);
			p[i][0] = pfd[i].fd = -1;
			open_fds--;
		}
	}
	for (i = 0; i < 3; i++)
		if (p[i][0] != -1)
			close(p[i][0]);
	while (waitpid(pid, &st, 0) == -1)
		if (errno != EINTR)
			return false;
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	o->sig = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
	for (i = 0; i < 3; i++)
		if (!buf_add(bufs[i], "", 0)) {
			errno = ENOMEM;
			return false;
		}
	return true;
fail:
	e = errno;
	for (i = 0; i < 3; i++)
		for (j = 0; j < 2; j++)
			if (p[i][j] != -1)
				close(p[i][j]);
	errno = e;
	return false;
}

/* Shows v in reason, compact, cut to about 80 bytes ("nothing" for
 * NULL). */
static void
show_json(const json_t *v, char *s, size_t size)
{
	char	*d;
	size_t	 n;

	if (v == NULL) {
		snprintf(s, size, "nothing");
		return;
	}
	if ((d = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL) {
		snprintf(s, size, "(out of memory)");
		return;
	}
	n = strlen(d);
	if (n > 80) {
		/* Not inside a UTF-8 sequence. */
		for (n = 77; n > 0 && ((unsigned char)d[n] & 0xc0) == 0x80;)
			n--;
		snprintf(s, size, "%.*s...", (int)n, d);
	} else
		snprintf(s, size, "%s", d);
	free(d);
}

/* Appends "/key" to the JSON Pointer ptr, with ~ and / escaped. */
static bool
ptr_push(struct buf *ptr, const char *key)
{
	if (!buf_add(ptr, "/", 1))
		return false;
	for (; *key != '\0'; key++) {
		if (*key == '~' && !buf_add(ptr, "~0", 2))
			return false;
		else if (*key == '/' && !buf_add(ptr, "~1", 2))
			return false;
		else if (*key != '~' && *key != '/' && !buf_add(ptr, key, 1))
			return false;
	}
	return true;
}

/*
 * Finds the first difference between want and got, walking want in the
 * order of its document (members got has and want lacks come after
 * want's own).  True with ptr the JSON Pointer of the place and *w and *g
 * the values there (NULL: none); false when they are equal.
 */
static bool
json_diff(const json_t *want, const json_t *got, struct buf *ptr,
    const json_t **w, const json_t **g)
{
	const char	*key;
	json_t		*wv, *gv;
	size_t		 i, mark = ptr->len;
	char		 num[32];

	*w = want;
	*g = got;
	if (json_typeof(want) != json_typeof(got))
		return true;
	if (json_is_object(want)) {
		json_object_foreach((json_t *)want, key, wv) {
			if (!ptr_push(ptr, key))
				return true;
			if ((gv = json_object_get(got, key)) == NULL) {
				*w = wv;
				*g = NULL;
				return true;
			}
			if (json_diff(wv, gv, ptr, w, g))
				return true;
			ptr->len = mark;
			ptr->p[mark] = '\0';
		}
		json_object_foreach((json_t *)got, key, gv) {
			if (json_object_get(want, key) != NULL)
				continue;
			ptr_push(ptr, key);
			*w = NULL;
			*g = gv;
			return true;
		}
		return false;
	}
	if (json_is_array(want)) {
		for (i = 0; i < json_array_size(want) ||
		    i < json_array_size(got); i++) {
			snprintf(num, sizeof(num), "/%zu", i);
			if (!buf_add(ptr, num, strlen(num)))
				return true;
			wv = json_array_get(want, i);
			gv = json_array_get(got, i);
			if (wv == NULL || gv == NULL) {
				*w = wv;
				*g = gv;
				return true;
			}
			if (json_diff(wv, gv, ptr, w, g))
				return true;
			ptr->len = mark;
			ptr->p[mark] = '\0';
		}
		return false;
	}
	return !json_equal((json_t *)want, (json_t *)got);
}

bool
json_differs(const char *what, const json_t *want, const json_t *got,
    char *reason, size_t size)
{
	struct buf	 ptr = { NULL, 0, 0 };
	const json_t	*wv, *gv;
	char		 ws[128], gs[128];
	bool		 differ = true;

	if (!buf_add(&ptr, "", 0))
		snprintf(reason, size, "%s differs (out of memory)", what);
	else if (json_diff(want, got, &ptr, &wv, &gv)) {
		show_json(wv, ws, sizeof(ws));
		show_json(gv, gs, sizeof(gs));
		snprintf(reason, size, "%s differs at %s: expected %s, got %s",
		    what, ptr.len == 0 ? "the root" : ptr.p, ws, gs);
	} else
		differ = false;
	buf_release(&ptr);
	return differ;
}

/* In v, every string that is from or begins with "from:" now names to. */
static void
rename_in(json_t *v, char *const *from, const char *const *to, size_t np)
{
	const char	*s, *key;
	json_t		*e;
	char		*n;
	size_t		 i, k, fl, best = np, bl = 0;

	if (json_is_object(v)) {
		json_object_foreach(v, key, e)
			rename_in(e, from, to, np);
		return;
	}
	if (json_is_array(v)) {
		json_array_foreach(v, i, e)
			rename_in(e, from, to, np);
		return;
	}
	if ((s = json_string_value(v)) == NULL)
		return;
	/* The longest name the string is or begins with: renamed once. */
	for (k = 0; k < np; k++) {
		fl = strlen(from[k]);
		if (strncmp(s, from[k], fl) == 0 && (s[fl] == '\0' ||
		    s[fl] == ':') && (best == np || fl > bl))
			best = k, bl = fl;
	}
	if (best == np)
		return;
	if ((n = malloc(strlen(to[best]) + strlen(s + bl) + 1)) == NULL)
		return;		/* then it differs, as it would */
	sprintf(n, "%s%s", to[best], s + bl);
	json_string_set(v, n);
	free(n);
}

/*
 * Results of one turn made in different folders name its files
 * differently ("t1/map.json", "map.json"): where the files of want and got
 * (/files) pair one to one by their SHA-256 (each of got's files paired
 * once, in their order where several have one SHA-256), got's names are
 * changed to want's, all at once, in every string that is a name or a
 * message that begins with it.  True when a name was changed.
 */
static bool
same_names(const json_t *want, json_t *got)
{
	const json_t	*wf = json_object_get(want, "files"), *we;
	json_t		*gf = json_object_get(got, "files"), *ge;
	const char	*wn, *gn, *ws, *gs, **to = NULL;
	char		**from = NULL;
	bool		*used = NULL;
	size_t		 i, j, n, np = 0;
	bool		 changed = false;

	if (!json_is_array(wf) || !json_is_array(gf) ||
	    (n = json_array_size(wf)) != json_array_size(gf) || n == 0)
		return false;
	if ((used = calloc(n, sizeof(*used))) == NULL ||
	    (from = calloc(n, sizeof(*from))) == NULL ||
	    (to = calloc(n, sizeof(*to))) == NULL)
		goto out;
	/* Pair every file first: a partial pairing changes nothing. */
	for (i = 0; i < n; i++) {
		we = json_array_get(wf, i);
		ws = json_string_value(json_object_get(we, "sha256"));
		wn = json_string_value(json_object_get(we, "file"));
		for (j = 0; j < n; j++) {
			ge = json_array_get(gf, j);
			gs = json_string_value(json_object_get(ge, "sha256"));
			if (!used[j] && ws != NULL && gs != NULL &&
			    strcmp(ws, gs) == 0)
				break;
		}
		if (j == n)
			goto out;
		used[j] = true;
		gn = json_string_value(json_object_get(json_array_get(gf, j),
		    "file"));
		if (wn == NULL || gn == NULL || strcmp(wn, gn) == 0)
			continue;
		/* Copies: the strings renamed are gn themselves. */
		if ((from[np] = strdup(gn)) == NULL)
			goto out;
		to[np++] = wn;
	}
	if (np > 0) {
		rename_in(got, from, to, np);
		changed = true;
	}
out:
	for (i = 0; i < np; i++)
		free(from[i]);
	free(from);
	free(to);
	free(used);
	return changed;
}

/*
 * Compares what a case wrote (got) with the file that says what it
 * should be (want), both JSON texts; what is "the result" or "the next
 * map".  True when they are the same bytes; else false with reason
 * filled.
 */
/*
 * The bytes of a result with the value of its top-level "program" member
 * (the version that made the ruling) left out, in a new buffer: a ruling
 * made by an older arbiter still holds if nothing else differs.  NULL when
 * there is no such member or memory runs out.
 */
static char *
unversioned(const struct buf *b, size_t *len)
{
	static const char key[] = "\n  \"program\": \"";
	const char	*p, *q, *e = b->p + b->len;
	char		*out;

	for (p = b->p; p + sizeof(key) - 1 <= e; p++)
		if (memcmp(p, key, sizeof(key) - 1) == 0)
			break;
	if (p + sizeof(key) - 1 > e)
		return NULL;
	p += sizeof(key) - 1;
	for (q = p; q < e && *q != '"'; q++)
		if (*q == '\\')
			q++;
	if (q >= e || (out = malloc(b->len)) == NULL)
		return NULL;
	memcpy(out, b->p, (size_t)(p - b->p));
	memcpy(out + (p - b->p), q, (size_t)(e - q));
	*len = (size_t)(p - b->p) + (size_t)(e - q);
	return out;
}

static bool
same_json(const char *what, const char *file, const struct buf *want,
    const struct buf *got, char *reason, size_t size)
{
	json_error_t	 je;
	json_t		*w, *g;
	size_t		 i;
	int		 line = 1, col = 1;

	char		*wu, *gu;
	size_t		 wn = 0, gn = 0;
	bool		 same;

	if (want->len == got->len && memcmp(want->p, got->p, got->len) == 0)
		return true;
	wu = unversioned(want, &wn);
	gu = unversioned(got, &gn);
	same = wu != NULL && gu != NULL && wn == gn && memcmp(wu, gu, wn) == 0;
	free(wu);
	free(gu);
	if (same)
		return true;
	/* A key twice is refused: readers differ on which value holds,
	 * and jansson would keep one of them unseen. */
	if ((w = json_loadb(want->p, want->len, JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(reason, size, "%s is not JSON: %d:%d: %s", file,
		    je.line, je.column, je.text);
		return false;
	}
	if ((g = json_loadb(got->p, got->len, JSON_DECODE_ANY |
	    JSON_REJECT_DUPLICATES, &je)) == NULL) {
		snprintf(reason, size, "%s is not JSON: %d:%d: %s", what,
		    je.line, je.column, je.text);
		json_decref(w);
		return false;
	}
	/* The program's version is not compared (see unversioned()). */
	if (json_is_object(w) && json_is_object(g) &&
	    json_object_get(w, "program") != NULL &&
	    json_object_get(g, "program") != NULL)
		json_object_set(g, "program", json_object_get(w, "program"));
	/* A result made in another folder names the same files otherwise:
	 * they are paired by their SHA-256. */
	if (same_names(w, g)) {
		if (!json_differs(what, w, g, reason, size))
			reason[0] = '\0';
	} else if (json_differs(what, w, g, reason, size))
		;
	else {
		for (i = 0; i < want->len && i < got->len &&
		    want->p[i] == got->p[i]; i++) {
			if (want->p[i] == '\n')
				line++, col = 1;
			else
				col++;
		}
		snprintf(reason, size, "%s differs in bytes only (the JSON is "
		    "equal), from line %d, column %d", what, line, col);
	}
	json_decref(g);
	json_decref(w);
	return reason[0] == '\0';
}

/* Copies line number n (from 1) of s into d, or "nothing"; control
 * characters become '?'. */
static void
show_line(const char *s, size_t len, int n, char *d, size_t size)
{
	const char	*end = s + len, *nl;
	size_t		 i, k;

	for (; n > 1 && s < end; n--) {
		if ((nl = memchr(s, '\n', (size_t)(end - s))) == NULL)
			s = end;
		else
			s = nl + 1;
	}
	if (s >= end) {
		snprintf(d, size, "nothing");
		return;
	}
	d[0] = '"';
	for (i = 0, k = 1; s + i < end && s[i] != '\n' && k + 5 < size;
	    i++, k++)
		d[k] = (unsigned char)s[i] < 0x20 ? '?' : s[i];
	if (s + i < end && s[i] != '\n') {
		memcpy(d + k, "...", 3);
		k += 3;
	}
	d[k++] = '"';
	d[k] = '\0';
}

/* The line (from 1) on which a and b first differ. */
static int
first_line(const struct buf *a, const struct buf *b)
{
	size_t	 i;
	int	 line = 1;

	for (i = 0; i < a->len && i < b->len && a->p[i] == b->p[i]; i++)
		if (a->p[i] == '\n')
			line++;
	return line;
}

/*
 * Verifies the case in dir: "ok dir" or "not ok dir: reason" on standard
 * output.  0 when it passes, 1 when it fails, or an exit status after a
 * message.
 */
/* The expected result is the umpire's, made with the key: it reveals
 * the turn's value or records the next map's commitment. */
static bool
umpires(const struct buf *want)
{
	json_t	*r = json_loadb(want->p, want->len, JSON_REJECT_DUPLICATES,
	    NULL), *d;
	bool	 yes;

	d = json_object_get(r, "dice");
	yes = json_object_get(d, "reveal") != NULL ||
	    json_object_get(d, "next_commitment") != NULL;
	json_decref(r);
	return yes;
}

static int
verify_one(const char *self, const char *dir)
{
	struct buf	 args = { NULL, 0, 0 }, want = { NULL, 0, 0 };
	struct buf	 werr = { NULL, 0, 0 }, wnext = { NULL, 0, 0 };
	struct buf	 wstat = { NULL, 0, 0 };
	struct outcome	 o;
	char		**orders = NULL, **argv = NULL, *tok, *end;
	char		 reason[600], ws[200], gs[200], *base = NULL;
	const char	*file = NULL, *rolls = NULL, *name;
	bool		 has_want, has_err, has_next;
	size_t		 norders = 0, n = 0, i, nargs;
	long		 wantst = 0;
	int		 dfd, e, rc = EXIT_OK;

	memset(&o, 0, sizeof(o));
	reason[0] = '\0';
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) ==
	    -1) {
		e = errno;
		goto noinput;
	}
	if ((base = realpath(dir, NULL)) == NULL) {
		e = errno;
		goto noinput;
	}
	/* The expected files: each may be missing, none unreadable, none
	 * a link out of the case. */
	if ((e = read_case(base, dir, dfd, file = "args", &args)) == ENOENT)
		e = 0;
	if (e == 0 && (e = read_case(base, dir, dfd, file = "expected.json",
	    &want)) == ENOENT)
		e = 0;
	has_want = want.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd, file = "expected.err",
	    &werr)) == ENOENT)
		e = 0;
	has_err = werr.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd,
	    file = "expected.next.json", &wnext)) == ENOENT)
		e = 0;
	has_next = wnext.p != NULL;
	if (e == 0 && (e = read_case(base, dir, dfd,
	    file = "expected.status", &wstat)) == ENOENT)
		e = 0;
	if (e == ENOMEM)
		goto nomem;
	if (e == CASE_OUT) {
		snprintf(reason, sizeof(reason), "%s leads out of the case",
		    file);
		goto done;
	}
	if (e != 0)
		goto noinput;
	file = NULL;
	if (wstat.p != NULL) {
		errno = 0;
		wantst = strtol(wstat.p, &end, 10);
		while (*end == '\n' || *end == ' ' || *end == '\t')
			end++;
		if (errno != 0 || end == wstat.p || *end != '\0' ||
		    wantst < 0 || wantst > 255) {
			snprintf(reason, sizeof(reason), "expected.status is "
			    "not an exit status");
			goto done;
		}
	}
	if ((orders = list_orders(dfd, &norders)) == NULL)
		goto nomem;
	/* self, the args, --rerun expected.json, -n /dev/fd/3, map.json,
	 * the orders, NULL. */
	if ((argv = calloc(args.len / 2 + norders + 8, sizeof(*argv))) ==
	    NULL)
		goto nomem;
	argv[n++] = (char *)progname;
	if (args.p != NULL)
		for (tok = strtok(args.p, " \t\n\r\v\f"); tok != NULL;
		    tok = strtok(NULL, " \t\n\r\v\f"))
			argv[n++] = tok;
	nargs = n - 1;
	/* A turn the umpire made with the key is replayed from what its
	 * result reveals: an archive verifies without the key. */
	if (has_want && umpires(&want)) {
		argv[n++] = (char *)"--rerun";
		argv[n++] = (char *)"expected.json";
	}
	if (has_next) {
		argv[n++] = (char *)"-n";
		argv[n++] = (char *)"/dev/fd/3";
	}
	argv[n++] = (char *)"map.json";
	for (i = 0; i < norders; i++)
		argv[n++] = orders[i];
	argv[n] = NULL;
	/* Only options that name no file outside the case and no key; the
	 * files the case reads regular files of its own. */
	if (!case_args(argv + 1, nargs, &rolls, reason, sizeof(reason)))
		goto done;
	for (i = 0; i < norders + 2; i++) {
		name = i == 0 ? "map.json" : i == 1 ? rolls : orders[i - 2];
		if (name == NULL || (e = case_path(base, dir, name)) == 0 ||
		    e == ENOENT)	/* missing: the case says so */
			continue;
		if (e == ENOMEM)
			goto nomem;
		file = name;
		if (e != CASE_OUT)
			goto noinput;
		snprintf(reason, sizeof(reason), "%s%s%s leads out of the "
		    "case", i == 1 ? "args: --rolls " : "", name,
		    i == 1 ? ":" : "");
		goto done;
	}
	if (!run_case(self, argv, dfd, &o)) {
		if (errno == ENOMEM)
			goto nomem;
		snprintf(reason, sizeof(reason), "cannot run the case: %s",
		    strerror(errno));
		goto done;
	}
	show_line(o.err.p, o.err.len, 1, gs, sizeof(gs));
	if (o.sig != 0)
		snprintf(reason, sizeof(reason), "killed by signal %d%s%s%s",
		    o.sig, o.err.len > 0 ? " (" : "", o.err.len > 0 ? gs : "",
		    o.err.len > 0 ? ")" : "");
	else if (o.status != wantst)
		snprintf(reason, sizeof(reason), "exit status %d, expected "
		    "%ld%s%s%s", o.status, wantst, o.err.len > 0 ? " (" : "",
		    o.err.len > 0 ? gs : "", o.err.len > 0 ? ")" : "");
	else if (has_want && !same_json("result", "expected.json", &want,
	    &o.out, reason, sizeof(reason)))
		;
	else if (has_err && (o.err.len != werr.len ||
	    memcmp(o.err.p, werr.p, werr.len) != 0)) {
		i = (size_t)first_line(&werr, &o.err);
		show_line(werr.p, werr.len, (int)i, ws, sizeof(ws));
		show_line(o.err.p, o.err.len, (int)i, gs, sizeof(gs));
		snprintf(reason, sizeof(reason), "diagnostic differs at line "
		    "%zu: expected %s, got %s", i, ws, gs);
	} else if (!has_err && o.err.len > 0)
		snprintf(reason, sizeof(reason), "unexpected output on "
		    "standard error: %s", gs);
	else if (!has_want && !has_err)
		snprintf(reason, sizeof(reason), "no expected.json or "
		    "expected.err");
	else if (has_next)
		same_json("next map", "expected.next.json", &wnext, &o.next,
		    reason, sizeof(reason));
	goto done;
nomem:
	rc = nomem();
	snprintf(reason, sizeof(reason), "out of memory");
	goto done;
noinput:
	if (file != NULL)
		fprintf(stderr, "%s: cannot read %s/%s: %s\n", progname, dir,
		    file, case_error(e));
	else
		fprintf(stderr, "%s: cannot open %s: %s\n", progname, dir,
		    strerror(e));
	snprintf(reason, sizeof(reason), "cannot read%s%s: %s", file != NULL ?
	    " " : "", file != NULL ? file : "", case_error(e));
	rc = EXIT_NOINPUT;
done:
	if (reason[0] == '\0')
		printf("ok %s\n", dir);
	else {
		printf("not ok %s: %s\n", dir, reason);
		if (rc == EXIT_OK)
			rc = EXIT_ILLEGAL;
	}
	/* Out as the case ends, so that a run killed later keeps it. */
	fflush(stdout);
	free(base);
	if (dfd != -1)
		close(dfd);
	for (i = 0; orders != NULL && i < norders; i++)
		free(orders[i]);
	free(orders);
	free(argv);
	buf_release(&o.out);
	buf_release(&o.err);
	buf_release(&o.next);
	buf_release(&wstat);
	buf_release(&wnext);
	buf_release(&werr);
	buf_release(&want);
	buf_release(&args);
	return rc;
}

/*
 * arbiter --verify DIR...: each case in turn, then the count.  The worst
 * outcome decides the exit status: 66 for a directory that cannot be
 * read, else 1 for a case that fails.
 */
int
verify(const char *argv0, int ndirs, char **dirs)
{
	char	*self = NULL, *cwd;
	int	 i, r, rc = EXIT_OK, pass = 0, failed = 0;

	/* A case's args may not start a --verify of its own directory,
	 * which would run itself without end. */
	if (getenv("ARBITER_VERIFYING") != NULL) {
		fprintf(stderr, "%s: --verify inside a case of --verify\n",
		    progname);
		return EXIT_USAGE;
	}
	if (setenv("ARBITER_VERIFYING", "1", 1) != 0)
		return nomem();
	/* The children run in the cases' directories: a relative name for
	 * the program would not find it there.  Without a slash, the
	 * program was found on PATH (or is /proc/self/exe). */
	if (argv0[0] == '/')
		self = strdup(argv0);
	else if (strchr(argv0, '/') != NULL && (cwd = getcwd(NULL, 0)) !=
	    NULL) {
		if ((self = malloc(strlen(cwd) + strlen(argv0) + 2)) != NULL)
			sprintf(self, "%s/%s", cwd, argv0);
		free(cwd);
	}
	if (strchr(argv0, '/') != NULL && self == NULL)
		return nomem();
	for (i = 0; i < ndirs; i++) {
		r = verify_one(self, dirs[i]);
		if (r == EXIT_OK)
			pass++;
		else
			failed++;
		if (r > rc)
			rc = r;
	}
	printf("verify: %d passed, %d failed\n", pass, failed);
	free(self);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: cannot write standard output: %s\n",
		    progname, strerror(errno));
		return EXIT_CANTCREAT;
	}
	return rc;
}
