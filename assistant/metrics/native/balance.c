/* Balance kernel: the numeric part of ``assistant/metrics/balance.py`` (Ngo et al. 2003 balance and equilibrium).
 *
 * balance(idx, palette, fill_code, is_text, area, importance, opacity, edges6, locked, cx, cy, W, H, balanced)
 *   idx        int64 (m): the elements weighed (1 <= m <= LA_MAX)
 *   palette    float64 (k, 3): sRGB of the distinct fills, NaN rows where unknown; fill_code int64 (n) its rows
 *   is_text, locked  bool (n); area, importance, opacity  float64 (n)
 *   edges6     float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   cx, cy, W, H  the canvas box; balanced  the score from which no finding is raised
 * -> None when the elements weigh nothing, else (score, heavy): heavy None from ``balanced`` up, else
 *    (horizontal, offset, leaf or -1, shift) as ``balance.imbalance`` returns it.
 */
#include "native.h"

/* ``balance._side_balance``: (l - r) / max(l, r), 0 when both are at most 0 (Python's max: l unless r > l) */
static double side_balance(double l, double r) {
    double m = r > l ? r : l;
    return m <= 0 ? 0.0 : (l - r) / m;
}

/* np.maximum(x, 0.0): NaN stays NaN */
static double pos_part(double x) { return (x >= 0.0 || isnan(x)) ? x : 0.0; }

PyObject *la_balance(PyObject *self, PyObject *args) {
    Py_buffer ix, pal, code, txt, ar, imp, op, e6, lck;
    double cx0, cy0, W, H, balanced;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*ddddd", &ix, &pal, &code, &txt, &ar, &imp, &op, &e6, &lck, &cx0,
                          &cy0, &W, &H, &balanced))
        return NULL;
    Py_ssize_t n = ar.len / (Py_ssize_t)sizeof(double), m = ix.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t k = pal.len / (Py_ssize_t)(3 * sizeof(double));
    if (m < 1 || m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native balance: needs 1..%d elements of %d leaves, got %zd of %zd", LA_MAX,
                     LA_MAX, m, n);
        goto done;
    }
    if (!la_check(&code, n, sizeof(int64_t), "fill_code") || !la_check(&txt, n, 1, "is_text")
        || !la_check(&imp, n, sizeof(double), "importance") || !la_check(&op, n, sizeof(double), "opacity")
        || !la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&lck, n, 1, "locked")
        || !la_check_index(ix.buf, m, n, "idx") || !la_check_index(code.buf, n, k, "fill_code"))
        goto done;
    {
        const int64_t *X = ix.buf, *C = code.buf;
        const uint8_t *T = txt.buf, *L = lck.buf;
        const double *P = pal.buf, *A = ar.buf, *I = imp.buf, *O = op.buf, *E = e6.buf;
        /* visual weight (``balance.visual_weight``) and the centre offsets */
        double w[LA_MAX], dx[LA_MAX], dy[LA_MAX], row[6][LA_MAX];
        double cxc = cx0 + W / 2, cyc = cy0 + H / 2;
        /* darkness per palette row, computed once (rows beyond LA_MAX, never made by LayoutArrays, each time) */
        double dark_of[LA_MAX];
        uint8_t known[LA_MAX] = {0};
        for (Py_ssize_t s = 0; s < m; s++) {
            Py_ssize_t i = X[s], r = C[i];
            const double *rgb = P + 3 * r;
            double dark;
            if (isnan(rgb[0]) && !T[i])
                dark = 0.5;
            else if (r < LA_MAX && known[r])
                dark = dark_of[r];
            else {
                double grey[3];
                for (int q = 0; q < 3; q++) grey[q] = isnan(rgb[q]) ? 0.5 : rgb[q];
                dark = 1.0 - la_luminance(grey);
                if (r < LA_MAX) {
                    dark_of[r] = dark;
                    known[r] = 1;
                }
            }
            double area = A[i] * (T[i] ? 0.5 : 1.0);
            w[s] = area * (0.3 + 0.7 * dark) * (0.5 + I[i]) * O[i];
            dx[s] = E[n + i] - cxc;
            dy[s] = E[4 * n + i] - cyc;
        }
        double tw = la_sum(w, m);
        if (tw <= 0) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        /* moments: left, top, right, bottom, then the signed sums of x and y (each summed as numpy sums a row) */
        for (Py_ssize_t s = 0; s < m; s++) {
            row[0][s] = w[s] * pos_part(-dx[s]);
            row[1][s] = w[s] * pos_part(-dy[s]);
            row[2][s] = w[s] * pos_part(dx[s]);
            row[3][s] = w[s] * pos_part(dy[s]);
            row[4][s] = w[s] * dx[s];
            row[5][s] = w[s] * dy[s];
        }
        double mom[6];
        for (int r = 0; r < 6; r++) mom[r] = la_sum(row[r], m);
        double bm_v = side_balance(mom[0], mom[2]), bm_h = side_balance(mom[1], mom[3]);
        double bm = 1.0 - (fabs(bm_v) + fabs(bm_h)) / 2;
        double em_x = mom[4] / (tw * W / 2), em_y = mom[5] / (tw * H / 2);
        double ax = fabs(em_x), ay = fabs(em_y);
        double em = 1.0 - ((1.0 < ax ? 1.0 : ax) + (1.0 < ay ? 1.0 : ay)) / 2;
        double score = (bm + em) / 2;
        score = 0.0 > score ? 0.0 : score;
        score = 1.0 < score ? 1.0 : score;
        if (score >= balanced) {
            out = Py_BuildValue("(dO)", score, Py_None);
            goto done;
        }
        int horizontal = fabs(bm_v) + fabs(em_x) >= fabs(bm_h) + fabs(em_y);
        const double *pos = horizontal ? dx : dy;
        double off = horizontal ? em_x : em_y, moment = horizontal ? mom[4] : mom[5];
        /* the unlocked element on the heavy side with the largest moment (np.argmax: the first, or the first NaN) */
        Py_ssize_t best = -1;
        double bv = 0.0;
        for (Py_ssize_t s = 0; s < m; s++) {
            if (!(pos[s] * off > 0) || L[X[s]]) continue;
            double v = w[s] * fabs(pos[s]);
            if (best < 0 || isnan(v) || v > bv) {
                best = s;
                bv = v;
                if (isnan(v)) break;
            }
        }
        Py_ssize_t i = -1;
        double shift = 0.0;
        if (best >= 0) {
            i = X[best];
            shift = -moment / w[best];
            double lo = horizontal ? cx0 - E[i] : cy0 - E[3 * n + i];
            double hi = horizontal ? cx0 + W - E[2 * n + i] : cy0 + H - E[5 * n + i];
            shift = lo > shift ? lo : shift;
            shift = hi < shift ? hi : shift;
        }
        out = Py_BuildValue("(d(Odnd))", score, horizontal ? Py_True : Py_False, off, i, shift);
    }
done:
    PyBuffer_Release(&ix);
    PyBuffer_Release(&pal);
    PyBuffer_Release(&code);
    PyBuffer_Release(&txt);
    PyBuffer_Release(&ar);
    PyBuffer_Release(&imp);
    PyBuffer_Release(&op);
    PyBuffer_Release(&e6);
    PyBuffer_Release(&lck);
    return out;
}
