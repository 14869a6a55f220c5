/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): orders as players write them, in lines
 * (arbiter-orders(5), The text form).  A text is read into the very JSON
 * document its JSON twin would give, so that load.c reads it with the
 * same code and rules it the same; each of the document's pointers keeps
 * the line and column it came from, for the messages.  Its lines that
 * cannot be read are kept as problems of their orders; the problems of the
 * header, as the file's.  The writer does the inverse: any orders
 * document, as canonical text.  Which words mean what comes from the rule
 * system's tables (struct ruleset): nothing here names a rule system.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "json/doc.h"
#include "format/format.h"

#define J(v)	((json_t *)(v))

/* Where a pointer of the document came from. */
struct tloc {
	const char	*k1;		/* NULL: the order (or header) */
	long		 i1;		/* -1: none */
	const char	*k2;
	int		 line, col;
};

/* A token of a line. */
enum { TW, TQ, TCOMMA, TARROW, TCOLON };
struct tok {
	int		 kind;
	char		*s;		/* TW, TQ: normalized, NUL-ended */
	int		 col;
};

/* A line that cannot be read: its problem. */
struct tbad {
	size_t		 idx;		/* the order's */
	int		 reason;
	const char	*what, *hint;
	const char	*line;		/* the line as written, trimmed */
	int		 col;
};

/* Where the line of order idx begins: problems come in the order of
 * the file, so each is found from the last one (nothing is kept for each
 * order: a text costs no more memory than its JSON). */
struct tcur {
	size_t		 idx;
	size_t		 off;		/* in the text */
	int		 line;
};

struct lname {
	char		*s;
	int		 idx;
};

struct otext {
	struct arb_turn	*t;
	int		 hreason;	/* the header's problem, or R_OK */
	const char	*hwhat, *hhint;
	struct tloc	 hloc[6];	/* "", arbiter, player, turn, map,
					 * orders */
	size_t		 nord;		/* orders read */
	struct tcur	 first, cur;	/* the first order's line; the last
					 * found */
	struct tbad	*bads;		/* by index */
	size_t		 nbad, cbad, bcur;
	const char	*text;		/* ld's, while it is read */
	size_t		 len;
	char		*wbuf;		/* the writer's, for text_line() */
	size_t		 wcap;
	struct tok	*tk;		/* the lexer's, kept for text_where() */
	char		*buf;
	size_t		 bufcap;
	/* Names not spelt as in the map: lowercased, built when first
	 * wanted; idx -2: more than one. */
	struct lname	*lunits, *lcells;
	size_t		 nlunits, nlcells;
	size_t		 longest;	/* longest(): 0 until known */
	bool		 lbuilt;
};


#define MAXTOK	4096		/* tokens of one line read */

struct lex {
	struct otext	*x;
	int		 line;
	struct tok	*tk;
	int		 n, i;
	char		*buf;		/* the tokens' text (x's) */
	/* The order being built, and (record: finding a problem's place)
	 * where each of its pointers comes from. */
	bool		 record;
	json_t		*o;
	struct tloc	*loc;
	int		 nloc, cloc;
	int		 ecol;		/* a problem: where */
	int		 ereason;
	const char	*ewhat, *ehint;
};

/* Whether p .. e is one JSON value that is no object or array (a string,
 * a number, true, false or null) and spaces: read, without allocating,
 * as JSON ("a value, not an object"). */
static bool
json_scalar(const char *p, const char *e)
{
	size_t	 k;

	if (*p == '"') {
		for (p++; p < e && *p != '"'; p++)
			if (*p == '\\' && ++p == e)
				return false;
		if (p == e)
			return false;
		p++;
	} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
		if (*p == '-')
			p++;
		for (k = 0; p + k < e && p[k] >= '0' && p[k] <= '9'; k++)
			;
		if (k == 0)
			return false;
		p += k;
		while (p < e && strchr("0123456789.eE+-", *p) != NULL &&
		    *p != '\0')
			p++;
	} else {
		static const char *const w[] = { "true", "false", "null" };

		for (k = 0; k < 3; k++)
			if ((size_t)(e - p) >= strlen(w[k]) &&
			    memcmp(p, w[k], strlen(w[k])) == 0)
				break;
		if (k == 3)
			return false;
		p += strlen(w[k]);
	}
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p == e;
}

bool
text_is(const char *text, size_t len)
{
	size_t	 i = 0;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	for (; i < len; i++)
		if (text[i] != ' ' && text[i] != '\t' && text[i] != '\r' &&
		    text[i] != '\n')
			break;
	if (i == len || text[i] == '{' || text[i] == '[')
		return false;	/* JSON (empty: said as JSON says it) */
	return !json_scalar(text + i, text + len);
}

/*
 * The code point at p (n bytes left) and its length; what is no
 * character (utf8_char(): an overlong E0 86 92 was once read here as
 * U+0192, and jansson then refused the order it was copied into, which
 * read as memory run out) is one byte, U+FFFD.
 */
static unsigned
utf8(const unsigned char *p, size_t n, int *len)
{
	unsigned long	 c;

	if ((*len = utf8_char(p, n, &c)) == 0) {
		*len = 1;
		return 0xfffd;
	}
	return (unsigned)c;
}

/* A NUL, a control character or a broken UTF-8 sequence at p, as
 * nothing of the map can be named with (the JSON reader refuses them
 * too).  Tabs and carriage returns are spaces. */
static bool
bad_char(const unsigned char *p, size_t n)
{
	int	 len;

	if (*p < 0x20)
		return *p != '\t' && *p != '\r' && *p != '\v' && *p != '\f';
	return *p >= 0x80 && utf8(p, n, &len) == 0xfffd && len == 1;
}

/* Unicode spaces (mail clients write U+00A0 for a space). */
static bool
uspace(unsigned c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' ||
	    c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200b) ||
	    c == 0x202f || c == 0x205f || c == 0x3000 || c == 0xfeff;
}

static bool
dquote(unsigned c)
{
	return c == '"' || c == 0x201c || c == 0x201d || c == 0x201e ||
	    c == 0x201f || c == 0x00ab || c == 0x00bb;
}

/* What a character is read as: a straight quote, a hyphen; else itself.
 * Writes it to *w, returns its length there. */
static int
norm(unsigned c, const unsigned char *p, int len, char *w)
{
	if (c == 0x2018 || c == 0x2019 || c == 0x201a || c == 0x201b) {
		*w = '\'';
		return 1;
	}
	if (c == 0x2010 || c == 0x2011 || c == 0x2012 || c == 0x2013 ||
	    c == 0x2212) {
		*w = '-';
		return 1;
	}
	memcpy(w, p, (size_t)len);
	return len;
}

