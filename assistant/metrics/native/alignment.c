/* Alignment kernel: the numeric part of ``assistant/metrics/alignment.py`` (LayoutGAN++ alignment).
 *
 * alignment(edges6, anchor, is_text, idx, importance, W, H, slack, tau, near_miss)
 *   edges6     float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   anchor     int64 (n): a text's horizontal alignment type (0 left, 1 centre, 2 right)
 *   is_text    bool (n)
 *   idx        int64 (m): the elements judged (2 <= m <= LA_MAX)
 *   importance float64 (n)
 * -> (score, wsum, [(a, partner, type, cost), ...]): the near misses (slack < d <= near_miss) most costly first,
 *    ``a`` and ``partner`` leaf indices, ``type`` the alignment type (0-5) of the nearest partner.
 */
#include "native.h"

PyObject *la_alignment(PyObject *self, PyObject *args) {
    Py_buffer e6, anc, txt, ix, imp;
    double W, H, slack, tau, near_miss;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*ddddd", &e6, &anc, &txt, &ix, &imp, &W, &H, &slack, &tau,
                          &near_miss))
        return NULL;
    Py_ssize_t n = imp.len / (Py_ssize_t)sizeof(double), m = ix.len / (Py_ssize_t)sizeof(int64_t);
    if (m < 2 || m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native alignment: needs 2..%d elements of %d leaves, got %zd of %zd",
                     LA_MAX, LA_MAX, m, n);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&anc, n, sizeof(int64_t), "anchor")
        || !la_check(&txt, n, 1, "is_text") || !la_check_index(ix.buf, m, n, "idx"))
        goto done;
    {
        const double *E = e6.buf, *I = imp.buf;
        const int64_t *A = anc.buf, *X = ix.buf;
        const uint8_t *T = txt.buf;
        double v[LA_MAX], gp[LA_MAX + 1], dist[6][LA_MAX], w[LA_MAX], s[LA_MAX], d[LA_MAX], dx[LA_MAX], dy[LA_MAX];
        Py_ssize_t order[LA_MAX], partner[6][LA_MAX];
        int th[LA_MAX], tv[LA_MAX];
        for (int r = 0; r < 6; r++) {
            double scale = r < 3 ? W : H;
            for (Py_ssize_t k = 0; k < m; k++) {
                Py_ssize_t i = X[k];
                v[k] = (r < 3 && T[i] && A[i] != r) ? NAN : E[r * n + i] / scale;
            }
            la_argsort_stable(v, m, order);
            gp[0] = gp[m] = INFINITY;
            for (Py_ssize_t p = 1; p < m; p++) {
                double g = v[order[p]] - v[order[p - 1]];
                gp[p] = isnan(g) ? INFINITY : g;
            }
            for (Py_ssize_t p = 0; p < m; p++) {
                double left = gp[p], right = gp[p + 1];
                Py_ssize_t nb = left <= right ? p - 1 : p + 1;
                if (nb < 0) nb = 0;
                dist[r][order[p]] = left < right ? left : right;
                partner[r][order[p]] = X[order[nb]];
            }
        }
        double wsum = 0.0, ws = 0.0;
        for (Py_ssize_t k = 0; k < m; k++) {
            int bh = 0, bv = 3;
            for (int r = 1; r < 3; r++)
                if (dist[r][k] < dist[bh][k]) bh = r;
            for (int r = 4; r < 6; r++)
                if (dist[r][k] < dist[bv][k]) bv = r;
            th[k] = bh;
            tv[k] = bv;
            dx[k] = dist[bh][k];
            dy[k] = dist[bv][k];
            d[k] = dx[k] < dy[k] ? dx[k] : dy[k];
            double over = d[k] - slack;
            s[k] = 1.0 / (1.0 + (over > 0.0 ? over : 0.0) / tau);
            w[k] = 0.1 + I[X[k]];
            wsum += w[k];
            ws += w[k] * s[k];
        }
        Py_ssize_t near[LA_MAX], nn = 0;
        double cost[LA_MAX];
        for (Py_ssize_t k = 0; k < m; k++)
            if (d[k] > slack && d[k] <= near_miss) {
                /* insert by falling cost, after equal costs (a stable sort of -cost) */
                double c = w[k] * (1 - s[k]);
                Py_ssize_t j = nn++;
                while (j > 0 && cost[j - 1] < c) {
                    cost[j] = cost[j - 1];
                    near[j] = near[j - 1];
                    j--;
                }
                cost[j] = c;
                near[j] = k;
            }
        PyObject *list = PyList_New(nn);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nn; j++) {
            Py_ssize_t k = near[j];
            int t = dx[k] <= dy[k] ? th[k] : tv[k];
            PyObject *item = Py_BuildValue("(nnid)", (Py_ssize_t)X[k], partner[t][k], t, cost[j]);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(ddN)", ws / wsum, wsum, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&anc);
    PyBuffer_Release(&txt);
    PyBuffer_Release(&ix);
    PyBuffer_Release(&imp);
    return out;
}
