/*
 * The JSON layer's jansson side: for lib/json/ and lib/format/ only (the
 * files that build and write jansson documents); everything else sees
 * json.h and opaque values.
 */
#ifndef ARBITER_JSON_DOC_H
#define ARBITER_JSON_DOC_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "json/json.h"

/* jansson's constructors and setters, failing to the thread's mem. */
json_t	*jw_ok(json_t *v);	/* v; NULL only when memory ran out */
void	 jw_set(json_t *obj, const char *key, json_t *v);	/* takes v */
void	 jw_add(json_t *arr, json_t *v);			/* takes v */
/* Fails after writing to fp went wrong: as the system's errnum says. */
void	 jw_fail(struct mem *, FILE *fp, int errnum) __attribute__((noreturn));
/* A document written here read back (read.c); failed allocations fail
 * to the mem; NULL with je for text that is not JSON. */
json_t	*jw_load(struct mem *, const char *text, size_t len, json_error_t *je);
/* A whole document and a newline, pretty (two-space indents) or not. */
void	 jw_dump(struct mem *, void *owner, json_t *root, bool pretty,
	    FILE *fp);

/*
 * The writer.  jansson's dump is slow for what arbiter writes (a callback
 * per token, a loop check per container), so values are written here, in
 * jansson's own format to the byte (JSON_INDENT(2) or JSON_COMPACT,
 * JSON_REAL_PRECISION(15), keys in insertion order), into a buffer that
 * goes out in large writes.
 */
#define OUTBUF	65536

struct out {
	struct mem	*m;
	void		*owner;	/* the layer above's */
	FILE		*fp;
	bool		 first;	/* no element yet in the open array */
	size_t		 n;	/* bytes in buf */
	char		 buf[OUTBUF];
};

void	 o_flush(struct out *);
void	 o_put_flush(struct out *, const char *, size_t);

/* Writes n bytes of s (into the buffer, while they fit). */
static inline void
o_put(struct out *w, const char *s, size_t n)
{
	if (n > OUTBUF - w->n) {
		o_put_flush(w, s, n);
		return;
	}
	memcpy(w->buf + w->n, s, n);
	w->n += n;
}
void	 o_str(struct out *, const char *);
void	 o_indent(struct out *, int depth);	/* a newline and 2*depth */
/* [","] a newline, 2*depth spaces, "key": */
void	 o_key(struct out *, bool comma, int depth, const char *key);
void	 o_string(struct out *, const char *, size_t);	/* quoted */
void	 o_real(struct out *, double);
void	 o_int(struct out *, long long);
void	 o_value(struct out *, const json_t *, int depth, bool pretty);

#endif /* ARBITER_JSON_DOC_H */
