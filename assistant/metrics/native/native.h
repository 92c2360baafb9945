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

/* numpy's pairwise sum of ``v[0..n)`` (``np.add.reduce`` of a contiguous float64 array; sums.c) */
double la_pairwise_sum(const double *v, Py_ssize_t n);

PyObject *la_alignment(PyObject *self, PyObject *args);
PyObject *la_spacing(PyObject *self, PyObject *args);
PyObject *la_grouping(PyObject *self, PyObject *args);

#endif