static void	 lx_err(struct lex *, int col, int reason, const char *hint,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* The line's (first) problem. */
static void
lx_err(struct lex *lx, int col, int reason, const char *hint,
    const char *fmt, ...)
{
	va_list	 ap;

	if (lx->ereason != R_OK)
		return;
	va_start(ap, fmt);
	lx->ewhat = t_vprintf(lx->x->t, fmt, ap);
	va_end(ap);
	lx->ereason = reason;
	lx->ehint = hint;
	lx->ecol = col;
}

/*
 * Splits line p (n bytes, no newline) into tokens; stops at a comment.
 * Returns the tokens, or -1 with a problem (a quote not closed).
 */
static int
lex(struct lex *lx, const char *line, size_t n)
{
	const unsigned char *p = (const unsigned char *)line;
	size_t	 i = 0;
	int	 col = 1, len, nt = 0;
	char	*w = lx->buf;
	unsigned c;

	lx->n = lx->i = 0;
	while (i < n) {
		struct tok *tk;

		c = utf8(p + i, n - i, &len);
		if (uspace(c) || c == '\r') {
			i += (size_t)len;
			col++;
			continue;
		}
		if (c == '#')
			break;
		if (bad_char(p + i, n - i)) {
			lx_err(lx, col, R_BAD_ORDER, "a text is UTF-8",
			    "a byte that is no character");
			return -1;
		}
		if (nt == MAXTOK) {
			lx_err(lx, col, R_BAD_ORDER, NULL, "a line of more "
			    "than %d words", MAXTOK);
			return -1;
		}
		tk = &lx->tk[nt++];
		tk->col = col;
		tk->s = w;
		if (c == ',' || c == ':' || c == 0x2192 || (c == '-' &&
		    i + 1 < n && p[i + 1] == '>')) {
			tk->kind = c == ',' ? TCOMMA : c == ':' ? TCOLON :
			    TARROW;
			i += c == '-' ? 2 : (size_t)len;
			col += c == '-' ? 2 : 1;
			*w++ = '\0';
			continue;
		}
		if (dquote(c)) {
			tk->kind = TQ;
			i += (size_t)len;
			col++;
			for (;;) {
				if (i >= n) {
					lx_err(lx, tk->col, R_BAD_ORDER,
					    "a name ends with a quote too",
					    "a quote not closed");
					return -1;
				}
				if (bad_char(p + i, n - i)) {
					lx_err(lx, col, R_BAD_ORDER, "a text is "
					    "UTF-8", "a byte that is no "
					    "character");
					return -1;
				}
				c = utf8(p + i, n - i, &len);
				if (dquote(c)) {
					int l2;

					/* "" inside: one quote. */
					if (i + (size_t)len < n &&
					    dquote(utf8(p + i + len, n - i -
					    (size_t)len, &l2))) {
						*w++ = '"';
						i += (size_t)(len + l2);
						col += 2;
						continue;
					}
					i += (size_t)len;
					col++;
					break;
				}
				w += uspace(c) ? (*w = ' ', 1) : norm(c,
				    p + i, len, w);
				i += (size_t)len;
				col++;
			}
			*w++ = '\0';
			continue;
		}
		tk->kind = TW;
		while (i < n) {
			if (bad_char(p + i, n - i)) {
				lx_err(lx, col, R_BAD_ORDER, "a text is UTF-8",
				    "a byte that is no character");
				return -1;
			}
			c = utf8(p + i, n - i, &len);
			if (uspace(c) || c == '\r' || c == '#' || c == ',' ||
			    c == ':' || dquote(c) || c == 0x2192 ||
			    (c == '-' && i + 1 < n && p[i + 1] == '>'))
				break;
			w += norm(c, p + i, len, w);
			i += (size_t)len;
			col++;
		}
		*w++ = '\0';
	}
	lx->n = nt;
	lx->i = 0;
	return nt;
}

/* Locations, by order: kept in the turn's memory, grown by doubling. */
static void
loc(struct lex *lx, const char *k1, long i1, const char *k2, int col)
{
	struct tloc	*l;

	if (!lx->record)
		return;
	if (lx->nloc == lx->cloc) {
		int	 c = lx->cloc ? 2 * lx->cloc : 8;
		struct tloc *v = t_alloc(lx->x->t, (size_t)c * sizeof(*v));

		if (lx->nloc > 0)
			memcpy(v, lx->loc, (size_t)lx->nloc * sizeof(*v));
		lx->loc = v;
		lx->cloc = c;
	}
	l = &lx->loc[lx->nloc++];
	l->k1 = k1;
	l->i1 = i1;
	l->k2 = k2;
	l->line = lx->line;
	l->col = col;
}

static json_t *
jstr(const char *s)
{
	return jw_ok(json_string(s));
}

/* Lowercased copies of the map's names, for names not spelt as in it:
 * sorted, in the turn's memory (nothing to free when a read fails). */
static int
by_lname(const void *a, const void *b)
{
	return strcmp(((const struct lname *)a)->s,
	    ((const struct lname *)b)->s);
}

static struct lname *
lower_list(struct arb_turn *t, size_t n, const char *(*name)(struct
    arb_turn *, size_t), size_t *out)
{
	struct lname	*v = t_alloc(t, (n + 1) * sizeof(*v));
	size_t		 i, k = 0;
	char		*q;

	for (i = 0; i < n; i++) {
		v[i].s = t_strdup(t, name(t, i));
		for (q = v[i].s; *q != '\0'; q++)
			*q = (char)tolower((unsigned char)*q);
		v[i].idx = (int)i;
	}
	qsort(v, n, sizeof(*v), by_lname);
	/* A name two of the map share but for case: neither. */
	for (i = 0; i < n; i++) {
		if (k > 0 && strcmp(v[k - 1].s, v[i].s) == 0) {
			v[k - 1].idx = -2;
			continue;
		}
		v[k++] = v[i];
	}
	*out = k;
	return v;
}

static const char *
unit_id(struct arb_turn *t, size_t i)
{
	return t->units.v[i].id;
}

static const char *
cell_label(struct arb_turn *t, size_t i)
{
	return t->board.names[i];
}

static void
build_lower(struct otext *x)
{
	struct arb_turn	*t = x->t;

	if (x->lbuilt)
		return;
	x->lbuilt = true;
	x->lunits = lower_list(t, t->units.n, unit_id, &x->nlunits);
	if (t->board.kind == BOARD_GRAPH)
		x->lcells = lower_list(t, (size_t)t->board.ncells,
		    cell_label, &x->nlcells);
}

static int
lower_get(struct otext *x, bool cells, const char *s)
{
	char		 buf[256];
	struct lname	 key = { buf, 0 }, *r;
	size_t		 i;

	for (i = 0; s[i] != '\0' && i < sizeof(buf) - 1; i++)
		buf[i] = (char)tolower((unsigned char)s[i]);
	if (s[i] != '\0')
		return -1;
	buf[i] = '\0';
	build_lower(x);
	r = bsearch(&key, cells ? x->lcells : x->lunits, cells ? x->nlcells :
	    x->nlunits, sizeof(key), by_lname);
	return r != NULL ? r->idx : -1;
}

/* The unit s names: its index, or -1. */
static int
unit_named(struct otext *x, const char *s)
{
	int	 k;

	if ((k = strmap_get(&x->t->unit_ids, s)) >= 0)
		return k;
	k = lower_get(x, false, s);
	return k >= 0 ? k : -1;
}

/* The cell s names, or -1. */
static int
cell_named(struct otext *x, const char *s)
{
	struct board	*b = &x->t->board;
	int		 k;

	if (b->kind == BOARD_TABLE)
		return -1;
	if ((k = board_find(b, s)) >= 0)
		return k;
	if (b->kind != BOARD_GRAPH)
		return -1;
	k = lower_get(x, true, s);
	return k >= 0 ? k : -1;
}

/* The length of the map's longest cell name, in bytes. */
static size_t
longest(struct otext *x)
{
	const struct board *b = &x->t->board;
	int		 i;

	if (x->longest > 0)
		return x->longest;
	x->longest = b->kind == BOARD_HEX ? 2 * (size_t)b->width : 1;
	for (i = 0; b->kind == BOARD_GRAPH && i < b->ncells; i++)
		if (strlen(b->names[i]) > x->longest)
			x->longest = strlen(b->names[i]);
	return x->longest;
}

static const char *
cellname(struct otext *x, int c)
{
	return cell_name(x->t, c);
}

/* Words of the text that name an order kind: its key, and with a space
 * for an underscore ("leave world"), any case.  Returns the kind, or -1;
 * *used: the tokens it takes. */
static int
kind_word(struct lex *lx, int *used)
{
	const struct okind *ok = lx->x->t->rs->order_kinds;
	const struct tok *tk = &lx->tk[lx->i];
	int	 k;
	size_t	 n;

	if (lx->i >= lx->n || tk->kind != TW)
		return -1;
	for (k = 0; ok[k].key != NULL; k++) {
		const char *u = strchr(ok[k].key, '_');

		if (strcasecmp(tk->s, ok[k].key) == 0) {
			*used = 1;
			return k;
		}
		if (u == NULL || lx->i + 1 >= lx->n || tk[1].kind != TW)
			continue;
		n = (size_t)(u - ok[k].key);
		if (strlen(tk->s) == n && strncasecmp(tk->s, ok[k].key,
		    n) == 0 && strcasecmp(tk[1].s, u + 1) == 0) {
			*used = 2;
			return k;
		}
	}
	return -1;
}

/* The singular of a count's key: "armies", "army". */
static const char *
singular(struct arb_turn *t, const char *key)
{
	size_t	 n = strlen(key);

	if (n > 3 && strcmp(key + n - 3, "ies") == 0)
		return t_printf(t, "%.*sy", (int)(n - 3), key);
	if (n > 1 && key[n - 1] == 's')
		return t_printf(t, "%.*s", (int)(n - 1), key);
	return key;
}

static bool
is_word(const struct lex *lx, const char *w)
{
	return lx->i < lx->n && lx->tk[lx->i].kind == TW &&
	    strcasecmp(lx->tk[lx->i].s, w) == 0;
}

static bool
listed(const char *const *l, const char *key)
{
	for (; l != NULL && *l != NULL; l++)
		if (strcasecmp(*l, key) == 0)
			return true;
	return false;
}

/* Whether the word at i is a keyword of the order (not a name). */
static bool
keyword(struct lex *lx)
{
	const struct ruleset *rs = lx->x->t->rs;
	int	 used;

	if (lx->i >= lx->n || lx->tk[lx->i].kind != TW)
		return false;
	return kind_word(lx, &used) >= 0 || is_word(lx, "to") ||
	    is_word(lx, "from") || listed(rs->order_keys,
	    lx->tk[lx->i].s);
}

/* A misspelt keyword: the suggestion, or NULL. */
static const char *
near_keyword(struct lex *lx, const char *s)
{
	const struct ruleset *rs = lx->x->t->rs;
	struct suggest	 sg;
	int		 k;

	suggest_start(&sg, s);
	for (k = 0; rs->order_kinds[k].key != NULL; k++)
		suggest_offer(&sg, rs->order_kinds[k].key);
	for (k = 0; rs->order_keys != NULL && rs->order_keys[k] != NULL; k++)
		suggest_offer(&sg, rs->order_keys[k]);
	suggest_offer(&sg, "to");
	if (sg.best == NULL)
		return NULL;
	return t_printf(lx->x->t, "did you mean \"%s\"?", sg.best);
}

/* The keywords of the rule system, for a message. */
static const char *
keywords(struct arb_turn *t)
{
	const struct okind *ok = t->rs->order_kinds;
	char	*s = "";
	int	 k;

	for (k = 0; ok[k].key != NULL; k++)
		s = t_printf(t, "%s%s\"%s\"", s, k ? ", " : "", ok[k].key);
	if (t->rs->walk_step != NULL)
		s = t_printf(t, "%s, \"to\"", s);
	return s;
}

/*
 * The cells of a path from the tokens at i: names separated by spaces,
 * commas, arrows or hyphens, a name of the map matched whole before a
 * hyphen inside it is taken as a separator.  Adds them to arr.
 */
static void
path(struct lex *lx, json_t *arr, const char *key, bool one)
{
	struct otext	*x = lx->x;
	long		 n = 0;
	bool		 sep = true;
	char		*wend;

	while (lx->i < lx->n) {
		struct tok *tk = &lx->tk[lx->i];
		char	*s, *e;
		int	 c;

		if (tk->kind == TCOMMA || tk->kind == TARROW) {
			if (sep)
				lx_err(lx, tk->col, R_BAD_ORDER, NULL, "a "
				    "separator with no cell before it");
			sep = true;
			lx->i++;
			continue;
		}
		if (tk->kind == TCOLON) {
			lx_err(lx, tk->col, R_BAD_ORDER, "a name that holds "
			    "\":\" is written in double quotes",
			    "unexpected \":\"");
			return;
		}
		if (tk->kind == TW && keyword(lx))
			break;
		if (one && n == 1)
			break;
		sep = false;
		s = tk->s;
		/* A quoted name, a name of the map, a word without "-". */
		if ((c = cell_named(x, s)) >= 0 || tk->kind == TQ ||
		    strchr(s, '-') == NULL) {
			loc(lx, key, one ? -1 : n, NULL, tk->col);
			jw_add(arr, jstr(c >= 0 ? cellname(x, c) : s));
			n++;
			lx->i++;
			continue;
		}
		/* Hyphens: the longest name of the map first, none tried
		 * longer than the map's longest (else a word of many hyphens
		 * would cost their square). */
		wend = s + strlen(s);
		while (s < wend) {
			char	*best = NULL, save;

			e = wend - s > (ptrdiff_t)longest(x) ? s + longest(x) :
			    wend;
			for (; e > s; e--) {
				if (e != wend && *e != '-')
					continue;
				save = *e;
				*e = '\0';
				c = cell_named(x, s);
				*e = save;
				if (c >= 0) {
					best = e;
					break;
				}
			}
			if (best == NULL) {
				best = memchr(s, '-', (size_t)(wend - s));
				if (best == NULL)
					best = wend;
				c = -1;
			}
			save = *best;
			*best = '\0';
			if (*s != '\0') {
				if (one && n == 1) {
					*best = save;
					lx_err(lx, tk->col + (int)(s - tk->s),
					    R_BAD_ORDER, NULL, "one cell "
					    "expected, not a path");
					return;
				}
				loc(lx, key, one ? -1 : n, NULL,
				    tk->col + (int)(s - tk->s));
				jw_add(arr, jstr(c >= 0 ? cellname(x, c) :
				    s));
				n++;
			}
			*best = save;
			s = best < wend ? best + 1 : best;
		}
		lx->i++;
	}
}

/* One cell, as the value of key. */
static void
one_cell(struct lex *lx, const char *key)
{
	json_t	*arr = jw_ok(json_array());
	int	 col = lx->i < lx->n ? lx->tk[lx->i].col : 0;

	path(lx, arr, key, true);
	if (json_array_size(arr) == 0) {
		json_decref(arr);
		lx_err(lx, col ? col : lx->tk[lx->n - 1].col, R_BAD_ORDER,
		    NULL, "\"%s\" wants a cell", key);
		return;
	}
	jw_set(lx->o, key, json_incref(json_array_get(arr, 0)));
	json_decref(arr);
}

/* A value: a number when it reads as one (and is not quoted). */
static json_t *
value(const struct tok *tk, bool numbers)
{
	char	*end;
	long	 l;
	double	 d;

	if (numbers && tk->kind == TW && tk->s[0] != '\0') {
		l = strtol(tk->s, &end, 10);
		if (*end == '\0' && (isdigit((unsigned char)tk->s[0]) ||
		    tk->s[0] == '-'))
			return jw_ok(json_integer(l));
		d = strtod(tk->s, &end);
		if (*end == '\0' && (isdigit((unsigned char)tk->s[0]) ||
		    tk->s[0] == '.' || tk->s[0] == '-'))
			return jw_ok(json_real(d));
	}
	return jstr(tk->s);
}

static const char *
key_dup(struct lex *lx, const char *s)
{
	char	*k = t_strdup(lx->x->t, s), *q;

	for (q = k; *q != '\0'; q++)
		*q = (char)tolower((unsigned char)*q);
	return k;
}

/*
 * An OK_RULE kind's argument (struct ruleset, text_heads): a list of
 * objects separated by commas, each a head word and its value, a bare
 * number for the member the head names, and pairs of words; else one
 * word.
 */
static void
rule_arg(struct lex *lx, const char *key)
{
	const struct ruleset *rs = lx->x->t->rs;
	const char *const *h = rs->text_heads;
	json_t	*arr, *obj;
	int	 k;
	long	 n = 0;

	if (lx->i >= lx->n) {
		lx_err(lx, lx->tk[lx->n - 1].col, R_BAD_ORDER, NULL,
		    "\"%s\" wants its argument", key);
		return;
	}
	for (k = 0; h != NULL && h[k] != NULL; k += 2)
		if (is_word(lx, h[k]))
			break;
	if (h == NULL || h[k] == NULL) {
		struct tok *tk = &lx->tk[lx->i++];
		int	 u;

		if (tk->kind != TW && tk->kind != TQ) {
			lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" wants "
			    "a name", key);
			return;
		}
		u = unit_named(lx->x, tk->s);
		loc(lx, key, -1, NULL, tk->col);
		jw_set(lx->o, key, jstr(u >= 0 ? lx->x->t->units.v[u].id :
		    tk->s));
		return;
	}
	arr = jw_ok(json_array());
	jw_set(lx->o, key, arr);
	while (lx->i < lx->n) {
		struct tok *tk = &lx->tk[lx->i];

		for (k = 0; h[k] != NULL; k += 2)
			if (is_word(lx, h[k]))
				break;
		if (h[k] == NULL) {
			lx_err(lx, tk->col, R_BAD_ORDER, NULL, "expected one "
			    "of %s", t_printf(lx->x->t, "\"%s\"%s%s%s", h[0],
			    h[2] != NULL ? " or \"" : "", h[2] != NULL ?
			    h[2] : "", h[2] != NULL ? "\"" : ""));
			return;
		}
		obj = jw_ok(json_object());
		jw_add(arr, obj);
		loc(lx, key, n, NULL, tk->col);
		lx->i++;
		if (lx->i >= lx->n || (lx->tk[lx->i].kind != TW &&
		    lx->tk[lx->i].kind != TQ)) {
			lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" wants "
			    "a word after it", h[k]);
			return;
		}
		loc(lx, key, n, h[k], lx->tk[lx->i].col);
		jw_set(obj, h[k], jstr(lx->tk[lx->i].s));
		lx->i++;
		if (lx->i < lx->n && lx->tk[lx->i].kind == TW &&
		    h[k + 1][0] != '\0' && (isdigit((unsigned char)
		    lx->tk[lx->i].s[0]) || lx->tk[lx->i].s[0] == '.')) {
			loc(lx, key, n, h[k + 1], lx->tk[lx->i].col);
			jw_set(obj, h[k + 1], value(&lx->tk[lx->i], true));
			lx->i++;
		}
		/* Pairs, up to a comma or the order's own keys. */
		while (lx->i < lx->n && lx->tk[lx->i].kind != TCOMMA) {
			tk = &lx->tk[lx->i];
			if (tk->kind == TW && listed(rs->order_keys, tk->s))
				return;
			if (tk->kind != TW) {
				lx_err(lx, tk->col, R_BAD_ORDER, NULL,
				    "expected a word");
				return;
			}
			if (lx->i + 1 >= lx->n || (tk[1].kind != TW &&
			    tk[1].kind != TQ)) {
				lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" "
				    "wants a value after it", tk->s);
				return;
			}
			if (json_object_get(obj, key_dup(lx, tk->s)) != NULL) {
				lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" "
				    "given twice", tk->s);
				return;
			}
			loc(lx, key, n, key_dup(lx, tk->s), tk[1].col);
			jw_set(obj, key_dup(lx, tk->s), tk[1].kind == TQ ?
			    jstr(tk[1].s) : value(&tk[1], true));
			lx->i += 2;
		}
		if (lx->i < lx->n)
			lx->i++;	/* the comma */
		n++;
	}
}

