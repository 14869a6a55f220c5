/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * arbiter game send DIR (arbiter-game(1), SEND): each description queued
 * in DIR/outbox (NNNNNN.json, in order) is checked, rendered into an RFC
 * 5322/MIME message with GMime (multipart/mixed: the body as text/plain
 * in UTF-8, then each attachment in base64), piped to the game's
 * send_command through /bin/sh -c, and on its success filed as
 * DIR/sent/NNNNNN.eml (whole or not at all) before the description is
 * removed.  A description that is refused, or whose command fails, stays
 * queued and is reported; the others go on.  The same description gives
 * the same bytes: the boundary is made from the Message-ID.  Attachments
 * are opened under DIR one name at a time without following a symbolic
 * link, so that nothing outside DIR is read.  Everything happens under
 * the exclusive lock of DIR/lock that every command changing DIR takes.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE		/* flock() */

#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli.h"
#include "game.h"
#include "gameint.h"

#include <gmime/gmime.h>

/* A description larger than this is refused unread (its body is one
 * player's letter: some kilobytes). */
#define DESC_MAX	(4L << 20)
/* A message's attachments together: at most this many bytes (about 27
 * MiB once in base64; mail servers commonly take 25 to 50 MB). */
#define ATTACH_MAX	(20L << 20)
/* Attachments a message: at most this many. */
#define ATTACH_COUNT	64
/* Set when the send command was stopped for its time: send stops there,
 * so that a mail server that hangs holds the game's lock (and so every
 * receive) for one send_timeout, not one a mail. */
static bool	 send_late;

/* The send command's time for one mail, unless game.json's send_timeout
 * says otherwise (a sendmail that hangs would hold DIR/lock, and every
 * receive with it). */
#define SEND_TIMEOUT	600
/* Of the command's standard error, this much is kept for the report. */
#define ERR_KEEP	4096

static const char *const me = "arbiter game send";

/* A refusal or a failure's reason, for the report. */
struct why {
	char	 s[512];
};

