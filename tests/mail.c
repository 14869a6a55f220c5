/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The mail reader (lib/format/mail.c) at the unit level, built against
 * the sanitizers' library: for each mail given, what mail_read() takes
 * from it (the kind of the part, the part, the refusal, the header's
 * Message-ID, From and Date, and the part's text byte for byte) is
 * compared with NAME.expected beside NAME.eml, written by hand.  Then
 * mail_is() on files that are mails and files that are not.
 *
 *	tests/mail fixtures/mail/NAME.eml ...
 *	tests/mail -p FILE	prints what it takes from FILE
 *
 * Prints one TAP line per check and "mail: N passed, N failed".
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

static int	 pass, fail;

static void
report(int ok, const char *what, const char *detail)
{
	if (ok)
		pass++;
	else
		fail++;
	printf("%sok %d - %s\n", ok ? "" : "not ", pass + fail, what);
	if (!ok && detail != NULL)
		printf("#   %s\n", detail);
}

static char *
slurp(const char *path, size_t *len)
{
	FILE	*fp;
	char	*p = NULL;
	size_t	 cap = 0, n = 0, k;

	if ((fp = fopen(path, "rb")) == NULL)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 4096;
			if ((p = realloc(p, cap + 1)) == NULL)
				abort();
		}
		k = fread(p + n, 1, cap - n, fp);
		n += k;
	} while (k > 0);
	fclose(fp);
	p[n] = '\0';
	*len = n;
	return p;
}

static const char *const kinds[] = { "none", "text", "json" };

/* What the reader takes from the mail, as NAME.expected has it. */
static char *
describe(const char *name, const char *text, size_t len, size_t *outlen)
{
	struct mail	 m;
	char		*out = NULL;
	size_t		 n = 0;
	FILE		*fp;

	if ((fp = open_memstream(&out, &n)) == NULL)
		abort();
	fprintf(fp, "mail: %s\n", mail_is(name, text, len) ? "yes" : "no");
	if (!mail_read(text, len, &m))
		abort();
	fprintf(fp, "kind: %s\n", kinds[m.kind]);
	fprintf(fp, "part: %s\n", m.part);
	fprintf(fp, "reason: %s\n", m.kind == 0 ? reason_name(m.reason) :
	    "");
	fprintf(fp, "why: %s\n", m.why);
	fprintf(fp, "message_id: %s\n", m.message_id);
	fprintf(fp, "from: %s\n", m.from);
	fprintf(fp, "date: %s\n", m.date);
	fprintf(fp, "text:\n");
	fwrite(m.text, 1, m.len, fp);
	mail_free(&m);
	fclose(fp);
	*outlen = n;
	return out;
}

/* The first line where a and b differ. */
static char *
first_diff(const char *a, size_t na, const char *b, size_t nb)
{
	static char	 buf[400];
	size_t		 i, line = 1, s = 0;

	for (i = 0; i < na && i < nb && a[i] == b[i]; i++)
		if (a[i] == '\n') {
			line++;
			s = i + 1;
		}
	snprintf(buf, sizeof(buf), "line %zu: expected \"%.*s\", got \"%.*s\"",
	    line, (int)strcspn(b + s, "\n") > 80 ? 80 :
	    (int)strcspn(b + s, "\n"), b + s, (int)strcspn(a + s, "\n") > 80 ?
	    80 : (int)strcspn(a + s, "\n"), a + s);
	return buf;
}

static void
one(const char *path)
{
	char	*text, *want, *got, exp[4096], what[4200];
	size_t	 len, wlen, glen, k = strlen(path);

	if ((text = slurp(path, &len)) == NULL) {
		report(0, path, "cannot read it");
		return;
	}
	snprintf(exp, sizeof(exp), "%.*s.expected",
	    (int)(k > 4 && strcmp(path + k - 4, ".eml") == 0 ? k - 4 : k),
	    path);
	got = describe(path, text, len, &glen);
	snprintf(what, sizeof(what), "%s as %s", path, exp);
	if ((want = slurp(exp, &wlen)) == NULL)
		report(0, what, "no expected file");
	else
		report(glen == wlen && memcmp(got, want, glen) == 0, what,
		    first_diff(got, glen, want, wlen));
	free(want);
	free(got);
	free(text);
}

