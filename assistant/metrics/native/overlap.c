/* Overlap kernel: the numeric part of ``assistant/metrics/overlap.py`` (weighted pairwise overlap).
 *
 * overlap(i, j, inter, units, is_text, is_image, is_shape, is_deco, group, opaque, ink_area, edges6,
 *         short_side, dead_zone, label_inside, hidden_weight, scale, report_above, max_findings)
 *   i, j, inter  the intersecting pairs (``LayoutArrays.overlap_pairs``: int64, int64, float64, i < j)
 *   units ... opaque  bool (n); group int64 (n); ink_area float64 (n); edges6 float64 (6, n)
 * -> (1 / (1 + scale · Σ pen), [(a, b, hidden, ratio, pen, inter), ...]): the pairs whose penalty exceeds
 *    ``report_above``, largest penalty first (ties in pair order), at most ``max_findings``.
 */
#include "native.h"

typedef struct {
    Py_ssize_t k, a, b;
    int hidden;
    double ratio, pen, inter;
} la_pair;

/* falling penalty, then pair order: numpy's stable argsort of -pen */
static int by_penalty(const void *x, const void *y) {
    const la_pair *p = x, *q = y;
    if (p->pen != q->pen) return p->pen < q->pen ? 1 : -1;
    return (p->k > q->k) - (p->k < q->k);
}

PyObject *la_overlap(PyObject *self, PyObject *args) {
    Py_buffer bi, bj, bint, bu, bt, bim, bsh, bde, bg, bop, bink, be6;
    double short_side, dead, label_inside, hidden_w, scale, report_above;
    Py_ssize_t max_findings;
    PyObject *out = NULL;
    la_pair *bad = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*ddddddn", &bi, &bj, &bint, &bu, &bt, &bim, &bsh, &bde,
                          &bg, &bop, &bink, &be6, &short_side, &dead, &label_inside, &hidden_w, &scale, &report_above,
                          &max_findings))
        return NULL;
    Py_ssize_t n = bink.len / (Py_ssize_t)sizeof(double), np_ = bi.len / (Py_ssize_t)sizeof(int64_t);
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native overlap: at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (!la_check(&bj, np_, sizeof(int64_t), "j") || !la_check(&bint, np_, sizeof(double), "inter")
        || !la_check(&bu, n, 1, "units") || !la_check(&bt, n, 1, "is_text") || !la_check(&bim, n, 1, "is_image")
        || !la_check(&bsh, n, 1, "is_shape") || !la_check(&bde, n, 1, "is_deco")
        || !la_check(&bg, n, sizeof(int64_t), "group") || !la_check(&bop, n, 1, "opaque")
        || !la_check(&be6, 6 * n, sizeof(double), "edges6"))
        goto done;
    {
        const int64_t *I = bi.buf, *J = bj.buf, *G = bg.buf;
        const double *INTER = bint.buf, *INK = bink.buf, *E = be6.buf;
        const uint8_t *U = bu.buf, *T = bt.buf, *IM = bim.buf, *SH = bsh.buf, *DE = bde.buf, *OP = bop.buf;
        const double *X1 = E, *X2 = E + 2 * n, *Y1 = E + 3 * n, *Y2 = E + 5 * n;
        double t = 0.01 * short_side, total = 0.0;
        Py_ssize_t nb = 0;
        bad = PyMem_Malloc((np_ > 0 ? np_ : 1) * sizeof(la_pair));
        if (bad == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t k = 0; k < np_; k++) {
            Py_ssize_t a = I[k], b = J[k];
            if (a < 0 || b < 0 || a >= n || b >= n) {
                PyErr_Format(PyExc_ValueError, "native overlap: pair %zd (%zd, %zd) outside 0..%zd", k, a, b, n);
                goto done;
            }
            if (!U[a] || !U[b]) continue;
            int ti = T[a], tj = T[b], imi = IM[a], imj = IM[b];
            int soft_i = SH[a] || DE[a], soft_j = SH[b] || DE[b];
            int same_group = G[a] >= 0 && G[a] == G[b];
            int j_holds_i = X1[a] >= X1[b] - t && Y1[a] >= Y1[b] - t && X2[a] <= X2[b] + t && Y2[a] <= Y2[b] + t;
            int i_holds_j = X1[b] >= X1[a] - t && Y1[b] >= Y1[a] - t && X2[b] <= X2[a] + t && Y2[b] <= Y2[a] + t;
            double inter = INTER[k];
            int hidden = (ti && OP[b] && b > a) || (tj && OP[a] && a > b);
            double w = 0.15;
            if (!(ti || tj) && (j_holds_i || i_holds_j)) w = 0.0;
            if (imi && imj) w = 0.5;
            int mostly_i = inter >= label_inside * INK[a], mostly_j = inter >= label_inside * INK[b];
            int label = (ti && soft_j && (mostly_i || same_group)) || (tj && soft_i && (mostly_j || same_group));
            if ((ti && soft_j) || (tj && soft_i)) w = label ? 0.0 : ((DE[a] || DE[b]) ? 0.2 : 0.4);
            if ((ti && imj) || (tj && imi)) w = 0.7;
            if (ti && tj) w = 1.0;
            if (hidden) w = hidden_w;
            double covered = hidden ? (ti ? INK[a] : INK[b]) : (INK[a] < INK[b] ? INK[a] : INK[b]);
            double ratio = inter / (covered > 1e-12 ? covered : 1e-12);
            double over = ratio - dead;
            double pen = w * (over > 0.0 ? over : 0.0);
            total += pen;
            if (pen > report_above) bad[nb++] = (la_pair){k, a, b, hidden, ratio, pen, inter};
        }
        qsort(bad, nb, sizeof(la_pair), by_penalty);
        if (nb > max_findings) nb = max_findings;
        PyObject *list = PyList_New(nb);
        if (list == NULL) goto done;
        for (Py_ssize_t p = 0; p < nb; p++) {
            PyObject *item = Py_BuildValue("(nnNddd)", bad[p].a, bad[p].b, PyBool_FromLong(bad[p].hidden),
                                           bad[p].ratio, bad[p].pen, bad[p].inter);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, p, item);
        }
        out = Py_BuildValue("(dN)", 1.0 / (1.0 + scale * total), list);
    }
done:
    PyMem_Free(bad);
    PyBuffer_Release(&bi);
    PyBuffer_Release(&bj);
    PyBuffer_Release(&bint);
    PyBuffer_Release(&bu);
    PyBuffer_Release(&bt);
    PyBuffer_Release(&bim);
    PyBuffer_Release(&bsh);
    PyBuffer_Release(&bde);
    PyBuffer_Release(&bg);
    PyBuffer_Release(&bop);
    PyBuffer_Release(&bink);
    PyBuffer_Release(&be6);
    return out;
}
