/* Grid kernel: the numeric part of ``assistant/metrics/grid.py`` (conformance to the best column grid).
 *
 * grid(edges6, idx, w, cols, W, safe_x1, safe_x2, full_width, cluster_tol, slack, tau, charge, near)
 *   edges6 float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf (n <= LA_MAX)
 *   idx    int64 (m0): the candidate leaves (non-decoration units); those narrower than ``full_width · W`` are judged
 *   w      float64 (n): the leaves' widths
 *   cols   float64 (nc): the column counts of the regular grids (1 <= nc <= GRID_MAX_COLS)
 *   safe_x1, safe_x2: the safe box's left and right edges
 * -> None when fewer than two leaves are judged, else (mean, best, m, [(i, left, dx, d), ...]): the best grid's
 *    mean score, its row (the regular grids on the safe area, on the content area, then the detected grid), the
 *    number of leaves judged, and the near misses (slack < d <= near) farthest first: leaf index, whether the left
 *    edge is the closer one, the move onto that edge's line, and the normalised distance.
 */
#include "native.h"

#define GRID_MAX_COLS 16
#define GRID_ROWS (2 * GRID_MAX_COLS + 1)

/* numpy's maximum and minimum: NaN wins */
static inline double np_max(double a, double b) { return (a >= b || isnan(a)) ? a : b; }
static inline double np_min(double a, double b) { return (a <= b || isnan(a)) ? a : b; }

/* Cluster centres (``_cluster_sorted`` of one sorted row): split where neighbours are more than ``tol`` apart,
 * keep clusters of at least two values. Returns how many centres were written to ``out``. */
static Py_ssize_t cluster(const double *s, Py_ssize_t m, double tol, double *out) {
    Py_ssize_t k = 0, cnt = 0;
    double sum = 0.0;
    for (Py_ssize_t p = 0; p <= m; p++) {
        if (p == m || (p > 0 && s[p] - s[p - 1] > tol)) {
            if (cnt >= 2) out[k++] = sum / (double)cnt;
            sum = 0.0;
            cnt = 0;
        }
        if (p < m) {
            sum += s[p];
            cnt++;
        }
    }
    return k;
}

