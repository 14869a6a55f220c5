/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The JSON layer (json.h), reading: parsing a file with jansson, walking
 * its values with a JSON Pointer kept for messages, and failing with a
 * located message.  Positions: jansson reports line and column for syntax
 * errors only; for a bad value in valid JSON we know its JSON Pointer, and
 * locate() scans the text again to find its line and column.  That costs
 * nothing unless there is an error.  Uses the base layer and jansson.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "json/doc.h"

#define J(v)	((json_t *)(v))
#define V(j)	((const struct jv *)(j))

void
ld_start(struct ld *ld, struct mem *m, struct arb_error *e,
    const char *file, const char *text, size_t len)
{
	ld_close(ld);
	/* A UTF-8 byte-order mark (a Windows editor's) is skipped: lines
	 * and columns count from after it. */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	ld->m = m;
	ld->e = e;
	ld->file = file;
	ld->text = text;
	ld->len = len;
	ld->plen = ld->depth = 0;
	ld->recover = NULL;
	ld->note = NULL;
	ld->reason = 0;
	ld->hint = NULL;
	ld->hints = false;
	ld->many = false;
	ld->elsewhere = NULL;
	ld->array = NULL;
	ld->acache = false;
	ld->ahead = NULL;
	ld->where = NULL;
	ld->where_arg = NULL;
	if (ld->ptr != NULL)
		ld->ptr[0] = '\0';
}

/*
 * The pointer grows as deep and long as the document (its buffers are
 * freed with the turn), so it is never cut and its depth is always exact.
 */
void
ld_push(struct ld *ld, const char *key)
{
	size_t	 n = 1, plain = strcspn(key, "~/");
	char	*p;

	if (ld->depth >= ld->mcap)
		mem_grow(ld->m, &ld->mark, &ld->mcap, ld->depth + 1,
		    sizeof(*ld->mark));
	ld->mark[ld->depth++] = ld->plen;
	if (key[plain] == '\0') {
		/* Nothing to escape, the common case. */
		if (ld->plen + plain + 2 > ld->pcap)
			mem_grow(ld->m, &ld->ptr, &ld->pcap,
			    ld->plen + plain + 2, 1);
		p = ld->ptr + ld->plen;
		*p = '/';
		memcpy(p + 1, key, plain + 1);
		ld->plen += plain + 1;
		return;
	}
	for (p = (char *)key; *p != '\0'; p++)
		n += *p == '~' || *p == '/' ? 2 : 1;
	mem_grow(ld->m, &ld->ptr, &ld->pcap, ld->plen + n + 1, 1);
	p = ld->ptr + ld->plen;
	*p++ = '/';
	for (; *key != '\0'; key++) {
		if (*key == '~' || *key == '/') {
			*p++ = '~';
			*p++ = *key == '~' ? '0' : '1';
		} else
			*p++ = *key;
	}
	*p = '\0';
	ld->plen += n;
}

void
ld_pushi(struct ld *ld, size_t i)
{
	char	 buf[32], *p = buf + sizeof(buf);

	/* Digits by hand: a large file pushes an index per element. */
	*--p = '\0';
	do
		*--p = (char)('0' + i % 10);
	while ((i /= 10) > 0);
	ld_push(ld, p);
}

void
ld_pop(struct ld *ld)
{
	if (ld->depth == 0)
		return;
	ld->plen = ld->mark[--ld->depth];
	ld->ptr[ld->plen] = '\0';
}

/* The pointer so far ("" at the top). */
const char *
ld_where(const struct ld *ld)
{
	return ld->ptr != NULL ? ld->ptr : "";
}

/*
 * Copies the pointer p into dst; one too long to fit is cut at a character
 * boundary (never inside a UTF-8 sequence or a ~0/~1 escape) and ends in
 * "...", so a reader sees it was cut.
 */
