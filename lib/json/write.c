/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The JSON layer (json.h, doc.h), writing: building jansson documents
 * whose constructors jump to the writing thread's mem when memory runs
 * out, and writing them, to the byte in jansson's own format, through a
 * buffer that goes out in large writes.  Uses the base layer and jansson.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/doc.h"

/*
 * The memory of the turn this thread is writing: a jansson constructor
 * cannot be told where to jump when it fails.  Being per thread, two turns
 * can be written at once in two threads.
 */
static _Thread_local struct mem *M;

void
jw_begin(struct mem *m)
{
	M = m;
}

/* The jansson constructors return NULL only when memory runs out. */
json_t *
jw_ok(json_t *v)
{
	if (v == NULL)
		mem_nomem(M);
	return v;
}

void
jw_set(json_t *o, const char *key, json_t *v)
{
	if (json_object_set_new(o, key, jw_ok(v)) != 0)
		mem_nomem(M);
}

void
jw_add(json_t *a, json_t *v)
{
	if (json_array_append_new(a, jw_ok(v)) != 0)
		mem_nomem(M);
}


/*
 * Fails the turn after writing to fp went wrong: with the system's reason
 * (errnum) when fp reports a write error, as running out of memory when
 * errnum says so, else as an encoding failure (a bug).
 */
void
jw_fail(struct mem *m, FILE *fp, int errnum)
{
	if (errnum == ENOMEM)
		mem_nomem(m);
	if (ferror(fp))
		mem_fail(m, ARB_EWRITE, "%s", strerror(errnum != 0 ? errnum :
		    EIO));
	mem_fail(m, ARB_EINTERNAL, "cannot encode the output");
}

/* The writer (doc.h). */
void
o_flush(struct out *w)
{
	if (w->n > 0 && fwrite(w->buf, 1, w->n, w->fp) != w->n)
		jw_fail(w->m, w->fp, errno);
	w->n = 0;
}

/* The slow way of o_put() (doc.h): the buffer is full. */
void
o_put_flush(struct out *w, const char *s, size_t n)
{
	o_flush(w);
	if (n > OUTBUF) {
		if (fwrite(s, 1, n, w->fp) != n)
			jw_fail(w->m, w->fp, errno);
		return;
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}

void
o_str(struct out *w, const char *s)
{
	o_put(w, s, strlen(s));
}

/* A newline and depth levels of two spaces. */
void
o_indent(struct out *w, int depth)
{
	static const char sp[] = "\n                                ";
	size_t	 n = 2 * (size_t)depth;

	/* Up to seven levels, the common case: one fixed copy. */
	if (n <= 14 && OUTBUF - w->n >= 16) {
		memcpy(w->buf + w->n, sp, 16);
		w->n += n + 1;
		return;
	}
	o_put(w, sp, 1);
	for (; n > sizeof(sp) - 2; n -= sizeof(sp) - 2)
		o_put(w, sp + 1, sizeof(sp) - 2);
	o_put(w, sp + 1, n);
}

/* The length of the UTF-8 character at s (n bytes left), 0 if broken. */
static size_t
utf8_len(const unsigned char *s, size_t n)
{
	size_t	 k, len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[k] & 0x3f);
	}
	/* Overlong forms, surrogates and beyond U+10FFFF are broken. */
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 ||
	    cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

/*
 * Whether any of the 8 bytes of x needs a second look: a control
 * character, '"', '\\' or a byte of a multibyte character.  (The borrows
 * of the subtractions may flag bytes past one that is flagged rightly,
 * never a word with none.)
 */
static inline uint64_t
unplain8(uint64_t x)
{
	const uint64_t	 ones = 0x0101010101010101ULL;
	uint64_t	 q = x ^ (ones * '"'), b = x ^ (ones * '\\');

	return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) |
	    ((b - ones) & ~b) | x) & (ones * 0x80);
}

/* Whether the n bytes at s are all plain ASCII, written as they are:
 * eight at a time, the last eight (or four and four) overlapping. */
static inline bool
plain(const char *s, size_t n)
{
	uint32_t	 a, b;
	uint64_t	 x;
	size_t		 i;

	if (n >= 8) {
		for (i = 0; i + 8 <= n; i += 8) {
			memcpy(&x, s + i, 8);
			if (unplain8(x) != 0)
				return false;
		}
		memcpy(&x, s + n - 8, 8);
		return unplain8(x) == 0;
	}
	if (n >= 4) {
		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		return unplain8((uint64_t)a << 32 | b) == 0;
	}
	x = 0x2020202020202020ULL;	/* spaces, plain */
	for (i = 0; i < n; i++)
		x = x << 8 | (unsigned char)s[i];
	return unplain8(x) == 0;
}