static void
say(struct why *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
say(struct why *w, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(w->s, sizeof(w->s), fmt, ap);
	va_end(ap);
}

static void
usage(FILE *fp)
{
	fprintf(fp, "usage: %s DIR\n", me);
}

/* The whole of an open file (at most max bytes), NUL-terminated; NULL
 * with w set. */
static char *
read_fd(int fd, long max, size_t *len, const char *name, struct why *w)
{
	struct stat	 st;
	char		*p;
	size_t		 n = 0;
	ssize_t		 r;

	if (fstat(fd, &st) == -1) {
		say(w, "%s: %s", name, strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		say(w, "%s: not a regular file", name);
		return NULL;
	}
	if (st.st_size > max) {
		say(w, "%s: too large (%lld bytes; at most %ld)", name,
		    (long long)st.st_size, max);
		return NULL;
	}
	if ((p = malloc((size_t)st.st_size + 1)) == NULL) {
		say(w, "out of memory");
		return NULL;
	}
	/* Read what fstat saw, and one byte more to see that it grew. */
	while (n <= (size_t)st.st_size) {
		r = read(fd, p + n, (size_t)st.st_size + 1 - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			say(w, "%s: %s", name, strerror(errno));
			free(p);
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > (size_t)st.st_size) {
		say(w, "%s: changed while read", name);
		free(p);
		return NULL;
	}
	p[n] = '\0';
	*len = n;
	return p;
}

/*
 * Opens rel, a path relative to the folder dfd, one name at a time:
 * every name but the last a directory, none a symbolic link, none
 * empty, "." or "..", rel not absolute.  The descriptor, or -1 with w
 * set.
 */
static int
open_beneath(int dfd, const char *rel, struct why *w)
{
	char		 name[NAME_MAX + 1];
	const char	*p, *e;
	int		 fd, nfd;
	size_t		 n;

	if (rel[0] == '\0') {
		say(w, "an attachment's file is empty");
		return -1;
	}
	if (rel[0] == '/') {
		say(w, "attachment %s: an absolute file name", rel);
		return -1;
	}
	fd = dfd;
	for (p = rel;; p = e + 1) {
		if ((e = strchr(p, '/')) == NULL)
			e = p + strlen(p);
		n = (size_t)(e - p);
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.')) {
			say(w, "attachment %s: \"%.*s\" in the file name "
			    "(it must lead down from the game folder)", rel,
			    (int)n, p);
			goto fail;
		}
		if (n > NAME_MAX) {
			say(w, "attachment %s: a name too long", rel);
			goto fail;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		nfd = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NOCTTY | O_NONBLOCK | (*e == '/' ? O_DIRECTORY : 0));
		if (nfd == -1) {
			if (errno == ELOOP || (errno == ENOTDIR && *e == '/'))
				say(w, "attachment %s: %s is a symbolic link "
				    "or not a folder (files are taken from "
				    "inside the game folder only)", rel, name);
			else if (errno == ENOENT)
				say(w, "attachment %s: missing", rel);
			else
				say(w, "attachment %s: %s", rel,
				    strerror(errno));
			goto fail;
		}
		if (fd != dfd)
			close(fd);
		fd = nfd;
		if (*e == '\0')
			return fd;
	}
fail:
	if (fd != dfd)
		close(fd);
	return -1;
}

/*
 * A header field's text: no control character (C0, DEL, C1 in UTF-8,
 * and so no CR or LF), no line or paragraph separator, valid UTF-8.
 */
static bool
field_ok(const char *s, const char *what, struct why *w)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 i;

	if (!g_utf8_validate(s, -1, NULL)) {
		say(w, "%s is not UTF-8", what);
		return false;
	}
	for (i = 0; u[i] != '\0'; i++) {
		if (u[i] < 0x20 || u[i] == 0x7f ||
		    (u[i] == 0xc2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9f) ||
		    (u[i] == 0xe2 && u[i + 1] == 0x80 &&
		    (u[i + 2] == 0xa8 || u[i + 2] == 0xa9))) {
			say(w, "%s has a control character (byte %zu: "
			    "header injection?)", what, i + 1);
			return false;
		}
	}
	return true;
}

/* A Message-ID's form: <left@right>, printable ASCII without spaces or
 * angle brackets inside. */
static bool
msgid_ok(const char *s, const char *what, struct why *w)
{
	size_t	 i, n = strlen(s);

	if (!field_ok(s, what, w))
		return false;
	if (n < 5 || n > 250 || s[0] != '<' || s[n - 1] != '>' ||
	    strchr(s, '@') == NULL) {
		say(w, "%s is not of the form <id@host>", what);
		return false;
	}
	for (i = 1; i + 1 < n; i++)
		if (s[i] <= ' ' || s[i] >= 0x7f || s[i] == '<' ||
		    s[i] == '>' || s[i] == '"' || s[i] == '\\') {
			say(w, "%s has a space or %c inside", what, s[i]);
			return false;
		}
	return true;
}

/* Adds the mailboxes of s to list: false, with w set, unless s is one
 * or more plain mailboxes, each with an @. */
static bool
add_addresses(InternetAddressList *list, const char *s, const char *what,
    struct why *w)
{
	InternetAddressList	*l;
	InternetAddress		*a;
	const char		*addr;
	size_t			 k;
	int			 i, n;

	if (!field_ok(s, what, w))
		return false;
	if ((l = internet_address_list_parse(NULL, s)) == NULL ||
	    (n = internet_address_list_length(l)) == 0) {
		say(w, "%s is not a mail address: %s", what, s);
		if (l != NULL)
			g_object_unref(l);
		return false;
	}
	for (i = 0; i < n; i++) {
		a = internet_address_list_get_address(l, i);
		if (!INTERNET_ADDRESS_IS_MAILBOX(a) ||
		    (addr = internet_address_mailbox_get_addr(
		    INTERNET_ADDRESS_MAILBOX(a))) == NULL ||
		    strchr(addr, '@') == NULL) {
			say(w, "%s is not a mail address: %s", what, s);
			g_object_unref(l);
			return false;
		}
		/* The domain goes out in IDNA (GMime); a mailbox name
		 * outside ASCII needs SMTPUTF8, which a 7-bit message
		 * cannot carry. */
		for (k = 0; addr[k] != '@'; k++)
			if ((unsigned char)addr[k] >= 0x80) {
				say(w, "%s has a mailbox name outside ASCII "
				    "(SMTPUTF8): %s", what, s);
				g_object_unref(l);
				return false;
			}
	}
	internet_address_list_append(list, l);
	g_object_unref(l);
	return true;
}

/* A member that must be a string: it, or NULL with w set. */
static const char *
str_member(const json_t *d, const char *key, bool need, struct why *w)
{
	const json_t	*v = json_object_get(d, key);

	if (v == NULL && !need)
		return NULL;
	if (!json_is_string(v)) {
		say(w, "\"%s\" is %s", key, v == NULL ? "missing" :
		    "not a string");
		return NULL;
	}
	return json_string_value(v);
}

/* The boundary: from the Message-ID's SHA-256 (and a counter, in the
 * unlikely case that the body holds it). */
static char *
boundary_for(const char *msgid, const char *body)
{
	char	*seed, *hex, *b;
	int	 k;

	for (k = 0;; k++) {
		seed = g_strdup_printf("%s %d", msgid, k);
		hex = g_compute_checksum_for_string(G_CHECKSUM_SHA256, seed,
		    -1);
		b = g_strdup_printf("=-arbiter-%.32s", hex);
		g_free(seed);
		g_free(hex);
		if (strstr(body, b) == NULL)
			return b;
		g_free(b);
	}
}

/*
 * Renders the description d (read from outbox under DIR dfd) into a
 * message: its bytes in *out (g_byte_array_unref it), or false with w
 * set.
 */
static bool
render(int dfd, const json_t *d, GByteArray **out, struct why *w)
{
	static const char *const kinds[] = {
		"ack", "turn", "preview", "aside", "redo", "open", NULL
	};
	GMimeMessage	*msg = NULL;
	GMimeMultipart	*mp = NULL;
	GMimeTextPart	*text;
	GMimePart	*part;
	GMimeStream	*st;
	GMimeDataWrapper *dw;
	GDateTime	*dt = NULL;
	const json_t	*v, *a;
	const char	*kind, *from, *subject, *date, *id, *irt, *body;
	const char	*file, *type, *name, *slash;
	char		*bnd, *sub, *data, *ty;
	size_t		 i, len, total = 0;
	int		 fd, k;
	bool		 ok = false;

	if (!json_is_object(d)) {
		say(w, "not a JSON object");
		return false;
	}
	if ((kind = str_member(d, "kind", true, w)) == NULL)
		return false;
	for (k = 0; kinds[k] != NULL && strcmp(kinds[k], kind) != 0; k++)
		continue;
	if (kinds[k] == NULL) {
		say(w, "\"kind\" is not one of ack, turn, preview, aside, "
		    "redo, open");
		return false;
	}
	if ((from = str_member(d, "from", true, w)) == NULL ||
	    (subject = str_member(d, "subject", true, w)) == NULL ||
	    (date = str_member(d, "date", true, w)) == NULL ||
	    (id = str_member(d, "message_id", true, w)) == NULL ||
	    (body = str_member(d, "body", true, w)) == NULL)
		return false;
	irt = str_member(d, "in_reply_to", false, w);
	if (irt == NULL && json_object_get(d, "in_reply_to") != NULL)
		return false;
	if (!field_ok(subject, "the subject", w) ||
	    !msgid_ok(id, "the message_id", w) ||
	    (irt != NULL && !msgid_ok(irt, "the in_reply_to", w)) ||
	    !field_ok(date, "the date", w))
		return false;
	if (!g_utf8_validate(body, -1, NULL)) {
		say(w, "the body is not UTF-8");
		return false;
	}
	if ((dt = g_date_time_new_from_iso8601(date, NULL)) == NULL) {
		say(w, "the date is not an ISO 8601 time with its zone: %s",
		    date);
		return false;
	}
	v = json_object_get(d, "to");
	if (!json_is_array(v) || json_array_size(v) == 0) {
		say(w, "\"to\" is not a list of addresses");
		goto done;
	}

	msg = g_mime_message_new(TRUE);
	if (!add_addresses(g_mime_message_get_from(msg), from, "the from",
	    w))
		goto done;
	json_array_foreach(v, i, a) {
		if (!json_is_string(a)) {
			say(w, "\"to\" has a member that is not a string");
			goto done;
		}
		if (!add_addresses(g_mime_message_get_addresses(msg,
		    GMIME_ADDRESS_TYPE_TO), json_string_value(a), "a to", w))
			goto done;
	}
	g_mime_message_set_subject(msg, subject, "utf-8");
	g_mime_message_set_date(msg, dt);
	sub = g_strndup(id + 1, strlen(id) - 2);
	g_mime_message_set_message_id(msg, sub);
	g_free(sub);
	if (irt != NULL) {
		g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To",
		    irt, NULL);
		g_mime_object_set_header(GMIME_OBJECT(msg), "References",
		    irt, NULL);
	}
	/* Made by a program (RFC 3834): a mail system and an autoresponder
	 * answer nothing, and the game's receive files it aside unanswered
	 * should it come back (the umpire's address takes the game's mail
	 * in and gets its summaries). */
	g_mime_object_set_header(GMIME_OBJECT(msg), "Auto-Submitted",
	    "auto-generated", NULL);

	mp = g_mime_multipart_new_with_subtype("mixed");
	bnd = boundary_for(id, body);
	g_mime_multipart_set_boundary(mp, bnd);
	g_free(bnd);
	/* The body's UTF-8 bytes as they are (g_mime_text_part_set_text()
	 * would convert them to the smallest charset that holds them). */
	text = g_mime_text_part_new_with_subtype("plain");
	g_mime_object_set_content_type_parameter(GMIME_OBJECT(text),
	    "charset", "utf-8");
	st = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	dw = g_mime_data_wrapper_new_with_stream(st,
	    GMIME_CONTENT_ENCODING_DEFAULT);
	g_object_unref(st);
	g_mime_part_set_content(GMIME_PART(text), dw);
	g_object_unref(dw);
	/* A line that begins "From " would be quoted by an mbox on the
	 * way (">From "), which quoted-printable does not prevent: such a
	 * body goes in base64. */
	if (strncmp(body, "From ", 5) == 0 || strstr(body, "\nFrom ") != NULL)
		g_mime_part_set_content_encoding(GMIME_PART(text),
		    GMIME_CONTENT_ENCODING_BASE64);
	else
		g_mime_part_set_content_encoding(GMIME_PART(text),
		    g_mime_part_get_best_content_encoding(GMIME_PART(text),
		    GMIME_ENCODING_CONSTRAINT_7BIT));
	g_mime_multipart_add(mp, GMIME_OBJECT(text));
	g_object_unref(text);

	v = json_object_get(d, "attach");
	if (v != NULL && (!json_is_array(v) ||
	    json_array_size(v) > ATTACH_COUNT)) {
		say(w, "\"attach\" is not a list of at most %d attachments",
		    ATTACH_COUNT);
		goto done;
	}
	json_array_foreach(v, i, a) {
		if (!json_is_object(a)) {
			say(w, "\"attach\" has a member that is not an "
			    "object");
			goto done;
		}
		if ((file = str_member(a, "file", true, w)) == NULL ||
		    (type = str_member(a, "type", true, w)) == NULL)
			goto done;
		name = str_member(a, "name", false, w);
		if (name == NULL && json_object_get(a, "name") != NULL)
			goto done;
		if (name == NULL)
			name = (slash = strrchr(file, '/')) != NULL ?
			    slash + 1 : file;
		if (!field_ok(file, "an attachment's file", w) ||
		    !field_ok(type, "an attachment's type", w) ||
		    !field_ok(name, "an attachment's name", w))
			goto done;
		if (name[0] == '\0' || strchr(name, '/') != NULL ||
		    strchr(name, '\\') != NULL) {
			say(w, "attachment %s: the name \"%s\" is empty or "
			    "has a slash", file, name);
			goto done;
		}
		slash = strchr(type, '/');
		if (slash == NULL || slash == type || slash[1] == '\0' ||
		    strcspn(type, " ;\"()<>@,:\\[]?=") != strlen(type) ||
		    strchr(slash + 1, '/') != NULL) {
			say(w, "attachment %s: the type \"%s\" is not "
			    "TYPE/SUBTYPE", file, type);
			goto done;
		}
		if ((fd = open_beneath(dfd, file, w)) == -1)
			goto done;
		data = read_fd(fd, ATTACH_MAX - (long)total, &len, file, w);
		close(fd);
		if (data == NULL) {
			if (strstr(w->s, "too large") != NULL)
				say(w, "attachment %s is too large: a "
				    "message's attachments come to at most "
				    "%ld MiB", file, ATTACH_MAX >> 20);
			goto done;
		}
		total += len;
		ty = g_strndup(type, (gsize)(slash - type));
		part = g_mime_part_new_with_type(ty, slash + 1);
		g_free(ty);
		st = g_mime_stream_mem_new_with_buffer(data, len);
		free(data);
		dw = g_mime_data_wrapper_new_with_stream(st,
		    GMIME_CONTENT_ENCODING_DEFAULT);
		g_object_unref(st);
		g_mime_part_set_content(part, dw);
		g_object_unref(dw);
		g_mime_object_set_disposition(GMIME_OBJECT(part),
		    "attachment");
		g_mime_part_set_filename(part, name);
		g_mime_part_set_content_encoding(part,
		    GMIME_CONTENT_ENCODING_BASE64);
		g_mime_multipart_add(mp, GMIME_OBJECT(part));
		g_object_unref(part);
	}
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(mp));

	st = g_mime_stream_mem_new();
	g_mime_stream_mem_set_owner(GMIME_STREAM_MEM(st), FALSE);
	g_mime_object_write_to_stream(GMIME_OBJECT(msg), NULL, st);
	*out = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(st));
	g_object_unref(st);
	ok = true;
