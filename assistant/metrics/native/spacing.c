/* Spacing kernel: the numeric part of ``assistant/metrics/spacing.py`` (gap consistency per kind of neighbours).
 *
 * spacing(edges6, role, idx, tol, reach, soft, cv_report, max_findings)
 *   edges6       float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   role         int64 (n): role codes (0-9, ``context.ROLE_CODES``)
 *   idx          int64 (m): the elements judged (3 <= m <= LA_MAX)
 *   tol, reach   the overlap tolerance and the largest gap of a link (world units)
 *   soft         the softening added to a group's mean gap
 *   cv_report    groups with a larger CV are reported, at most ``max_findings``, most uneven first
 * -> None when no group has two links, else (score, links, [(a, b, gap, median, vertical, cv, count, rest), ...]):
 *    ``links`` the number of links in groups of two or more; per reported group the link furthest from the
 *    group's median (leaf ``a`` to leaf ``b``, its gap), and ``rest`` the leaves moved with ``b`` (leaf indices).
 *
 * The nearest neighbour after an element is found over all pairs (the numpy definition sweeps beyond 48
 * elements): the smallest start, ties to the first element of ``idx``, as both numpy searches pick it.
 */
#include "native.h"

#define SP_ROLES 10
#define SP_KEYS 200 /* axis * 100 + role * 10 + role */

/* numpy's ``maximum`` / ``minimum`` of two non-NaN values (the second on a tie, as its vector loops give) */
static inline double sp_max(double a, double b) { return a > b ? a : b; }
static inline double sp_min(double a, double b) { return a < b ? a : b; }