/* Files that are mails, and files that are not (mail_is()). */
static void
detection(void)
{
	static const struct {
		const char	*name, *text;
		int		 mail;
	} c[] = {
		{ "red.txt", "arbiter orders red turn 3\nr-inf-1 move 0304 "
		    "0404\nend\n", 0 },
		{ "red.json", "{ \"arbiter\": 1, \"player\": \"red\" }\n", 0 },
		{ "red.json", "\xef\xbb\xbf{\"orders\": []}", 0 },
		{ "red.txt", "Note: the cavalry goes first\n\narbiter orders "
		    "red turn 3\nend\n", 0 },
		{ "red.txt", "Subject: orders\narbiter orders red turn 3\n",
		    0 },
		{ "red.txt", "Subject orders\n\narbiter orders red turn 3\n",
		    0 },
		{ "red.txt", "", 0 },
		{ "red.txt", "Subject: orders\n\narbiter orders red turn 3\n",
		    1 },
		{ "red.txt", "Subject: orders\r\n\r\narbiter orders red turn "
		    "3\r\n", 1 },
		{ "red.txt", "From red@example.org Fri Nov 27 09:00:00 2026\n"
		    "From: red@example.org\nX-Mailer: a\n  folded\n\nbody\n",
		    1 },
		{ "red.txt", "\xef\xbb\xbf" "From: red@example.org\n\nbody\n",
		    1 },
		{ "red.EML", "anything at all", 1 },
	};
	char	 what[200];
	size_t	 i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(what, sizeof(what), "mail_is %zu: %s", i, c[i].mail ?
		    "a mail" : "not a mail");
		report(mail_is(c[i].name, c[i].text, strlen(c[i].text)) ==
		    (c[i].mail != 0), what, c[i].text);
	}
}

/* A nest of n multiparts, the orders in the innermost: read at most 32
 * deep (want 0), passed over deeper (1), refused as bad_mail past 1000
 * (2). */
static void
nest(int n, int want)
{
	struct mail	 m;
	char		*s, what[100];
	size_t		 len = 0, cap = (size_t)n * 64 + 256;
	int		 i;

	if ((s = malloc(cap)) == NULL)
		abort();
	len += (size_t)snprintf(s + len, cap - len, "From: a@b\nMIME-Version: "
	    "1.0\nContent-Type: multipart/mixed; boundary=b0\n\n");
	for (i = 0; i < n - 1; i++)
		len += (size_t)snprintf(s + len, cap - len, "--b%d\nContent-"
		    "Type: multipart/mixed; boundary=b%d\n\n", i, i + 1);
	len += (size_t)snprintf(s + len, cap - len, "--b%d\nContent-Type: "
	    "text/plain\n\narbiter orders red turn 4\nend\n", n - 1);
	if (!mail_read(s, len, &m))
		abort();
	snprintf(what, sizeof(what), "%d nested multiparts: %s", n,
	    want == 2 ? "refused, bad_mail" : want == 1 ? "passed over, "
	    "no_orders" : "the orders read");
	report(want == 2 ? m.kind == 0 && m.reason == R_BAD_MAIL :
	    want == 1 ? m.kind == 0 && m.reason == R_NO_ORDERS :
	    m.kind == MAIL_TEXT, what, m.why);
	mail_free(&m);
	free(s);
}

/* A multipart of n empty parts, its type written as ctype, the orders
 * in the last part: read (want 0), or refused as bad_mail past 10000
 * boundaries before GMime parses it (1). */
static void
parts(int n, const char *ctype, int want)
{
	struct mail	 m;
	char		*s, what[200];
	size_t		 len = 0, cap = (size_t)n * 8 + 512;
	int		 i;

	if ((s = malloc(cap)) == NULL)
		abort();
	len += (size_t)snprintf(s + len, cap - len, "From: a@b\nMIME-Version: "
	    "1.0\nContent-Type: %s; boundary=q\n\n", ctype);
	for (i = 0; i < n - 1; i++)
		len += (size_t)snprintf(s + len, cap - len, "--q\n");
	len += (size_t)snprintf(s + len, cap - len, "--q\nContent-Type: "
	    "text/plain\n\narbiter orders red turn 4\nend\n--q--\n");
	if (!mail_read(s, len, &m))
		abort();
	snprintf(what, sizeof(what), "%d parts, \"%s\": %s", n, ctype,
	    want == 1 ? "refused, bad_mail" : "the orders read");
	report(want == 1 ? m.kind == 0 && m.reason == R_BAD_MAIL :
	    m.kind == MAIL_TEXT, what, m.why);
	mail_free(&m);
	free(s);
}

int
main(int argc, char **argv)
{
	char	*text, *got;
	size_t	 len, glen;
	int	 i;

	if (argc == 3 && strcmp(argv[1], "-p") == 0) {
		if ((text = slurp(argv[2], &len)) == NULL)
			return 66;
		got = describe(argv[2], text, len, &glen);
		fwrite(got, 1, glen, stdout);
		free(got);
		free(text);
		return 0;
	}
	for (i = 1; i < argc; i++)
		one(argv[i]);
	detection();
	nest(31, 0);
	nest(33, 1);
	nest(1000, 1);
	nest(1001, 2);
	parts(2000, "multipart/mixed", 0);
	parts(200000, "multipart/mixed", 1);
	parts(200000, "multipart (x)/mixed", 1);
	parts(200000, "multipart\n /mixed", 1);
	printf("mail: %d passed, %d failed\n", pass, fail);
	return fail != 0;
}
