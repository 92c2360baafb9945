/* Text-fit kernel: the numeric part of ``assistant/metrics/text_fit.py`` (legible size, off-canvas, container
 * overflow).
 *
 * text_fit(edges6, area, font, role, is_text, visible, background, is_shape, is_image, fraction, floor,
 *          pair_i, pair_j, pair_inter, cx, cy, cw, ch, short, ppu, log_step, limit)
 *   edges6      float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf
 *   area, font  float64 (n): box area, font size in world units (NaN: none)
 *   role        int64 (n): role codes, indexing fraction and floor (float64 (r): ``LEGIBLE`` by role code)
 *   is_text, visible, background, is_shape, is_image  bool (n)
 *   pair_i, pair_j, pair_inter  int64, int64, float64 (k): ``LayoutArrays.overlap_pairs`` (i < j, sorted)
 *   cx .. ch    the canvas viewBox; short its short side; ppu px per world unit; log_step ln 1.5; limit the
 *               most texts returned
 * -> None without visible texts, else (score, [(leaf, small, need, size_px, off, spill, container), ...]):
 *    the texts with a penalty above 1e-3, most penalised first (stable), at most limit; ``container`` is -1 for none.
 *
 * The logarithm is the C library's: numpy's vectorised ``log`` may differ from it in the last bit (below the
 * 1e-9 the paths are compared to). The penalties are summed pairwise as numpy sums them.
 */
#include "native.h"