void
ld_cut(char *dst, size_t size, const char *p)
{
	size_t	 n = strlen(p);

	if (n < size) {
		memcpy(dst, p, n + 1);
		return;
	}
	n = size - 4;
	while (n > 0 && ((unsigned char)p[n] & 0xc0) == 0x80)
		n--;
	if (n > 0 && p[n - 1] == '~')
		n--;
	memcpy(dst, p, n);
	memcpy(dst + n, "...", 4);
}

void
ld_fail(struct ld *ld, const char *fmt, ...)
{
	struct arb_error *e = ld->e;
	va_list		  ap;

	if (ld->recover != NULL) {
		const char *text;

		va_start(ap, fmt);
		text = mem_vprintf(ld->m, fmt, ap);
		va_end(ap);
		ld->note(ld, text);
		ld->hint = NULL;
		longjmp(*ld->recover, 1);
	}
	if (ld->many && ld->note != NULL) {
		/* One of the map's problems, the last one read. */
		va_start(ap, fmt);
		ld->note(ld, mem_vprintf(ld->m, fmt, ap));
		va_end(ap);
		ld->hint = NULL;
	}
	if (e->code == ARB_EOK) {
		e->code = ARB_EDATA;
		snprintf(e->file, sizeof(e->file), "%s", ld->file);
		ld_cut(e->pointer, sizeof(e->pointer), ld_where(ld));
		va_start(ap, fmt);
		vsnprintf(e->text, sizeof(e->text), fmt, ap);
		va_end(ap);
		utf8_mend(e->text);
		utf8_mend(e->pointer);
		e->line = e->column = 1;
		if (ld->where != NULL)
			ld->where(ld, ld_where(ld), &e->line, &e->column);
		else
			locate(ld->text, ld->len, ld_where(ld), &e->line,
			    &e->column);
	}
	longjmp(*ld->m->jmp, 1);
}

void
ld_problem(struct ld *ld, const char *fmt, ...)
{
	va_list		 ap;
	const char	*text;

	va_start(ap, fmt);
	text = mem_vprintf(ld->m, fmt, ap);
	va_end(ap);
	if (!ld->many || ld->note == NULL)
		ld_fail(ld, "%s", text);
	ld->note(ld, text);
	ld->hint = NULL;
}

bool
ld_try(struct ld *ld, void (*fn)(struct ld *, void *), void *arg)
{
	jmp_buf		 jb, *up = ld->recover;
	const size_t	 depth = ld->depth;

	if (!ld->many || ld->note == NULL) {
		fn(ld, arg);
		return true;
	}
	ld->recover = &jb;
	if (setjmp(jb) != 0) {
		ld->recover = up;
		while (ld->depth > depth)
			ld_pop(ld);
		return false;
	}
	fn(ld, arg);
	ld->recover = up;
	return true;
}

/* A short description of a value for messages: 5, "abc", an object. */
static const char *
describe(const json_t *v, char *buf, size_t size)
{
	switch (json_typeof(v)) {
	case JSON_INTEGER:
		snprintf(buf, size, "%" JSON_INTEGER_FORMAT,
		    json_integer_value(v));
		break;
	case JSON_REAL:
		/* A real, even 1.0, is no integer: keep it looking like one. */
		snprintf(buf, size, "%g", json_real_value(v));
		if (strpbrk(buf, ".e") == NULL && strlen(buf) + 3 <= size)
			strcat(buf, ".0");
		break;
	case JSON_STRING:
		snprintf(buf, size, "\"%.40s%s\"", json_string_value(v),
		    json_string_length(v) > 40 ? "..." : "");
		break;
	case JSON_TRUE:
		return "true";
	case JSON_FALSE:
		return "false";
	case JSON_NULL:
		return "null";
	case JSON_ARRAY:
		return "an array";
	case JSON_OBJECT:
		return "an object";
	}
	return buf;
}

/*
 * Fails with "bad WHAT VALUE: expected WANT".  A what of "value" is
 * replaced by the key the pointer ends in, when that is a name.
 */