done:
	if (mp != NULL)
		g_object_unref(mp);
	if (msg != NULL)
		g_object_unref(msg);
	g_date_time_unref(dt);
	return ok;
}

/* Milliseconds on the monotonic clock. */
static long long
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Keeps the last ERR_KEEP bytes of what the command wrote on its
 * standard error. */
static void
keep(char *err, size_t *nerr, const char *s, size_t n)
{
	if (n >= ERR_KEEP) {
		memcpy(err, s + n - ERR_KEEP, ERR_KEEP);
		*nerr = ERR_KEEP;
		return;
	}
	if (*nerr + n > ERR_KEEP) {
		memmove(err, err + (*nerr + n - ERR_KEEP), ERR_KEEP - n);
		*nerr = ERR_KEEP - n;
	}
	memcpy(err + *nerr, s, n);
	*nerr += n;
}

/*
 * Pipes the message to cmd (/bin/sh -c cmd, in a process group of its
 * own): 0 when it exited 0 having read the whole message, else -1 with w
 * saying why (its exit status, or that it took more than timeout
 * seconds and was killed with its children, and the end of its
 * standard error).
 */
static int
pipe_to(const char *cmd, const unsigned char *m, size_t len, long timeout,
    struct why *w)
{
	struct sigaction sa, old;
	struct pollfd	 pf[2];
	char		 err[ERR_KEEP + 1], tmp[4096];
	long long	 end, left;
	size_t		 done = 0, nerr = 0;
	ssize_t		 r;
	pid_t		 pid;
	int		 in[2], ep[2], st = 0, np, i;
	bool		 broken = false, exited = false, late = false;