PyObject *la_text_fit(PyObject *self, PyObject *args) {
    Py_buffer e6, ar, fo, rol, txt, vis, bg, shp, img, fr, fl, pi, pj, px;
    double cx, cy, cw, ch, shortside, ppu, log_step;
    Py_ssize_t limit;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*y*y*dddddddn", &e6, &ar, &fo, &rol, &txt, &vis, &bg, &shp,
                          &img, &fr, &fl, &pi, &pj, &px, &cx, &cy, &cw, &ch, &shortside, &ppu, &log_step, &limit))
        return NULL;
    Py_ssize_t n = ar.len / (Py_ssize_t)sizeof(double), nr = fr.len / (Py_ssize_t)sizeof(double);
    Py_ssize_t np_ = pi.len / (Py_ssize_t)sizeof(int64_t);
    if (n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native text_fit: needs at most %d leaves, got %zd", LA_MAX, n);
        goto done;
    }
    if (!la_check(&e6, 6 * n, sizeof(double), "edges6") || !la_check(&fo, n, sizeof(double), "font")
        || !la_check(&rol, n, sizeof(int64_t), "role") || !la_check(&txt, n, 1, "is_text")
        || !la_check(&vis, n, 1, "visible") || !la_check(&bg, n, 1, "background") || !la_check(&shp, n, 1, "is_shape")
        || !la_check(&img, n, 1, "is_image") || !la_check(&fl, nr, sizeof(double), "floor")
        || !la_check(&pj, np_, sizeof(int64_t), "pair_j") || !la_check(&px, np_, sizeof(double), "pair_inter"))
        goto done;
    {
        const double *E = e6.buf, *A = ar.buf, *F = fo.buf, *FR = fr.buf, *FL = fl.buf, *PX = px.buf;
        const double *X1 = E, *X2 = E + 2 * n, *Y1 = E + 3 * n, *Y2 = E + 5 * n;
        const int64_t *R = rol.buf, *PI = pi.buf, *PJ = pj.buf;
        const uint8_t *T = txt.buf, *V = vis.buf, *BG = bg.buf, *SH = shp.buf, *IM = img.buf;
        Py_ssize_t texts[LA_MAX], m = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            if (T[i] && V[i]) {
                if (R[i] < 0 || R[i] >= nr) {
                    PyErr_Format(PyExc_ValueError, "native text_fit: role code %lld of leaf %zd is outside 0..%zd",
                                 (long long)R[i], i, nr - 1);
                    goto done;
                }
                texts[m++] = i;
            }
        if (m == 0) {
            out = Py_None;
            Py_INCREF(out);
            goto done;
        }
        /* container overflow per leaf: the smallest container holding at least half of a text but not all of it,
         * unless some container holds all of it; pairs are read as (i, j) then as (j, i), the first smallest wins */
        double tol = 0.002 * shortside, share[LA_MAX], best[LA_MAX];
        Py_ssize_t cont[LA_MAX];
        uint8_t fits[LA_MAX];
        for (Py_ssize_t i = 0; i < n; i++) {
            share[i] = 0.0;
            cont[i] = -1;
            fits[i] = 0;
        }
        for (Py_ssize_t k = 0; k < np_; k++)
            if (PI[k] < 0 || PI[k] >= n || PJ[k] < 0 || PJ[k] >= n) {
                PyErr_Format(PyExc_ValueError, "native text_fit: overlap pair %zd names a leaf outside 0..%zd", k,
                             n - 1);
                goto done;
            }
        for (int pass = 0; pass < 2; pass++)
            for (int side = 0; side < 2; side++)
                for (Py_ssize_t k = 0; k < np_; k++) {
                    Py_ssize_t t = side ? PJ[k] : PI[k], o = side ? PI[k] : PJ[k];
                    if (!(T[t] && !T[o] && V[o] && !BG[o] && (SH[o] || IM[o]) && A[o] > A[t])) continue;
                    int inside = X1[t] >= X1[o] - tol && Y1[t] >= Y1[o] - tol && X2[t] <= X2[o] + tol
                                 && Y2[t] <= Y2[o] + tol;
                    if (pass == 0) {
                        if (inside) fits[t] = 1;
                        continue;
                    }
                    double frac = PX[k] / (A[t] > 1e-12 ? A[t] : 1e-12);
                    if (!(frac >= 0.5) || inside || fits[t]) continue;
                    if (cont[t] < 0 || A[o] < best[t]) {
                        cont[t] = o;
                        best[t] = A[o];
                        share[t] = 1.0 - frac;
                    }
                }
        double sp = shortside * ppu, cx2 = cx + cw, cy2 = cy + ch;
        double small[LA_MAX], need[LA_MAX], size[LA_MAX], off[LA_MAX], pen[LA_MAX];
        Py_ssize_t bad[LA_MAX], nb = 0;
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = texts[k];
            double f = FR[R[i]] * sp;
            need[k] = FL[R[i]] > f ? FL[R[i]] : f;
            size[k] = F[i] * ppu;
            /* a text without a size (NaN) is not judged: NaN becomes 0 (numpy's fmax) */
            double s = log(need[k] / size[k]) / log_step;
            small[k] = s >= 0.0 ? s : 0.0;
            double ix = (X2[i] < cx2 ? X2[i] : cx2) - (X1[i] > cx ? X1[i] : cx);
            double iy = (Y2[i] < cy2 ? Y2[i] : cy2) - (Y1[i] > cy ? Y1[i] : cy);
            ix = ix > 0.0 ? ix : 0.0;
            iy = iy > 0.0 ? iy : 0.0;
            off[k] = A[i] > 0.0 ? 1.0 - ix * iy / (A[i] > 1e-12 ? A[i] : 1e-12) : 0.0;
            pen[k] = small[k] + 2.0 * off[k] + share[i];
            if (pen[k] > 1e-3) {
                /* insert by falling penalty, after equal ones (a stable sort of -pen) */
                Py_ssize_t j = nb++;
                while (j > 0 && pen[bad[j - 1]] < pen[k]) {
                    bad[j] = bad[j - 1];
                    j--;
                }
                bad[j] = k;
            }
        }
        double score = 1.0 / (1.0 + la_pairwise_sum(pen, m));
        if (nb > limit) nb = limit > 0 ? limit : 0;
        PyObject *list = PyList_New(nb);
        if (list == NULL) goto done;
        for (Py_ssize_t j = 0; j < nb; j++) {
            Py_ssize_t k = bad[j], i = texts[k];
            PyObject *item = Py_BuildValue("(ndddddn)", i, small[k], need[k], size[k], off[k], share[i], cont[i]);
            if (item == NULL) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, j, item);
        }
        out = Py_BuildValue("(dN)", score, list);
    }
done:
    PyBuffer_Release(&e6);
    PyBuffer_Release(&ar);
    PyBuffer_Release(&fo);
    PyBuffer_Release(&rol);
    PyBuffer_Release(&txt);
    PyBuffer_Release(&vis);
    PyBuffer_Release(&bg);
    PyBuffer_Release(&shp);
    PyBuffer_Release(&img);
    PyBuffer_Release(&fr);
    PyBuffer_Release(&fl);
    PyBuffer_Release(&pi);
    PyBuffer_Release(&pj);
    PyBuffer_Release(&px);
    return out;
}
