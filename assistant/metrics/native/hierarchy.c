/* Hierarchy kernel: the numeric part of ``assistant/metrics/hierarchy.py`` (type scale, title first, dominance).
 *
 * hierarchy(font, role, is_text, visible, bold, levels)
 *   font     float64 (n): font size in world units (NaN: none)
 *   role     int64 (n): role codes; codes 0 .. levels-1 are the type-scale levels, 0 the title
 *   is_text, visible, bold  bool (n)
 * -> None with fewer than two visible texts with a size, else (levels, title):
 *    levels  [(level, median size, smallest, [first five]), ...] per level present, in order (``smallest``: the
 *            first in document order on a tie; ``first five`` in document order)
 *    title   None unless there are a title and another text, else
 *            (title, title_prom, other, other_max, head, rival) as ``type_levels`` in hierarchy.py defines them.
 *
 * ``log`` and ``exp`` are the C library's: numpy's vectorised ones may differ from them in the last bit (below the
 * 1e-9 the paths are compared to). The logarithms of the title sizes are summed pairwise as numpy sums them.
 */
#include "native.h"

#define HI_LEVELS 16

PyObject *la_hierarchy(PyObject *self, PyObject *args) {
    Py_buffer fo, rol, txt, vis, bo;
    Py_ssize_t nlev;
    PyObject *out = NULL, *levels = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*n", &fo, &rol, &txt, &vis, &bo, &nlev)) return NULL;
    Py_ssize_t n = fo.len / (Py_ssize_t)sizeof(double);
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native hierarchy: needs at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (nlev < 1 || nlev > HI_LEVELS) {
        PyErr_Format(PyExc_ValueError, "native hierarchy: needs 1..%d levels, got %zd", HI_LEVELS, nlev);
        goto done;
    }
    if (!la_check(&rol, n, sizeof(int64_t), "role") || !la_check(&txt, n, 1, "is_text")
        || !la_check(&vis, n, 1, "visible") || !la_check(&bo, n, 1, "bold"))
        goto done;
    {
        const double *F = fo.buf;
        const int64_t *R = rol.buf;
        const uint8_t *T = txt.buf, *V = vis.buf, *B = bo.buf;
        Py_ssize_t texts[LA_MAX], m = 0, cnt[HI_LEVELS] = {0};
        for (Py_ssize_t i = 0; i < n; i++)
            if (T[i] && V[i] && F[i] > 0.0) { /* NaN (no size) is not > 0 */
                texts[m++] = i;
                if (R[i] >= 0 && R[i] < nlev) cnt[R[i]]++;
            }
        if (m < 2) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        levels = PyList_New(0);
        if (levels == NULL) goto done;
        for (Py_ssize_t lv = 0; lv < nlev; lv++) {
            if (!cnt[lv]) continue;
            Py_ssize_t mine[LA_MAX], order[LA_MAX], c = 0;
            double sz[LA_MAX];
            for (Py_ssize_t k = 0; k < m; k++)
                if (R[texts[k]] == lv) {
                    mine[c] = texts[k];
                    sz[c++] = F[texts[k]];
                }
            la_argsort_stable(sz, c, order);
            double med = (sz[order[(c - 1) / 2]] + sz[order[c / 2]]) / 2;
            Py_ssize_t nf = c < 5 ? c : 5;
            PyObject *first = PyList_New(nf);
            if (first == NULL) goto done;
            for (Py_ssize_t k = 0; k < nf; k++) {
                PyObject *v = PyLong_FromSsize_t(mine[k]);
                if (v == NULL) {
                    Py_DECREF(first);
                    goto done;
                }
                PyList_SET_ITEM(first, k, v);
            }
            PyObject *item = Py_BuildValue("(ndnN)", lv, med, mine[order[0]], first);
            if (item == NULL || PyList_Append(levels, item) < 0) {
                Py_XDECREF(item);
                goto done;
            }
            Py_DECREF(item);
        }
        if (!(cnt[0] > 0 && cnt[0] < m)) {
            out = Py_BuildValue("(OO)", levels, Py_None);
            goto done;
        }
        double logs[LA_MAX], tmax = -INFINITY, omax = -INFINITY, other = -INFINITY;
        Py_ssize_t nt = 0, head = -1, rival = -1;
        int all_bold = 1;
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = texts[k];
            double s = F[i];
            if (R[i] == 0) {
                logs[nt++] = log(s);
                all_bold &= B[i] != 0;
                if (s > tmax) { /* the first largest (numpy's argmax) */
                    tmax = s;
                    head = i;
                }
            } else {
                double b = s * (B[i] ? 1.1 : 1.0);
                if (b > other) {
                    other = b;
                    rival = i;
                }
                if (s > omax) omax = s;
            }
        }
        double title = exp(la_pairwise_sum(logs, nt) / (double)nt);
        double title_prom = title * (all_bold ? 1.1 : 1.0);
        out = Py_BuildValue("(O(ddddnn))", levels, title, title_prom, other, omax, head, rival);
    }
done:
    Py_XDECREF(levels);
    PyBuffer_Release(&fo);
    PyBuffer_Release(&rol);
    PyBuffer_Release(&txt);
    PyBuffer_Release(&vis);
    PyBuffer_Release(&bo);
    return out;
}