/* The order's own keys after its argument: "snap left", "lost a b". */
static void
order_keys(struct lex *lx)
{
	const struct ruleset *rs = lx->x->t->rs;

	while (lx->i < lx->n && lx->ereason == R_OK) {
		struct tok *tk = &lx->tk[lx->i];
		const char *key;
		const char *hint;

		if (tk->kind != TW || !listed(rs->order_keys, tk->s)) {
			if (tk->kind == TW && (hint = near_keyword(lx,
			    tk->s)) != NULL)
				lx_err(lx, tk->col, R_BAD_ORDER, hint,
				    "unknown word \"%.40s\"", tk->s);
			else
				lx_err(lx, tk->col, R_BAD_ORDER, NULL,
				    "\"%.40s\" after the end of the order",
				    tk->s[0] != '\0' ? tk->s : ",");
			return;
		}
		key = key_dup(lx, tk->s);
		if (json_object_get(lx->o, key) != NULL) {
			lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" given "
			    "twice", key);
			return;
		}
		lx->i++;
		if (listed(rs->text_lists, key)) {
			json_t	*arr = jw_ok(json_array());
			long	 n = 0;

			jw_set(lx->o, key, arr);
			loc(lx, key, -1, NULL, tk->col);
			while (lx->i < lx->n && !keyword(lx)) {
				if (lx->tk[lx->i].kind == TCOMMA) {
					lx->i++;
					continue;
				}
				loc(lx, key, n++, NULL, lx->tk[lx->i].col);
				jw_add(arr, jstr(lx->tk[lx->i].s));
				lx->i++;
			}
			continue;
		}
		if (lx->i >= lx->n || (lx->tk[lx->i].kind != TW &&
		    lx->tk[lx->i].kind != TQ)) {
			lx_err(lx, tk->col, R_BAD_ORDER, NULL, "\"%s\" wants "
			    "a value after it", key);
			return;
		}
		loc(lx, key, -1, NULL, lx->tk[lx->i].col);
		jw_set(lx->o, key, jstr(lx->tk[lx->i].s));
		lx->i++;
	}
}

