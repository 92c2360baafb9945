/* Whitespace kernel: the numeric part of ``assistant/metrics/whitespace.py`` (``coverage``).
 *
 * whitespace(edges6, idx, x, y, width, height, exact, grid)
 *   edges6 float64 (6, n): left, centre-x, right, top, centre-y, bottom of every leaf (n <= LA_MAX)
 *   idx    int64 (m): the boxes whose union is measured
 *   x, y, width, height: the canvas
 *   exact  up to this many boxes the cells are cut at the boxes' edges, beyond it on a ``grid`` × ``grid`` raster
 * -> the share of the canvas covered by the union of the boxes (0.0 when there are none)
 */
#include "native.h"

/* the most cell edges per axis: the canvas' and every box's two, or the raster's */
#define WS_MAX_EDGES (2 * LA_MAX + 2)

static inline double np_max(double a, double b) { return (a >= b || isnan(a)) ? a : b; }
static inline double np_min(double a, double b) { return (a <= b || isnan(a)) ? a : b; }

/* Sort ``v[0..k)`` ascending and drop repeats (``_distinct``); returns the count kept. */
static Py_ssize_t distinct(double *v, Py_ssize_t k) {
    for (Py_ssize_t i = 1; i < k; i++) {
        double x = v[i];
        Py_ssize_t j = i;
        while (j > 0 && v[j - 1] > x) {
            v[j] = v[j - 1];
            j--;
        }
        v[j] = x;
    }
    Py_ssize_t out = k > 0 ? 1 : 0;
    for (Py_ssize_t i = 1; i < k; i++)
        if (v[i] != v[i - 1]) v[out++] = v[i];
    return out;
}

/* ``np.linspace(a, b, g + 1)`` */
static void linspace(double a, double b, Py_ssize_t g, double *out) {
    double delta = b - a, step = delta / (double)g;
    for (Py_ssize_t k = 0; k < g; k++)
        out[k] = (step == 0 ? (double)k / (double)g * delta : (double)k * step) + a;
    out[g] = b;
}

