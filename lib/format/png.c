/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * The formats layer (format.h): the picture as PNG, for the mail readers
 * that show no SVG.  The SVG that svg.c draws is rasterised by librsvg
 * onto a cairo surface, so the PNG is the same picture, drawn in the font
 * the SVG names (DejaVu Sans, which the set-up installs): the same bytes
 * each run on one machine.  The only file that includes librsvg or cairo.
 */
#define _POSIX_C_SOURCE 200809L	/* open_memstream */

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The model's names first: GLib's <unistd.h> defines R_OK, a name of
 * the model's reasons. */
#include "format/format.h"
#include "json/doc.h"

#include <cairo.h>
#include <librsvg/rsvg.h>

/*
 * Fontconfig and pango, under librsvg, keep state of their own for the
 * process: one picture is rasterised at a time, as Graphviz lays out one
 * graph at a time (svg.c).
 */
static pthread_mutex_t	 png_lock = PTHREAD_MUTEX_INITIALIZER;

/* What cairo writes goes to the caller's stream. */
static cairo_status_t
png_write(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS :
	    CAIRO_STATUS_WRITE_ERROR;
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
	cairo_status_t	 st;
	RsvgRectangle	 vp;
	gboolean	 ok;
	gdouble		 w, hh;
	double		 scale;
	long		 pw, ph;

	/* The SVG in memory, where a failure finds it (view_drop()). */
	t->vbuf = NULL;
	t->vlen = 0;
	if ((t->vmem = open_memstream(&t->vbuf, &t->vlen)) == NULL)
		t_nomem(t);
	emit_svg(t, flags, player, t->vmem);
	if (fclose(t->vmem) != 0 || t->vbuf == NULL) {
		t->vmem = NULL;
		t_nomem(t);
	}
	t->vmem = NULL;

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
	st = cairo_surface_write_to_png_stream(s, png_write, fp);
	cairo_surface_destroy(s);
	pthread_mutex_unlock(&png_lock);
	view_drop(t);
	if (st == CAIRO_STATUS_NO_MEMORY)
		t_nomem(t);
	if (st != CAIRO_STATUS_SUCCESS || ferror(fp))
		jw_fail(&t->mem, fp, errno != 0 ? errno : EIO);
}