/* The body of an order line, from token i: into lx->o. */
static void
body(struct lex *lx)
{
	struct otext	*x = lx->x;
	struct arb_turn	*t = x->t;
	const struct okind *ok = t->rs->order_kinds;
	const char	*count = ok[0].count, *hint;
	json_t		*units;
	int		 k, used, pathk = -1;
	long		 n = 0;

	for (k = 0; ok[k].key != NULL; k++)
		if (ok[k].arg == OK_PATH && pathk < 0)
			pathk = k;
	if (lx->i >= lx->n) {
		lx_err(lx, 1, R_BAD_ORDER, NULL, "an order with nothing "
		    "after its id");
		return;
	}
	if (count != NULL) {
		struct tok *tk = &lx->tk[lx->i];
		char	*end;
		long	 v;

		v = tk->kind == TW ? strtol(tk->s, &end, 10) : 0;
		if (tk->kind != TW || !isdigit((unsigned char)tk->s[0]) ||
		    *end != '\0') {
			lx_err(lx, tk->col, R_BAD_ORDER, t_printf(t, "as \"3 "
			    "%s move A B\"", count), "an order begins with "
			    "its number of %s", count);
			return;
		}
		loc(lx, count, -1, NULL, tk->col);
		jw_set(lx->o, count, jw_ok(json_integer(v)));
		lx->i++;
		if (is_word(lx, count) || is_word(lx, singular(t, count)))
			lx->i++;
	} else {
		units = jw_ok(json_array());
		jw_set(lx->o, "units", units);
		while (lx->i < lx->n) {
			struct tok *tk = &lx->tk[lx->i];
			int	 u;

			if (tk->kind == TCOMMA && n > 0) {
				lx->i++;
				continue;
			}
			if (tk->kind != TW && tk->kind != TQ)
				break;
			if (tk->kind == TW && keyword(lx))
				break;
			u = unit_named(x, tk->s);
			if (n > 0 && u < 0)
				break;
			loc(lx, "units", n, NULL, tk->col);
			jw_add(units, jstr(u >= 0 ? t->units.v[u].id :
			    tk->s));
			n++;
			lx->i++;
		}
		if (n == 0) {
			struct tok *tk = &lx->tk[lx->i < lx->n ? lx->i : 0];

			lx_err(lx, tk->col, R_BAD_ORDER, "as \"A1 move 0101 "
			    "0102\"", "an order begins with its units");
			return;
		}
		loc(lx, "units", -1, NULL, lx->tk[lx->i - (int)n].col);
	}
	if (lx->i < lx->n && (k = kind_word(lx, &used)) >= 0) {
		struct tok *tk = &lx->tk[lx->i];

		lx->i += used;
		loc(lx, ok[k].key, -1, NULL, tk->col);
		if (ok[k].arg == OK_RULE) {
			rule_arg(lx, ok[k].key);
		} else if (ok[k].arg == OK_CELL) {
			one_cell(lx, ok[k].key);
		} else if (is_word(lx, "to")) {
			/* "move to CELL": the destination. */
			loc(lx, "to", -1, NULL, lx->tk[lx->i].col);
			lx->i++;
			one_cell(lx, "to");
		} else {
			json_t *arr = jw_ok(json_array());

			jw_set(lx->o, ok[k].key, arr);
			path(lx, arr, ok[k].key, false);
		}
	} else if (is_word(lx, "from") || is_word(lx, "to")) {
		if (is_word(lx, "from")) {
			loc(lx, "from", -1, NULL, lx->tk[lx->i].col);
			lx->i++;
			one_cell(lx, "from");
			if (!is_word(lx, "to")) {
				lx_err(lx, lx->i < lx->n ? lx->tk[lx->i].col :
				    lx->tk[lx->n - 1].col, R_BAD_ORDER,
				    "as \"from A to B\"", "\"from\" goes with "
				    "\"to\"");
				return;
			}
		}
		loc(lx, "to", -1, NULL, lx->tk[lx->i].col);
		lx->i++;
		one_cell(lx, "to");
	} else if (lx->i >= lx->n) {
		lx_err(lx, lx->tk[lx->n - 1].col, R_UNKNOWN_KIND, NULL,
		    "no order: expected a path or one of %s", keywords(t));
		return;
	} else {
		struct tok *tk = &lx->tk[lx->i];

		/* A word that is no cell: a keyword misspelt when it is
		 * near one, or on hexes (whose labels are digits) any word
		 * with a letter. */
		if (tk->kind == TW && cell_named(x, tk->s) < 0 &&
		    strchr(tk->s, '-') == NULL &&
		    ((hint = near_keyword(lx, tk->s)) != NULL ||
		    (t->board.kind == BOARD_HEX && strspn(tk->s,
		    "0123456789") != strlen(tk->s)))) {
			if (hint == NULL)
				hint = t_printf(t, "expected a path or one of "
				    "%s", keywords(t));
			lx_err(lx, tk->col, R_UNKNOWN_KIND, hint,
			    "unknown order \"%.40s\"", tk->s);
			return;
		}
		if (pathk < 0 || (tk->kind != TW && tk->kind != TQ)) {
			lx_err(lx, tk->col, R_UNKNOWN_KIND, NULL, "unknown "
			    "order \"%.40s\": expected one of %s", tk->s,
			    keywords(t));
			return;
		}
		{
			json_t *arr = jw_ok(json_array());

			loc(lx, ok[pathk].key, -1, NULL, tk->col);
			jw_set(lx->o, ok[pathk].key, arr);
			path(lx, arr, ok[pathk].key, false);
		}
	}
	if (lx->ereason == R_OK)
		order_keys(lx);
}

