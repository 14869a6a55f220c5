/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the picture as PNG, for the mail readers
 * that show no SVG.  The SVG that svg.c draws is rasterised by librsvg
 * onto a cairo surface, so the PNG is the same picture, drawn in the font
 * the SVG names (DejaVu Sans, which the set-up installs): the same bytes
 * each run on one machine.  The only file that includes librsvg or cairo.
 *
 * The PNG's chunks are written by libpng, its image data compressed here
 * with zlib at its fastest level, rows unfiltered (a picture is mostly
 * flat colour; cairo's writer, zlib's default level with adaptive
 * filters, was half the picture's time), a large picture's in bands, on
 * a second thread while it is drawn (PNG_SEGS): tests/bench/README,
 * "Pictures".
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's names first: GLib's <unistd.h> defines R_OK, a name of
 * the model's reasons. */
#include "format/format.h"
#include "json/doc.h"

#include <cairo.h>
#include <librsvg/rsvg.h>
#include <png.h>
#include <zlib.h>

/*
 * Fontconfig and pango, under librsvg, keep state of their own for the
 * process: one picture is rasterised at a time, as Graphviz lays out one
 * graph at a time (svg.c).
 */
static pthread_mutex_t	 png_lock = PTHREAD_MUTEX_INITIALIZER;

/* libpng's messages: none on standard error; an error goes back to
 * png_put()'s setjmp, which says out of memory (the only error writing
 * a well-formed image to a stream can meet). */
static void
png_quiet_error(png_structp p, png_const_charp msg)
{
	(void)msg;
	png_longjmp(p, 1);
}

static void
png_quiet_warning(png_structp p, png_const_charp msg)
{
	(void)p;
	(void)msg;
}

/* libpng's output: fwrite to the FILE given; a short write is seen by
 * ferror() after. */
static void
png_out(png_structp p, png_bytep data, size_t n)
{
	fwrite(data, 1, n, (FILE *)png_get_io_ptr(p));
}

static void
png_flush_none(png_structp p)
{
	(void)p;
}

/*
 * A large picture's image data is compressed in PNG_SEGS bands of rows,
 * each a raw deflate stream (all but the last ending on a full flush),
 * laid end to end in one zlib stream with the Adler-32 of the whole
 * (zlib's adler32_combine()), as pigz does.  One helper thread (a turn
 * runs at most two: arbiter(1), --threads) takes the bands of the top
 * half once they are drawn with their texts, while the calling thread
 * draws the bottom half's texts; then both take what is left, a band at
 * a time.  Only the calling thread draws (librsvg and cairo, whose caches
 * of fonts and glyphs gave different pixels when two threads drew at
 * once); the helper only reads rows drawn.  The bands are fixed, so the
 * bytes are the same on every machine and with one thread or two.
 * Compression was a third of a large picture's time.
 */
#define PNG_SEGS	8


struct seg {
	const unsigned char *data;	/* cairo's rows */
	size_t		 stride;
	png_uint_32	 w, y0, y1;	/* rows y0 to y1 - 1 */
	bool		 last;
	unsigned char	*out;		/* the raw deflate stream */
	size_t		 n, cap;
	uLong		 adler;		/* of the rows as filtered */
	int		 rc;		/* 0, or -1: out of memory */
};

/* deflate() until it has taken all its input and, with a flush, given
 * all its output; the buffer grows as it must. */
static int
seg_deflate(struct seg *s, z_stream *z, int flush)
{
	unsigned char	*p;

	do {
		if (z->avail_out == 0) {
			s->n = s->cap;
			if ((p = realloc(s->out, 2 * s->cap)) == NULL)
				return -1;
			s->out = p;
			s->cap *= 2;
			z->next_out = s->out + s->n;
			z->avail_out = (uInt)(s->cap - s->n);
		}
		if (deflate(z, flush) == Z_STREAM_ERROR)
			return -1;
	} while (z->avail_out == 0);
	s->n = s->cap - z->avail_out;
	return 0;
}

/* One band: each row as PNG has it (filter byte 0, then R, G, B a pixel)
 * into zlib at its fastest level, unfiltered (a picture is mostly flat
 * colour: the filters were larger and slower). */
static void *
seg_run(void *arg)
{
	struct seg	*s = arg;
	z_stream	 z;
	size_t		 rowlen = 1 + 3 * (size_t)s->w;
	unsigned char	*row;
	const uint32_t	*px;
	png_uint_32	 x, y;

	s->rc = -1;
	s->adler = adler32(0L, Z_NULL, 0);
	memset(&z, 0, sizeof(z));
	if ((row = malloc(rowlen)) == NULL)
		return NULL;
	if (deflateInit2(&z, 1, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) !=
	    Z_OK) {
		free(row);
		return NULL;
	}
	s->cap = rowlen * (s->y1 - s->y0) / 4 + 1024;
	if ((s->out = malloc(s->cap)) == NULL)
		goto out;
	z.next_out = s->out;
	z.avail_out = (uInt)s->cap;
	row[0] = 0;
	for (y = s->y0; y < s->y1; y++) {
		px = (const uint32_t *)(const void *)(s->data + y * s->stride);
		for (x = 0; x < s->w; x++) {
			row[1 + 3 * x] = (unsigned char)(px[x] >> 16);
			row[1 + 3 * x + 1] = (unsigned char)(px[x] >> 8);
			row[1 + 3 * x + 2] = (unsigned char)px[x];
		}
		s->adler = adler32(s->adler, row, (uInt)rowlen);
		z.next_in = row;
		z.avail_in = (uInt)rowlen;
		if (seg_deflate(s, &z, y + 1 < s->y1 ? Z_NO_FLUSH : s->last ?
		    Z_FINISH : Z_FULL_FLUSH) != 0)
			goto out;
	}
	s->rc = 0;
out:
	deflateEnd(&z);
	free(row);
	return NULL;
}

/* The bands to compress: those below ready may be taken, next is the
 * first not taken. */
struct bands {
	struct seg	*seg;
	int		 n, next, ready;
	pthread_mutex_t	 lock;
	pthread_cond_t	 more;
};

/* Compresses bands until none is left; waits for those not drawn. */
static void *
bands_run(void *arg)
{
	struct bands	*q = arg;
	int		 i;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (q->next >= q->ready && q->ready < q->n)
			pthread_cond_wait(&q->more, &q->lock);
		i = q->next < q->n ? q->next++ : -1;
		pthread_mutex_unlock(&q->lock);
		if (i < 0)
			return NULL;
		seg_run(&q->seg[i]);
	}
}