void
ld_expect(struct ld *ld, const struct jv *jv, const char *what,
    const char *want)
{
	const json_t	*v = J(jv);
	const char	*last = strrchr(ld_where(ld), '/');
	char		 buf[64];

	if (strcmp(what, "value") == 0 && last != NULL && last[1] != '\0' &&
	    (last[1] < '0' || last[1] > '9') && strchr(last, '~') == NULL)
		what = last + 1;

	ld_fail(ld, "bad %s %s: expected %s", what, describe(v, buf,
	    sizeof(buf)), want);
}

const struct jv *
ld_get(const struct jv *obj, const char *key)
{
	return V(json_object_get(J(obj), key));
}

bool
ld_is_object(const struct jv *v)
{
	return json_is_object(J(v));
}

void *
ld_iter(const struct jv *obj)
{
	return json_object_iter(J(obj));
}

bool
ld_next(const struct jv *obj, void **iter, const char **key,
    const struct jv **val)
{
	if (*iter == NULL)
		return false;
	*key = json_object_iter_key(*iter);
	*val = V(json_object_iter_value(*iter));
	*iter = json_object_iter_next(J(obj), *iter);
	return true;
}

static bool
listed(const char *const *l, const char *key)
{
	for (; l != NULL && *l != NULL; l++)
		if (strcmp(*l, key) == 0)
			return true;
	return false;
}

/*
 * Every key of obj must be in a or b (either may be NULL); keys that start
 * with "_" are comments.  A misspelt key is an error, not a silent default.
 */
void
ld_keys(struct ld *ld, const struct jv *obj, const char *const *a,
    const char *const *b)
{
	const char	*key;
	json_t		*val;

	json_object_foreach(J(obj), key, val) {
		if (key[0] == '_' || listed(a, key) || listed(b, key))
			continue;
		ld_push(ld, key);
		ld->hint = ld_meant(ld, key, a, b);
		if (ld->hint == NULL && ld->hints && ld->elsewhere != NULL)
			ld->hint = ld->elsewhere(ld, key);
		ld_problem(ld, "unknown key \"%s\"", key);
		ld_pop(ld);
	}
}

size_t
ld_len(struct ld *ld, const struct jv *arr)
{
	if (!json_is_array(J(arr)))
		ld_expect(ld, V(arr), "value", "an array");
	return json_array_size(J(arr));
}

const struct jv *
ld_at(const struct jv *arr, size_t i)
{
	return V(json_array_get(J(arr), i));
}

long
ld_int(struct ld *ld, const struct jv *obj, const char *key, long dflt,
    long min, long max)
{
	const struct jv	*v = ld_get(obj, key);
	long		 i;

	if (v == NULL)
		return dflt;
	ld_push(ld, key);
	i = ld_intv(ld, v, key, min, max);
	ld_pop(ld);
	return i;
}

/* v itself, named what in messages; ld already points at it. */
long
ld_intv(struct ld *ld, const struct jv *jv, const char *what, long min,
    long max)
{
	json_t		*v = J(jv);
	json_int_t	 i;
	char		 want[64];

	i = json_is_integer(v) ? json_integer_value(v) : 0;
	if (!json_is_integer(v) || i < min || i > max) {
		if (max == LONG_MAX)
			snprintf(want, sizeof(want), "an integer >= %ld", min);
		else
			snprintf(want, sizeof(want),
			    "an integer from %ld to %ld", min, max);
		ld_expect(ld, V(v), what, want);
	}
	return (long)i;
}

bool
ld_bool(struct ld *ld, const struct jv *obj, const char *key, bool dflt)
{
	json_t	*v = json_object_get(J(obj), key);

	if (v == NULL)
		return dflt;
	if (!json_is_boolean(v)) {
		ld_push(ld, key);
		ld_expect(ld, V(v), key, "true or false");
	}
	return json_is_true(v);
}

const char *
ld_strv(struct ld *ld, const struct jv *v)
{
	if (!json_is_string(J(v)) || json_string_length(J(v)) == 0)
		ld_expect(ld, V(v), "value", "a non-empty string");
	if (strlen(json_string_value(J(v))) != json_string_length(J(v)))
		ld_fail(ld, "string contains a NUL character");
	return mem_strdup(ld->m, json_string_value(J(v)));
}