/* The order of one line, its id first: into orders (NULL: lx->o only,
 * recording its locations). */
static void
order_line(struct lex *lx, json_t *orders, const char *text, size_t n)
{
	struct otext	*x = lx->x;
	struct tbad	*b;

	lx->o = jw_ok(json_object());
	if (orders != NULL)
		jw_add(orders, lx->o);
	lx->loc = NULL;
	lx->nloc = lx->cloc = 0;
	loc(lx, NULL, -1, NULL, lx->n > 0 ? lx->tk[0].col : 1);
	if (lx->ereason != R_OK)
		;	/* the line cannot be split into words */
	else if (lx->n >= 2 && lx->tk[1].kind == TCOLON &&
	    (lx->tk[0].kind == TW || lx->tk[0].kind == TQ)) {
		loc(lx, "id", -1, NULL, lx->tk[0].col);
		jw_set(lx->o, "id", jstr(lx->tk[0].s));
		lx->i = 2;
		body(lx);
	} else
		body(lx);
	if (lx->ereason != R_OK && lx->nloc > 0)
		lx->loc[0].col = lx->ecol;
	if (orders == NULL)
		return;
	if (x->nord++ == 0) {
		x->first.off = (size_t)(text - x->text);
		x->first.line = lx->line;
		x->cur = x->first;
	}
	if (lx->ereason == R_OK)
		return;
	if (x->nbad == x->cbad) {
		size_t	 c = x->cbad ? 2 * x->cbad : 16;
		struct tbad *v = t_alloc(x->t, c * sizeof(*v));

		if (x->nbad > 0)
			memcpy(v, x->bads, x->nbad * sizeof(*v));
		x->bads = v;
		x->cbad = c;
	}
	b = &x->bads[x->nbad++];
	b->idx = x->nord - 1;
	b->reason = lx->ereason;
	b->what = lx->ewhat;
	b->hint = lx->ehint;
	b->col = lx->ecol;
	{
		json_t	*id = json_incref(json_object_get(lx->o, "id"));

		/* Only its id: it is refused as it stands. */
		json_object_clear(lx->o);
		if (id != NULL)
			jw_set(lx->o, "id", id);
		while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t' ||
		    text[n - 1] == '\r'))
			n--;
		while (n > 0 && (*text == ' ' || *text == '\t')) {
			text++;
			n--;
		}
		{
			char	*l = t_alloc(x->t, n + 1);
			size_t	 k;

			/* Shown as written, a control character as "?". */
			for (k = 0; k < n; k++)
				l[k] = (unsigned char)text[k] < 0x20 &&
				    text[k] != '\t' ? '?' : text[k];
			l[n] = '\0';
			utf8_mend(l);
			b->line = l;
		}
		jw_set(lx->o, "_text", jstr(b->line));
	}
}

/* Room for the tokens of a line of n bytes: each is no longer than it
 * was written, and ends with a NUL. */
static void
line_buf(struct lex *lx, size_t n)
{
	struct otext	*x = lx->x;

	if (2 * n + 2 > x->bufcap) {
		x->bufcap = 2 * n + 2 > 4096 ? 2 * n + 2 : 4096;
		x->buf = t_alloc(x->t, x->bufcap);
	}
	lx->buf = x->buf;
}

/* The bytes of p (n of them, not NUL-ended) from the start that are in
 * set. */
static size_t
span(const char *p, size_t n, const char *set)
{
	size_t	 i;

	for (i = 0; i < n && p[i] != '\0' && strchr(set, p[i]) != NULL; i++)
		;
	return i;
}

/* Whether the line's first word is w (any case), at *p on. */
static bool
starts(const char *s, size_t n, const char *w)
{
	size_t	 k = strlen(w);

	return n >= k && strncasecmp(s, w, k) == 0 && (n == k ||
	    s[k] == ' ' || s[k] == '\t' || s[k] == '\r' || s[k] == '#' ||
	    (unsigned char)s[k] >= 0x80);
}

