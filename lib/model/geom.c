/*
 * arbiter: a turn adjudicator for hex and territory wargames.
 * Copyright (c) 2026 the arbiter developers.  ISC license (see README.md).
 *
 * Geometry on an open table: points, and convex polygons kept
 * counterclockwise (x east, y north).  Lengths are in steps and compared
 * with GEOM_EPS; two polygons overlap only when their interiors share
 * more than that, so touching is never overlapping.  Rule systems decide
 * what the shapes are; this file knows none of them.
 */
#include <math.h>

#include "model/model.h"

#define PI	3.14159265358979323846

double
pt_len(struct pt a)
{
	return hypot(a.x, a.y);
}

struct pt
pt_unit(struct pt a)
{
	double	 l = pt_len(a);

	return l > 0 ? pt_mul(a, 1 / l) : a;
}

/* Exact for multiples of 90 degrees, so that square tables stay square. */
struct pt
pt_bearing(double deg)
{
	double	 r;

	deg = geom_norm360(deg);
	if (deg == 0)
		return pt_make(0, 1);
	if (deg == 90)
		return pt_make(1, 0);
	if (deg == 180)
		return pt_make(0, -1);
	if (deg == 270)
		return pt_make(-1, 0);
	r = deg * PI / 180;
	return pt_make(sin(r), cos(r));
}

struct pt
geom_rotate(struct pt p, struct pt c, double ccw_deg)
{
	/* A ccw turn by a is a bearing change of -a. */
	struct pt	 d = pt_sub(p, c), u = pt_bearing(-ccw_deg);
	double		 cs = u.y, sn = -u.x;

	return pt_add(c, pt_make(d.x * cs - d.y * sn, d.x * sn + d.y * cs));
}

double
geom_angle(struct pt from, struct pt to)
{
	double	 a = atan2(pt_cross(from, to), pt_dot(from, to)) * 180 / PI;

	return geom_norm360(a);
}

double
geom_norm360(double deg)
{
	deg = fmod(deg, 360);
	if (deg < 0)
		deg += 360;
	if (deg >= 360 - GEOM_AEPS / 2 || fabs(deg) < GEOM_AEPS / 2)
		deg = 0;
	return deg;
}

double
geom_round(double v)
{
	v = round(v * 1000) / 1000;
	return v == 0 ? 0 : v;		/* no -0 in a result */
}

double
geom_area(const struct pt *p, int n)
{
	double	 a = 0;
	int	 i;

	for (i = 0; i < n; i++)
		a += pt_cross(p[i], p[(i + 1) % n]);
	return a / 2;
}

int
geom_convex(struct pt *p, int n)
{
	int	 i, sign = 0;

	if (n < 3)
		return -1;
	for (i = 0; i < n; i++) {
		struct pt	 a = pt_sub(p[(i + 1) % n], p[i]);
		struct pt	 b = pt_sub(p[(i + 2) % n], p[(i + 1) % n]);
		double		 c = pt_cross(a, b);

		if (pt_len(a) <= GEOM_EPS)
			return -1;
		if (fabs(c) <= GEOM_EPS * GEOM_EPS)
			return -1;	/* three corners in a line */
		if (sign == 0)
			sign = c > 0 ? 1 : -1;
		else if ((c > 0 ? 1 : -1) != sign)
			return -1;
	}
	/* Convex turns alone can still wind twice (a pentagram). */
	if (fabs(geom_area(p, n)) <= GEOM_EPS)
		return -1;
	{
		double	 turn = 0;

		for (i = 0; i < n; i++) {
			struct pt a = pt_sub(p[(i + 1) % n], p[i]);
			struct pt b = pt_sub(p[(i + 2) % n], p[(i + 1) % n]);

			turn += atan2(pt_cross(a, b), pt_dot(a, b));
		}
		if (fabs(fabs(turn) - 2 * PI) > 1e-6)
			return -1;
	}
	if (sign < 0)
		for (i = 0; i < n / 2; i++) {
			struct pt tmp = p[i];

			p[i] = p[n - 1 - i];
			p[n - 1 - i] = tmp;
		}
	return 0;
}

static void
project(const struct pt *p, int n, struct pt axis, double *lo, double *hi)
{
	int	 i;

	*lo = *hi = pt_dot(p[0], axis);
	for (i = 1; i < n; i++) {
		double	 d = pt_dot(p[i], axis);

		if (d < *lo)
			*lo = d;
		if (d > *hi)
			*hi = d;
	}
}

/* The unit outward normal of edge i of a counterclockwise polygon. */
static struct pt
normal(const struct pt *p, int n, int i)
{
	return pt_unit(pt_cw(pt_sub(p[(i + 1) % n], p[i])));
}

double
geom_depth(const struct pt *a, int na, const struct pt *b, int nb)
{
	double	 best = INFINITY;
	int	 k;

	for (k = 0; k < na + nb; k++) {
		struct pt	 ax = k < na ? normal(a, na, k) :
		    normal(b, nb, k - na);
		double		 alo, ahi, blo, bhi, d;

		project(a, na, ax, &alo, &ahi);
		project(b, nb, ax, &blo, &bhi);
		d = fmin(ahi, bhi) - fmax(alo, blo);
		if (d < best)
			best = d;
	}
	return best;
}

