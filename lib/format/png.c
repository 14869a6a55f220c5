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
 * The PNG is written here with libpng rather than by cairo's writer
 * (libpng too, but at zlib's default level with adaptive filters: half
 * the picture's time, tests/bench/README): a picture is mostly flat
 * colour, which zlib's fastest level packs nearly as small without a
 * filter, in a fraction of the time.
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <errno.h>
#include <math.h>
#include <pthread.h>
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
 * Surface s (cairo's RGB24: a 32-bit word 0x00RRGGBB a pixel) as an RGB
 * PNG on fp, by libpng: each row unfiltered, zlib at its level 1.  0, or
 * -1 when libpng fails (out of memory).  No time or text chunk: the same
 * bytes each run.
 */
static int
png_put(cairo_surface_t *s, FILE *fp)
{
	const unsigned char *data = cairo_image_surface_get_data(s);
	png_uint_32	 w = (png_uint_32)cairo_image_surface_get_width(s);
	png_uint_32	 h = (png_uint_32)cairo_image_surface_get_height(s);
	size_t		 stride = (size_t)cairo_image_surface_get_stride(s);
	png_structp	 p;
	png_infop	 info = NULL;
	unsigned char	*volatile row = NULL;
	const uint32_t	*px;
	png_uint_32	 x, y;

	if ((p = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL,
	    png_quiet_error, png_quiet_warning)) == NULL)
		return -1;
	if ((info = png_create_info_struct(p)) == NULL ||
	    (row = malloc(3 * (size_t)w)) == NULL) {
		png_destroy_write_struct(&p, &info);
		return -1;
	}
	if (setjmp(png_jmpbuf(p))) {
		free(row);
		png_destroy_write_struct(&p, &info);
		return -1;
	}
	png_set_write_fn(p, fp, png_out, png_flush_none);
	png_set_IHDR(p, info, w, h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
	    PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_filter(p, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
	png_set_compression_level(p, 1);
	png_write_info(p, info);
	for (y = 0; y < h; y++) {
		px = (const uint32_t *)(const void *)(data + y * stride);
		for (x = 0; x < w; x++) {
			row[3 * x] = (unsigned char)(px[x] >> 16);
			row[3 * x + 1] = (unsigned char)(px[x] >> 8);
			row[3 * x + 2] = (unsigned char)px[x];
		}
		png_write_row(p, row);
	}
	png_write_end(p, info);
	free(row);
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
		if (halo == '1') {
			cairo_text_path(cr, buf);
			cairo_set_source_rgb(cr, 1, 1, 1);
			cairo_save(cr);
			cairo_identity_matrix(cr);
			cairo_scale(cr, scale, scale);
			cairo_stroke_preserve(cr);
			cairo_restore(cr);
			cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0,
			    (rgb >> 8 & 255) / 255.0, (rgb & 255) / 255.0);
			cairo_fill(cr);
		} else {
			cairo_set_source_rgb(cr, (rgb >> 16 & 255) / 255.0,
			    (rgb >> 8 & 255) / 255.0, (rgb & 255) / 255.0);
			cairo_show_text(cr, buf);
		}
		cairo_restore(cr);
	}
	cairo_restore(cr);
}

void
emit_png(struct arb_turn *t, int flags, int player, int width, FILE *fp)
{
	RsvgHandle	*h;
	GInputStream	*in;
	GFile		*base;
	GError		*err = NULL;
	cairo_surface_t	*s;
	cairo_t		*cr;
	int		 st;
	RsvgRectangle	 vp;
	gboolean	 ok;
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
	/* RGB, no alpha: the picture has a white ground of its own. */
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)pw, (int)ph);
	cr = cairo_create(s);
	if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		g_object_unref(h);
		pthread_mutex_unlock(&png_lock);
		t_nomem(t);
	}
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	vp.x = 0;
	vp.y = 0;
	vp.width = w * scale;
	vp.height = hh * scale;
	ok = rsvg_handle_render_document(h, cr, &vp, &err);
	if (ok)
		png_texts(cr, t->tbuf, t->tbuf + t->tlen, scale);
	cairo_destroy(cr);
	g_object_unref(h);
	if (!ok) {
		cairo_surface_destroy(s);
		pthread_mutex_unlock(&png_lock);
		if (err != NULL)
			g_error_free(err);
		t_fail(t, ARB_EINTERNAL, "the picture cannot be rasterised");
	}
	cairo_surface_flush(s);
	st = png_put(s, fp);
	cairo_surface_destroy(s);
	pthread_mutex_unlock(&png_lock);
	view_drop(t);
	if (st != 0)
		t_nomem(t);
	if (ferror(fp))
		jw_fail(&t->mem, fp, errno != 0 ? errno : EIO);
}