/* The nearest of the sorted ``lines`` (``_nearest``): the lower neighbour of the insertion point on a tie. */
static double nearest(double x, const double *lines, Py_ssize_t nl) {
    Py_ssize_t lo = 0, hi = nl; /* searchsorted, side left: the first line >= x */
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (lines[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    double a = lines[lo > 0 ? lo - 1 : 0], b = lines[lo < nl - 1 ? lo : nl - 1];
    return fabs(x - a) <= fabs(x - b) ? a : b;
}

PyObject *la_grid(PyObject *self, PyObject *args) {
    Py_buffer e6, ix, wb, cb;
    double W, safe1, safe2, full, ctol, slack, tau, charge, near_d;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*ddddddddd", &e6, &ix, &wb, &cb, &W, &safe1, &safe2, &full, &ctol, &slack,
                          &tau, &charge, &near_d))
        return NULL;
    Py_ssize_t n = wb.len / (Py_ssize_t)sizeof(double), m0 = ix.len / (Py_ssize_t)sizeof(int64_t),
               nc = cb.len / (Py_ssize_t)sizeof(double);
    if (m0 > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native grid: needs at most %d elements of %d leaves, got %zd of %zd", LA_MAX,
                     LA_MAX, m0, n);
        goto done;
    }
    if (nc < 1 || nc > GRID_MAX_COLS) {
        PyErr_Format(PyExc_ValueError, "native grid: needs 1..%d column counts, got %zd", GRID_MAX_COLS, nc);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6")) goto done;
    {
        const double *E = e6.buf, *Wd = wb.buf, *C = cb.buf;
        const int64_t *X = ix.buf;
        Py_ssize_t leaf[LA_MAX], m = 0, best = 0;
        for (Py_ssize_t k = 0; k < m0; k++) {
            int64_t i = X[k];
            if (i < 0 || i >= n) {
                PyErr_Format(PyExc_ValueError, "native grid: element index %lld out of range for %zd leaves",
                             (long long)i, n);
                goto done;
            }
            if (Wd[i] < full * W) leaf[m++] = (Py_ssize_t)i;
        }
        if (m < 2) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        /* x12: the left edges, then the right edges; s1, s2 each sorted */
        double x12[2 * LA_MAX], s1[LA_MAX], s2[LA_MAX];
        Py_ssize_t order[LA_MAX];
        for (Py_ssize_t k = 0; k < m; k++) {
            x12[k] = E[leaf[k]];
            x12[m + k] = E[2 * n + leaf[k]];
        }
        la_argsort_stable(x12, m, order);
        for (Py_ssize_t p = 0; p < m; p++) s1[p] = x12[order[p]];
        la_argsort_stable(x12 + m, m, order);
        for (Py_ssize_t p = 0; p < m; p++) s2[p] = x12[m + order[p]];
        /* candidate lines per edge: the regular grids (safe area, content area), then the detected grid; each
         * row's snapped positions go to ``row``, the best row's are kept in ``sn`` */
        double f0[GRID_ROWS], f1[GRID_ROWS], lines[GRID_ROWS], step[GRID_ROWS];
        Py_ssize_t nreg = 2 * nc, rows = nreg;
        for (Py_ssize_t r = 0; r < nreg; r++) {
            f0[r] = r < nc ? safe1 : s1[0];
            f1[r] = r < nc ? safe2 : s2[m - 1];
            lines[r] = C[r % nc] + 1;
            step[r] = np_max(f1[r] - f0[r], 1e-9) / C[r % nc];
        }
        double starts[LA_MAX], ends[LA_MAX];
        Py_ssize_t ns = cluster(s1, m, ctol * W, starts), ne = cluster(s2, m, ctol * W, ends);
        if (ns > 0 || ne > 0) {
            lines[rows] = (double)(ns + ne) / 2;
            rows++;
        }
        /* each grid's mean score; the best less its charge (NaN wins, as numpy's argmax; invalid frames never) */
        double buf[2][2 * LA_MAX], sc[LA_MAX], mean = 0.0, bestv = 0.0;
        double *row = buf[0], *sn = buf[1];
        for (Py_ssize_t r = 0; r < rows; r++) {
            if (r < nreg) {
                double col = C[r % nc];
                for (Py_ssize_t k = 0; k < 2 * m; k++)
                    row[k] = np_min(np_max(rint((x12[k] - f0[r]) / step[r]), 0.0), col) * step[r] + f0[r];
            } else {
                for (Py_ssize_t k = 0; k < m; k++) {
                    row[k] = ns > 0 ? nearest(x12[k], starts, ns) : INFINITY;
                    row[m + k] = ne > 0 ? nearest(x12[m + k], ends, ne) : INFINITY;
                }
            }
            for (Py_ssize_t k = 0; k < m; k++) {
                double d = np_min(fabs(x12[k] - row[k]), fabs(x12[m + k] - row[m + k])) / W;
                double over = np_max(d - slack, 0.0);
                sc[k] = over == 0.0 ? 1.0 : 1.0 / (1.0 + over / tau); /* 1 / (1 + 0 / tau) is 1 */
            }
            double mr = la_pairwise_sum(sc, m) / (double)m;
            double v = (r >= nreg || f1[r] > f0[r]) ? mr - charge * lines[r] : -INFINITY;
            if (r == 0 || (!isnan(bestv) && (v > bestv || isnan(v)))) {
                best = r;
                bestv = v;
                mean = mr;
                double *t = sn;
                sn = row;
                row = t;
            }
        }
        /* the near misses of the best grid, farthest first (a stable sort of -d) */
        double dd[LA_MAX];
        Py_ssize_t neark[LA_MAX], nn = 0;
        for (Py_ssize_t k = 0; k < m; k++) {
            double d = np_min(fabs(x12[k] - sn[k]), fabs(x12[m + k] - sn[m + k])) / W;
            if (d > slack && d <= near_d) {
                Py_ssize_t j = nn++;
                while (j > 0 && dd[j - 1] < d) {
                    dd[j] = dd[j - 1];
                    neark[j] = neark[j - 1];
                    j--;
                }
                dd[j] = d;
                neark[j] = k;
            }
        }
        PyObject *list = PyList_New(nn);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nn; j++) {
            Py_ssize_t k = neark[j];
            int left = fabs(x12[k] - sn[k]) <= fabs(x12[m + k] - sn[m + k]);
            double dx = left ? sn[k] - x12[k] : sn[m + k] - x12[m + k];
            PyObject *item = Py_BuildValue("(nNdd)", leaf[k], PyBool_FromLong(left), dx, dd[j]);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(dnnN)", mean, best, m, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&ix);
    PyBuffer_Release(&wb);
    PyBuffer_Release(&cb);
    return out;
}
