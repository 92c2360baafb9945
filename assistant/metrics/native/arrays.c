/* The arrays of ``LayoutArrays`` (assistant/metrics/context.py) from the per-leaf values its constructor reads.
 *
 * layout_arrays(flat, full_bleed_area, background_code, decoration_code, f_out, i_out, b_out)
 *   flat   float64 (n, 14): x, y, width, height, opacity, importance, font size, group, role, kind, locked,
 *          bold, anchor, fill code per leaf (kind: 0 text, 1 image, 2 shape)
 *   f_out  float64 (12, n) <- left, centre-x, right, top, centre-y, bottom, width, height, opacity, importance,
 *          font size, area
 *   i_out  int64 (4, n) <- group, role, anchor, fill code
 *   b_out  bool (9, n) <- is_text, is_image, is_shape, locked, bold, is_deco, background, visible, units
 * The same operations as the numpy construction, so the arrays are equal bit for bit.
 */
#include "native.h"

PyObject *la_layout_arrays(PyObject *self, PyObject *args) {
    Py_buffer bf, fo, io, bo;
    double full_bleed;
    long bg_code, deco_code;
    PyObject *out = NULL;
    if (!PyArg_ParseTuple(args, "y*dllw*w*w*", &bf, &full_bleed, &bg_code, &deco_code, &fo, &io, &bo)) return NULL;
    Py_ssize_t n = bf.len / (Py_ssize_t)(14 * sizeof(double));
    if (bf.len != n * 14 * (Py_ssize_t)sizeof(double) || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native layout_arrays: flat must hold 14 values for each of at most %d "
                     "leaves, got %zd bytes", LA_MAX, bf.len);
        goto done;
    }
    if (!la_check(&fo, 12 * n, sizeof(double), "f_out") || !la_check(&io, 4 * n, sizeof(int64_t), "i_out")
        || !la_check(&bo, 9 * n, 1, "b_out"))
        goto done;
    {
        const double *F = bf.buf;
        double *O = fo.buf;
        int64_t *I = io.buf;
        uint8_t *B = bo.buf;
        for (Py_ssize_t k = 0; k < n; k++) {
            const double *e = F + 14 * k;
            double x = e[0], y = e[1], w = e[2], h = e[3], op = e[4];
            O[0 * n + k] = x;
            O[1 * n + k] = x + w / 2;
            O[2 * n + k] = x + w;
            O[3 * n + k] = y;
            O[4 * n + k] = y + h / 2;
            O[5 * n + k] = y + h;
            O[6 * n + k] = w;
            O[7 * n + k] = h;
            O[8 * n + k] = op;
            O[9 * n + k] = e[5];
            O[10 * n + k] = e[6];
            O[11 * n + k] = w * h;
            int64_t group = (int64_t)e[7], role = (int64_t)e[8], kind = (int64_t)e[9];
            I[0 * n + k] = group;
            I[1 * n + k] = role;
            I[2 * n + k] = (int64_t)e[12];
            I[3 * n + k] = (int64_t)e[13];
            int text = kind == 0, background = role == bg_code || (!text && w * h >= full_bleed);
            int visible = op > 0.01 && (w > 0 || h > 0);
            B[0 * n + k] = text;
            B[1 * n + k] = kind == 1;
            B[2 * n + k] = kind == 2;
            B[3 * n + k] = (int64_t)e[10] > 0;
            B[4 * n + k] = (int64_t)e[11] > 0;
            B[5 * n + k] = role == deco_code;
            B[6 * n + k] = background;
            B[7 * n + k] = visible;
            B[8 * n + k] = visible && !background;
        }
        out = Py_NewRef(Py_None);
    }
done:
    PyBuffer_Release(&bf);
    PyBuffer_Release(&fo);
    PyBuffer_Release(&io);
    PyBuffer_Release(&bo);
    return out;
}
