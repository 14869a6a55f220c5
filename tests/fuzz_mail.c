/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The fuzz target for the mail reader (lib/format/mail.c, issue 27).  The
 * input is a mail.  Besides a clean run under ASan and UBSan (and
 * libFuzzer's -rss_limit_mb), it checks that (a) mail_read() says what
 * it found: a part whose text is valid UTF-8 without a CR before a LF,
 * or a refusal with one of the mail's reasons and a message; (b) the
 * same bytes read again give the same answer; (c) the mail as the
 * orders file of a small aeonis map (named .eml, so it is always read as
 * a mail) is adjudicated without an internal error, its file entry
 * recording the mail, and every problem placed (line and column >= 1).
 * A failed check prints "fuzz_mail: finding: ..." and calls abort().
 * Built by `make fuzz-mail` with clang -fsanitize=fuzzer, and replayed
 * by tests/fuzz_main.c in make check.
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char map[] =
    "{\"arbiter\": 1, \"ruleset\": \"aeonis\", \"turn\": 4,\n"
    " \"board\": {\"grid\": \"hex\", \"cols\": 6, \"rows\": 6},\n"
    " \"players\": {\"red\": {\"ap\": 9}, \"blue\": {\"ap\": 9}},\n"
    " \"units\": [\n"
    "  {\"id\": \"r1\", \"player\": \"red\", \"type\": \"cavalry\", "
    "\"at\": \"0101\"},\n"
    "  {\"id\": \"b1\", \"player\": \"blue\", \"type\": \"infantry\", "
    "\"at\": \"0403\"}]}\n";

static void
finding(const char *what)
{
	fprintf(stderr, "fuzz_mail: finding: %s\n", what);
	abort();
}

static int
utf8_ok(const unsigned char *s, size_t n)
{
	size_t	 i = 0, k, m;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		m = (s[i] & 0xe0) == 0xc0 ? 1 : (s[i] & 0xf0) == 0xe0 ? 2 :
		    (s[i] & 0xf8) == 0xf0 ? 3 : 0;
		if (m == 0 || n - i <= m)
			return 0;
		for (k = 1; k <= m; k++)
			if ((s[i + k] & 0xc0) != 0x80)
				return 0;
		i += m + 1;
	}
	return 1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*text = (const char *)data;
	struct mail	 m, m2;
	struct arb_turn	*t;
	struct arb_error e;
	char		*out = NULL;
	size_t		 outlen = 0, i;
	FILE		*fp;

	(void)mail_is("fuzz.txt", text, size);
	if (!mail_read(text, size, &m) || !mail_read(text, size, &m2))
		finding("mail_read ran out of memory");
	if (m.kind < 0 || m.kind > MAIL_JSON)
		finding("a kind that is none of the three");
	if (m.kind != 0) {
		if (!utf8_ok((const unsigned char *)m.text, m.len))
			finding("the part's text is not UTF-8");
		for (i = 0; i + 1 < m.len; i++)
			if (m.text[i] == '\r' && m.text[i + 1] == '\n')
				finding("a CRLF left in the part's text");
		if (m.part[0] == '\0')
			finding("a part taken without its content type");
	} else if ((m.reason != R_HTML_ONLY && m.reason != R_NO_ORDERS &&
	    m.reason != R_BAD_MAIL) || m.why[0] == '\0')
		finding("a refusal without its reason or message");
	if (m.kind != m2.kind || m.len != m2.len ||
	    memcmp(m.text, m2.text, m.len) != 0 ||
	    strcmp(m.message_id, m2.message_id) != 0 ||
	    strcmp(m.from, m2.from) != 0 || strcmp(m.date, m2.date) != 0)
		finding("the same mail read twice differs");
	mail_free(&m);
	mail_free(&m2);

	if ((t = arb_turn_new()) == NULL)
		return 0;
	if (arb_turn_load_map(t, "map", map, strlen(map), &e) != 0)
		finding("the built-in map does not load");
	if (arb_turn_load_orders(t, "red.eml", NULL, text, size, &e) != 0) {
		if (e.code == ARB_EINTERNAL)
			finding(e.text);
		goto out;
	}
	if (t->files.n != 1 || !t->files.v[0].mail)
		finding("the file's entry does not record the mail");
	for (i = 0; i < t->problems.n; i++)
		if (t->problems.v[i].line < 1 || t->problems.v[i].column < 1)
			finding("a problem without its place");
	if (arb_turn_run(t, ARB_TRACE, &e) != 0) {
		if (e.code == ARB_EINTERNAL)
			finding(e.text);
		goto out;
	}
	if ((fp = open_memstream(&out, &outlen)) != NULL) {
		if (arb_turn_write_result(t, ARB_RESULT_TRACE, fp, &e) != 0 &&
		    e.code == ARB_EINTERNAL)
			finding(e.text);
		fclose(fp);
		if (out != NULL && strstr(out, "\"mail\": {") == NULL)
			finding("the result does not record the mail");
		free(out);
	}
out:
	arb_turn_free(t);
	return 0;
}
