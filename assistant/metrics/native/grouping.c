/* Grouping kernel: the numeric part of ``assistant/metrics/grouping.py`` (Gestalt proximity).
 *
 * grouping(edges6, role, group, idx, rel, ink_off, ink_boxes, radius, delta, reach, small, dense_share, max_findings)
 *   edges6      float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   role        int64 (n): role codes; group int64 (n): parent group code, -1 for none
 *   idx         int64 (m): the elements judged (3 <= m <= LA_MAX)
 *   rel         bool (R, R): whether two roles are related (``grouping._REL``)
 *   ink_off     int64 (n + 1), or empty when no leaf has ink: leaf i's ink boxes are rows ink_off[i]..ink_off[i+1]
 *   ink_boxes   float64 (K, 4): ink boxes as x1, y1, x2, y2 (``LayoutArrays.ink_edges``)
 *   radius      the sweep radius of ``neighbours.nearest_split``; small, dense_share its SMALL and DENSE_SHARE
 *   delta       the softening of the distance ratio
 *   reach       an element whose nearest relative is further than this is not judged (``grouping.REACH``)
 * -> None when no element has both a related (within the reach) and an unrelated other element, else
 *    (score, count, [(e, rel, un, d_rel, d_un, s, gx, gy, sx, sy), ...]): ``count`` elements judged, and the
 *    elements whose ratio q exceeds 1, largest q first (at most ``max_findings``), with their nearest related
 *    and unrelated leaves, the two distances, the element's score, its box gaps to the relative along x and y
 *    and the relative's sides (+-1.0; see ``grouping.proximity``).
 *
 * ``neighbours.nearest_split`` is reproduced exactly, ties included: up to ``small`` elements every pair is
 * compared (ties to the first of ``idx``); beyond, the pairs its strip sweep lists are found by testing every
 * pair with the sweep's own arithmetic, ties go by left-edge rank, and rows not settled within the radius are
 * compared with every pair.
 */
#include "native.h"

/* the elements judged, by position in ``idx``: boxes, ink, and which pairs are related (a bit per pair) */
typedef struct {
    Py_ssize_t m;
    const int64_t *X, *ink_off;
    const double *ink;
    double x1[LA_MAX], x2[LA_MAX], y1[LA_MAX], y2[LA_MAX];
    uint8_t inky[LA_MAX];
    uint64_t rel[LA_MAX][LA_MAX / 64];
} Geo;

/* numpy's ``maximum`` / ``minimum`` of two non-NaN values (the second on a tie, as its vector loops give) */
static inline double gr_max(double a, double b) { return a > b ? a : b; }
static inline double gr_min(double a, double b) { return a < b ? a : b; }

/* ``neighbours.box_distance`` of two boxes (per axis the larger one-sided gap, at least 0; then hypot), or some
 * value above ``bound`` when the distance is: hypot is at least the larger gap, so most far pairs need no call */
static inline double box_gap(double x1a, double y1a, double x2a, double y2a, double x1b, double y1b, double x2b,
                             double y2b, double bound) {
    double dx = gr_max(gr_max(x1b - x2a, x1a - x2b), 0.0), dy = gr_max(gr_max(y1b - y2a, y1a - y2b), 0.0);
    /* hypot(x, 0) is |x| exactly (C11 F.10.4.3); a faithfully rounded hypot(x, y) is at least max(x, y) */
    if (dx == 0.0) return dy;
    if (dy == 0.0) return dx;
    if (dx > bound || dy > bound) return dx > dy ? dx : dy;
    return hypot(dx, dy);
}

/* the distance of positions r and j (exact when at most ``bound``, else some value above it): their boxes, or
 * (``neighbours.ink_gaps``) the box of one against the nearest ink box of the other, which is the later leaf
 * when both have ink (the order numpy overwrites them in) */
static double pair_distance(const Geo *g, Py_ssize_t r, Py_ssize_t j, double bound) {
    int ia = g->inky[r], ib = g->inky[j];
    if (!ia && !ib)
        return box_gap(g->x1[r], g->y1[r], g->x2[r], g->y2[r], g->x1[j], g->y1[j], g->x2[j], g->y2[j], bound);
    Py_ssize_t a = g->X[r], b = g->X[j], o = (ia && (!ib || a > b)) ? j : r, k = o == r ? b : a;
    double best = INFINITY;
    for (int64_t q = g->ink_off[k]; q < g->ink_off[k + 1]; q++) {
        const double *p = g->ink + 4 * q;
        double d = box_gap(g->x1[o], g->y1[o], g->x2[o], g->y2[o], p[0], p[1], p[2], p[3], bound);
        if (d < best) best = d;
    }
    return best;
}