const char *
ld_str(struct ld *ld, const struct jv *obj, const char *key,
    const char *dflt)
{
	const struct jv	*v = ld_get(obj, key);
	const char	*s;

	if (v == NULL) {
		if (dflt == NULL) {
			ld_fail(ld, "missing \"%s\"", key);
		}
		return dflt;
	}
	ld_push(ld, key);
	s = ld_strv(ld, v);
	ld_pop(ld);
	return s;
}

/* A required member. */
double
ld_realv(struct ld *ld, const struct jv *jv, const char *what, double min,
    double max)
{
	double	 d;

	if (!json_is_number(J(jv)))
		ld_expect(ld, V(jv), what, "a number");
	d = json_number_value(J(jv));
	if (!(d >= min && d <= max))
		ld_fail(ld, "%s %g out of range [%g, %g]", what, d, min, max);
	return d;
}

double
ld_real(struct ld *ld, const struct jv *obj, const char *key, double dflt,
    double min, double max)
{
	const struct jv	*v = ld_get(obj, key);
	double		 d;

	if (v == NULL)
		return dflt;
	ld_push(ld, key);
	d = ld_realv(ld, v, key, min, max);
	ld_pop(ld);
	return d;
}

const struct jv *
ld_need(struct ld *ld, const struct jv *obj, const char *key)
{
	const struct jv	*v = ld_get(obj, key);

	if (v == NULL)
		ld_fail(ld, "missing \"%s\"", key);
	return v;
}

const struct jv *
ld_need_object(struct ld *ld, const struct jv *v)
{
	if (!json_is_object(J(v)))
		ld_expect(ld, V(v), "value", "an object");
	return v;
}

/*
 * jansson's allocator, routed into a pool while a file is parsed.  A
 * document of millions of small values would otherwise cost a malloc()
 * for each, and a free() for each when it is dropped; from a pool it
 * costs neither, and is dropped whole.  The hook is installed once, before
 * main() (single-threaded), over whatever functions were set before,
 * which every allocation outside our parsing still reaches: an embedding
 * program's own jansson values are not touched.  The pool is per thread
 * (ld_parse() sets it for the call), so turns may be parsed in parallel.
 * While a thread's pool is set, jansson frees only what the same parse
 * made, so a free is a no-op then.  A program that sets its own functions
 * after ours turns the pool off: ld_parse() sees it and parses as usual.
 */
static _Thread_local struct pool *P;
static _Thread_local bool short_of_memory;	/* the pool was */
static json_malloc_t host_malloc = malloc;
static json_free_t host_free = free;

static void *
pool_malloc(size_t n)
{
	void	*p;

	if (P == NULL) {
		if ((p = host_malloc(n)) == NULL)
			short_of_memory = true;
		return p;
	}
	if ((p = pool_alloc(P, n)) == NULL)
		short_of_memory = true;	/* jansson does not always say */
	return p;
}

static void
pool_free(void *p)
{
	if (P == NULL)
		host_free(p);
}

/*
 * Routes this thread's jansson allocations into p (NULL: no more), for a
 * document built to be written (json.h); false when the hook is not ours,
 * and the values are then malloc'ed and must be freed as usual.
 */
bool
jv_pool(struct pool *p)
{
	json_malloc_t	 m;
	json_free_t	 f;

	P = NULL;
	if (p == NULL)
		return false;
	json_get_alloc_funcs(&m, &f);
	if (m != pool_malloc)
		return false;
	P = p;
	return true;
}

static void __attribute__((constructor))
install(void)
{
	json_malloc_t	 m;
	json_free_t	 f;

	json_get_alloc_funcs(&m, &f);
	if (m == pool_malloc)
		return;
	if (m != NULL && f != NULL) {
		host_malloc = m;
		host_free = f;
	}
	json_set_alloc_funcs(pool_malloc, pool_free);
}