static void	 hproblem(struct lex *, int reason, int col, const char *hint,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
hproblem(struct lex *lx, int reason, int col, const char *hint,
    const char *fmt, ...)
{
	va_list	 ap;

	if (lx->x->hreason != R_OK)
		return;
	va_start(ap, fmt);
	lx->x->hwhat = t_vprintf(lx->x->t, fmt, ap);
	va_end(ap);
	lx->x->hreason = reason;
	lx->x->hhint = hint;
	lx->x->hloc[0].col = col;
}

#define HEADER	"arbiter orders PLAYER turn N [map HASH]"

/* The header: its members into root. */
static void
header(struct lex *lx, json_t *root)
{
	struct otext	*x = lx->x;
	struct arb_turn	*t = x->t;
	struct tok	*tk = lx->tk;
	size_t		 i;
	int		 p = -1, k;
	char		*end;
	long		 n;

	for (k = 0; k < 6; k++) {
		x->hloc[k].line = lx->line;
		x->hloc[k].col = lx->n > 0 ? tk[0].col : 1;
	}
	jw_set(root, "arbiter", jw_ok(json_integer(1)));
	if (lx->n < 5 || (tk[2].kind != TW && tk[2].kind != TQ) ||
	    tk[3].kind != TW || strcasecmp(tk[3].s, "turn") != 0) {
		hproblem(lx, R_BAD_FILE, lx->n > 2 ? tk[2].col : 1, NULL,
		    "bad header: expected \"" HEADER "\"");
		return;
	}
	x->hloc[2].col = tk[2].col;
	for (i = 0; i < t->players.n; i++)
		if (strcmp(t->players.v[i].name, tk[2].s) == 0)
			p = (int)i;
	for (i = 0; p < 0 && i < t->players.n; i++)
		if (strcasecmp(t->players.v[i].name, tk[2].s) == 0)
			p = p == -1 ? (int)i : -2;
	jw_set(root, "player", jstr(p >= 0 ? t->players.v[p].name :
	    tk[2].s));
	x->hloc[3].col = tk[4].col;
	n = tk[4].kind == TW ? strtol(tk[4].s, &end, 10) : 0;
	if (tk[4].kind == TW && isdigit((unsigned char)tk[4].s[0]) &&
	    *end == '\0' && n < INT_MAX)
		jw_set(root, "turn", jw_ok(json_integer(n)));
	else
		jw_set(root, "turn", jstr(tk[4].s));
	if (lx->n == 5)
		return;
	if (lx->n != 7 || tk[5].kind != TW || strcasecmp(tk[5].s, "map") !=
	    0 || tk[6].kind != TW) {
		hproblem(lx, R_BAD_FILE, tk[5].col, NULL, "bad header: "
		    "expected \"" HEADER "\"");
		return;
	}
	x->hloc[4].col = tk[6].col;
	jw_set(root, "map", jstr(tk[6].s));
}

/*
 * Reads an orders text (ld's) into the document it means: ld->doc, in
 * the reader's pool; the problems its lines have are kept for
 * text_problem().
 */
const struct jv *
text_read(struct arb_turn *t, struct ld *ld, struct otext **out)
{
	struct otext	*x = t_alloc(t, sizeof(*x));
	struct lex	 lx;
	const char	*p = ld->text, *e = ld->text + ld->len, *nl;
	json_t		*root, *orders = NULL;
	size_t		 n;
	bool		 head = false;

	x->t = t;
	x->hreason = R_OK;
	x->text = ld->text;
	x->len = ld->len;
	*out = x;
	memset(&lx, 0, sizeof(lx));
	lx.x = x;
	lx.tk = x->tk = t_alloc(t, (MAXTOK + 1) * sizeof(*lx.tk));
	ld_close(ld);
	jw_begin(&t->mem);
	ld->pooled = jv_pool(&ld->pool);
	ld->docpool = ld->pooled ? &ld->pool : NULL;
	root = jw_ok(json_object());
	ld->doc = root;
	for (lx.line = 1; p < e; lx.line++, p = nl + 1) {
		const char	*q = p;		/* past its indent */
		size_t		 m;

		if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
			nl = e;
		n = (size_t)(nl - p);
		m = n;
		while (m > 0 && (*q == ' ' || *q == '\t')) {
			q++;
			m--;
		}
		if (m > 0 && *q == '>')
			continue;
		if (!head) {
			if (!starts(q, m, "arbiter") ||
			    !starts(q + 7 + span(q + 7, m - 7, " \t"), m - 7 -
			    span(q + 7, m - 7, " \t"), "orders"))
				continue;
			head = true;
			line_buf(&lx, n);
			lx.ereason = R_OK;
			if (lex(&lx, p, n) < 0)
				hproblem(&lx, R_BAD_FILE, lx.ecol, NULL,
				    "bad header: %s", lx.ewhat);
			else
				header(&lx, root);
			orders = jw_ok(json_array());
			jw_set(root, "orders", orders);
			continue;
		}
		if (m >= 2 && q[0] == '-' && q[1] == '-' && span(q + 2, m - 2,
		    " \t\r") == m - 2)
			break;
		if (starts(q, m, "end") && span(q + 3, m - 3, " \t\r") ==
		    m - 3)
			break;
		line_buf(&lx, n);
		lx.ereason = R_OK;
		lx.ecol = 1;
		if (lex(&lx, p, n) == 0)
			continue;
		order_line(&lx, orders, p, n);
	}
	if (!head) {
		x->hloc[0].line = x->hloc[0].col = 1;
		hproblem(&lx, R_NOT_ORDERS, 1, NULL, "no header: an orders "
		    "text begins with a line \"" HEADER "\"");
		jw_set(root, "orders", jw_ok(json_array()));
	}
	jv_pool(NULL);
	ld->where = text_where;
	ld->where_arg = x;
	return (const struct jv *)root;
}

/* Order i's problem, if its line cannot be read: found from the last
 * one asked for. */
static const struct tbad *
bad_at(const struct otext *cx, size_t i)
{
	struct otext	*x = (struct otext *)cx;

	if (x->bcur > 0 && (x->bcur >= x->nbad || x->bads[x->bcur].idx > i))
		x->bcur = 0;
	while (x->bcur < x->nbad && x->bads[x->bcur].idx < i)
		x->bcur++;
	return x->bcur < x->nbad && x->bads[x->bcur].idx == i ?
	    &x->bads[x->bcur] : NULL;
}

/*
 * Whether the line at off (line) holds an order: words, before the end;
 * *next is where the next line begins (len: none).  As text_read()
 * reads the lines after the header.
 */
static bool
order_at(struct lex *lx, size_t off, size_t *next, bool *end)
{
	struct otext	*x = lx->x;
	const char	*p = x->text + off, *e = x->text + x->len, *nl, *q;
	size_t		 n, m;

	if ((nl = memchr(p, '\n', (size_t)(e - p))) == NULL)
		nl = e;
	*next = (size_t)(nl - x->text) + (nl < e);
	*end = false;
	n = (size_t)(nl - p);
	for (q = p, m = n; m > 0 && (*q == ' ' || *q == '\t'); q++, m--)
		;
	if (m > 0 && *q == '>')
		return false;
	if ((m >= 2 && q[0] == '-' && q[1] == '-' && span(q + 2, m - 2,
	    " \t\r") == m - 2) || (starts(q, m, "end") && span(q + 3, m - 3,
	    " \t\r") == m - 3)) {
		*end = true;
		return false;
	}
	line_buf(lx, n);
	lx->ereason = R_OK;
	return lex(lx, p, n) != 0;
}

/* The header's problem, if any (R_OK: none). */
int
text_header(const struct otext *x, const char **what, const char **hint)
{
	*what = x->hwhat;
	*hint = x->hhint;
	return x->hreason;
}

/* Order i's line cannot be read: why (R_OK: it can). */
int
text_problem(const struct otext *x, size_t i, const char **what,
    const char **hint)
{
	const struct tbad *b;

	if ((b = bad_at(x, i)) == NULL)
		return R_OK;
	*what = b->what;
	*hint = b->hint;
	return b->reason;
}

/* The line as written of order i that cannot be read, or NULL. */
const char *
text_bad_line(const struct otext *x, size_t i)
{
	const struct tbad *b = bad_at(x, i);

	return b != NULL ? b->line : NULL;
}

/* The pointer's segments: k1, i1, k2 (each may be absent). */
static int
segments(const char *p, char *k1, long *i1, char *k2)
{
	int	 n = 0;
	size_t	 l;

	k1[0] = k2[0] = '\0';
	*i1 = -1;
	if (*p != '/')
		return 0;
	l = strcspn(p + 1, "/");
	if (l >= 64)
		return 0;
	memcpy(k1, p + 1, l);
	k1[l] = '\0';
	p += 1 + l;
	n = 1;
	if (*p != '/')
		return n;
	if (isdigit((unsigned char)p[1])) {
		*i1 = strtol(p + 1, NULL, 10);
		p += 1 + strcspn(p + 1, "/");
		n = 2;
		if (*p != '/')
			return n;
	}
	l = strcspn(p + 1, "/");
	if (l >= 64)
		return n;
	memcpy(k2, p + 1, l);
	k2[l] = '\0';
	return 3;
}

/* ld->where for a text: the line and column of a pointer. */
void
text_where(struct ld *ld, const char *ptr, int *line, int *column)
{
	struct otext	*x = ld->where_arg;
	const struct tloc *best;
	struct lex	 lx;
	const char	*p, *nl;
	char		 k1[64], k2[64];
	long		 i1, oi;
	int		 i, score, bs;
	char		*end;
	bool		 pooled;

	*line = x->hloc[0].line > 0 ? x->hloc[0].line : 1;
	*column = x->hloc[0].col > 0 ? x->hloc[0].col : 1;
	if (strncmp(ptr, "/orders/", 8) != 0 || !isdigit((unsigned char)
	    ptr[8])) {
		static const char *const hk[6] = { "", "/arbiter", "/player",
			"/turn", "/map", "/orders" };

		for (i = 1; i < 6; i++)
			if (strcmp(ptr, hk[i]) == 0 && x->hloc[i].line > 0) {
				*line = x->hloc[i].line;
				*column = x->hloc[i].col;
			}
		return;
	}
	oi = strtol(ptr + 8, &end, 10);
	if (oi < 0 || (size_t)oi >= x->nord)
		return;
	memset(&lx, 0, sizeof(lx));
	lx.x = x;
	lx.record = true;
	lx.tk = x->tk;
	/* Order oi's line, from the last one found. */
	if ((size_t)oi < x->cur.idx)
		x->cur = x->first;
	while (x->cur.idx < (size_t)oi) {
		size_t	 next;
		bool	 fin;

		order_at(&lx, x->cur.off, &next, &fin);
		x->cur.off = next;
		x->cur.line++;
		while (!order_at(&lx, x->cur.off, &next, &fin) && !fin &&
		    next < x->len) {
			x->cur.off = next;
			x->cur.line++;
		}
		x->cur.idx++;
	}
	*line = x->cur.line;
	*column = 1;
	/* The line read again, its locations recorded, into the reader's
	 * pool (dropped with the document). */
	p = x->text + x->cur.off;
	if ((nl = memchr(p, '\n', x->len - x->cur.off)) == NULL)
		nl = x->text + x->len;
	lx.line = x->cur.line;
	line_buf(&lx, (size_t)(nl - p));
	lx.ereason = R_OK;
	lx.ecol = 1;
	pooled = jv_pool(ld->pooled ? ld->docpool : NULL);
	lex(&lx, p, (size_t)(nl - p));
	order_line(&lx, NULL, p, (size_t)(nl - p));
	jv_pool(NULL);
	if (!pooled)
		json_decref(lx.o);
	if (lx.nloc == 0)
		return;
	best = &lx.loc[0];
	bs = 0;
	segments(end, k1, &i1, k2);
	for (i = 1; i < lx.nloc; i++) {
		const struct tloc *l = &lx.loc[i];

		if (l->k1 == NULL || strcmp(l->k1, k1) != 0)
			continue;
		score = 1;
		if (l->i1 >= 0) {
			if (l->i1 != i1)
				continue;
			score = 2;
		}
		if (l->k2 != NULL) {
			if (strcmp(l->k2, k2) != 0)
				continue;
			score = 3;
		}
		if (score > bs) {
			bs = score;
			best = l;
		}
	}
	*line = best->line;
	*column = best->col;
}

/*
 * The writer: an orders document as canonical text.
 */

/* Whether a name must be quoted to be read back as itself. */
static bool
needs_quotes(struct arb_turn *t, const char *s)
{
	const struct okind *ok = t->rs->order_kinds;
	const unsigned char *p;
	int	 k, len;

	if (*s == '\0' || *s == '>')
		return true;
	for (p = (const unsigned char *)s; *p != '\0'; p += len) {
		unsigned c = utf8(p, strlen((const char *)p), &len);

		if (uspace(c) || dquote(c) || c == '#' || c == ',' ||
		    c == ':' || c == 0x2192 || c < 0x20 || (c == '-' &&
		    p[1] == '>') || c == 0x2018 || c == 0x2019 ||
		    (c >= 0x2010 && c <= 0x2013) || c == 0x2212 ||
		    c == 0x201a || c == 0x201b)
			return true;
	}
	for (k = 0; ok[k].key != NULL; k++)
		if (strcasecmp(s, ok[k].key) == 0)
			return true;
	if (strcasecmp(s, "to") == 0 || strcasecmp(s, "from") == 0 ||
	    strcasecmp(s, "end") == 0 || listed(t->rs->order_keys, s) ||
	    (ok[0].count != NULL && (strcasecmp(s, ok[0].count) == 0 ||
	    strcasecmp(s, singular(t, ok[0].count)) == 0)))
		return true;
	for (k = 0; t->rs->text_heads != NULL && t->rs->text_heads[k] !=
	    NULL; k += 2)
		if (strcasecmp(s, t->rs->text_heads[k]) == 0)
			return true;
	return false;
}

struct tw {
	char	*s;
	size_t	 n, cap;
	struct arb_turn *t;
};

static void
put(struct tw *w, const char *s, size_t n)
{
	if (w->n + n + 1 > w->cap) {
		size_t	 c = w->cap ? w->cap : 128;
		char	*v;

		while (c < w->n + n + 1)
			c *= 2;
		v = t_alloc(w->t, c);
		if (w->n > 0)
			memcpy(v, w->s, w->n);
		w->s = v;
		w->cap = c;
	}
	memcpy(w->s + w->n, s, n);
	w->n += n;
	w->s[w->n] = '\0';
}

static void
puts_(struct tw *w, const char *s)
{
	put(w, s, strlen(s));
}

/* A name, quoted when it must be; a space before it unless first. */
static void
name(struct tw *w, const char *s)
{
	if (w->n > 0 && w->s[w->n - 1] != ' ')
		put(w, " ", 1);
	if (!needs_quotes(w->t, s)) {
		puts_(w, s);
		return;
	}
	put(w, "\"", 1);
	for (; *s != '\0'; s++) {
		put(w, s, 1);
		if (*s == '"')
			put(w, s, 1);	/* "" inside quotes: one quote */
	}
	put(w, "\"", 1);
}

/* A keyword, as it is. */
static void
kw(struct tw *w, const char *s)
{
	if (w->n > 0 && w->s[w->n - 1] != ' ')
		put(w, " ", 1);
	puts_(w, s);
}

/* A value of the JSON document, as a word. */
static void
word_of(struct tw *w, const json_t *v)
{
	char	 buf[64];

	if (json_is_string(v)) {
		name(w, json_string_value(v));
		return;
	}
	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
	else if (json_is_real(v)) {
		snprintf(buf, sizeof(buf), "%.17g", json_real_value(v));
		if (strspn(buf, "-0123456789") == strlen(buf))
			strcat(buf, ".0");
	} else if (json_is_true(v))
		snprintf(buf, sizeof(buf), "true");
	else if (json_is_false(v))
		snprintf(buf, sizeof(buf), "false");
	else
		snprintf(buf, sizeof(buf), "null");
	if (w->n > 0)
		put(w, " ", 1);
	puts_(w, buf);
}

/* A cell of a path: a name that holds "-" and is not the map's whole
 * would be split there, so it is quoted. */
static void
cell_of(struct tw *w, const json_t *v)
{
	const char *s = json_string_value(v);
	const struct board *b = &w->t->board;

	if (s == NULL || strchr(s, '-') == NULL || needs_quotes(w->t, s) ||
	    (b->kind != BOARD_TABLE && board_find(b, s) >= 0)) {
		word_of(w, v);
		return;
	}
	if (w->n > 0 && w->s[w->n - 1] != ' ')
		put(w, " ", 1);
	put(w, "\"", 1);
	puts_(w, s);
	put(w, "\"", 1);
}

/* A value where a word that reads as a number is one: a string that
 * would read as one is quoted. */
static void
word_num(struct tw *w, const json_t *v)
{
	const char *s = json_string_value(v);
	char	*end;

	if (s == NULL || *s == '\0' || needs_quotes(w->t, s)) {
		word_of(w, v);
		return;
	}
	(void)strtod(s, &end);
	if (*end != '\0' || !(isdigit((unsigned char)s[0]) || s[0] == '.' ||
	    s[0] == '-')) {
		word_of(w, v);
		return;
	}
	if (w->n > 0 && w->s[w->n - 1] != ' ')
		put(w, " ", 1);
	put(w, "\"", 1);
	puts_(w, s);
	put(w, "\"", 1);
}

/* The canonical line of an order object; NULL when it has none. */
const char *
text_line(struct arb_turn *t, struct otext *x, const struct jv *ov)
{
	const json_t	*o = J(ov), *v, *a;
	const struct ruleset *rs = t->rs;
	const struct okind *ok = rs->order_kinds;
	const char	*key, *count = ok[0].count;
	struct tw	 w = { NULL, 0, 0, t };
	size_t		 i;
	int		 k;

	if (!json_is_object(o))
		return NULL;
	/* A text's orders: written in one buffer, then copied. */
	if (x != NULL) {
		w.s = x->wbuf;
		w.cap = x->wcap;
	}
	if ((v = json_object_get(o, "_text")) != NULL && json_is_string(v) &&
	    json_object_size(o) <= 2)
		return json_string_value(v);
	if ((v = json_object_get(o, "id")) != NULL) {
		word_of(&w, v);
		put(&w, ":", 1);
	}
	if (count != NULL && (v = json_object_get(o, count)) != NULL) {
		word_of(&w, v);
		puts_(&w, " ");
		puts_(&w, json_is_integer(v) && json_integer_value(v) == 1 ?
		    singular(t, count) : count);
	}
	if ((v = json_object_get(o, "units")) != NULL) {
		if (json_is_array(v))
			json_array_foreach(v, i, a)
				word_of(&w, a);
		else
			word_of(&w, v);
	}
	for (k = 0; ok[k].key != NULL; k++) {
		if ((v = json_object_get(o, ok[k].key)) == NULL)
			continue;
		if (w.n > 0)
			put(&w, " ", 1);
		puts_(&w, ok[k].key);
		if (ok[k].arg != OK_RULE) {
			if (json_is_array(v))
				json_array_foreach(v, i, a)
					cell_of(&w, a);
			else
				cell_of(&w, v);
			continue;
		}
		if (!json_is_array(v) || rs->text_heads == NULL) {
			if (json_is_array(v))
				json_array_foreach(v, i, a)
					word_of(&w, a);
			else
				word_of(&w, v);
			continue;
		}
		json_array_foreach(v, i, a) {
			const char *const *h = rs->text_heads;
			const char *mk;
			const json_t *mv;
			int	 j;

			if (i > 0)
				put(&w, ",", 1);
			if (!json_is_object(a)) {
				word_of(&w, a);
				continue;
			}
			/* Its head: its first member that is one (as the
			 * reader writes it), else the first head it has. */
			j = -1;
			json_object_foreach((json_t *)a, mk, mv) {
				int	 q;

				for (q = 0; h[q] != NULL; q += 2)
					if (strcmp(mk, h[q]) == 0)
						break;
				if (h[q] != NULL)
					j = q;
				break;
			}
			if (j < 0)
				for (j = 0; h[j] != NULL; j += 2)
					if (json_object_get(a, h[j]) != NULL)
						break;
			if (h[j] != NULL) {
				kw(&w, h[j]);
				word_of(&w, json_object_get(a, h[j]));
				if (h[j + 1][0] != '\0' && (mv =
				    json_object_get(a, h[j + 1])) != NULL &&
				    json_is_number(mv))
					word_of(&w, mv);
			}
			json_object_foreach((json_t *)a, mk, mv) {
				if (h[j] != NULL && (strcmp(mk, h[j]) == 0 ||
				    (strcmp(mk, h[j + 1]) == 0 &&
				    json_is_number(mv))))
					continue;
				kw(&w, mk);
				word_num(&w, mv);
			}
		}
	}
	if ((v = json_object_get(o, "from")) != NULL) {
		puts_(&w, " from");
		cell_of(&w, v);
	}
	if ((v = json_object_get(o, "to")) != NULL) {
		puts_(&w, " to");
		cell_of(&w, v);
	}
	json_object_foreach((json_t *)o, key, v) {
		bool	 known = strcmp(key, "id") == 0 || strcmp(key,
		    "units") == 0 || strcmp(key, "to") == 0 || strcmp(key,
		    "from") == 0 || key[0] == '_' || (count != NULL &&
		    strcmp(key, count) == 0);

		for (k = 0; ok[k].key != NULL && !known; k++)
			known = strcmp(key, ok[k].key) == 0;
		if (known)
			continue;
		/* The rule system's own keys, and any other member, as
		 * words (one not known is refused as it would be). */
		if (strspn(key, "abcdefghijklmnopqrstuvwxyz_") == strlen(key))
			kw(&w, key);
		else
			name(&w, key);
		if (json_is_array(v))
			json_array_foreach(v, i, a)
				word_of(&w, a);
		else
			word_of(&w, v);
	}
	if (w.n == 0)
		return "";
	if (x == NULL)
		return w.s;
	x->wbuf = w.s;
	x->wcap = w.cap;
	return t_strdup(t, w.s);
}

/* Writes the canonical text of an orders document. */
void
text_write(struct arb_turn *t, const struct jv *rootv, FILE *fp)
{
	const json_t	*root = J(rootv), *v, *l;
	size_t		 i;
	struct tw	 w = { NULL, 0, 0, t };

	/* The header: what the document holds, as words, however wrong (a
	 * value not a word: "?"). */
	kw(&w, "arbiter orders");
	v = json_object_get(root, "player");
	if (v != NULL && !json_is_object(v) && !json_is_array(v))
		word_of(&w, v);
	else
		kw(&w, "?");
	kw(&w, "turn");
	v = json_object_get(root, "turn");
	if (v != NULL && !json_is_object(v) && !json_is_array(v))
		word_num(&w, v);
	else
		kw(&w, "?");
	v = json_object_get(root, "map");
	if (v != NULL && !json_is_object(v) && !json_is_array(v)) {
		kw(&w, "map");
		word_of(&w, v);
	}
	fprintf(fp, "%s\n", w.s);
	l = json_object_get(root, "orders");
	json_array_foreach(l, i, v) {
		const char *s = text_line(t, NULL, (const struct jv *)v);

		if (s == NULL)
			fprintf(fp, "# order %zu is not an object\n", i);
		else
			fprintf(fp, "%s\n", s);
	}
	fputs("end\n", fp);
}

/* An orders file written back: as JSON, or as canonical text (a mail's
 * part that holds them: arb_turn_write_orders()). */
void
emit_orders(struct arb_turn *t, struct ld *ld, bool text, FILE *fp)
{
	const struct jv	*root;
	struct otext	*tx;
	const char	*what, *hint;

	ld->owner = t;
	if (text_is(ld->text, ld->len)) {
		root = text_read(t, ld, &tx);
		if (text_header(tx, &what, &hint) != R_OK) {
			if (hint != NULL)
				ld_fail(ld, "%s (%s)", what, hint);
			ld_fail(ld, "%s", what);
		}
	} else
		root = ld_parse_any(ld);
	if (text)
		text_write(t, root, fp);
	else
		jw_dump(&t->mem, t, J(root), true, fp);
	if (fflush(fp) != 0 || ferror(fp))
		jw_fail(&t->mem, fp, errno);
}
