/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): an orders file that is a mail, as a mail
 * client saves it (arbiter-orders(5), MAIL).  GMime parses the message
 * (this is the only file that includes it); the part, in the message's
 * order and at any nesting, that holds orders is taken: a text/plain part
 * with the whole line "arbiter orders NAME turn N ...", or a JSON object
 * with "orders" (two such parts refuse the mail).  Its transfer encoding is undone by GMime, its charset
 * converted to UTF-8 (GMime's iconv names), format=flowed lines joined
 * (RFC 3676), and the text goes to the orders reader.  mail_read() knows
 * no turn and never jumps: everything it returns lives in one malloc'ed
 * block.  GMime's own allocations abort the process when memory runs out
 * (g_malloc); the input is bounded by --max-input (README, Limits).
 */
#include <errno.h>
#include <iconv.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/format.h"

/* After the model: GLib's headers bring unistd.h's R_OK, a macro that
 * would stand for the reason of that name. */
#include <gmime/gmime.h>

/* Parts nested deeper than this (multiparts, attached messages) are
 * passed over: the walk's recursion stays bounded. */
#define MAIL_DEPTH	32
/* A mail that names more multiparts and attached messages than this is
 * refused before GMime parses it: GMime takes some 35 microseconds a
 * level to parse a deep nest (40 s for 64 MiB of it), and no mail a
 * player writes comes near. */
#define MAIL_PARTS	1000
/* A mail with more lines that begin with "--" (every part's boundary is
 * one) than this is refused before GMime parses it: GMime keeps an
 * object of some 1.3 KB a part, and a part can be 5 bytes ("--q" and a
 * blank line), so the parts, not the bytes, would bound its memory. */
#define MAIL_BOUNDARIES	10000

static pthread_once_t	 once = PTHREAD_ONCE_INIT;

static void
init(void)
{
	g_mime_init();
}

/* A growing buffer of malloc'ed bytes; ok turns false when memory runs
 * out, and everything after is dropped. */
struct buf {
	char	*p;
	size_t	 n, cap;
	bool	 ok;
};

static void
put(struct buf *b, const void *s, size_t n)
{
	char	*np;
	size_t	 cap;

	if (!b->ok || n == 0)	/* s may be NULL then */
		return;
	if (n > b->cap - b->n) {
		cap = b->cap > 0 ? b->cap : 256;
		while (cap - b->n < n) {
			if (cap > SIZE_MAX / 2) {
				b->ok = false;
				return;
			}
			cap *= 2;
		}
		if ((np = realloc(b->p, cap)) == NULL) {
			b->ok = false;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
}

static bool
is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' ||
	    c == '\v';
}

/* A field name (RFC 5322: printable ASCII but ':'; here letters, digits
 * and '-', starting with a letter) and its colon at s: its length. */
static size_t
field_name(const char *s, size_t len)
{
	size_t	 i;

	if (len == 0 || !((s[0] >= 'A' && s[0] <= 'Z') ||
	    (s[0] >= 'a' && s[0] <= 'z')))
		return 0;
	for (i = 1; i < len && i < 80; i++) {
		if (s[i] == ':')
			return i;
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return 0;
	}
	return 0;
}

/* The fields one of which a mail's header has. */
static const char *const mail_fields[] = {
	"From", "To", "Cc", "Subject", "Date", "Message-ID", "MIME-Version",
	"Content-Type", "Received", "Return-Path", "Sender", "Reply-To",
	"Delivered-To", NULL
};

/*
 * Whether the file is a mail: its name ends in ".eml", or it starts with
 * a header (after a UTF-8 byte-order mark and an mbox "From " line):
 * lines that are each a field ("Name: value") or the folded rest of one,
 * ended by a blank line, with one of the fields every mail has.  An
 * orders text ("arbiter orders ...") and JSON never start so.
 */
bool
mail_is(const char *name, const char *text, size_t len)
{
	const char	*e, *end = text + len;
	size_t		 n, k, nl;
	bool		 known = false;

	n = name != NULL ? strlen(name) : 0;
	if (n >= 4 && g_ascii_strcasecmp(name + n - 4, ".eml") == 0)
		return true;
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		text += 3;
	if (end - text >= 5 && memcmp(text, "From ", 5) == 0) {
		if ((e = memchr(text, '\n', (size_t)(end - text))) == NULL)
			return false;
		text = e + 1;
	}
	if (field_name(text, (size_t)(end - text)) == 0)
		return false;
	for (nl = 0; text < end; text = e + 1, nl++) {
		if ((e = memchr(text, '\n', (size_t)(end - text))) == NULL)
			e = end;
		if (e == text || (e == text + 1 && text[0] == '\r'))
			return known;		/* the blank line */
		if (text[0] == ' ' || text[0] == '\t')
			continue;		/* folded */
		if ((n = field_name(text, (size_t)(e - text))) == 0)
			return false;
		for (k = 0; !known && mail_fields[k] != NULL; k++)
			known = strlen(mail_fields[k]) == n &&
			    g_ascii_strncasecmp(text, mail_fields[k], n) == 0;
		if (e == end)
			break;
	}
	return false;		/* no blank line: no body */
}

/* The length of the Unicode space (as the text form reads one) at s, or
 * 0: ASCII blanks, U+00A0, U+2000 to U+200A, U+202F, U+205F, U+3000. */
static size_t
uspace(const unsigned char *s, const unsigned char *end)
{
	if (s < end && (*s == ' ' || *s == '\t'))
		return 1;
	if (end - s >= 2 && s[0] == 0xc2 && s[1] == 0xa0)
		return 2;
	if (end - s >= 3 && s[0] == 0xe2 && ((s[1] == 0x80 &&
	    (s[2] <= 0x8a || s[2] == 0xaf)) || (s[1] == 0x81 &&
	    s[2] == 0x9f)))
		return 3;
	if (end - s >= 3 && s[0] == 0xe3 && s[1] == 0x80 && s[2] == 0x80)
		return 3;
	return 0;
}

/* The word w (lower case) at *s, case-insensitively, followed by a space
 * or the end of the line: *s moved past it. */
static bool
word(const unsigned char **s, const unsigned char *end, const char *w)
{
	size_t	 n = strlen(w), i;

	if ((size_t)(end - *s) < n)
		return false;
	for (i = 0; i < n; i++)
		if (((*s)[i] | 0x20) != w[i])
			return false;
	if (*s + n < end && uspace(*s + n, end) == 0 && (*s)[n] != '\r')
		return false;
	*s += n;
	return true;
}

/* Spaces at *s: *s moved past them; whether there were any. */
static bool
spaces(const unsigned char **s, const unsigned char *end)
{
	const unsigned char	*b = *s;
	size_t			 k;

	while ((k = uspace(*s, end)) > 0)
		*s += k;
	return *s > b;
}

/* A word at *s (a name, or a quoted one): *s moved past it. */
static bool
name(const unsigned char **s, const unsigned char *end)
{
	const unsigned char	*p = *s;

	if (p < end && *p == '"') {
		for (p++; p < end && *p != '"'; p++)
			;
		if (p == end)
			return false;
		*s = p + 1;
		return true;
	}
	if (end - p >= 3 && memcmp(p, "\xe2\x80\x9c", 3) == 0) {
		for (p += 3; end - p >= 3 && memcmp(p, "\xe2\x80\x9d", 3) != 0;
		    p++)
			;
		if (end - p < 3)
			return false;
		*s = p + 3;
		return true;
	}
	while (p < end && uspace(p, end) == 0 && *p != '\r' && *p != '#')
		p++;
	if (p == *s)
		return false;
	*s = p;
	return true;
}

/*
 * Whether a line of the text is, whole, the text form's header:
 * "arbiter orders NAME turn N [map HASH]" (case ignored, Unicode spaces
 * as spaces, N digits), perhaps with a comment ("# ...") after it.  A
 * sentence ("Arbiter orders for turn 3 attached.") is not.
 */
static bool
has_header(const char *text, size_t len)
{
	const unsigned char	*s = (const unsigned char *)text;
	const unsigned char	*end = s + len, *e, *d;

	for (; s < end; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			e = end;
		spaces(&s, e);
		if (!word(&s, e, "arbiter") || !spaces(&s, e) ||
		    !word(&s, e, "orders") || !spaces(&s, e) ||
		    !name(&s, e) || !spaces(&s, e) ||
		    !word(&s, e, "turn") || !spaces(&s, e))
			continue;
		for (d = s; s < e && *s >= '0' && *s <= '9'; s++)
			;
		if (s == d || (s < e && uspace(s, e) == 0 && *s != '\r' &&
		    *s != '#'))
			continue;
		spaces(&s, e);
		if (word(&s, e, "map") && (!spaces(&s, e) || !name(&s, e)))
			continue;
		spaces(&s, e);
		if (s == e || *s == '#' || (*s == '\r' && s + 1 == e))
			return true;
	}
	return false;
}

/* Whether the text is a JSON object with a member "orders" (read only
 * as far as that: a broken one is still taken, and refused with its
 * place by the JSON reader). */
static bool
has_json_orders(const char *text, size_t len)
{
	const char	*s = text, *end = text + len, *k;
	int		 depth = 0;

	if (len >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0)
		s += 3;
	while (s < end && is_space((unsigned char)*s))
		s++;
	if (s == end || *s != '{')
		return false;
	for (; s < end; s++) {
		switch (*s) {
		case '{':
		case '[':
			depth++;
			break;
		case '}':
		case ']':
			if (--depth <= 0)
				return false;
			break;
		case '"':
			k = ++s;
			while (s < end && *s != '"')
				s += *s == '\\' ? 2 : 1;
			if (s >= end)
				return false;
			if (depth != 1 || s - k != 6 ||
			    memcmp(k, "orders", 6) != 0)
				break;
			k = s + 1;
			while (k < end && is_space((unsigned char)*k))
				k++;
			if (k < end && *k == ':')
				return true;
			break;
		}
	}
	return false;
}

static bool
valid_utf8(const unsigned char *s, size_t len)
{
	size_t		 i = 0;
	unsigned long	 c;
	int		 n;

	while (i < len) {
		if ((n = utf8_char(s + i, len - i, &c)) == 0)
			return false;
		i += (size_t)n;
	}
	return true;
}

/* Whether the text has a byte past ASCII. */
static bool
multibyte(const unsigned char *s, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (s[i] >= 0x80)
			return true;
	return false;
}

/*
 * The part's bytes (transfer encoding undone) in the charset named, into
 * out as UTF-8, with CRLF (and CRs before a LF) as LF.  A charset iconv
 * does not know, and US-ASCII, UTF-8 or none, read as UTF-8 when the
 * bytes are, and so are ISO-8859-1 and Windows-1252 when the bytes are
 * UTF-8 with a multi-byte sequence; else as Windows-1252, which is also
 * how ISO-8859-1 is read (its C1 controls are never meant in a mail); a
 * sequence the charset does not have is U+FFFD.
 */
static void
to_utf8(const unsigned char *s, size_t len, const char *charset,
    struct buf *out)
{
	struct buf	 u = { NULL, 0, 0, true };
	const char	*from = NULL;
	char		 tmp[1024], *in, *o;
	size_t		 inleft, oleft, i, k;
	iconv_t		 cd = (iconv_t)-1;
	bool		 latin = false;

	if (charset != NULL) {
		from = g_mime_charset_canon_name(charset);
		latin = g_ascii_strcasecmp(from, "iso-8859-1") == 0 ||
		    g_ascii_strcasecmp(from, "windows-1252") == 0 ||
		    g_ascii_strcasecmp(from, "windows-cp1252") == 0 ||
		    g_ascii_strcasecmp(from, "cp1252") == 0;
		if (latin ||
		    g_ascii_strcasecmp(from, "us-ascii") == 0 ||
		    g_ascii_strcasecmp(from, "utf-8") == 0)
			from = NULL;
		else
			cd = g_mime_iconv_open("UTF-8", from);
	}
	/* UTF-8 labelled Latin-1 (a mail program that labels by its code
	 * page): valid UTF-8 with a multi-byte sequence is taken as UTF-8,
	 * which Latin-1 text almost never is. */
	if (cd == (iconv_t)-1 && valid_utf8(s, len) && (!latin ||
	    multibyte(s, len))) {
		put(&u, s, len);
		goto lines;
	}
	if (cd == (iconv_t)-1)
		cd = g_mime_iconv_open("UTF-8", "WINDOWS-1252");
	if (cd == (iconv_t)-1) {	/* no iconv at all: as it is */
		put(&u, s, len);
		goto lines;
	}
	in = (char *)s;
	inleft = len;
	while (inleft > 0 && u.ok) {
		o = tmp;
		oleft = sizeof(tmp);
		if (iconv(cd, &in, &inleft, &o, &oleft) == (size_t)-1 &&
		    errno != E2BIG) {
			/* EILSEQ, or EINVAL at the end: one byte lost. */
			put(&u, tmp, sizeof(tmp) - oleft);
			put(&u, "\xef\xbf\xbd", 3);
			in++;
			inleft--;
			iconv(cd, NULL, NULL, NULL, NULL);
			continue;
		}
		put(&u, tmp, sizeof(tmp) - oleft);
	}
	o = tmp;
	oleft = sizeof(tmp);
	iconv(cd, NULL, NULL, &o, &oleft);
	put(&u, tmp, sizeof(tmp) - oleft);
	g_mime_iconv_close(cd);
lines:
	/* CRLF, and any run of CRs before a LF, is LF: each run of CRs is
	 * scanned once (a run kept is written whole). */
	for (i = 0; i < u.n; i = k) {
		k = i;
		while (k < u.n && u.p[k] == '\r')
			k++;
		if (k == i) {
			put(out, u.p + i, 1);
			k++;
		} else if (k < u.n && u.p[k] == '\n') {
			put(out, "\n", 1);
			k++;
		} else
			put(out, u.p + i, k - i);
	}
	if (!u.ok)
		out->ok = false;
	free(u.p);
}

/*
 * RFC 3676: a line that ends in a space (a flowed line) goes on in the
 * next one at the same quoting depth; with DelSp=yes that space goes.
 * A line's quote marks ('>') and its stuffed space come off, and the
 * marks go back on the joined line (followed by a space).  The
 * signature separator "-- " is never flowed.
 */
static void
unflow(const char *s, size_t len, bool delsp, struct buf *out)
{
	const char	*end, *e, *c;
	size_t		 q, pq = 0;
	bool		 open = false;	/* the last line was flowed */

	if (len == 0)		/* s may be NULL then */
		return;
	end = s + len;

	for (; s < end; s = e + 1) {
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			e = end;
		for (q = 0, c = s; c < e && *c == '>'; c++)
			q++;
		if (c < e && *c == ' ')
			c++;		/* stuffed */
		if (open && q != pq)
			put(out, "\n", 1);	/* depth changed: it ends */
		if (!open || q != pq) {
			size_t	 k;

			for (k = 0; k < q; k++)
				put(out, ">", 1);
			if (q > 0)
				put(out, " ", 1);
		}
		pq = q;
		open = e > c && e[-1] == ' ' &&
		    !(e - c == 3 && memcmp(c, "-- ", 3) == 0);
		put(out, c, (size_t)(e - c) - (open && delsp));
		if (!open && e < end)
			put(out, "\n", 1);
	}
	if (open)
		put(out, "\n", 1);
}

struct walk {
	GMimePart	*found;		/* the part taken */
	GMimePart	*second;	/* another that holds orders */
	int		 kind;
	struct buf	 text;		/* its text */
	bool		 plain, html;	/* parts seen */
	bool		 noboundary;	/* a multipart without one */
	bool		 nomem;
};

static bool
ends_with(const char *s, const char *tail)
{
	size_t	 n, k = strlen(tail);

	if (s == NULL || (n = strlen(s)) < k)
		return false;
	return g_ascii_strcasecmp(s + n - k, tail) == 0;
}

/* The part's text, decoded: into w->text (emptied first). */
static void
part_text(struct walk *w, GMimePart *part, GMimeContentType *ct)
{
	GMimeDataWrapper	*dw;
	GMimeStream		*st;
	GByteArray		*ba;
	const char		*fmt, *ds;
	struct buf		 raw = { NULL, 0, 0, true };

	free(w->text.p);
	memset(&w->text, 0, sizeof(w->text));
	w->text.ok = true;
	if ((dw = g_mime_part_get_content(part)) == NULL)
		return;
	st = g_mime_stream_mem_new();
	g_mime_data_wrapper_write_to_stream(dw, st);
	ba = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(st));
	fmt = g_mime_content_type_get_parameter(ct, "format");
	ds = g_mime_content_type_get_parameter(ct, "delsp");
	if (fmt != NULL && g_ascii_strcasecmp(fmt, "flowed") == 0 &&
	    g_mime_content_type_is_type(ct, "text", "plain")) {
		to_utf8(ba->data, ba->len, g_mime_content_type_get_parameter(
		    ct, "charset"), &raw);
		if (raw.ok)
			unflow(raw.p, raw.n, ds != NULL &&
			    g_ascii_strcasecmp(ds, "yes") == 0, &w->text);
		else
			w->text.ok = false;
		free(raw.p);
	} else
		to_utf8(ba->data, ba->len, g_mime_content_type_get_parameter(
		    ct, "charset"), &w->text);
	g_object_unref(st);
	w->nomem = w->nomem || !w->text.ok;
}

/* Takes the part if it holds orders. */
static void
leaf(struct walk *w, GMimeObject *o)
{
	GMimeContentType	*ct = g_mime_object_get_content_type(o);
	GMimePart		*part = GMIME_PART(o);
	const char		*fn = g_mime_part_get_filename(part);
	bool			 text, json;

	if (ct == NULL)
		return;
	text = g_mime_content_type_is_type(ct, "text", "plain") ||
	    ends_with(fn, ".txt");
	json = g_mime_content_type_is_type(ct, "application", "json") ||
	    ends_with(fn, ".json");
	if (g_mime_content_type_is_type(ct, "text", "html"))
		w->html = true;
	if (!text && !json)
		return;
	w->plain = w->plain || text;
	if (w->found != NULL) {		/* is there a second? */
		struct buf	 keep = w->text;

		w->text.p = NULL;
		w->text.n = 0;
		part_text(w, part, ct);
		/* An empty part has no text (NULL): no orders. */
		if (w->text.p != NULL && ((text && has_header(w->text.p,
		    w->text.n)) || has_json_orders(w->text.p, w->text.n)))
			w->second = part;
		free(w->text.p);
		w->text = keep;
		return;
	}
	part_text(w, part, ct);
	if (w->text.n == 0)
		return;
	if (text && has_header(w->text.p, w->text.n))
		w->kind = MAIL_TEXT;
	else if (has_json_orders(w->text.p, w->text.n))
		w->kind = MAIL_JSON;
	else
		return;
	w->found = part;
}

static void
walk(struct walk *w, GMimeObject *o, int depth)
{
	GMimeMessage	*m;
	int		 i, n;

	if (o == NULL || w->second != NULL || w->nomem || depth > MAIL_DEPTH)
		return;
	if (GMIME_IS_MULTIPART(o)) {
		if (g_mime_object_get_content_type_parameter(o, "boundary") ==
		    NULL)
			w->noboundary = true;
		n = g_mime_multipart_get_count(GMIME_MULTIPART(o));
		for (i = 0; i < n && w->second == NULL; i++)
			walk(w, g_mime_multipart_get_part(GMIME_MULTIPART(o),
			    i), depth + 1);
	} else if (GMIME_IS_MESSAGE_PART(o)) {
		m = g_mime_message_part_get_message(GMIME_MESSAGE_PART(o));
		if (m != NULL)
			walk(w, g_mime_message_get_mime_part(m), depth + 1);
	} else if (GMIME_IS_PART(o))
		leaf(w, o);
}

/* How many times "multipart/" and "message/" occur in the text (case
 * ignored), up to max + 1. */
static size_t
containers(const char *s, size_t len, size_t max)
{
	size_t	 i, n = 0;

	for (i = 0; i + 8 <= len && n <= max; i++) {
		if ((s[i] | 0x20) != 'm')
			continue;
		if ((i + 10 <= len && g_ascii_strncasecmp(s + i, "multipart/",
		    10) == 0) || g_ascii_strncasecmp(s + i, "message/", 8) == 0)
			n++;
	}
	return n;
}

/* How many lines of the text begin with "--", up to max + 1. */
static size_t
boundaries(const char *s, size_t len, size_t max)
{
	const char	*end = s + len, *e;
	size_t		 n = 0;

	for (; s < end && n <= max; s = e + 1) {
		if (end - s >= 2 && s[0] == '-' && s[1] == '-')
			n++;
		if ((e = memchr(s, '\n', (size_t)(end - s))) == NULL)
			break;
	}
	return n;
}

/* A part as the result names it: its content type, and its file name
 * in parentheses. */
static char *
part_name(GMimePart *part)
{
	const char	*fn = g_mime_part_get_filename(part);
	char		*ct, *s;

	ct = g_mime_content_type_get_mime_type(
	    g_mime_object_get_content_type(GMIME_OBJECT(part)));
	s = fn != NULL ? g_strdup_printf("%s (%s)", ct, fn) : g_strdup(ct);
	g_free(ct);
	return s;
}

/* The header's value, decoded, trimmed; "" when absent. */
static char *
field(GMimeMessage *m, const char *name)
{
	const char	*v;
	InternetAddressList *l;
	char		*s;

	if (strcmp(name, "From") == 0) {
		if ((l = g_mime_message_get_from(m)) == NULL ||
		    internet_address_list_length(l) == 0)
			return g_strdup("");
		return internet_address_list_to_string(l, NULL, FALSE);
	}
	if (strcmp(name, "Message-ID") == 0) {
		v = g_mime_message_get_message_id(m);
		return v != NULL && *v != '\0' ? g_strdup_printf("<%s>", v) :
		    g_strdup("");
	}
	v = g_mime_object_get_header(GMIME_OBJECT(m), name);
	s = g_strdup(v != NULL ? v : "");
	return g_strstrip(s);
}

/* What the result records of a header value: no control characters, at
 * most 200 bytes (mended to UTF-8 at the end). */
static void
put_field(struct buf *b, const char *s)
{
	size_t	 n = 0;
	const unsigned char *p = (const unsigned char *)s;

	for (; *p != '\0' && n < 200; p++, n++)
		put(b, (*p < 0x20 || *p == 0x7f) ? " " : (const char *)p, 1);
	put(b, "", 1);
}

/*
 * Reads a mail.  Fills m: the part that holds orders (m->kind
 * MAIL_TEXT or MAIL_JSON, m->text), or why there is none (kind 0,
 * m->reason and m->why), and the header's Message-ID, From and Date.
 * False when memory runs out (in our own buffers; GMime's abort).
 */
bool
mail_read(const char *text, size_t len, struct mail *m)
{
	GMimeStream	*st;
	GMimeParser	*p;
	GMimeMessage	*msg;
	struct walk	 w;
	struct buf	 b = { NULL, 0, 0, true };
	size_t		 o_text = 0, o_why = 0, o_part = 0;
	size_t		 o_id, o_from, o_date;
	char		*id = NULL, *from = NULL, *date = NULL, *why = NULL;

	memset(m, 0, sizeof(*m));
	memset(&w, 0, sizeof(w));
	pthread_once(&once, init);
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;	/* a byte-order mark, as mail_is() skips it */
		len -= 3;
	}
	if (len >= 5 && memcmp(text, "From ", 5) == 0) {
		const char *e = memchr(text, '\n', len);	/* mbox */

		len -= e != NULL ? (size_t)(e + 1 - text) : len;
		text = e != NULL ? e + 1 : text + len;
	}
	if (boundaries(text, len, MAIL_BOUNDARIES) > MAIL_BOUNDARIES) {
		m->reason = R_BAD_MAIL;
		why = g_strdup_printf("not a mail arbiter reads: it has more "
		    "than %d part boundaries (lines that begin with \"--\")",
		    MAIL_BOUNDARIES);
		id = g_strdup("");
		from = g_strdup("");
		date = g_strdup("");
		goto out;
	}
	if (containers(text, len, MAIL_PARTS) > MAIL_PARTS) {
		m->reason = R_BAD_MAIL;
		why = g_strdup_printf("not a mail arbiter reads: it names more "
		    "than %d multiparts and attached messages", MAIL_PARTS);
		id = g_strdup("");
		from = g_strdup("");
		date = g_strdup("");
		goto out;
	}
	st = g_mime_stream_mem_new_with_buffer(text, len);
	p = g_mime_parser_new_with_stream(st);
	g_mime_parser_set_format(p, GMIME_FORMAT_MESSAGE);
	msg = g_mime_parser_construct_message(p, NULL);
	g_object_unref(p);
	g_object_unref(st);
	if (msg == NULL) {
		m->reason = R_BAD_MAIL;
		why = g_strdup("not a mail GMime can read: its header does "
		    "not parse");
		id = g_strdup("");
		from = g_strdup("");
		date = g_strdup("");
		goto out;
	}
	id = field(msg, "Message-ID");
	from = field(msg, "From");
	date = field(msg, "Date");
	walk(&w, g_mime_message_get_mime_part(msg), 0);
	if (w.second != NULL && !w.nomem) {
		char	*a = part_name(w.found), *b2 = part_name(w.second);

		m->reason = R_BAD_MAIL;
		why = g_strdup_printf("two parts of the mail hold orders, %s "
		    "and %s: send them in one part only (a letter quoted "
		    "without \">\" holds its header line)", a, b2);
		g_free(a);
		g_free(b2);
	} else if (w.found != NULL) {
		why = part_name(w.found);
		m->kind = w.kind;
	} else if (w.nomem) {
		why = g_strdup("");
	} else if (w.noboundary) {
		m->reason = R_BAD_MAIL;
		why = g_strdup("not a mail arbiter reads: a multipart without "
		    "a boundary (its Content-Type has no \"boundary\" "
		    "parameter)");
	} else if (w.html && !w.plain) {
		m->reason = R_HTML_ONLY;
		why = g_strdup("the mail has HTML only: send the orders as "
		    "plain text (in the mail program, \"plain text\" or "
		    "\"text only\"), or attach the orders file");
	} else {
		m->reason = R_NO_ORDERS;
		why = g_strdup("no part of the mail holds orders: write them "
		    "under a line \"arbiter orders PLAYER turn N\", or attach "
		    "a JSON orders file");
	}
	g_object_unref(msg);
out:
	if (m->kind != 0) {
		/* "part": which part was taken; "why" stays empty. */
		o_part = b.n;
		put_field(&b, why);
		o_text = b.n;
		put(&b, w.text.p, w.text.n);
		put(&b, "", 1);
		o_why = b.n;
		put(&b, "", 1);
	} else {
		o_why = b.n;
		put_field(&b, why);
		o_part = o_text = b.n;
		put(&b, "", 1);
	}
	o_id = b.n;
	put_field(&b, id);
	o_from = b.n;
	put_field(&b, from);
	o_date = b.n;
	put_field(&b, date);
	g_free(id);
	g_free(from);
	g_free(date);
	g_free(why);
	free(w.text.p);
	if (!b.ok || w.nomem) {
		free(b.p);
		memset(m, 0, sizeof(*m));
		return false;
	}
	m->buf = b.p;
	m->part = b.p + o_part;
	m->text = b.p + o_text;
	m->len = m->kind != 0 ? w.text.n : 0;
	m->why = b.p + o_why;
	m->message_id = b.p + o_id;
	m->from = b.p + o_from;
	m->date = b.p + o_date;
	/* A header in raw 8-bit bytes, or one cut at 200 bytes, may not be
	 * UTF-8: the result is. */
	utf8_mend(b.p + o_part);
	utf8_mend(b.p + o_why);
	utf8_mend(b.p + o_id);
	utf8_mend(b.p + o_from);
	utf8_mend(b.p + o_date);
	return true;
}

