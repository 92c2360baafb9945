/* Reading-order kernel: the numeric part of ``assistant/metrics/reading_order.py`` (weighted Kendall concordance).
 *
 * reading_order(edges6, role, visible, level, pair_w, cx, cy, cw, ch, x_weight, limit)
 *   edges6   float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf (rows 0 and 3 are used)
 *   role     int64 (n): role codes
 *   visible  bool (n)
 *   level    int64 (r): precedence level of each role code (-1: not ranked; else 0 <= level < L)
 *   pair_w   float64 (L, L): weight of a pair (earlier level, later level); only the upper triangle is used
 *   cx .. ch the canvas viewBox; x_weight the weight of x in the scan key; limit the most offenders returned
 * -> None when fewer than two levels are present, else (score, [(leaf, offence, late, early), ...]):
 *    the elements with a positive offence (max of late and early), most offending first (stable), at most limit.
 *
 * The pair counts come from one stable sort of the scan keys: an element's level-q elements scanned before it
 * are those in earlier tie groups plus half of its own group (itself included at its own level, which weighs 0).
 * Counts are sums of halves, so exact; they are combined level by level in the order of the numpy definition.
 */
#include "native.h"

#define RO_LEVELS 8

PyObject *la_reading_order(PyObject *self, PyObject *args) {
    Py_buffer e6, rol, vis, lev, pw;
    double cx, cy, cw, ch, xw;
    Py_ssize_t limit;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*dddddn", &e6, &rol, &vis, &lev, &pw, &cx, &cy, &cw, &ch, &xw, &limit))
        return NULL;
    Py_ssize_t n = vis.len, nr = lev.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t nl = 0, npw = pw.len / (Py_ssize_t)sizeof(double);
    while (nl < RO_LEVELS && (nl + 1) * (nl + 1) <= npw) nl++;
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native reading_order: needs at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (nl * nl != npw || nl < 1) {
        PyErr_Format(PyExc_ValueError, "native reading_order: pair_w must be a square of 1..%d levels, got %zd values",
                     RO_LEVELS, npw);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&rol, n, sizeof(int64_t), "role"))
        goto done;
    {
        const double *E = e6.buf, *PW = pw.buf;
        const int64_t *R = rol.buf, *LV = lev.buf;
        const uint8_t *V = vis.buf;
        Py_ssize_t leaf[LA_MAX], order[LA_MAX], m = 0, cnt[RO_LEVELS] = {0};
        int lvl[LA_MAX];
        double key[LA_MAX];
        for (Py_ssize_t i = 0; i < n; i++) {
            if (!V[i]) continue;
            if (R[i] < 0 || R[i] >= nr) {
                PyErr_Format(PyExc_ValueError, "native reading_order: role code %lld of leaf %zd is outside 0..%zd",
                             (long long)R[i], i, nr - 1);
                goto done;
            }
            int64_t p = LV[R[i]];
            if (p < 0) continue;
            if (p >= nl) {
                PyErr_Format(PyExc_ValueError, "native reading_order: level %lld is outside 0..%zd", (long long)p,
                             nl - 1);
                goto done;
            }
            leaf[m] = i;
            lvl[m] = (int)p;
            cnt[p]++;
            key[m] = (E[3 * n + i] - cy) / ch + xw * (E[i] - cx) / cw;
            m++;
        }
        int present = 0;
        for (Py_ssize_t q = 0; q < nl; q++) present += cnt[q] > 0;
        if (present < 2) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        /* before[k][q] / after[k][q]: level-q elements scanned before / after element k, ties counting half */
        double before[LA_MAX][RO_LEVELS], after[LA_MAX][RO_LEVELS];
        la_argsort_stable(key, m, order);
        Py_ssize_t cum[RO_LEVELS] = {0};
        for (Py_ssize_t g0 = 0; g0 < m;) {
            Py_ssize_t g1 = g0 + 1, grp[RO_LEVELS] = {0};
            while (g1 < m && key[order[g1]] == key[order[g0]]) g1++;
            for (Py_ssize_t p = g0; p < g1; p++) grp[lvl[order[p]]]++;
            for (Py_ssize_t p = g0; p < g1; p++) {
                Py_ssize_t k = order[p];
                for (Py_ssize_t q = 0; q < nl; q++) {
                    before[k][q] = (double)cum[q] + 0.5 * (double)grp[q];
                    after[k][q] = (double)(cnt[q] - cum[q] - grp[q]) + 0.5 * (double)grp[q];
                }
            }
            for (Py_ssize_t q = 0; q < nl; q++) cum[q] += grp[q];
            g0 = g1;
        }
        double total = 0.0, bad = 0.0;
        for (Py_ssize_t p = 0; p < nl; p++)
            for (Py_ssize_t q = p + 1; q < nl; q++) {
                if (!cnt[p] || !cnt[q]) continue;
                double w = PW[p * nl + q], disc = 0.0;
                for (Py_ssize_t k = 0; k < m; k++)
                    if (lvl[k] == p) disc += before[k][q];
                total += w * (double)cnt[p] * (double)cnt[q];
                bad += w * disc;
            }
        double late[LA_MAX], early[LA_MAX], off[LA_MAX];
        Py_ssize_t worst[LA_MAX], nw = 0;
        for (Py_ssize_t k = 0; k < m; k++) {
            int p = lvl[k];
            double lt = 0.0, et = 0.0;
            for (Py_ssize_t q = 0; q < nl; q++) {
                if (!cnt[q]) continue;
                lt += PW[p * nl + q] * before[k][q] / (double)cnt[q];
                et += PW[q * nl + p] * after[k][q] / (double)cnt[q];
            }
            late[k] = lt;
            early[k] = et;
            double o = lt > et ? lt : et;
            if (o > 0.0) {
                /* insert by falling offence, after equal ones (a stable sort of -offence) */
                Py_ssize_t j = nw++;
                while (j > 0 && off[j - 1] < o) {
                    off[j] = off[j - 1];
                    worst[j] = worst[j - 1];
                    j--;
                }
                off[j] = o;
                worst[j] = k;
            }
        }
        if (nw > limit) nw = limit > 0 ? limit : 0;
        PyObject *list = PyList_New(nw);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nw; j++) {
            Py_ssize_t k = worst[j];
            PyObject *item = Py_BuildValue("(nddd)", leaf[k], off[j], late[k], early[k]);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(dN)", total != 0.0 ? 1.0 - bad / total : 1.0, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&rol);
    PyBuffer_Release(&vis);
    PyBuffer_Release(&lev);
    PyBuffer_Release(&pw);
    return out;
}
