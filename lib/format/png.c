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
 * The PNG is written here, not by cairo: cairo's writer (libpng, zlib's
 * default level, adaptive filters) took half the picture's time
 * (tests/bench/README).  A picture is mostly flat colour, which
 * libdeflate's fastest level packs as small as zlib's without a filter,
 * in a third of zlib's time.
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
#include <libdeflate.h>

/*
 * Fontconfig and pango, under librsvg, keep state of their own for the
 * process: one picture is rasterised at a time, as Graphviz lays out one
 * graph at a time (svg.c).
 */
static pthread_mutex_t	 png_lock = PTHREAD_MUTEX_INITIALIZER;

/* A PNG chunk: its length, type and data, and their CRC. */
static void
png_chunk(FILE *fp, const char *type, const unsigned char *data, size_t n)
{
	unsigned char	 hd[8], crc[4];
	uint32_t	 c;

	hd[0] = (unsigned char)(n >> 24);
	hd[1] = (unsigned char)(n >> 16);
	hd[2] = (unsigned char)(n >> 8);
	hd[3] = (unsigned char)n;
	memcpy(hd + 4, type, 4);
	c = libdeflate_crc32(0, hd + 4, 4);
	if (n > 0)		/* (a null buffer: the CRC's first value) */
		c = libdeflate_crc32(c, data, n);
	crc[0] = (unsigned char)(c >> 24);
	crc[1] = (unsigned char)(c >> 16);
	crc[2] = (unsigned char)(c >> 8);
	crc[3] = (unsigned char)c;
	fwrite(hd, 1, 8, fp);
	if (n > 0)
		fwrite(data, 1, n, fp);
	fwrite(crc, 1, 4, fp);
}

/*
 * Surface s (cairo's RGB24: a 32-bit word 0x00RRGGBB a pixel) as an RGB
 * PNG on fp, each row unfiltered, compressed whole by libdeflate at its
 * level 1: 0, or -1 out of memory.  No time or text chunk: the same
 * bytes each run.  A short write is seen by ferror() after.
 */
static int
png_put(cairo_surface_t *s, FILE *fp)
{
	static const unsigned char sig[8] = { 137, 'P', 'N', 'G', '\r', '\n',
		26, '\n' };
	const unsigned char *data = cairo_image_surface_get_data(s);
	size_t		 w = (size_t)cairo_image_surface_get_width(s);
	size_t		 h = (size_t)cairo_image_surface_get_height(s);
	size_t		 stride = (size_t)cairo_image_surface_get_stride(s);
	size_t		 rowb = 1 + 3 * w, x, y, bound, n;
	struct libdeflate_compressor *z;
	unsigned char	*raw, *out, *q, ihdr[13];
	const uint32_t	*px;

	if ((raw = malloc(rowb * h)) == NULL)
		return -1;
	for (y = 0; y < h; y++) {
		q = raw + y * rowb;
		px = (const uint32_t *)(const void *)(data + y * stride);
		*q++ = 0;		/* no filter */
		for (x = 0; x < w; x++) {
			*q++ = (unsigned char)(px[x] >> 16);
			*q++ = (unsigned char)(px[x] >> 8);
			*q++ = (unsigned char)px[x];
		}
	}
	if ((z = libdeflate_alloc_compressor(1)) == NULL) {
		free(raw);
		return -1;
	}
	bound = libdeflate_zlib_compress_bound(z, rowb * h);
	if ((out = malloc(bound)) == NULL) {
		libdeflate_free_compressor(z);
		free(raw);
		return -1;
	}
	n = libdeflate_zlib_compress(z, raw, rowb * h, out, bound);
	libdeflate_free_compressor(z);
	free(raw);
	if (n == 0) {
		free(out);
		return -1;
	}
	ihdr[0] = (unsigned char)(w >> 24);
	ihdr[1] = (unsigned char)(w >> 16);
	ihdr[2] = (unsigned char)(w >> 8);
	ihdr[3] = (unsigned char)w;
	ihdr[4] = (unsigned char)(h >> 24);
	ihdr[5] = (unsigned char)(h >> 16);
	ihdr[6] = (unsigned char)(h >> 8);
	ihdr[7] = (unsigned char)h;
	ihdr[8] = 8;		/* bits a sample */
	ihdr[9] = 2;		/* RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;	/* deflate, filters, no
						 * interlace */
	fwrite(sig, 1, sizeof(sig), fp);
	png_chunk(fp, "IHDR", ihdr, sizeof(ihdr));
	png_chunk(fp, "IDAT", out, n);
	png_chunk(fp, "IEND", NULL, 0);
	free(out);
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
