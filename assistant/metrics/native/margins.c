/* Margins kernel: the numeric part of ``assistant/metrics/margins.py`` (safe-area intrusion).
 *
 * margins(units, is_text, edges6, w, h, cx, cy, W, H, short, sx, sy, sw, sh, scale)
 *   units, is_text  bool (n), n <= LA_MAX
 *   edges6     float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   w, h       float64 (n): box sizes
 *   cx, cy, W, H  the canvas box; short its short side; sx, sy, sw, sh the safe box; scale ``margins.SCALE``
 * -> (score, [(leaf, pen, depth, dx, dy), ...]): the intrusions deepest first (``margins.intrusions``).
 */
#include "native.h"

/* np.maximum / np.minimum of two doubles: NaN propagates */
static double np_max(double p, double q) { return (p >= q || isnan(p)) ? p : q; }
static double np_min(double p, double q) { return (p <= q || isnan(p)) ? p : q; }
/* Python's max(p, q) / min(p, q): p unless q is strictly beyond it */
static double py_max(double p, double q) { return q > p ? q : p; }

PyObject *la_margins(PyObject *self, PyObject *args) {
    Py_buffer un, txt, e6, wb, hb;
    double cx, cy, W, H, shortside, sx, sy, sw, sh, scale;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*dddddddddd", &un, &txt, &e6, &wb, &hb, &cx, &cy, &W, &H, &shortside,
                          &sx, &sy, &sw, &sh, &scale))
        return NULL;
    Py_ssize_t n = wb.len / (Py_ssize_t)sizeof(double);
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native margins: needs at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (!la_check(&un, n, 1, "units") || !la_check(&txt, n, 1, "is_text")
        || !la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&hb, n, sizeof(double), "h"))
        goto done;
    {
        const uint8_t *U = un.buf, *T = txt.buf;
        const double *E = e6.buf, *Wd = wb.buf, *Ht = hb.buf;
        const double *x1 = E, *x2 = E + 2 * n, *y1 = E + 3 * n, *y2 = E + 5 * n;
        double sx2 = sx + sw, sy2 = sy + sh;
        double ml = py_max(sx - cx, 1e-9), mt = py_max(sy - cy, 1e-9);
        double mr = py_max(cx + W - sx2, 1e-9), mb = py_max(cy + H - sy2, 1e-9);
        double tol = 0.002 * shortside;
        /* the judged elements: units that are text or do not touch the canvas edge (a bleed) */
        Py_ssize_t idx[LA_MAX], m = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            int bleeds = !T[i] && (x1[i] <= cx + tol || y1[i] <= cy + tol || x2[i] >= cx + W - tol
                                   || y2[i] >= cy + H - tol);
            if (U[i] && !bleeds) idx[m++] = i;
        }
        if (m == 0) {
            out = Py_BuildValue("(d[])", 1.0);
            goto done;
        }
        double depth[LA_MAX], pen[LA_MAX];
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = idx[k];
            double d = np_max(np_max((sx - x1[i]) / ml, (sy - y1[i]) / mt), np_max((x2[i] - sx2) / mr,
                                                                                (y2[i] - sy2) / mb));
            depth[k] = np_max(d, 0.0);
            pen[k] = depth[k] > 0.001 ? depth[k] : 0.0;
        }
        double score = 1.0 / (1.0 + scale * la_sum(pen, m));
        /* the intrusions by falling penalty, after equal penalties (a stable sort of -pen) */
        Py_ssize_t bad[LA_MAX], nb = 0;
        for (Py_ssize_t k = 0; k < m; k++)
            if (pen[k] != 0) {
                Py_ssize_t j = nb++;
                while (j > 0 && pen[bad[j - 1]] < pen[k]) {
                    bad[j] = bad[j - 1];
                    j--;
                }
                bad[j] = k;
            }
        PyObject *list = PyList_New(nb);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nb; j++) {
            Py_ssize_t k = bad[j], i = idx[k];
            double dx = Wd[i] <= sw ? np_max(sx - x1[i], 0.0) + np_min(sx2 - x2[i], 0.0) : 0.0;
            double dy = Ht[i] <= sh ? np_max(sy - y1[i], 0.0) + np_min(sy2 - y2[i], 0.0) : 0.0;
            PyObject *item = Py_BuildValue("(ndddd)", i, pen[k], depth[k], dx, dy);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(dN)", score, list);
    }
done:
    PyBuffer_Release(&un);
    PyBuffer_Release(&txt);
    PyBuffer_Release(&e6);
    PyBuffer_Release(&wb);
    PyBuffer_Release(&hb);
    return out;
}