/* Parses ld's text with jansson's flags into ld's document (in the pool
 * when the hook is ours); NULL on an error, told in je.  A text parsed
 * ahead (ld_ahead_take()) is not parsed again. */
static json_t *
load(struct ld *ld, size_t flags, json_error_t *je)
{
	struct ld_ahead	*a = ld->ahead;
	json_t		*root;
	json_malloc_t	 m;
	json_free_t	 f;

	ld_close(ld);
	ld->ahead = NULL;
	if (a != NULL && a->doc != NULL && flags == JSON_DECODE_ANY) {
		ld->doc = a->doc;
		ld->pooled = a->pooled;
		ld->docpool = &a->pool;
		a->doc = NULL;
		return ld->doc;
	}
	json_get_alloc_funcs(&m, &f);
	ld->pooled = m == pool_malloc;
	if (ld->pooled) {
		ld->docpool = &ld->pool;
		P = &ld->pool;
	}
	short_of_memory = false;
	root = json_loadb(ld->text, ld->len, JSON_REJECT_DUPLICATES | flags,
	    je);
	P = NULL;
	/* jansson reports most failed allocations, not all: one before it
	 * reads anything (its lexer's buffer) leaves the message empty. */
	if (root == NULL && (short_of_memory || je->text[0] == '\0' ||
	    json_error_code(je) == json_error_out_of_memory))
		mem_nomem(ld->m);
	ld->doc = root;
	return root;
}

/*
 * Parses a text ahead as ld_try_parse() would (a UTF-8 byte-order mark
 * skipped, any value, duplicate keys refused), in this thread, into a's
 * own pool when the hook is ours.  On any failure a keeps no document
 * and no memory.
 */
void
ld_ahead_parse(struct ld_ahead *a)
{
	json_error_t	 je;
	json_malloc_t	 m;
	json_free_t	 f;
	const char	*text = a->text;
	size_t		 len = a->len;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0) {
		text += 3;
		len -= 3;
	}
	json_get_alloc_funcs(&m, &f);
	a->pooled = m == pool_malloc;
	if (a->pooled)
		P = &a->pool;
	short_of_memory = false;
	a->doc = json_loadb(text, len, JSON_REJECT_DUPLICATES |
	    JSON_DECODE_ANY, &je);
	P = NULL;
	if (a->doc == NULL || short_of_memory) {
		if (a->doc != NULL && !a->pooled)
			json_decref(a->doc);
		a->doc = NULL;
		pool_release(&a->pool);
	}
}

/* Frees a's document, if it still has one (a reader that took it left
 * none: load() clears a->doc), and its pool. */
void
ld_ahead_drop(struct ld_ahead *a)
{
	if (a->doc != NULL && !a->pooled)
		json_decref(a->doc);
	a->doc = NULL;
	pool_release(&a->pool);
}

void
ld_ahead_take(struct ld *ld, struct ld_ahead *a)
{
	ld->ahead = a;
	a->taken = true;
}

/*
 * A document the formats layer wrote, read back (a player's report cuts
 * the result): into this thread's write pool when jv_pool() set one, else
 * malloc'ed.  A failed allocation fails to m, however jansson reports it;
 * NULL with je for text that is not JSON.
 */
json_t *
jw_load(struct mem *m, const char *text, size_t len, json_error_t *je)
{
	json_t	*root;

	short_of_memory = false;
	root = json_loadb(text, len, 0, je);
	if (root == NULL && (short_of_memory || je->text[0] == '\0' ||
	    json_error_code(je) == json_error_out_of_memory))
		mem_nomem(m);
	return root;
}

/* The top value (an object or an array); a syntax error fails with
 * jansson's position. */
const struct jv *
ld_parse_any(struct ld *ld)
{
	json_error_t	 je;
	json_t		*root;

	if ((root = load(ld, 0, &je)) == NULL) {
		struct arb_error *e = ld->e;

		if (e->code == ARB_EOK) {
			e->code = ARB_EDATA;
			snprintf(e->file, sizeof(e->file), "%s", ld->file);
			snprintf(e->text, sizeof(e->text), "%s", je.text);
			e->line = je.line > 0 ? je.line : 1;
			e->column = je.column > 0 ? je.column : 1;
		}
		longjmp(*ld->m->jmp, 1);
	}
	return V(root);
}