void
mail_free(struct mail *m)
{
	free(m->buf);
	memset(m, 0, sizeof(*m));
}

/*
 * An orders file that is a mail (ld holds its text): the part that
 * holds orders is read as the orders file (load_orders()), or the file
 * is refused whole; its entry records the mail's Message-ID, From and
 * Date.  The part's text is the turn's (t->mailbuf) while it is read.
 */
void
load_mail(struct arb_turn *t, struct ld *ld, const char *player)
{
	struct mail	 m;
	struct ofile	*f;

	if (!mail_read(ld->text, ld->len, &m))
		t_nomem(t);
	t->mailbuf = m.buf;
	if (m.kind == 0)
		load_refused(t, ld, player, m.reason, 1, 1, m.why);
	else {
		/* The decoded part: lines and columns are its own. */
		ld_start(ld, ld->m, ld->e, ld->file, m.text, m.len);
		load_orders(t, ld, player);
	}
	f = &t->files.v[t->files.n - 1];
	f->mail = true;
	f->mail_id = t_strdup(t, m.message_id);
	f->mail_from = t_strdup(t, m.from);
	f->mail_date = t_strdup(t, m.date);
	f->mail_part = m.kind != 0 ? t_strdup(t, m.part) : NULL;
	t->mailbuf = NULL;
	mail_free(&m);
}