/* Copies n bytes that fit: short runs in a few moves, not a call. */
static inline void
copy(char *p, const char *s, size_t n)
{
	if (n > 16)
		memcpy(p, s, n);
	else if (n >= 8) {
		memcpy(p, s, 8);
		memcpy(p + n - 8, s + n - 8, 8);
	} else if (n >= 4) {
		memcpy(p, s, 4);
		memcpy(p + n - 4, s + n - 4, 4);
	} else
		while (n-- > 0)
			*p++ = *s++;
}

/* A JSON string with something to escape, or long: apart, so that the
 * common case stays a small function. */
static void __attribute__((noinline))
o_string_slow(struct out *w, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str, *e = s + len;
	const unsigned char *run = s;
	char		 seq[8];
	uint64_t	 x;
	size_t		 k;

	o_put(w, "\"", 1);
	while (s < e) {
		/* Plain ASCII, the common case, eight bytes at a time. */
		for (; e - s >= 8; s += 8) {
			memcpy(&x, s, 8);
			if (unplain8(x) != 0)
				break;
		}
		while (s < e && *s >= 0x20 && *s < 0x80 && *s != '"' &&
		    *s != '\\')
			s++;
		if (s == e)
			break;
		if (*s >= 0x20 && *s != '"' && *s != '\\') {
			if ((k = utf8_len(s, (size_t)(e - s))) == 0)
				mem_fail(w->m, ARB_EINTERNAL, "cannot encode "
				    "the output");
			s += k;
			continue;
		}
		o_put(w, (const char *)run, (size_t)(s - run));
		switch (*s) {
		case '"':  o_put(w, "\\\"", 2); break;
		case '\\': o_put(w, "\\\\", 2); break;
		case '\b': o_put(w, "\\b", 2); break;
		case '\f': o_put(w, "\\f", 2); break;
		case '\n': o_put(w, "\\n", 2); break;
		case '\r': o_put(w, "\\r", 2); break;
		case '\t': o_put(w, "\\t", 2); break;
		default:
			snprintf(seq, sizeof(seq), "\\u%04X", *s);
			o_put(w, seq, 6);
		}
		run = ++s;
	}
	o_put(w, (const char *)run, (size_t)(s - run));
	o_put(w, "\"", 1);
}

/* A JSON string, escaped as jansson escapes it. */
void
o_string(struct out *w, const char *str, size_t len)
{
	char	*p;

	/* Plain ASCII, the common case: quoted, in one copy. */
	if (len > OUTBUF - 2 || !plain(str, len)) {
		o_string_slow(w, str, len);
		return;
	}
	if (len + 2 > OUTBUF - w->n)
		o_flush(w);
	p = w->buf + w->n;
	p[0] = '"';
	copy(p + 1, str, len);
	p[len + 1] = '"';
	w->n += len + 2;
}

/*
 * An object's member begins: a comma unless it is the first, a newline,
 * depth levels of two spaces, the key quoted and ": ", in one move when
 * the key is short and plain.
 */
void
o_key(struct out *w, bool comma, int depth, const char *key)
{
	static const char sp[] = "\n                                ";
	size_t	 n = strlen(key), d = 2 * (size_t)depth;
	char	*p;

	if (d > sizeof(sp) - 2 || n > 64 || OUTBUF - w->n < n + sizeof(sp) +
	    8 || !plain(key, n)) {
		if (comma)
			o_put(w, ",", 1);
		o_indent(w, depth);
		o_string(w, key, n);
		o_put(w, ": ", 2);
		return;
	}
	p = w->buf + w->n;
	*p = ',';
	p += comma;
	memcpy(p, sp, sizeof(sp));
	p += d + 1;
	*p++ = '"';
	copy(p, key, n);
	p += n;
	memcpy(p, "\": ", 3);
	w->n = (size_t)(p + 3 - w->buf);
}

/* A real as jansson writes it with 15 digits: always with a dot or an
 * exponent, the exponent with no "+" and no leading zeros. */
void
o_real(struct out *w, double d)
{
	char	 buf[64], *p, *q;

	/* JSON has no NaN nor infinity; jansson refuses them too. */
	if (!(d - d == 0))
		mem_fail(w->m, ARB_EINTERNAL, "cannot encode the output: a "
		    "number that is not finite");
	snprintf(buf, sizeof(buf) - 2, "%.15g", d);
	if (strchr(buf, '.') == NULL && strchr(buf, 'e') == NULL)
		strcat(buf, ".0");
	if ((p = strchr(buf, 'e')) != NULL) {
		p++;			/* at the exponent's sign */
		q = p + 1;
		if (*p == '-')
			p++;		/* a minus stays */
		while (*q == '0')
			q++;
		memmove(p, q, strlen(q) + 1);
	}
	o_str(w, buf);
}