/* The top object; else fails. */
const struct jv *
ld_parse(struct ld *ld)
{
	return ld_need_object(ld, ld_parse_any(ld));
}

const struct jv *
ld_try_parse(struct ld *ld, char *text, size_t size, int *line,
    int *column)
{
	json_error_t	 je;
	json_t		*root;

	if ((root = load(ld, JSON_DECODE_ANY, &je)) == NULL) {
		snprintf(text, size, "%s", je.text);
		*line = je.line > 0 ? je.line : 1;
		*column = je.column > 0 ? je.column : 1;
		return NULL;
	}
	return V(root);
}

bool
ld_is_array(const struct jv *v)
{
	return json_is_array(J(v));
}

const char *
ld_plain(const struct jv *v)
{
	if (!json_is_string(J(v)) || json_string_length(J(v)) == 0 ||
	    strlen(json_string_value(J(v))) != json_string_length(J(v)))
		return NULL;
	return json_string_value(J(v));
}

const char *
ld_meant(struct ld *ld, const char *typed, const char *const *a,
    const char *const *b)
{
	struct suggest	 sg;

	if (!ld->hints)
		return NULL;
	suggest_start(&sg, typed);
	for (; a != NULL && *a != NULL; a++)
		suggest_offer(&sg, *a);
	for (; b != NULL && *b != NULL; b++)
		suggest_offer(&sg, *b);
	if (sg.best == NULL)
		return NULL;
	return mem_printf(ld->m, "did you mean \"%.40s\"?", sg.best);
}

/* Releases the document; the buffers stay for the next file.  A document
 * parsed ahead goes back to its own pool, whole, whose blocks its owner
 * (ld_ahead_drop() at the latest) gives back. */
void
ld_close(struct ld *ld)
{
	if (!ld->pooled)
		json_decref(ld->doc);
	else
		pool_reset(ld->docpool);	/* the document, whole */
	ld->doc = NULL;
	ld->pooled = false;
	ld->docpool = NULL;
}

void
ld_release(struct ld *ld)
{
	ld_close(ld);
	pool_release(&ld->pool);
	free(ld->ptr);
	free(ld->mark);
	ld->ptr = NULL;
	ld->mark = NULL;
	ld->pcap = ld->mcap = 0;
}

/* v's text, lent: v must be a string, else fails with "bad WHAT V:
 * expected WANT". */
const char *
ld_namev(struct ld *ld, const struct jv *v, const char *what,
    const char *want)
{
	if (!json_is_string(J(v)))
		ld_expect(ld, v, what, want);
	return json_string_value(J(v));
}

/* v is the integer want. */
bool
ld_int_is(const struct jv *v, long want)
{
	return json_is_integer(J(v)) && json_integer_value(J(v)) == want;
}

long
ld_int_or(const struct jv *v, long dflt)
{
	if (!json_is_integer(J(v)) || json_integer_value(J(v)) > LONG_MAX ||
	    json_integer_value(J(v)) < LONG_MIN)
		return dflt;
	return (long)json_integer_value(J(v));
}

bool
ld_is_null(const struct jv *v)
{
	return json_is_null(J(v));
}

bool
ld_is_string(const struct jv *v)
{
	return json_is_string(J(v));
}


/*
 * locate(): the line and column (from 1, counting characters as jansson
 * does) of the value at pointer in text.  Returns 0, or -1 when the pointer
 * does not lead anywhere; then *line and *column are those of the deepest
 * value it reached.
 */
static const char *
ws(const char *p, const char *e)
{
	while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' ||
	    *p == '\r'))
		p++;
	return p;
}

