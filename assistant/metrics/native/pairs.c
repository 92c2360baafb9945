/* The intersecting pairs of ``LayoutArrays.overlap_pairs`` (assistant/metrics/context.py), by testing every pair.
 *
 * overlap_pairs(edges6, visible, area)
 *   edges6   float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   visible  bool (n); area  float64 (n)
 * -> (i, j, inter) as bytes: int64, int64 and float64 arrays of the pairs i < j of visible leaves with a positive
 *    area whose boxes intersect (positive overlap on both axes), in (i, j) order, and the intersection areas.
 * The same operations as the numpy definition, so the pairs and areas are equal bit for bit.
 */
#include "native.h"

PyObject *la_overlap_pairs(PyObject *self, PyObject *args) {
    Py_buffer e6, vis, ar;
    PyObject *out = NULL, *bi = NULL, *bj = NULL, *bx = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*", &e6, &vis, &ar)) return NULL;
    Py_ssize_t n = ar.len / (Py_ssize_t)sizeof(double);
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native overlap_pairs: at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&vis, n, 1, "visible")) goto done;
    {
        const double *E = e6.buf, *A = ar.buf;
        const uint8_t *V = vis.buf;
        const double *X1 = E, *X2 = E + 2 * n, *Y1 = E + 3 * n, *Y2 = E + 5 * n;
        Py_ssize_t idx[LA_MAX], m = 0, cap = 64, k = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (V[i] && A[i] > 0) idx[m++] = i;
        bi = PyBytes_FromStringAndSize(NULL, cap * sizeof(int64_t));
        bj = PyBytes_FromStringAndSize(NULL, cap * sizeof(int64_t));
        bx = PyBytes_FromStringAndSize(NULL, cap * sizeof(double));
        if (bi == NULL || bj == NULL || bx == NULL) goto done;
        for (Py_ssize_t p = 0; p < m; p++) {
            Py_ssize_t a = idx[p];
            for (Py_ssize_t q = p + 1; q < m; q++) {
                Py_ssize_t b = idx[q];
                double ix = (X2[a] < X2[b] ? X2[a] : X2[b]) - (X1[a] > X1[b] ? X1[a] : X1[b]);
                double iy = (Y2[a] < Y2[b] ? Y2[a] : Y2[b]) - (Y1[a] > Y1[b] ? Y1[a] : Y1[b]);
                if (!(ix > 0 && iy > 0)) continue;
                if (k == cap) {
                    cap *= 2;
                    if (_PyBytes_Resize(&bi, cap * sizeof(int64_t)) < 0 || _PyBytes_Resize(&bj, cap * sizeof(int64_t)) < 0
                        || _PyBytes_Resize(&bx, cap * sizeof(double)) < 0)
                        goto done;
                }
                ((int64_t *)PyBytes_AS_STRING(bi))[k] = a;
                ((int64_t *)PyBytes_AS_STRING(bj))[k] = b;
                ((double *)PyBytes_AS_STRING(bx))[k] = ix * iy;
                k++;
            }
        }
        if (_PyBytes_Resize(&bi, k * sizeof(int64_t)) < 0 || _PyBytes_Resize(&bj, k * sizeof(int64_t)) < 0
            || _PyBytes_Resize(&bx, k * sizeof(double)) < 0)
            goto done;
        out = PyTuple_Pack(3, bi, bj, bx);
    }
done:
    Py_XDECREF(bi);
    Py_XDECREF(bj);
    Py_XDECREF(bx);
    PyBuffer_Release(&e6);
    PyBuffer_Release(&vis);
    PyBuffer_Release(&ar);
    return out;
}
