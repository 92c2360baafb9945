/* The compiled numeric core of the metrics (module ``assistant.metrics._native``).
 *
 * Each metric with a native kernel has one ``.c`` file here defining
 * ``PyObject *la_<metric>(PyObject *self, PyObject *args)``; ``module.c``
 * lists them. Arrays arrive as C-contiguous buffers of known dtype (the Python
 * caller in ``assistant/metrics/native_core.py`` guarantees it): float64 as
 * ``double``, index arrays as ``int64`` (``Py_ssize_t`` on 64-bit), masks as
 * one byte per element. Every kernel does the same floating-point operations
 * as its numpy definition (compiled with ``-ffp-contract=off``: no fused
 * multiply-add), so the two agree to rounding (sums may add in another order).
 */
#ifndef LA_NATIVE_H
#define LA_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The largest layout (leaves) a kernel is asked to handle: kernels may use
 * fixed-size scratch arrays and plain all-pairs loops up to this size. */
#define LA_MAX 256

/* Check that ``view`` holds at least ``count`` items of ``itemsize`` bytes; set ValueError and return 0 if not. */
static inline int la_check(const Py_buffer *view, Py_ssize_t count, Py_ssize_t itemsize, const char *what) {
    if (view->len < count * itemsize) {
        PyErr_Format(PyExc_ValueError, "native metrics: %s holds %zd bytes, needs %zd", what, view->len,
                     count * itemsize);
        return 0;
    }
    return 1;
}

/* Stable order of ``v[0..m)`` ascending, NaN last (numpy's ``argsort(kind="stable")``); ``order`` gets indices. */
void la_argsort_stable(const double *v, Py_ssize_t m, Py_ssize_t *order);

/* numpy's sum of ``a[0..n)`` (``np.add.reduce`` of a contiguous row): pairwise, 8 accumulators per block of up to
 * 128 values, so that a kernel's sum rounds exactly as numpy's where a tie-break or a threshold depends on it. */
static inline double la_pairwise_sum(const double *a, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = a[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += a[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return la_pairwise_sum(a, n2) + la_pairwise_sum(a + n2, n - n2);
}

/* ``la_pairwise_sum`` with a negative zero made positive. */
static inline double la_sum(const double *v, Py_ssize_t n) { return 0.0 + la_pairwise_sum(v, n); }

/* WCAG 2.x relative luminance of an sRGB colour (``contrast.luminance``; NaN components give NaN). */
static inline double la_luminance(const double *rgb) {
    double lin[3];
    for (int q = 0; q < 3; q++) {
        double c = rgb[q];
        lin[q] = c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
    }
    return lin[0] * 0.2126 + lin[1] * 0.7152 + lin[2] * 0.0722;
}

/* Whether every index ``ix[0..m)`` lies in ``[0, n)``; sets ValueError and returns 0 if not. */
static inline int la_check_index(const int64_t *ix, Py_ssize_t m, Py_ssize_t n, const char *what) {
    for (Py_ssize_t k = 0; k < m; k++)
        if (ix[k] < 0 || ix[k] >= n) {
            PyErr_Format(PyExc_ValueError, "native metrics: %s[%zd] = %lld is not in [0, %zd)", what, k,
                         (long long)ix[k], n);
            return 0;
        }
    return 1;
}

/* the kernels, one per file */
PyObject *la_layout_arrays(PyObject *self, PyObject *args);
PyObject *la_alignment(PyObject *self, PyObject *args);
PyObject *la_overlap_pairs(PyObject *self, PyObject *args);
PyObject *la_overlap(PyObject *self, PyObject *args);
PyObject *la_grid(PyObject *self, PyObject *args);
PyObject *la_whitespace(PyObject *self, PyObject *args);
PyObject *la_reading_order(PyObject *self, PyObject *args);
PyObject *la_text_fit(PyObject *self, PyObject *args);
PyObject *la_hierarchy(PyObject *self, PyObject *args);
PyObject *la_contrast(PyObject *self, PyObject *args);
PyObject *la_balance(PyObject *self, PyObject *args);
PyObject *la_margins(PyObject *self, PyObject *args);
PyObject *la_spacing(PyObject *self, PyObject *args);
PyObject *la_grouping(PyObject *self, PyObject *args);

#endif