PyObject *la_spacing(PyObject *self, PyObject *args) {
    Py_buffer e6, rol, ix;
    double tol, reach, soft, cv_report;
    Py_ssize_t max_findings;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*ddddn", &e6, &rol, &ix, &tol, &reach, &soft, &cv_report, &max_findings))
        return NULL;
    Py_ssize_t n = rol.len / (Py_ssize_t)sizeof(int64_t), m = ix.len / (Py_ssize_t)sizeof(int64_t);
    if (m < 3 || m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native spacing: needs 3..%d elements of %d leaves, got %zd of %zd", LA_MAX,
                     LA_MAX, m, n);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6")) goto done;
    {
        const double *E = e6.buf;
        const int64_t *R = rol.buf, *X = ix.buf;
        for (Py_ssize_t k = 0; k < m; k++) {
            if (X[k] < 0 || X[k] >= n || R[X[k]] < 0 || R[X[k]] >= SP_ROLES) {
                PyErr_Format(PyExc_ValueError, "native spacing: element %zd is leaf %lld of %zd (role code %lld)", k,
                             (long long)X[k], n, X[k] >= 0 && X[k] < n ? (long long)R[X[k]] : -1LL);
                goto done;
            }
        }
        /* links: vertical (along y, across x) first, then horizontal (along x, across y) */
        static const int along1[2] = {3, 0}, along2[2] = {5, 2}, across1[2] = {0, 3}, across2[2] = {2, 5};
        double lg[2 * LA_MAX];
        Py_ssize_t ls[2 * LA_MAX], ld[2 * LA_MAX], nl = 0;
        int lk[2 * LA_MAX];
        for (int p = 0; p < 2; p++) {
            const double *A1 = E + along1[p] * n, *A2 = E + along2[p] * n, *O1 = E + across1[p] * n,
                         *O2 = E + across2[p] * n;
            for (Py_ssize_t r = 0; r < m; r++) {
                Py_ssize_t i = X[r], best_j = -1;
                double a1 = A1[i], a2 = A2[i], thr = sp_max(a2 - tol, a1), best = INFINITY;
                for (Py_ssize_t k = 0; k < m; k++) {
                    Py_ssize_t j = X[k];
                    double v = A1[j];
                    /* after the element (and not before its end less tol), overlapping across; first smallest */
                    if (v > a1 && v >= thr && v < best && sp_min(O2[i], O2[j]) - sp_max(O1[i], O1[j]) > 0) {
                        best = v;
                        best_j = j;
                    }
                }
                if (best_j < 0) continue;
                double gap = best - a2;
                if (!(gap <= reach)) continue;
                ls[nl] = i;
                ld[nl] = best_j;
                lg[nl] = sp_max(gap, 0.0);
                lk[nl] = p * 100 + (int)R[i] * 10 + (int)R[best_j];
                nl++;
            }
        }
        if (nl < 2) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        /* per kind of link, in key order: count, sum and sum of squares of the gaps (in link order) */
        Py_ssize_t cnt[SP_KEYS] = {0};
        double s1[SP_KEYS] = {0.0}, s2[SP_KEYS] = {0.0};
        for (Py_ssize_t l = 0; l < nl; l++) {
            cnt[lk[l]]++;
            s1[lk[l]] += lg[l];
            s2[lk[l]] += lg[l] * lg[l];
        }
        double cv[SP_KEYS], weighted[SP_KEYS];
        int multi[SP_KEYS], nm = 0;
        Py_ssize_t total = 0;
        for (int key = 0; key < SP_KEYS; key++) {
            if (cnt[key] < 2) continue;
            double c = (double)cnt[key], mean = s1[key] / c, var = s2[key] / c - mean * mean;
            cv[key] = sqrt(sp_max(var, 0.0)) / (mean + soft);
            weighted[nm] = c * sp_max(0.0, 1.0 - cv[key]);
            multi[nm++] = key;
            total += cnt[key];
        }
        if (nm == 0) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        double links = (double)total, score = la_pairwise_sum(weighted, nm) / links;
        /* the reported groups by falling CV, after equal CVs (a stable sort of -cv) */
        int worst[SP_KEYS], nw = 0;
        for (int g = 0; g < nm; g++) {
            int key = multi[g];
            if (!(cv[key] > cv_report)) continue;
            int j = nw++;
            while (j > 0 && cv[worst[j - 1]] < cv[key]) {
                worst[j] = worst[j - 1];
                j--;
            }
            worst[j] = key;
        }
        if (nw > max_findings) nw = max_findings < 0 ? 0 : (int)max_findings;
        PyObject *list = PyList_New(nw);
        if (list == NULL) goto done;
        for (int w = 0; w < nw; w++) {
            int key = worst[w];
            Py_ssize_t links_of[2 * LA_MAX], order[2 * LA_MAX], c = 0;
            double gl[2 * LA_MAX];
            for (Py_ssize_t l = 0; l < nl; l++)
                if (lk[l] == key) {
                    links_of[c] = l;
                    gl[c++] = lg[l];
                }
            la_argsort_stable(gl, c, order);
            double med = gl[order[(c - 1) / 2]], far = -1.0;
            Py_ssize_t at = 0;
            for (Py_ssize_t t = 0; t < c; t++)
                if (fabs(gl[t] - med) > far) {
                    far = fabs(gl[t] - med);
                    at = t;
                }
            Py_ssize_t l = links_of[at], b = ld[l];
            int vertical = key < 100;
            /* b and the elements after it in its column (row): the rest of the stack */
            const double *A1 = E + along1[!vertical] * n, *O1 = E + across1[!vertical] * n,
                         *O2 = E + across2[!vertical] * n;
            PyObject *rest = PyList_New(0);
            if (rest == NULL) {
                Py_DECREF(list);
                goto done;
            }
            for (Py_ssize_t k = 0; k < m; k++) {
                Py_ssize_t j = X[k];
                if (A1[j] >= A1[b] && sp_min(O2[j], O2[b]) - sp_max(O1[j], O1[b]) > 0) {
                    PyObject *v = PyLong_FromSsize_t(j);
                    if (v == NULL || PyList_Append(rest, v) < 0) {
                        Py_XDECREF(v);
                        Py_DECREF(rest);
                        Py_DECREF(list);
                        goto done;
                    }
                    Py_DECREF(v);
                }
            }
            PyObject *item = Py_BuildValue("(nnddOdnN)", ls[l], b, lg[l], med, vertical ? Py_True : Py_False,
                                           cv[key], cnt[key], rest);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, w, item);
        }
        out = Py_BuildValue("(ddN)", score, links, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&rol);
    PyBuffer_Release(&ix);
    return out;
}