	if (pipe(in) == -1)
		goto sys;
	if (pipe(ep) == -1) {
		close(in[0]);
		close(in[1]);
		goto sys;
	}
	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) == -1) {
		close(in[0]);
		close(in[1]);
		close(ep[0]);
		close(ep[1]);
		goto sys;
	}
	if (pid == 0) {
		/* Its output goes to our standard error, with its own. */
		setpgid(0, 0);
		if (dup2(in[0], 0) == -1 || dup2(2, 1) == -1 ||
		    dup2(ep[1], 2) == -1)
			_exit(127);
		close(in[0]);
		close(in[1]);
		close(ep[0]);
		close(ep[1]);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);	/* whichever of the two comes first */
	close(in[0]);
	close(ep[1]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old);
	fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
	fcntl(ep[0], F_SETFL, fcntl(ep[0], F_GETFL) | O_NONBLOCK);
	if (len == 0) {
		close(in[1]);
		in[1] = -1;
	}
	end = now_ms() + (long long)timeout * 1000;
	for (;;) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			/* What it left on its standard error is read, and
			 * nothing more waited for: a child of it may hold
			 * the pipe. */
			exited = true;
			while (ep[0] != -1 &&
			    (r = read(ep[0], tmp, sizeof(tmp))) > 0)
				keep(err, &nerr, tmp, (size_t)r);
			break;
		}
		if ((left = end - now_ms()) <= 0) {
			late = true;
			break;
		}
		np = 0;
		if (in[1] != -1) {
			pf[np].fd = in[1];
			pf[np++].events = POLLOUT;
		}
		if (ep[0] != -1) {
			pf[np].fd = ep[0];
			pf[np++].events = POLLIN;
		}
		/* A tenth of a second at most, to see it exit. */
		if (poll(np > 0 ? pf : NULL, (nfds_t)np,
		    left < 100 ? (int)left : 100) <= 0)
			continue;
		for (i = 0; i < np; i++) {
			if (pf[i].revents == 0)
				continue;
			if (pf[i].fd == in[1]) {
				r = write(in[1], m + done, len - done >
				    65536 ? 65536 : len - done);
				if (r > 0)
					done += (size_t)r;
				if ((r == -1 && errno != EAGAIN &&
				    errno != EINTR) || done == len) {
					close(in[1]);
					in[1] = -1;
				}
			} else {
				r = read(ep[0], tmp, sizeof(tmp));
				if (r > 0)
					keep(err, &nerr, tmp, (size_t)r);
				else if (r == 0 || (errno != EINTR &&
				    errno != EAGAIN)) {
					close(ep[0]);
					ep[0] = -1;
				}
			}
		}
	}
	broken = done < len;
	if (in[1] != -1)
		close(in[1]);
	if (late) {
		/* Asked to stop, then stopped, with its children. */
		kill(-pid, SIGTERM);
		for (i = 0; i < 20 && !exited; i++) {
			if (waitpid(pid, &st, WNOHANG) == pid)
				exited = true;
			else
				poll(NULL, 0, 100);
		}
		kill(-pid, SIGKILL);
	}
	if (ep[0] != -1)
		close(ep[0]);
	while (!exited && waitpid(pid, &st, 0) == -1)
		if (errno != EINTR) {
			sigaction(SIGPIPE, &old, NULL);
			goto sys;
		}
	sigaction(SIGPIPE, &old, NULL);
	err[nerr] = '\0';
	/* The end of its standard error on one line, without control
	 * characters. */
	while (nerr > 0 && (err[nerr - 1] == '\n' || err[nerr - 1] == ' '))
		err[--nerr] = '\0';
	for (i = 0; (size_t)i < nerr; i++)
		if ((unsigned char)err[i] < 0x20 || err[i] == 0x7f)
			err[i] = ' ';
	if (late)
		send_late = true;
	if (late)
		say(w, "the command took more than %ld s (the game's "
		    "send_timeout) and was stopped%s%s", timeout,
		    nerr > 0 ? ": " : "", err);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && !broken)
		return 0;
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		say(w, "the command exited 0 before it read the whole "
		    "message (%zu of %zu bytes)%s%s", done, len,
		    nerr > 0 ? ": " : "", err);
	else if (WIFEXITED(st))
		say(w, "the command exited with status %d%s%s",
		    WEXITSTATUS(st), nerr > 0 ? ": " : " (nothing on its "
		    "standard error)", err);
	else
		say(w, "the command was killed by signal %d%s%s",
		    WIFSIGNALED(st) ? WTERMSIG(st) : 0, nerr > 0 ? ": " : "",
		    err);
	return -1;