/* Bands up to ready are drawn. */
static void
bands_ready(struct bands *q, int ready)
{
	pthread_mutex_lock(&q->lock);
	q->ready = ready;
	pthread_cond_broadcast(&q->more);
	pthread_mutex_unlock(&q->lock);
}

/*
 * The PNG of w x h pixels whose image data the n segments hold (each
 * band's rows compressed), on fp: its chunks by libpng.  0, or -1 when
 * memory runs out.  No time or text chunk: the same bytes each run.
 */
static int
png_put(png_uint_32 w, png_uint_32 h, const struct seg *seg, int n, FILE *fp)
{
	png_structp	 p;
	png_infop	 info = NULL;
	unsigned char	 head[2] = { 0x78, 0x01 }, tail[4];
	volatile size_t	 total = sizeof(head) + sizeof(tail);
	uLong		 adler = seg[0].adler;
	int		 i;

	for (i = 0; i < n; i++) {
		if (i > 0)
			adler = adler32_combine(adler, seg[i].adler,
			    (z_off_t)((1 + 3 * (size_t)w) *
			    (seg[i].y1 - seg[i].y0)));
		total += seg[i].n;
	}
	tail[0] = (unsigned char)(adler >> 24);
	tail[1] = (unsigned char)(adler >> 16);
	tail[2] = (unsigned char)(adler >> 8);
	tail[3] = (unsigned char)adler;
	if (total > PNG_UINT_31_MAX)
		return -1;
	if ((p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
	    png_quiet_error, png_quiet_warning)) == NULL)
		return -1;
	if ((info = png_create_info_struct(p)) == NULL) {
		png_destroy_write_struct(&p, &info);
		return -1;
	}
	if (setjmp(png_jmpbuf(p))) {
		png_destroy_write_struct(&p, &info);
		return -1;
	}
	png_set_write_fn(p, fp, png_out, png_flush_none);
	png_set_IHDR(p, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(p, info);
	/* One IDAT: the zlib header, the bands, the Adler-32; then IEND
	 * (png_write_end() wants the rows given to libpng). */
	png_write_chunk_start(p, (png_const_bytep)"IDAT", (png_uint_32)total);
	png_write_chunk_data(p, head, sizeof(head));
	for (i = 0; i < n; i++)
		png_write_chunk_data(p, seg[i].out, seg[i].n);
	png_write_chunk_data(p, tail, sizeof(tail));
	png_write_chunk_end(p);
	png_write_chunk(p, (png_const_bytep)"IEND", NULL, 0);
	png_destroy_write_struct(&p, &info);
	return 0;
}