static const char *
skip_string(const char *p, const char *e)
{
	for (p++; p < e; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

static const char *
skip_value(const char *p, const char *e)
{
	int	 depth = 0;

	p = ws(p, e);
	if (p >= e)
		return NULL;
	if (*p == '"')
		return skip_string(p, e);
	if (*p != '{' && *p != '[') {
		while (p < e && strchr(",]} \t\r\n", *p) == NULL)
			p++;
		return p;
	}
	for (; p < e; p++) {
		if (*p == '"') {
			if ((p = skip_string(p, e)) == NULL)
				return NULL;
			p--;
		} else if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
	}
	return NULL;
}

static int
hexval(const char *p)
{
	int	 v = 0, i;

	for (i = 0; i < 4; i++) {
		char	 c = p[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	return v;
}

/* Decodes the JSON string at p (its opening quote) into buf as UTF-8. */
static size_t
decode(const char *p, const char *e, char *buf, size_t size)
{
	size_t	 n = 0;
	long	 cp;

	for (p++; p < e && *p != '"' && n + 4 < size; p++) {
		if (*p != '\\') {
			buf[n++] = *p;
			continue;
		}
		if (++p >= e)
			break;
		switch (*p) {
		case 'b': buf[n++] = '\b'; break;
		case 'f': buf[n++] = '\f'; break;
		case 'n': buf[n++] = '\n'; break;
		case 'r': buf[n++] = '\r'; break;
		case 't': buf[n++] = '\t'; break;
		case 'u':
			if (e - p < 5 || (cp = hexval(p + 1)) < 0)
				return n;
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && e - p >= 7 &&
			    p[1] == '\\' && p[2] == 'u' && hexval(p + 3) >=
			    0xdc00 && hexval(p + 3) < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (hexval(p + 3) - 0xdc00);
				p += 6;
			}
			if (cp < 0x80)
				buf[n++] = (char)cp;
			else if (cp < 0x800) {
				buf[n++] = (char)(0xc0 | cp >> 6);
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			} else if (cp < 0x10000) {
				buf[n++] = (char)(0xe0 | cp >> 12);
				buf[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			} else {
				buf[n++] = (char)(0xf0 | cp >> 18);
				buf[n++] = (char)(0x80 | (cp >> 12 & 0x3f));
				buf[n++] = (char)(0x80 | (cp >> 6 & 0x3f));
				buf[n++] = (char)(0x80 | (cp & 0x3f));
			}
			break;
		default:
			buf[n++] = *p;
		}
	}
	buf[n] = '\0';
	return n;
}

/* Counts the lines and columns from q to p onto *line and *column. */
static void
advance(const char *q, const char *p, int *line, int *column)
{
	for (; q < p; q++) {
		if (*q == '\n') {
			++*line;
			*column = 1;
		} else if (((unsigned char)*q & 0xc0) != 0x80)
			++*column;
	}
}

static void
position(const char *text, const char *p, int *line, int *column)
{
	*line = 1;
	*column = 1;
	advance(text, p, line, column);
}

/*
 * True when the JSON string at p (its opening quote; q is past its closing
 * one) decodes to the n bytes of tok.  Decoding never makes a string
 * longer, so a buffer of its raw length holds it whole.
 */
static bool
key_is(const char *p, const char *q, const char *e, const char *tok,
    size_t n)
{
	char	*buf;
	bool	 same;

	if ((size_t)(q - p) < n || (buf = malloc((size_t)(q - p) + 5)) ==
	    NULL)
		return false;
	same = decode(p, e, buf, (size_t)(q - p) + 5) == n &&
	    memcmp(buf, tok, n) == 0;
	free(buf);
	return same;
}

/*
 * Walks pointer from the value at p; *at is the deepest value reached.
 * Returns 0, or -1 when the pointer does not lead anywhere.
 */
static int
walk(const char *p, const char *e, const char *pointer, const char **at)
{
	const char	*q = NULL;
	char		*tok;
	size_t		 n;
	int		 rc = -1;

	*at = p;
	/* A reference token is never longer than the whole pointer. */
	if ((tok = malloc(strlen(pointer) + 1)) == NULL)
		return -1;
	while (*pointer == '/') {
		/* The next reference token, unescaped. */
		for (pointer++, n = 0; *pointer != '\0' && *pointer != '/';
		    pointer++) {
			if (*pointer == '~' && pointer[1] == '1') {
				tok[n++] = '/';
				pointer++;
			} else if (*pointer == '~' && pointer[1] == '0') {
				tok[n++] = '~';
				pointer++;
			} else
				tok[n++] = *pointer;
		}
		tok[n] = '\0';
		if (p >= e)
			goto out;
		if (*p == '{') {
			for (p = ws(p + 1, e); p < e && *p == '"';) {
				const char *k = p;

				if ((q = skip_string(p, e)) == NULL)
					goto out;
				if (key_is(k, q, e, tok, n)) {
					q = ws(q, e);
					if (q >= e || *q != ':')
						goto out;
					q = ws(q + 1, e);
					break;
				}
				q = ws(q, e);
				if (q >= e || *q != ':')
					goto out;
				if ((q = skip_value(ws(q + 1, e), e)) == NULL)
					goto out;
				q = ws(q, e);
				if (q >= e || *q != ',')
					goto out;
				p = ws(q + 1, e);
			}
			if (p >= e || *p != '"')
				goto out;
			p = q;
		} else if (*p == '[') {
			long	 i, idx = strtol(tok, NULL, 10);

			p = ws(p + 1, e);
			for (i = 0; i < idx && p < e && *p != ']'; i++) {
				if ((p = skip_value(p, e)) == NULL)
					goto out;
				p = ws(p, e);
				if (p >= e || *p != ',')
					goto out;
				p = ws(p + 1, e);
			}
			if (p >= e || *p == ']')
				goto out;
		} else
			goto out;
		*at = p;
	}
	rc = 0;
out:
	free(tok);
	return rc;
}

int
locate(const char *text, size_t len, const char *pointer, int *line,
    int *column)
{
	const char	*at;
	int		 rc;

	rc = walk(ws(text, text + len), text + len, pointer, &at);
	position(text, at, line, column);
	return rc;
}

/*
 * Where pointer is.  A player's file may have as many problems as
 * elements in ld->array, so an element's place is found from the last one
 * located (problems come in the order of the file), never from the top
 * again: the cost stays linear in the file.
 */
void
ld_locate(struct ld *ld, const char *pointer, int *line, int *column)
{
	const char	*e = ld->text + ld->len, *p, *at;
	char		*end;
	unsigned long	 idx;
	size_t		 n = ld->array != NULL ? strlen(ld->array) : 0;

	if (ld->where != NULL) {
		ld->where(ld, pointer, line, column);
		return;
	}
	if (ld->array == NULL || strncmp(pointer, ld->array, n) != 0 ||
	    pointer[n] != '/' || pointer[n + 1] < '0' || pointer[n + 1] > '9')
		goto whole;
	idx = strtoul(pointer + n + 1, &end, 10);
	if (*end != '\0' && *end != '/')
		goto whole;
	if (!ld->acache || idx < ld->aidx) {
		if (walk(ws(ld->text, e), e, ld->array, &at) != 0 ||
		    *at != '[')
			goto whole;
		p = ws(at + 1, e);
		if (p >= e || *p == ']')
			goto whole;
		ld->acur = p;
		ld->aidx = 0;
		position(ld->text, p, &ld->aline, &ld->acol);
		ld->acache = true;
	}
	while (ld->aidx < idx) {
		if ((p = skip_value(ld->acur, e)) == NULL)
			break;
		p = ws(p, e);
		if (p >= e || *p != ',')
			break;
		p = ws(p + 1, e);
		if (p >= e || *p == ']')
			break;
		advance(ld->acur, p, &ld->aline, &ld->acol);
		ld->acur = p;
		ld->aidx++;
	}
	if (ld->aidx != idx)
		goto whole;
	walk(ld->acur, e, end, &at);
	*line = ld->aline;
	*column = ld->acol;
	advance(ld->acur, at, line, column);
	return;
whole:
	locate(ld->text, ld->len, pointer, line, column);
}