bool
geom_overlaps(const struct pt *a, int na, const struct pt *b, int nb)
{
	return geom_depth(a, na, b, nb) > GEOM_EPS;
}

/*
 * The swept separating-axis test: on each axis the projections overlap
 * (by more than GEOM_EPS) for s in an interval; the polygons overlap where
 * all the intervals meet.  The contact is where the last axis to close
 * closes, measured without the tolerance.
 */
double
geom_sweep(const struct pt *a, int na, struct pt dir, double dist,
    const struct pt *b, int nb)
{
	double	 lo = -INFINITY, hi = INFINITY, touch = -INFINITY;
	int	 k;

	for (k = 0; k < na + nb; k++) {
		struct pt	 ax = k < na ? normal(a, na, k) :
		    normal(b, nb, k - na);
		double		 alo, ahi, blo, bhi, v, s1, s2, t1;

		project(a, na, ax, &alo, &ahi);
		project(b, nb, ax, &blo, &bhi);
		v = pt_dot(dir, ax);
		if (fabs(v) < 1e-12) {
			if (!(ahi > blo + GEOM_EPS && alo < bhi - GEOM_EPS))
				return -1;
			continue;
		}
		/* ahi + v s > blo + eps and alo + v s < bhi - eps */
		s1 = (blo + GEOM_EPS - ahi) / v;
		s2 = (bhi - GEOM_EPS - alo) / v;
		t1 = v > 0 ? (blo - ahi) / v : (bhi - alo) / v;
		if (v < 0) {
			double tmp = s1;

			s1 = s2;
			s2 = tmp;
		}
		lo = fmax(lo, s1);
		hi = fmin(hi, s2);
		touch = fmax(touch, t1);
	}
	if (!(lo < hi) || hi <= 0 || lo >= dist)
		return -1;
	return touch > 0 ? touch : 0;
}

bool
geom_inside(const struct pt *p, int n, struct pt q)
{
	int	 i;

	for (i = 0; i < n; i++)
		if (pt_dot(pt_sub(q, p[i]), normal(p, n, i)) > -GEOM_EPS)
			return false;
	return true;
}

/* Sutherland-Hodgman: a clipped by each edge of b. */
int
geom_clip(const struct pt *a, int na, const struct pt *b, int nb,
    struct pt *out)
{
	struct pt	 buf[2][2 * GEOM_MAXPTS + 8];
	int		 n = na, i, j, cur = 0;

	if (na + nb > GEOM_MAXPTS + 8)
		return 0;
	for (i = 0; i < na; i++)
		buf[0][i] = a[i];
	for (j = 0; j < nb && n > 0; j++) {
		struct pt	 e0 = b[j], nv = normal(b, nb, j);
		struct pt	*in = buf[cur], *o = buf[!cur];
		int		 m = 0;

		for (i = 0; i < n; i++) {
			struct pt	 p = in[i], q = in[(i + 1) % n];
			double		 dp = pt_dot(pt_sub(p, e0), nv);
			double		 dq = pt_dot(pt_sub(q, e0), nv);

			if (m + 2 > 2 * GEOM_MAXPTS + 8)
				break;	/* only noise could get here */
			if (dp <= 0)
				o[m++] = p;
			if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0))
				o[m++] = pt_add(p, pt_mul(pt_sub(q, p),
				    dp / (dp - dq)));
		}
		n = m;
		cur = !cur;
	}
	for (i = 0; i < n; i++)
		out[i] = buf[cur][i];
	return n;
}

double
geom_segdist(struct pt p, struct pt a, struct pt b)
{
	struct pt	 d = pt_sub(b, a);
	double		 l2 = pt_dot(d, d), u;

	if (l2 == 0)
		return pt_len(pt_sub(p, a));
	u = pt_dot(pt_sub(p, a), d) / l2;
	u = u < 0 ? 0 : u > 1 ? 1 : u;
	return pt_len(pt_sub(p, pt_add(a, pt_mul(d, u))));
}

double
geom_shared(const struct pt *a, int na, const struct pt *b, int nb)
{
	double	 best = 0;
	int	 i, j;

	for (i = 0; i < na; i++)
		for (j = 0; j < nb; j++) {
			struct pt	 a0 = a[i], a1 = a[(i + 1) % na];
			struct pt	 b0 = b[j], b1 = b[(j + 1) % nb];
			struct pt	 u = pt_unit(pt_sub(a1, a0));
			double		 lo, hi, p0, p1;

			/* Collinear: both ends of b's edge on a's line. */
			if (fabs(pt_cross(u, pt_sub(b0, a0))) > GEOM_EPS ||
			    fabs(pt_cross(u, pt_sub(b1, a0))) > GEOM_EPS)
				continue;
			p0 = pt_dot(pt_sub(b0, a0), u);
			p1 = pt_dot(pt_sub(b1, a0), u);
			lo = fmax(0, fmin(p0, p1));
			hi = fmin(pt_len(pt_sub(a1, a0)), fmax(p0, p1));
			if (hi - lo > best)
				best = hi - lo;
		}
	return best;
}
