/* Contrast kernel: the numeric part of ``assistant/metrics/contrast.py`` without a backdrop (WCAG 2.x contrast).
 *
 * contrast(texts, is_text, is_image, palette, fill_code, opacity, edges6, pair_i, pair_j, font, bold, importance,
 *          short, ppu)
 *   texts      int64 (m): the visible texts (1 <= m <= LA_MAX)
 *   is_text, is_image  bool (n)
 *   palette    float64 (k, 3): sRGB of the distinct fills, NaN rows where unknown; fill_code int64 (n) its rows
 *   opacity, font, importance  float64 (n); bold bool (n)
 *   edges6     float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   pair_i, pair_j  int64 (p): ``LayoutArrays.overlap_pairs`` (i painted before j, boxes meeting)
 *   short, ppu the canvas short side and px per world unit
 * -> None when no text can be judged, else (score, [(t, ratio, need, pen, impact, lb, opacity), ...]): the texts
 *    below their requirement, largest penalty first (``contrast.text_contrast``).
 */
#include "native.h"

PyObject *la_contrast(PyObject *self, PyObject *args) {
    Py_buffer tx, itx, iim, pal, code, op, e6, pi, pj, fnt, bld, imp;
    double shortside, ppu;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*dd", &tx, &itx, &iim, &pal, &code, &op, &e6, &pi, &pj,
                          &fnt, &bld, &imp, &shortside, &ppu))
        return NULL;
    Py_ssize_t n = op.len / (Py_ssize_t)sizeof(double), m = tx.len / (Py_ssize_t)sizeof(int64_t);
    Py_ssize_t k = pal.len / (Py_ssize_t)(3 * sizeof(double)), p = pi.len / (Py_ssize_t)sizeof(int64_t);
    if (m < 1 || m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native contrast: needs 1..%d texts of %d leaves, got %zd of %zd", LA_MAX,
                     LA_MAX, m, n);
        goto done;
    }
    if (!la_check(&itx, n, 1, "is_text") || !la_check(&iim, n, 1, "is_image")
        || !la_check(&code, n, sizeof(int64_t), "fill_code") || !la_check(&e6, 6 * n, sizeof(double), "edges6")
        || !la_check(&pj, p, sizeof(int64_t), "pair_j") || !la_check(&fnt, n, sizeof(double), "font")
        || !la_check(&bld, n, 1, "bold") || !la_check(&imp, n, sizeof(double), "importance")
        || !la_check_index(tx.buf, m, n, "texts") || !la_check_index(code.buf, n, k, "fill_code")
        || !la_check_index(pi.buf, p, n, "pair_i") || !la_check_index(pj.buf, p, n, "pair_j"))
        goto done;
    {
        const int64_t *T = tx.buf, *C = code.buf, *PI = pi.buf, *PJ = pj.buf;
        const uint8_t *IT = itx.buf, *IM = iim.buf, *B = bld.buf;
        const double *P = pal.buf, *O = op.buf, *E = e6.buf, *F = fnt.buf, *I = imp.buf;
        const double *x1 = E, *x2 = E + 2 * n, *y1 = E + 3 * n, *y2 = E + 5 * n;
        /* the topmost opaque-enough element under each text: a non-text painted before it, an image or with a
         * known fill, whose box contains the text's (``LayoutArrays.contains``, 1 % of the short side) */
        Py_ssize_t top[LA_MAX];
        double tol = 0.01 * shortside;
        for (Py_ssize_t j = 0; j < n; j++) top[j] = -1;
        for (Py_ssize_t q = 0; q < p; q++) {
            Py_ssize_t i = PI[q], j = PJ[q];
            if (!IT[j] || IT[i] || !(IM[i] || !isnan(P[3 * C[i]]))) continue;
            if (x1[j] >= x1[i] - tol && y1[j] >= y1[i] - tol && x2[j] <= x2[i] + tol && y2[j] <= y2[i] + tol
                && i > top[j])
                top[j] = i;
        }
        /* luminances of the background and the fill (black where unknown) of the judged texts */
        Py_ssize_t tk[LA_MAX], mk = 0;
        double lb[LA_MAX], lf[LA_MAX];
        for (Py_ssize_t s = 0; s < m; s++) {
            Py_ssize_t t = T[s], c = top[t];
            double bg[3] = {1.0, 1.0, 1.0}, fill[3];
            if (c >= 0)
                for (int q = 0; q < 3; q++) bg[q] = P[3 * C[c] + q] * O[c] + (1.0 - O[c]);
            double l = la_luminance(bg);
            if (isnan(l)) continue; /* under an image: not judged */
            for (int q = 0; q < 3; q++) {
                double v = P[3 * C[t] + q];
                fill[q] = isnan(v) ? 0.0 : v;
            }
            tk[mk] = t;
            lb[mk] = l;
            lf[mk] = la_luminance(fill);
            mk++;
        }
        if (mk == 0) {
            out = Py_NewRef(Py_None);
            goto done;
        }
        double ratio[LA_MAX], need[LA_MAX], pen[LA_MAX], w[LA_MAX], gw[LA_MAX];
        for (Py_ssize_t s = 0; s < mk; s++) {
            Py_ssize_t t = tk[s];
            double a = O[t], lt = lf[s] * a + lb[s] * (1.0 - a);
            double hi = lt >= lb[s] ? lt : lb[s], lo = lt <= lb[s] ? lt : lb[s];
            ratio[s] = (hi + 0.05) / (lo + 0.05);
            double px = F[t] * ppu;
            need[s] = (px >= 24.0 || (B[t] && px >= 18.66)) ? 3.0 : 4.5;
            double x = 1.0 - log(ratio[s]) / log(need[s]);
            pen[s] = 0.0 >= x ? 0.0 : x; /* np.maximum(0.0, x): NaN stays NaN */
            w[s] = 0.1 + I[t];
            gw[s] = (1.0 - pen[s]) * w[s];
        }
        double wsum = la_sum(w, mk), score = la_sum(gw, mk) / wsum;
        /* the penalised texts by falling penalty, after equal penalties (a stable sort of -pen) */
        Py_ssize_t bad[LA_MAX], nb = 0;
        for (Py_ssize_t s = 0; s < mk; s++)
            if (pen[s] > 0) {
                Py_ssize_t j = nb++;
                while (j > 0 && pen[bad[j - 1]] < pen[s]) {
                    bad[j] = bad[j - 1];
                    j--;
                }
                bad[j] = s;
            }
        PyObject *list = PyList_New(nb);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nb; j++) {
            Py_ssize_t s = bad[j];
            PyObject *item = Py_BuildValue("(ndddddd)", tk[s], ratio[s], need[s], pen[s], pen[s] * w[s] / wsum,
                                           lb[s], O[tk[s]]);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(dN)", score, list);
    }
done:
    PyBuffer_Release(&tx);
    PyBuffer_Release(&itx);
    PyBuffer_Release(&iim);
    PyBuffer_Release(&pal);
    PyBuffer_Release(&code);
    PyBuffer_Release(&op);
    PyBuffer_Release(&e6);
    PyBuffer_Release(&pi);
    PyBuffer_Release(&pj);
    PyBuffer_Release(&fnt);
    PyBuffer_Release(&bld);
    PyBuffer_Release(&imp);
    return out;
}