sys:
	say(w, "cannot run the command: %s", strerror(errno));
	return -1;
}

/* Writes m as sent/NAME in the folder sfd, whole or not at all: 0, or
 * -1 with w set. */
static int
file_sent(int sfd, const char *name, const unsigned char *m, size_t len,
    struct why *w)
{
	char	 tmp[NAME_MAX + 16];
	size_t	 done = 0;
	ssize_t	 r;
	int	 fd;

	snprintf(tmp, sizeof(tmp), ".%s.tmp", name);
	unlinkat(sfd, tmp, 0);
	if ((fd = openat(sfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
	    O_CLOEXEC, 0600)) == -1)
		goto fail;
	while (done < len) {
		r = write(fd, m + done, len - done);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			close(fd);
			goto fail_unlink;
		}
		done += (size_t)r;
	}
	if (fsync(fd) == -1) {
		close(fd);
		goto fail_unlink;
	}
	if (close(fd) == -1)
		goto fail_unlink;
	if (renameat(sfd, tmp, sfd, name) == -1)
		goto fail_unlink;
	if (fsync(sfd) == -1)
		goto fail;
	return 0;
fail_unlink:
	say(w, "cannot write sent/%s: %s", name, strerror(errno));
	unlinkat(sfd, tmp, 0);
	return -1;