/* ``np.searchsorted(s, x)`` (side left): how many of the sorted ``s[0..k)`` are below ``x`` */
static Py_ssize_t below(const double *s, Py_ssize_t k, double x) {
    Py_ssize_t lo = 0, hi = k;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (s[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

PyObject *la_whitespace(PyObject *self, PyObject *args) {
    Py_buffer e6, ix;
    double x0, y0, width, height;
    Py_ssize_t exact, grid;
    PyObject *out = NULL;
    double *cells = NULL;
    if (!PyArg_ParseTuple(args, "y*y*ddddnn", &e6, &ix, &x0, &y0, &width, &height, &exact, &grid)) return NULL;
    Py_ssize_t n = e6.len / (6 * (Py_ssize_t)sizeof(double)), m = ix.len / (Py_ssize_t)sizeof(int64_t);
    if (m > LA_MAX || n > LA_MAX) {
        PyErr_Format(PyExc_ValueError, "native whitespace: needs at most %d boxes of %d leaves, got %zd of %zd",
                     LA_MAX, LA_MAX, m, n);
        goto done;
    }
    if (grid < 1 || grid >= WS_MAX_EDGES) {
        PyErr_Format(PyExc_ValueError, "native whitespace: the raster needs 1..%d cells a side, got %zd",
                     WS_MAX_EDGES - 1, grid);
        goto done;
    }
    {
        const double *E = e6.buf;
        const int64_t *X = ix.buf;
        for (Py_ssize_t k = 0; k < m; k++)
            if (X[k] < 0 || X[k] >= n) {
                PyErr_Format(PyExc_ValueError, "native whitespace: box index %lld out of range for %zd leaves",
                             (long long)X[k], n);
                goto done;
            }
        if (m == 0) {
            out = PyFloat_FromDouble(0.0);
            goto done;
        }
        double x1c = x0 + width, y1c = y0 + height;
        /* the boxes' edges on the canvas */
        double bx1[LA_MAX], bx2[LA_MAX], by1[LA_MAX], by2[LA_MAX];
        for (Py_ssize_t k = 0; k < m; k++) {
            Py_ssize_t i = X[k];
            bx1[k] = np_min(np_max(E[i], x0), x1c);
            bx2[k] = np_min(np_max(E[2 * n + i], x0), x1c);
            by1[k] = np_min(np_max(E[3 * n + i], y0), y1c);
            by2[k] = np_min(np_max(E[5 * n + i], y0), y1c);
        }
        /* cell edges ex, ey (exact: at the boxes' edges; else a raster) and the cells' centres mx, my */
        double ex[WS_MAX_EDGES], ey[WS_MAX_EDGES], mx[WS_MAX_EDGES], my[WS_MAX_EDGES];
        Py_ssize_t nx, ny;
        if (m <= exact) {
            ex[0] = x0;
            ex[1] = x1c;
            ey[0] = y0;
            ey[1] = y1c;
            memcpy(ex + 2, bx1, m * sizeof(double));
            memcpy(ex + 2 + m, bx2, m * sizeof(double));
            memcpy(ey + 2, by1, m * sizeof(double));
            memcpy(ey + 2 + m, by2, m * sizeof(double));
            nx = distinct(ex, 2 * m + 2);
            ny = distinct(ey, 2 * m + 2);
        } else {
            linspace(x0, x1c, grid, ex);
            linspace(y0, y1c, grid, ey);
            nx = ny = grid + 1;
        }
        for (Py_ssize_t k = 0; k + 1 < nx; k++) mx[k] = (ex[k + 1] + ex[k]) / 2;
        for (Py_ssize_t k = 0; k + 1 < ny; k++) my[k] = (ey[k + 1] + ey[k]) / 2;
        /* numpy's difference array over the (ny, nx) corners, summed over rows then columns, done row by row:
         * ``acc`` (the column counts summed over the rows so far) takes the corners of the boxes starting (r0) or
         * ending (r1) on the row; a cell is covered when its count is positive. The areas of the covered cells
         * go to ``cells`` in row-major order, to be summed as numpy sums them. */
        Py_ssize_t c0[LA_MAX], c1[LA_MAX], first[2][WS_MAX_EDGES], next[2][LA_MAX];
        int32_t acc[WS_MAX_EDGES];
        double dx[WS_MAX_EDGES];
        for (Py_ssize_t r = 0; r < ny; r++) first[0][r] = first[1][r] = -1;
        for (Py_ssize_t k = m - 1; k >= 0; k--) {
            c0[k] = below(mx, nx - 1, bx1[k]);
            c1[k] = below(mx, nx - 1, bx2[k]);
            Py_ssize_t r0 = below(my, ny - 1, by1[k]), r1 = below(my, ny - 1, by2[k]);
            if (c1[k] > c0[k] && r1 > r0) {
                next[0][k] = first[0][r0];
                first[0][r0] = k;
                next[1][k] = first[1][r1];
                first[1][r1] = k;
            }
        }
        memset(acc, 0, nx * sizeof(int32_t));
        for (Py_ssize_t c = 0; c + 1 < nx; c++) dx[c] = ex[c + 1] - ex[c];
        cells = PyMem_Malloc((size_t)((nx - 1) * (ny - 1) + 1) * sizeof(double));
        if (cells == NULL) {
            PyErr_NoMemory();
            goto done;
        }
        Py_ssize_t nc = 0, open = 0;
        for (Py_ssize_t r = 0; r + 1 < ny; r++) {
            for (Py_ssize_t k = first[0][r]; k >= 0; k = next[0][k], open++) {
                acc[c0[k]]++;
                acc[c1[k]]--;
            }
            for (Py_ssize_t k = first[1][r]; k >= 0; k = next[1][k], open--) {
                acc[c0[k]]--;
                acc[c1[k]]++;
            }
            if (open == 0) continue; /* no box spans this row */
            double dy = ey[r + 1] - ey[r];
            int32_t run = 0;
            for (Py_ssize_t c = 0; c + 1 < nx; c++) {
                run += acc[c];
                cells[nc] = dy * dx[c];
                nc += run > 0;
            }
        }
        out = PyFloat_FromDouble(la_pairwise_sum(cells, nc) / (width * height));
    }
done:
    PyMem_Free(cells);
    PyBuffer_Release(&e6);
    PyBuffer_Release(&ix);
    return out;
}
