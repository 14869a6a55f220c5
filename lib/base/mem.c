/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The base layer (base.h): memory that lives with a turn, growable
 * vectors, and the jump back to the public entry point when something
 * fails.  Uses the C library only.
 */
#define _POSIX_C_SOURCE 200809L	/* sysconf */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/base.h"

/* The arena: big chunks, freed all at once with the turn. */
struct chunk {
	struct chunk	*next;
	size_t		 used, size;
	max_align_t	 data[];
};

#define CHUNK	(64 * 1024)

/*
 * A pool's blocks grow from 64 KB to 64 MB, so a large document takes few
 * of them; a request larger than a block gets one of its own.
 */
#define POOL_MIN	((size_t)64 << 10)
#define POOL_MAX	((size_t)64 << 20)

void *
pool_alloc(struct pool *p, size_t n)
{
	struct chunk	*c = p->head, **s;
	size_t		 a = sizeof(max_align_t), size;
	void		*r;

	if (n > SIZE_MAX - sizeof(*c) - 2 * a)
		return NULL;
	n = (n + a - 1) / a * a;
	if (c == NULL || c->size - c->used < n) {
		/* A spare block big enough, else a new one. */
		for (s = &p->spare; *s != NULL && (*s)->size < n;
		    s = &(*s)->next)
			;
		if ((c = *s) != NULL)
			*s = c->next;
		else {
			size = p->head == NULL ? POOL_MIN :
			    p->head->size < POOL_MAX ? 2 * p->head->size :
			    POOL_MAX;
			if (size < n)
				size = n;
			if ((c = malloc(sizeof(*c) + size)) == NULL)
				return NULL;
			c->size = size;
		}
		c->used = 0;
		c->next = p->head;
		p->head = c;
	}
	r = (char *)c->data + c->used;
	c->used += n;
	return r;
}

void
pool_reset(struct pool *p)
{
	struct chunk	*c, *next;

	for (c = p->head; c != NULL; c = next) {
		next = c->next;
		c->next = p->spare;
		p->spare = c;
	}
	p->head = NULL;
}