fail:
	say(w, "cannot write sent/%s: %s", name, strerror(errno));
	return -1;
}

/* Is sent/name already there with these bytes (1), other bytes (-1), or
 * not there (0)? */
static int
already_sent(int sfd, const char *name, const unsigned char *m, size_t len)
{
	struct why	 w;
	char		*p;
	size_t		 n;
	int		 fd, same;

	if ((fd = openat(sfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) == -1)
		return errno == ENOENT ? 0 : -1;
	p = read_fd(fd, LONG_MAX / 2, &n, name, &w);
	close(fd);
	if (p == NULL)
		return -1;
	same = n == len && memcmp(p, m, n) == 0;
	free(p);
	return same ? 1 : -1;
}

/* An outbox name: six to twenty digits, ".json". */
static bool
queued_name(const char *s)
{
	size_t	 n = strspn(s, "0123456789");

	return n >= 6 && n <= 20 && strcmp(s + n, ".json") == 0;
}

static int
by_number(const void *a, const void *b)
{
	const char	*x = *(const char *const *)a;
	const char	*y = *(const char *const *)b;
	size_t		 nx = strlen(x), ny = strlen(y);

	return nx != ny ? (nx < ny ? -1 : 1) : strcmp(x, y);
}

/* The outbox's descriptions in queue order (NULL-terminated; *n of
 * them), or NULL after a message with *rc set. */
static char **
list_outbox(int ofd, size_t *n, int *rc)
{
	DIR		*d;
	struct dirent	*e;
	char		**v = NULL, **nv;
	size_t		 cap = 0;
	int		 fd;

	*n = 0;
	if ((fd = dup(ofd)) == -1 || (d = fdopendir(fd)) == NULL) {
		fprintf(stderr, "%s: outbox: %s\n", me, strerror(errno));
		*rc = EXIT_NOINPUT;
		return NULL;
	}
	while ((e = readdir(d)) != NULL) {
		if (!queued_name(e->d_name))
			continue;
		if (*n + 2 > cap) {
			cap = cap > 0 ? cap * 2 : 16;
			if ((nv = realloc(v, cap * sizeof(*v))) == NULL)
				goto nomem;
			v = nv;
		}
		if ((v[*n] = strdup(e->d_name)) == NULL)
			goto nomem;
		(*n)++;
	}
	closedir(d);
	if (v == NULL && (v = calloc(1, sizeof(*v))) == NULL) {
		*rc = nomem();
		return NULL;
	}
	qsort(v, *n, sizeof(*v), by_number);
	v[*n] = NULL;
	return v;
nomem:
	closedir(d);
	while (*n > 0)
		free(v[--*n]);
	free(v);
	*rc = nomem();
	return NULL;
}

/* The game's send_command (game.json), or NULL after a message with *rc
 * set; free it.  Its send_timeout in *timeout. */
static char *
send_command(int dfd, const char *dir, long *timeout, int *rc)
{
	struct why	 w;
	json_error_t	 je;
	json_t		*g;
	const json_t	*c;
	char		*text, *cmd = NULL;
	size_t		 len;
	int		 fd;

	if ((fd = openat(dfd, "game.json", O_RDONLY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1) {
		fprintf(stderr, "%s: %s/game.json: %s (not a game folder: "
		    "see arbiter game new)\n", me, dir, strerror(errno));
		*rc = EXIT_NOINPUT;
		return NULL;
	}
	text = read_fd(fd, DESC_MAX, &len, "game.json", &w);
	close(fd);
	if (text == NULL) {
		fprintf(stderr, "%s: %s/%s\n", me, dir, w.s);
		*rc = EXIT_NOINPUT;
		return NULL;
	}
	g = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (g == NULL) {
		fprintf(stderr, "%s: %s/game.json:%d:%d: %s\n", me, dir,
		    je.line, je.column, je.text);
		*rc = EXIT_DATA;
		return NULL;
	}
	c = json_object_get(g, "send_timeout");
	*timeout = SEND_TIMEOUT;
	if (c != NULL && (!json_is_integer(c) || json_integer_value(c) < 1 ||
	    json_integer_value(c) > 86400)) {
		fprintf(stderr, "%s: %s/game.json: \"send_timeout\" is not a "
		    "number of seconds from 1 to 86400\n", me, dir);
		json_decref(g);
		*rc = EXIT_DATA;
		return NULL;
	}
	if (c != NULL)
		*timeout = (long)json_integer_value(c);
	c = json_object_get(g, "send_command");
	if (c == NULL)
		cmd = strdup("sendmail -t -i");
	else if (json_is_string(c) && json_string_length(c) > 0 &&
	    strlen(json_string_value(c)) == json_string_length(c))
		cmd = strdup(json_string_value(c));
	else {
		fprintf(stderr, "%s: %s/game.json: \"send_command\" is not a "
		    "command\n", me, dir);
		json_decref(g);
		*rc = EXIT_DATA;
		return NULL;
	}
	json_decref(g);
	if (cmd == NULL)
		*rc = nomem();
	return cmd;
}

/* Opens (making it if need be) the folder name under dfd: its
 * descriptor, or -1 after a message. */
static int
open_sub(int dfd, const char *dir, const char *name, bool make)
{
	int	 fd;

	if (make && mkdirat(dfd, name, 0755) == -1 && errno != EEXIST) {
		fprintf(stderr, "%s: %s/%s: %s\n", me, dir, name,
		    strerror(errno));
		return -1;
	}
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC);
	if (fd == -1 && (make || errno != ENOENT))
		fprintf(stderr, "%s: %s/%s: %s\n", me, dir, name,
		    strerror(errno));
	return fd;
}

/* Sends one description, outbox/NAME: 0 (sent, or found sent already),
 * or the exit status it calls for after a message. */
static int
send_one(int dfd, int ofd, int sfd, const char *dir, const char *cmd,
    long timeout, const char *name)
{
	struct why	 w;
	json_error_t	 je;
	json_t		*d;
	GByteArray	*m = NULL;
	char		 eml[NAME_MAX + 1], *text;
	const char	*subject;
	size_t		 len;
	int		 fd, rc = 0;

	snprintf(eml, sizeof(eml), "%.*s.eml", (int)(strlen(name) - 5),
	    name);
	if ((fd = openat(ofd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
	    O_NONBLOCK)) == -1) {
		fprintf(stderr, "%s: %s/outbox/%s: refused, left queued: "
		    "%s\n", me, dir, name, strerror(errno));
		return EXIT_DATA;
	}
	text = read_fd(fd, DESC_MAX, &len, name, &w);
	close(fd);
	if (text == NULL) {
		fprintf(stderr, "%s: %s/outbox/%s: refused, left queued: "
		    "%s\n", me, dir, name, w.s);
		return EXIT_DATA;
	}
	d = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	free(text);
	if (d == NULL) {
		fprintf(stderr, "%s: %s/outbox/%s:%d:%d: refused, left "
		    "queued: %s\n", me, dir, name, je.line, je.column,
		    je.text);
		return EXIT_DATA;
	}
	if (!render(dfd, d, &m, &w)) {
		fprintf(stderr, "%s: %s/outbox/%s: refused, left queued: "
		    "%s\n", me, dir, name, w.s);
		json_decref(d);
		return EXIT_DATA;
	}
	subject = json_string_value(json_object_get(d, "subject"));
	switch (already_sent(sfd, eml, m->data, m->len)) {
	case 1:
		/* Sent, filed, and the description not yet removed (a
		 * kill in between): not sent twice. */
		printf("%s: %s already in sent/: not sent again\n", name,
		    eml);
		break;
	case -1:
		fprintf(stderr, "%s: %s/outbox/%s: refused, left queued: "
		    "sent/%s is there with other bytes\n", me, dir, name,
		    eml);
		rc = EXIT_DATA;
		break;
	default:
		if (pipe_to(cmd, m->data, m->len, timeout, &w) == -1) {
			fprintf(stderr, "%s: %s/outbox/%s: not sent, left "
			    "queued: %s\n", me, dir, name, w.s);
			rc = EXIT_ILLEGAL;
			break;
		}
		if (file_sent(sfd, eml, m->data, m->len, &w) == -1) {
			fprintf(stderr, "%s: %s/outbox/%s: sent, but %s; "
			    "left queued\n", me, dir, name, w.s);
			rc = EXIT_CANTCREAT;
			break;
		}
		printf("%s: sent (%u bytes): %s\n", name, m->len, subject);
	}
	if (rc == 0 && (unlinkat(ofd, name, 0) == -1 || fsync(ofd) == -1)) {
		fprintf(stderr, "%s: %s/outbox/%s: sent and filed, but not "
		    "removed: %s\n", me, dir, name, strerror(errno));
		rc = EXIT_CANTCREAT;
	}
	g_byte_array_unref(m);
	json_decref(d);
	return rc;
}

int
game_send(int argc, char **argv)
{
	const char	*dir;
	char		**q, *cmd;
	size_t		 n, i;
	long		 timeout;
	int		 dfd, ofd, sfd = -1, rc = 0, r, cwd;
	int		 nsent = 0, nfail = 0, nbad = 0, nio = 0;

	if (argc == 2 && (strcmp(argv[1], "-h") == 0 ||
	    strcmp(argv[1], "--help") == 0)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc != 2 || argv[1][0] == '-') {
		usage(stderr);
		return EXIT_USAGE;
	}
	dir = argv[1];
	if ((dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		fprintf(stderr, "%s: %s: %s\n", me, dir, strerror(errno));
		return EXIT_NOINPUT;
	}
	if ((cmd = send_command(dfd, dir, &timeout, &rc)) == NULL) {
		close(dfd);
		return rc;
	}
	/* The folder's lock, as every command takes it (gamefs.c): a
	 * command interrupted after its commit is finished first, so that
	 * its mails' attachments are in place. */
	if ((cwd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1 ||
	    fchdir(dfd) != 0) {
		fprintf(stderr, "%s: %s: %s\n", me, dir, strerror(errno));
		free(cmd);
		close(dfd);
		if (cwd != -1)
			close(cwd);
		return EXIT_NOINPUT;
	}
	rc = lock_dir(false);
	/* The send command runs where send was called (its relative names
	 * are the umpire's); the lock stays held. */
	if (fchdir(cwd) != 0 && rc == 0) {
		fprintf(stderr, "%s: %s\n", me, strerror(errno));
		rc = EXIT_NOINPUT;
	}
	close(cwd);
	if (rc != 0) {
		free(cmd);
		close(dfd);
		return rc;
	}
	q = NULL;
	n = 0;
	if ((ofd = open_sub(dfd, dir, "outbox", false)) == -1) {
		if (errno != ENOENT)
			rc = EXIT_NOINPUT;
	} else if ((q = list_outbox(ofd, &n, &rc)) != NULL && n > 0 &&
	    (sfd = open_sub(dfd, dir, "sent", true)) == -1)
		rc = EXIT_CANTCREAT;
	if (rc == 0 && n == 0)
		printf("%s: the outbox is empty: nothing to send\n", dir);
	if (rc == 0) {
		g_mime_init();
		for (i = 0; i < n && !send_late; i++) {
			r = send_one(dfd, ofd, sfd, dir, cmd, timeout, q[i]);
			if (r == 0)
				nsent++;
			else if (r == EXIT_ILLEGAL)
				nfail++;
			else if (r == EXIT_DATA)
				nbad++;
			else
				nio++;
		}
		if (send_late && i < n)
			fprintf(stderr, "%s: %s: the send command was stopped "
			    "for its time: the rest of the outbox (%zu) stays "
			    "queued, for the next send\n", me, dir, n - i);
		if (n > 0)
			printf("%s: %d sent, %d failed, %d refused; %zu left "
			    "in the outbox\n", dir, nsent, nfail + nio, nbad,
			    n - (size_t)nsent);
		rc = nio > 0 ? EXIT_CANTCREAT : nbad > 0 ? EXIT_DATA :
		    nfail > 0 ? EXIT_ILLEGAL : EXIT_OK;
	}
	for (i = 0; q != NULL && i < n; i++)
		free(q[i]);
	free(q);
	free(cmd);
	if (sfd != -1)
		close(sfd);
	if (ofd != -1)
		close(ofd);
	close(dfd);
	if (fflush(stdout) != 0 && rc == 0)
		rc = EXIT_CANTCREAT;
	return rc;
}