static inline int related(const Geo *g, Py_ssize_t r, Py_ssize_t j) { return g->rel[r][j >> 6] >> (j & 63) & 1; }

/* the exact nearest related and unrelated partners of position r over all pairs, ties to the first position */
static void brute_row(const Geo *g, Py_ssize_t r, double *dr, Py_ssize_t *pr, double *du, Py_ssize_t *pu) {
    double best[2] = {INFINITY, INFINITY};
    Py_ssize_t at[2] = {-1, -1};
    for (Py_ssize_t j = 0; j < g->m; j++) {
        if (j == r) continue;
        int c = related(g, r, j);
        double d = pair_distance(g, r, j, best[c]);
        if (d < best[c]) best[c] = d, at[c] = j;
    }
    *dr = best[1], *pr = at[1], *du = best[0], *pu = at[0];
}

/* ``neighbours.strip_pair_blocks`` and its radius filter, as a test of one pair (see nearest_split) */
typedef struct {
    double lo_x[LA_MAX], hi_x[LA_MAX], x0, off, radius;
    Py_ssize_t s0[LA_MAX], s1[LA_MAX];
} Strips;

static int strip_pair(const Geo *g, const Strips *s, Py_ssize_t a, Py_ssize_t b) {
    /* listed once, in the first strip both touch, when their x intervals meet on that strip's offset axis */
    Py_ssize_t t = s->s0[a] > s->s0[b] ? s->s0[a] : s->s0[b];
    if (t > s->s1[a] || t > s->s1[b]) return 0;
    double base = (double)t * s->off;
    double la = base + (s->lo_x[a] - s->x0), ha = base + (s->hi_x[a] - s->x0);
    double lb = base + (s->lo_x[b] - s->x0), hb = base + (s->hi_x[b] - s->x0);
    if (!(gr_max(la, lb) <= gr_min(ha, hb))) return 0;
    return gr_min(g->x2[a], g->x2[b]) - gr_max(g->x1[a], g->x1[b]) >= -s->radius
           && gr_min(g->y2[a], g->y2[b]) - gr_max(g->y1[a], g->y1[b]) >= -s->radius;
}

/* nearest_split beyond ``small`` elements: candidates within the radius first, every pair for unsettled rows */
static void swept(const Geo *g, const uint8_t *need, double radius, double dense_share, double *d_rel,
                  Py_ssize_t *p_rel, double *d_un, Py_ssize_t *p_un) {
    Py_ssize_t m = g->m;
    Strips s;
    double h = radius / 2, lo_y[LA_MAX], hi_y[LA_MAX];
    s.radius = radius;
    for (Py_ssize_t r = 0; r < m; r++) {
        s.lo_x[r] = g->x1[r] - h;
        s.hi_x[r] = g->x2[r] + h;
        lo_y[r] = g->y1[r] - h;
        hi_y[r] = g->y2[r] + h;
    }
    double y0 = INFINITY, ymax = -INFINITY, xmax = -INFINITY;
    s.x0 = INFINITY;
    for (Py_ssize_t r = 0; r < m; r++) {
        y0 = gr_min(y0, lo_y[r]);
        ymax = gr_max(ymax, hi_y[r]);
        s.x0 = gr_min(s.x0, s.lo_x[r]);
        xmax = gr_max(xmax, s.hi_x[r]);
    }
    Py_ssize_t ns = (Py_ssize_t)sqrt((double)m);
    if (ns < 1) ns = 1;
    double size = (ymax - y0) / (double)ns;
    if (1e-9 > size) size = 1e-9;
    for (Py_ssize_t r = 0; r < m; r++) {
        Py_ssize_t a = (Py_ssize_t)(gr_max(lo_y[r] - y0, 0.0) / size);
        Py_ssize_t b = (Py_ssize_t)(gr_max(hi_y[r] - y0, 0.0) / size);
        s.s0[r] = a < ns - 1 ? a : ns - 1;
        s.s1[r] = b < ns - 1 ? b : ns - 1;
    }
    s.off = 2.0 * (xmax - s.x0) + 1.0;
    /* the candidate pairs (a bit per pair); none at all when they are too many (brute force is cheaper) */
    uint64_t cand[LA_MAX][LA_MAX / 64];
    memset(cand, 0, sizeof(cand));
    Py_ssize_t pairs = 0;
    for (Py_ssize_t a = 0; a < m; a++)
        for (Py_ssize_t b = a + 1; b < m; b++)
            if (strip_pair(g, &s, a, b)) {
                cand[a][b >> 6] |= 1ULL << (b & 63);
                cand[b][a >> 6] |= 1ULL << (a & 63);
                pairs++;
            }
    int dense = (double)pairs > dense_share * (double)m * (double)m;
    /* ties: the partner first in left-edge order after the element, then first before it */
    Py_ssize_t order[LA_MAX], rank[LA_MAX];
    la_argsort_stable(s.lo_x, m, order);
    for (Py_ssize_t p = 0; p < m; p++) rank[order[p]] = p;
    for (Py_ssize_t r = 0; r < m; r++) {
        if (!need[r]) continue;
        double br = INFINITY, bu = INFINITY;
        Py_ssize_t jr = -1, ju = -1, tr = 0, tu = 0;
        if (!dense)
            for (Py_ssize_t j = 0; j < m; j++) {
                if (!(cand[r][j >> 6] >> (j & 63) & 1)) continue;
                int rel = related(g, r, j);
                double d = pair_distance(g, r, j, rel ? br : bu);
                Py_ssize_t tie = rank[j] + (rank[j] < rank[r] ? m : 0);
                if (rel) {
                    if (d < br || (d == br && tie < tr)) br = d, jr = j, tr = tie;
                } else if (d < bu || (d == bu && tie < tu)) {
                    bu = d, ju = j, tu = tie;
                }
            }
        if (br > radius || bu > radius) {
            brute_row(g, r, &d_rel[r], &p_rel[r], &d_un[r], &p_un[r]);
        } else {
            d_rel[r] = br, p_rel[r] = jr, d_un[r] = bu, p_un[r] = ju;
        }
    }
}