void
pool_release(struct pool *p)
{
	struct chunk	*c, *next;

	pool_reset(p);
	for (c = p->spare; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	p->spare = NULL;
}

size_t
pool_size(const struct pool *p)
{
	const struct chunk *c;
	size_t		 n = 0;

	for (c = p->head; c != NULL; c = c->next)
		n += sizeof(*c) + c->size;
	for (c = p->spare; c != NULL; c = c->next)
		n += sizeof(*c) + c->size;
	return n;
}

void
pool_give(struct pool *from, struct pool *to)
{
	struct chunk	*c;

	pool_reset(from);
	while ((c = from->spare) != NULL) {
		from->spare = c->next;
		c->next = to->spare;
		to->spare = c;
	}
}

void
pool_take(struct pool *from, struct pool *to, size_t want)
{
	struct chunk	*c;
	size_t		 got = 0;

	while (got < want && (c = from->spare) != NULL) {
		from->spare = c->next;
		c->next = to->spare;
		to->spare = c;
		got += c->size;
	}
}

void
mem_nomem(struct mem *m)
{
	mem_fail(m, ARB_ENOMEM, "out of memory");
}

int
utf8_char(const unsigned char *p, size_t n, unsigned long *cp)
{
	static const unsigned long least[4] = { 0, 0x80, 0x800, 0x10000 };
	int		 k, i;
	unsigned long	 c;

	if (n == 0)
		return 0;
	k = p[0] < 0x80 ? 0 : (p[0] & 0xe0) == 0xc0 ? 1 :
	    (p[0] & 0xf0) == 0xe0 ? 2 : (p[0] & 0xf8) == 0xf0 ? 3 : -1;
	if (k < 0 || (size_t)k >= n)
		return 0;
	c = k == 0 ? p[0] : p[0] & (0x3f >> k);
	for (i = 1; i <= k; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < least[k] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return k + 1;
}

/*
 * Drops the bytes of any broken UTF-8 sequence from s, in place: a message
 * that shortens a name (%.40s) or is cut at its buffer's end may end a
 * character halfway, and a diagnostic should never carry half of one.
 * What is no character (utf8_char()) loses its lead byte.
 */
void
utf8_mend(char *s)
{
	unsigned char	*r = (unsigned char *)s, *w = r;
	size_t		 left = strlen(s);
	unsigned long	 cp;
	int		 n;

	while (*r != '\0') {
		if ((n = utf8_char(r, left, &cp)) == 0) {
			r++;
			left--;
			continue;
		}
		for (; n > 0; n--, left--)
			*w++ = *r++;
	}
	*w = '\0';
}

void
mem_fail(struct mem *m, enum arb_errcode code, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[sizeof(m->err->text)];

	if (m->err->code == ARB_EOK) {
		va_start(ap, fmt);
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		m->err->code = code;
		utf8_mend(buf);
		memcpy(m->err->text, buf, sizeof(buf));
	}
	longjmp(*m->jmp, 1);
}

void *
mem_alloc(struct mem *m, size_t n)
{
	struct chunk	*c = m->arena;
	size_t		 a = sizeof(max_align_t);
	void		*p;

	n = (n + a - 1) / a * a;
	if (c == NULL || c->size - c->used < n) {
		size_t size = n > CHUNK / 4 ? n : CHUNK;

		c = malloc(sizeof(*c) + size);
		if (c == NULL)
			mem_nomem(m);
		c->size = size;
		c->used = 0;
		/* A big block goes behind the current chunk, so the
		 * current one keeps serving small requests. */
		if (size > CHUNK && m->arena != NULL) {
			c->next = m->arena->next;
			m->arena->next = c;
		} else {
			c->next = m->arena;
			m->arena = c;
		}
	}
	p = (char *)c->data + c->used;
	c->used += n;
	memset(p, 0, n);
	return p;
}

/*
 * A new block goes in front of the block being filled, or (a big one)
 * just behind it, so every block allocated since the mark lies before the
 * block that followed the mark's: they are the ones freed, the mark's own
 * block kept, filled up to where it was.
 */
void
mem_mark(const struct mem *m, struct mem_mark *mk)
{
	mk->head = m->arena;
	mk->next = m->arena != NULL ? m->arena->next : NULL;
	mk->used = m->arena != NULL ? m->arena->used : 0;
}

void
mem_rewind(struct mem *m, const struct mem_mark *mk)
{
	struct chunk	*c, *next;

	for (c = m->arena; c != NULL && c != mk->next; c = next) {
		next = c->next;
		if (c != mk->head)
			free(c);
	}
	m->arena = mk->head;
	if (mk->head != NULL) {
		mk->head->next = mk->next;
		mk->head->used = mk->used;
	}
}

void
mem_release(struct mem *m)
{
	struct chunk	*c, *next;

	for (c = m->arena; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	m->arena = NULL;
}

char *
mem_strdup(struct mem *m, const char *s)
{
	size_t	 n = strlen(s) + 1;
	char	*p = mem_alloc(m, n);

	memcpy(p, s, n);
	return p;
}

/*
 * The conversions messages use most (%s, %.Ns, %d, %ld, %u, %lu, %zu and
 * %%), by hand into buf: the bytes vsnprintf() would give, without its
 * cost per call.  Returns the length, or -1 (having read nothing of ap)
 * when fmt has any other conversion, or -2 when the result does not fit.
 */
static int
quick_printf(char *buf, size_t size, const char *fmt, va_list ap)
{
	const char	*f, *s;
	char		 num[24], *q;
	size_t		 n = 0, k, prec;
	unsigned long long u;
	long long	 v;
	bool		 neg;

	/* Every conversion must be one of ours before ap is touched. */
	for (f = fmt; (f = strchr(f, '%')) != NULL; f++) {
		f++;
		if (*f == '.') {
			for (f++; *f >= '0' && *f <= '9'; f++)
				;
			if (*f != 's')
				return -1;
		} else if (*f == 'l' || *f == 'z') {
			f++;
			if (*f != 'u' && (*f != 'd' || f[-1] == 'z'))
				return -1;
		} else if (*f != 's' && *f != 'd' && *f != 'u' && *f != '%')
			return -1;
	}
	for (f = fmt; *f != '\0'; f++) {
		if (*f != '%') {
			/* The text up to the next conversion, whole. */
			for (k = 1; f[k] != '%' && f[k] != '\0'; k++)
				;
			if (n + k >= size)
				return -2;
			memcpy(buf + n, f, k);
			n += k;
			f += k - 1;
			continue;
		}
		f++;
		prec = (size_t)-1;
		if (*f == '.') {
			for (prec = 0, f++; *f >= '0' && *f <= '9'; f++)
				prec = prec * 10 + (size_t)(*f - '0');
		}
		switch (*f) {
		case '%':
			s = "%";
			k = 1;
			break;
		case 's':
			s = va_arg(ap, const char *);
			if (s == NULL)
				return -2;	/* vsnprintf says "(null)" */
			for (k = 0; k < prec && s[k] != '\0'; k++)
				;
			break;
		default:
			neg = false;
			if (*f == 'd') {
				v = va_arg(ap, int);
				goto sign;
			}
			if (*f == 'u') {
				u = va_arg(ap, unsigned int);
				goto digits;
			}
			if (*f == 'z') {
				f++;
				u = va_arg(ap, size_t);
				goto digits;
			}
			f++;		/* 'l' */
			if (*f == 'u') {
				u = va_arg(ap, unsigned long);
				goto digits;
			}
			v = va_arg(ap, long);
		sign:
			neg = v < 0;
			u = neg ? 0 - (unsigned long long)v :
			    (unsigned long long)v;
		digits:
			q = num + sizeof(num);
			do
				*--q = (char)('0' + u % 10);
			while ((u /= 10) > 0);
			if (neg)
				*--q = '-';
			s = q;
			k = (size_t)(num + sizeof(num) - q);
		}
		if (n + k >= size)
			return -2;
		memcpy(buf + n, s, k);
		n += k;
	}
	buf[n] = '\0';
	return (int)n;
}

char *
mem_vprintf(struct mem *m, const char *fmt, va_list ap)
{
	va_list	 ap2, ap3;
	char	 buf[512], *p;
	int	 n;

	va_copy(ap2, ap);
	if ((n = quick_printf(buf, sizeof(buf), fmt, ap2)) >= 0) {
		va_end(ap2);
		p = mem_alloc(m, (size_t)n + 1);
		memcpy(p, buf, (size_t)n + 1);
		return p;
	}
	va_end(ap2);
	va_copy(ap2, ap);
	va_copy(ap3, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		va_end(ap3);
		mem_fail(m, ARB_EINTERNAL, "bad format");
	}
	if ((size_t)n < sizeof(buf)) {
		va_end(ap3);
		return mem_strdup(m, buf);
	}
	/* Too long for the buffer: format again into the whole length, so
	 * that no message is ever cut (a cut could split a UTF-8
	 * character, which the JSON writer refuses). */
	p = mem_alloc(m, (size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap3);
	va_end(ap3);
	return p;
}

char *
mem_printf(struct mem *m, const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = mem_vprintf(m, fmt, ap);
	va_end(ap);
	return p;
}

/*
 * Grows *vecp (an array of elements of size bytes, cap of them) to hold
 * need.  Vectors are malloc'ed, not arena memory, because they move; the
 * turn frees them in arb_turn_free().
 */
void
mem_grow(struct mem *m, void *vecp, size_t *cap, size_t need,
    size_t size)
{
	void	**v = vecp, *p;
	size_t	  n;

	if (need <= *cap)
		return;
	n = *cap < 8 ? 8 : *cap * 2;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / size)
		mem_nomem(m);
	p = realloc(*v, n * size);
	if (p == NULL)
		mem_nomem(m);
	*v = p;
	*cap = n;
}

void *
mem_push(struct mem *m, void *v, size_t *cap, size_t *n, size_t size)
{
	mem_grow(m, &v, cap, *n + 1, size);
	memset((char *)v + *n * size, 0, size);
	++*n;
	return v;
}

/* The processors online: whether a second thread would run beside the
 * first. */
int
processors(void)
{
	long	 n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
}