/*
 * The texts svg.c listed (text_png()), drawn over the picture with cairo
 * in DejaVu Sans as librsvg would: at the baseline, left or centred,
 * squeezed to their width where one is given (textLength), with a white
 * halo (a stroke of 3 under the fill) where asked.
 */
static void
png_texts(cairo_t *cr, const char *p, const char *end, double scale)
{
	cairo_font_options_t *fo;
	cairo_text_extents_t e;
	char		 anchor, fill[8], halo, *nl, buf[4096];
	int		 x, y, size, maxw, n;
	unsigned long	 rgb;
	double		 sx, x0;

	cairo_save(cr);
	cairo_scale(cr, scale, scale);
	cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
	    CAIRO_FONT_WEIGHT_NORMAL);
	/* Unhinted outlines at their own advances, as librsvg and a browser
	 * lay them out. */
	if ((fo = cairo_font_options_create()) != NULL) {
		cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
		cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
		cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
		cairo_set_font_options(cr, fo);
		cairo_font_options_destroy(fo);
	}
	cairo_set_line_width(cr, 3);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n = 0;
		if (sscanf(p, "%d %d %d %c %7s %c %d\t%n", &x, &y, &size,
		    &anchor, fill, &halo, &maxw, &n) < 7 || n == 0 ||
		    nl - (p + n) >= (long)sizeof(buf)) {
			p = nl + 1;
			continue;
		}
		memcpy(buf, p + n, (size_t)(nl - (p + n)));
		buf[nl - (p + n)] = '\0';
		p = nl + 1;
		cairo_set_font_size(cr, size);
		cairo_text_extents(cr, buf, &e);
		sx = maxw > 0 && e.x_advance > 0 ? maxw / e.x_advance : 1;
		x0 = anchor == 's' ? x : x - e.x_advance * sx / 2;
		cairo_save(cr);
		cairo_translate(cr, x0, y);
		cairo_scale(cr, sx, 1);
		cairo_move_to(cr, 0, 0);
		rgb = strtoul(fill + 1, NULL, 16);
		/* The halo: the outlines stroked in white, flattened to half
		 * a pixel (cairo's default, a tenth, made the halos three
		 * quarters of the texts' time); the text over it from the
		 * cache of glyphs, as every other. */
		if (halo == '1') {
			cairo_text_path(cr, buf);
			cairo_set_source_rgb(cr, 1, 1, 1);
			cairo_save(cr);
			cairo_identity_matrix(cr);
			cairo_scale(cr, scale, scale);
			cairo_set_tolerance(cr, 0.5);
			cairo_stroke(cr);
			cairo_restore(cr);
			cairo_move_to(cr, 0, 0);
		}
		cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0,
		    (rgb >> 8 & 255) / 255.0, (rgb & 255) / 255.0);
		cairo_show_text(cr, buf);
		cairo_restore(cr);
	}
	cairo_restore(cr);
}