PyObject *la_grouping(PyObject *self, PyObject *args) {
    Py_buffer e6, rol, grp, ix, rl, io, ib;
    double radius, delta, reach, dense_share;
    Py_ssize_t small, max_findings;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*dddndn", &e6, &rol, &grp, &ix, &rl, &io, &ib, &radius, &delta,
                          &reach, &small, &dense_share, &max_findings))
        return NULL;
    Py_ssize_t n = rol.len / (Py_ssize_t)sizeof(int64_t), m = ix.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t R = (Py_ssize_t)sqrt((double)rl.len);
    if (m < 3 || m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native grouping: needs 3..%d elements of %d leaves, got %zd of %zd", LA_MAX,
                     LA_MAX, m, n);
        goto done;
    }
    if (R < 1 || R * R != rl.len) {
        PyErr_Format(PyExc_ValueError, "native grouping: rel holds %zd bytes, needs a square table of roles", rl.len);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&grp, n, sizeof(int64_t), "group"))
        goto done;
    if (io.len != 0 && io.len != (n + 1) * (Py_ssize_t)sizeof(int64_t)) {
        PyErr_Format(PyExc_ValueError, "native grouping: ink_off holds %zd bytes, needs 0 or %zd", io.len,
                     (n + 1) * (Py_ssize_t)sizeof(int64_t));
        goto done;
    }
    {
        const double *E = e6.buf;
        const int64_t *X = ix.buf, *RO = rol.buf, *OFF = io.len ? io.buf : NULL;
        Py_ssize_t boxes = ib.len / (Py_ssize_t)(4 * sizeof(double));
        if (OFF != NULL)
            for (Py_ssize_t i = 0; i < n; i++)
                if (OFF[0] != 0 || OFF[i + 1] < OFF[i] || OFF[i + 1] > boxes) {
                    PyErr_Format(PyExc_ValueError, "native grouping: ink_off must rise from 0 to at most the %zd "
                                 "ink boxes, breaks at leaf %zd", boxes, i);
                    goto done;
                }
        for (Py_ssize_t k = 0; k < m; k++)
            if (X[k] < 0 || X[k] >= n || RO[X[k]] < 0 || RO[X[k]] >= R) {
                PyErr_Format(PyExc_ValueError, "native grouping: element %zd is leaf %lld of %zd (role code %lld)", k,
                             (long long)X[k], n, X[k] >= 0 && X[k] < n ? (long long)RO[X[k]] : -1LL);
                goto done;
            }
        const int64_t *GR = grp.buf;
        const uint8_t *REL = rl.buf;
        Geo g;
        g.m = m, g.X = X, g.ink_off = OFF, g.ink = ib.buf;
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = X[k];
            g.x1[k] = E[i];
            g.x2[k] = E[2 * n + i];
            g.y1[k] = E[3 * n + i];
            g.y2[k] = E[5 * n + i];
            g.inky[k] = OFF != NULL && OFF[i + 1] > OFF[i];
        }
        /* related pairs (``grouping.related``), and the rows with at least one related other element
         * (``grouping.has_relative``): only they are judged */
        uint8_t need[LA_MAX];
        for (Py_ssize_t r = 0; r < m; r++) {
            int64_t a = X[r], ga = GR[a];
            const uint8_t *row = REL + RO[a] * R;
            need[r] = 0;
            for (Py_ssize_t w = 0; w < LA_MAX / 64; w++) g.rel[r][w] = 0;
            for (Py_ssize_t j = 0; j < m; j++) {
                int64_t b = X[j];
                if (row[RO[b]] || (ga >= 0 && ga == GR[b])) {
                    g.rel[r][j >> 6] |= 1ULL << (j & 63);
                    need[r] |= j != r;
                }
            }
        }
        double d_rel[LA_MAX], d_un[LA_MAX];
        Py_ssize_t p_rel[LA_MAX], p_un[LA_MAX];
        for (Py_ssize_t r = 0; r < m; r++) d_rel[r] = d_un[r] = INFINITY, p_rel[r] = p_un[r] = -1;
        if (m <= small) {
            for (Py_ssize_t r = 0; r < m; r++)
                if (need[r]) brute_row(&g, r, &d_rel[r], &p_rel[r], &d_un[r], &p_un[r]);
        } else {
            swept(&g, need, radius, dense_share, d_rel, p_rel, d_un, p_un);
        }
        Py_ssize_t sel[LA_MAX], ns = 0;
        double q[LA_MAX], s[LA_MAX];
        for (Py_ssize_t r = 0; r < m; r++) {
            if (!need[r] || !isfinite(d_rel[r]) || !isfinite(d_un[r]) || d_rel[r] > reach) continue;
            q[ns] = (d_rel[r] + delta) / (d_un[r] + delta);
            s[ns] = gr_min(gr_max(1.5 - q[ns], 0.0), 1.0);
            sel[ns++] = r;
        }
        if (ns == 0) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        double score = la_pairwise_sum(s, ns) / (double)ns;
        /* the elements with q > 1 by falling q, after equal q (a stable sort of -q) */
        Py_ssize_t bad[LA_MAX], nb = 0;
        for (Py_ssize_t k = 0; k < ns; k++) {
            if (!(q[k] > 1.0)) continue;
            Py_ssize_t j = nb++;
            while (j > 0 && q[bad[j - 1]] < q[k]) {
                bad[j] = bad[j - 1];
                j--;
            }
            bad[j] = k;
        }
        if (nb > max_findings) nb = max_findings < 0 ? 0 : max_findings;
        PyObject *list = PyList_New(nb);
        if (list == NULL) goto done;
        for (Py_ssize_t b = 0; b < nb; b++) {
            Py_ssize_t k = bad[b], r = sel[k], e = X[r], rel = X[p_rel[r]];
            /* the gaps to the relative per axis and its sides, as Python's max(a, b, 0.0) and a comparison */
            double gx = E[rel] - E[2 * n + e], gy = E[3 * n + rel] - E[5 * n + e], v;
            if ((v = E[e] - E[2 * n + rel]) > gx) gx = v;
            if (0.0 > gx) gx = 0.0;
            if ((v = E[3 * n + e] - E[5 * n + rel]) > gy) gy = v;
            if (0.0 > gy) gy = 0.0;
            double sx = E[n + rel] > E[n + e] ? 1.0 : -1.0, sy = E[4 * n + rel] > E[4 * n + e] ? 1.0 : -1.0;
            PyObject *item = Py_BuildValue("(nnnddddddd)", e, rel, (Py_ssize_t)X[p_un[r]], d_rel[r], d_un[r], s[k],
                                           gx, gy, sx, sy);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, b, item);
        }
        out = Py_BuildValue("(dnN)", score, ns, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&rol);
    PyBuffer_Release(&grp);
    PyBuffer_Release(&ix);
    PyBuffer_Release(&rl);
    PyBuffer_Release(&io);
    PyBuffer_Release(&ib);
    return out;
}