/* An integer: digits from the right, no printf for every number. */
void
o_int(struct out *w, long long x)
{
	unsigned long long u = x < 0 ? 0 - (unsigned long long)x :
	    (unsigned long long)x;
	char		 buf[32], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) > 0);
	if (x < 0)
		*--p = '-';
	o_put(w, p, (size_t)(buf + sizeof(buf) - p));
}

/* The value v at depth, pretty (two-space indents) or compact. */
void
o_value(struct out *w, const json_t *v, int depth, bool pretty)
{
	const char	*key;
	size_t		 i, n;
	void		*it, *next;

	switch (json_typeof(v)) {
	case JSON_NULL:
		o_put(w, "null", 4);
		break;
	case JSON_TRUE:
		o_put(w, "true", 4);
		break;
	case JSON_FALSE:
		o_put(w, "false", 5);
		break;
	case JSON_INTEGER:
		o_int(w, json_integer_value(v));
		break;
	case JSON_REAL:
		o_real(w, json_real_value(v));
		break;
	case JSON_STRING:
		o_string(w, json_string_value(v), json_string_length(v));
		break;
	case JSON_ARRAY:
		n = json_array_size(v);
		o_put(w, "[", 1);
		for (i = 0; i < n; i++) {
			if (i > 0)
				o_put(w, ",", 1);
			if (pretty)
				o_indent(w, depth + 1);
			o_value(w, json_array_get(v, i), depth + 1, pretty);
		}
		if (n > 0 && pretty)
			o_indent(w, depth);
		o_put(w, "]", 1);
		break;
	case JSON_OBJECT:
		o_put(w, "{", 1);
		for (it = json_object_iter((json_t *)v); it != NULL;
		    it = next) {
			next = json_object_iter_next((json_t *)v, it);
			if (pretty)
				o_indent(w, depth + 1);
			key = json_object_iter_key(it);
			o_string(w, key, json_object_iter_key_len(it));
			o_put(w, pretty ? ": " : ":", pretty ? 2 : 1);
			o_value(w, json_object_iter_value(it), depth + 1,
			    pretty);
			if (next != NULL)
				o_put(w, ",", 1);
			else if (pretty)
				o_indent(w, depth);
		}
		o_put(w, "}", 1);
		break;
	}
}

/* A whole document and a newline. */
void
jw_dump(struct mem *m, void *owner, json_t *root, bool pretty, FILE *fp)
{
	struct out	*w = mem_alloc(m, sizeof(*w));

	w->m = m;
	w->owner = owner;
	w->fp = fp;
	o_value(w, root, 0, pretty);
	o_put(w, "\n", 1);
	o_flush(w);
	if (ferror(fp))
		jw_fail(m, fp, errno);
}

/* For the layers above (the rule systems' save()): emit_* build a
 * document through these. */
void
emit_set_str(struct jv *obj, const char *key, const char *val)
{
	jw_set((json_t *)obj, key, jw_ok(json_string_nocheck(val)));
}

struct jv *
emit_set_array(struct jv *obj, const char *key)
{
	json_t	*a = jw_ok(json_array());

	jw_set((json_t *)obj, key, a);
	return (struct jv *)a;
}

/* The object at key, made when there is none. */
struct jv *
emit_set_object(struct jv *obj, const char *key)
{
	json_t	*o = json_object_get((json_t *)obj, key);

	if (o == NULL) {
		o = jw_ok(json_object());
		jw_set((json_t *)obj, key, o);
	}
	return (struct jv *)o;
}

struct jv *
emit_add_object(struct jv *arr)
{
	json_t	*o = jw_ok(json_object());

	jw_add((json_t *)arr, o);
	return (struct jv *)o;
}

void
emit_add_str(struct jv *arr, const char *val)
{
	jw_add((json_t *)arr, jw_ok(json_string_nocheck(val)));
}

void
emit_set_bool(struct jv *obj, const char *key, bool val)
{
	jw_set((json_t *)obj, key, jw_ok(json_boolean(val)));
}

void
emit_set_int(struct jv *obj, const char *key, long val)
{
	jw_set((json_t *)obj, key, jw_ok(json_integer(val)));
}

void
emit_add_int(struct jv *arr, long val)
{
	jw_add((json_t *)arr, jw_ok(json_integer(val)));
}

struct jv *
emit_add_array(struct jv *arr)
{
	json_t	*a = jw_ok(json_array());

	jw_add((json_t *)arr, a);
	return (struct jv *)a;
}

void
emit_set_double(struct jv *obj, const char *key, double val)
{
	jw_set((json_t *)obj, key, jw_ok(json_real(val)));
}

void
emit_set_null(struct jv *obj, const char *key)
{
	jw_set((json_t *)obj, key, jw_ok(json_null()));
}

void
emit_add_double(struct jv *arr, double val)
{
	jw_add((json_t *)arr, jw_ok(json_real(val)));
}