/*
 * The texts over rows y0 to y1 - 1 of s: through a cairo surface that is
 * a rectangle of whole rows of s, so that each pixel is drawn as over the
 * whole picture (but for a level on a few pixels of the rows where two
 * bands meet, where cairo cuts the glyphs' edges).  -1: out of memory.
 */
static int
band_texts(cairo_surface_t *s, unsigned y0, unsigned y1, double scale,
    const char *texts, const char *tend)
{
	cairo_surface_t	*sub;
	cairo_t		*cr;
	int		 rc = 0;

	sub = cairo_surface_create_for_rectangle(s, 0, y0,
	    cairo_image_surface_get_width(s), y1 - y0);
	cr = cairo_create(sub);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS)
		rc = -1;
	else {
		cairo_translate(cr, 0, -(double)y0);
		png_texts(cr, texts, tend, scale);
	}
	cairo_destroy(cr);
	cairo_surface_destroy(sub);
	cairo_surface_flush(s);
	return rc;
}

/* A picture of PNG_BANDED pixels or more is drawn in bands. */
#define PNG_BANDED	1000000L

void
emit_png(struct arb_turn *t, int flags, int player, int width, FILE *fp)
{
	RsvgHandle	*h;
	GInputStream	*in;
	GFile		*base;
	GError		*err = NULL;
	cairo_surface_t	*s;
	cairo_t		*cr;
	RsvgRectangle	 vp;
	struct seg	 seg[PNG_SEGS];
	struct bands	 q;
	pthread_t	 th;
	bool		 started = false;
	int		 st, i, n;
	gdouble		 w, hh;
	double		 scale;
	long		 pw, ph;

	/* The SVG in memory, where a failure finds it (view_drop()). */
	t->vbuf = t->tbuf = NULL;
	t->vlen = t->tlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL ||
	    (t->tmem = open_memstream(&t->tbuf, &t->tlen)) == NULL)
		t_nomem(t);
	emit_svg(t, flags, player, t->vmem);
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;
	if (fclose(t->tmem) != 0 || t->tbuf == NULL) {
		t->tmem = NULL;
		t_nomem(t);
	}
	t->tmem = NULL;

	pthread_mutex_lock(&png_lock);
	/* Read with the map's file as its base, so that a background image
	 * named relative to the map is drawn (librsvg loads none from
	 * outside the map's folder). */
	in = g_memory_input_stream_new_from_data(t->vbuf, (gssize)t->vlen,
	    NULL);
	base = t->mapfile != NULL && strcmp(t->mapfile, "<stdin>") != 0 ?
	    g_file_new_for_path(t->mapfile) : NULL;
	h = rsvg_handle_new_from_stream_sync(in, base, RSVG_HANDLE_FLAGS_NONE,
	    NULL, &err);
	g_object_unref(in);
	if (base != NULL)
		g_object_unref(base);
	if (h == NULL) {
		pthread_mutex_unlock(&png_lock);
		if (err != NULL)
			g_error_free(err);
		t_fail(t, ARB_EINTERNAL, "the picture does not read back as "
		    "SVG");
	}
	if (!rsvg_handle_get_intrinsic_size_in_pixels(h, &w, &hh) || w < 1 ||
	    hh < 1) {
		g_object_unref(h);
		pthread_mutex_unlock(&png_lock);
		t_fail(t, ARB_EINTERNAL, "the picture has no size in pixels");
	}
	scale = width > 0 ? (double)width / w : 1.0;
	pw = (long)ceil(w * scale);
	ph = (long)ceil(hh * scale);
	if (pw < 1 || ph < 1 || pw > PNG_MAX_SIDE || ph > PNG_MAX_SIDE ||
	    pw * ph > PNG_MAX_PIXELS) {
		g_object_unref(h);
		pthread_mutex_unlock(&png_lock);
		t_fail(t, ARB_EDATA, "the picture would be %ld x %ld pixels, "
		    "more than a PNG may be (%d pixels a side, %d million in "
		    "all): give a smaller width", pw, ph, PNG_MAX_SIDE,
		    PNG_MAX_PIXELS / 1000000);
	}
	/* RGB, no alpha: the picture paints its own white ground first
	 * (svg.c: a rectangle of 100%). */
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)pw, (int)ph);
	cr = cairo_create(s);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		g_object_unref(h);
		pthread_mutex_unlock(&png_lock);
		t_nomem(t);
	}
	vp.x = 0;
	vp.y = 0;
	vp.width = w * scale;
	vp.height = hh * scale;
	st = rsvg_handle_render_document(h, cr, &vp, &err) ? 0 : -2;
	cairo_destroy(cr);
	if (err != NULL)
		g_error_free(err);
	/* The bands: a small picture (under PNG_BANDED pixels) in one. */
	n = ph >= 64 && pw * ph >= PNG_BANDED ? PNG_SEGS : 1;
	memset(seg, 0, sizeof(seg));
	for (i = 0; i < n; i++) {
		seg[i].data = cairo_image_surface_get_data(s);
		seg[i].stride = (size_t)cairo_image_surface_get_stride(s);
		seg[i].w = (png_uint_32)pw;
		seg[i].y0 = (png_uint_32)(ph * i / n);
		seg[i].y1 = (png_uint_32)(ph * (i + 1) / n);
		seg[i].last = i == n - 1;
		seg[i].rc = -1;
	}
	q.seg = seg;
	q.n = n;
	q.next = q.ready = 0;
	pthread_mutex_init(&q.lock, NULL);
	pthread_cond_init(&q.more, NULL);
	/* The top half's texts, its bands handed to the helper (none when
	 * the turn keeps to one thread: arb_turn_threads(), --threads 1),
	 * the bottom half's texts, then the rest taken by both. */
	if (st == 0)
		st = band_texts(s, 0, seg[(n - 1) / 2].y1, scale, t->tbuf,
		    t->tbuf + t->tlen);
	if (st == 0 && n > 1) {
		bands_ready(&q, (n + 1) / 2);
		started = !t->one_thread && pthread_create(&th, NULL,
		    bands_run, &q) == 0;
		st = band_texts(s, seg[(n - 1) / 2].y1, (unsigned)ph, scale,
		    t->tbuf, t->tbuf + t->tlen);
	}
	if (st == 0) {
		bands_ready(&q, n);
		bands_run(&q);
	} else {
		/* Nothing more to take: the helper ends. */
		pthread_mutex_lock(&q.lock);
		q.next = q.ready = q.n;
		pthread_cond_broadcast(&q.more);
		pthread_mutex_unlock(&q.lock);
	}
	if (started)
		pthread_join(th, NULL);
	pthread_cond_destroy(&q.more);
	pthread_mutex_destroy(&q.lock);
	for (i = 0; i < n && st == 0; i++)
		if (seg[i].rc != 0)
			st = -1;
	g_object_unref(h);
	if (st == 0)
		st = png_put((png_uint_32)pw, (png_uint_32)ph, seg, n, fp) != 0 ?
		    -1 : 0;
	for (i = 0; i < n; i++)
		free(seg[i].out);
	cairo_surface_destroy(s);
	pthread_mutex_unlock(&png_lock);
	view_drop(t);
	if (st == -2)
		t_fail(t, ARB_EINTERNAL, "the picture cannot be rasterised");
	if (st != 0)
		t_nomem(t);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno != 0 ? errno : EIO);
}
