/* ``assistant.metrics._native``: the method table of the compiled metric kernels (see native.h). */
#include "native.h"

/* insertion sort: stable, and the fastest for the few dozen values of a page (LA_MAX bounds it) */
void la_argsort_stable(const double *v, Py_ssize_t m, Py_ssize_t *order) {
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t j = i;
        double x = v[i];
        int xnan = isnan(x);
        while (j > 0) {
            double y = v[order[j - 1]];
            /* y goes after x when y > x, or y is NaN and x is not */
            int after = xnan ? 0 : (isnan(y) || y > x);
            if (!after) break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

static PyMethodDef methods[] = {
    {"layout_arrays", la_layout_arrays, METH_VARARGS, "the arrays of LayoutArrays: see assistant/metrics/context.py"},
    {"alignment", la_alignment, METH_VARARGS, "alignment kernel: see assistant/metrics/alignment.py"},
    {"overlap_pairs", la_overlap_pairs, METH_VARARGS, "intersecting pairs: see LayoutArrays.overlap_pairs"},
    {"overlap", la_overlap, METH_VARARGS, "overlap kernel: see assistant/metrics/overlap.py"},
    {"grid", la_grid, METH_VARARGS, "grid kernel: see assistant/metrics/grid.py"},
    {"whitespace", la_whitespace, METH_VARARGS, "whitespace kernel: see assistant/metrics/whitespace.py"},
    {"reading_order", la_reading_order, METH_VARARGS, "reading-order kernel: see assistant/metrics/reading_order.py"},
    {"text_fit", la_text_fit, METH_VARARGS, "text-fit kernel: see assistant/metrics/text_fit.py"},
    {"hierarchy", la_hierarchy, METH_VARARGS, "hierarchy kernel: see assistant/metrics/hierarchy.py"},
    {"contrast", la_contrast, METH_VARARGS, "contrast kernel: see assistant/metrics/contrast.py"},
    {"balance", la_balance, METH_VARARGS, "balance kernel: see assistant/metrics/balance.py"},
    {"margins", la_margins, METH_VARARGS, "margins kernel: see assistant/metrics/margins.py"},
    {"spacing", la_spacing, METH_VARARGS, "spacing kernel: see assistant/metrics/spacing.py"},
    {"grouping", la_grouping, METH_VARARGS, "grouping kernel: see assistant/metrics/grouping.py"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_native", "Compiled numeric kernels of the layout metrics.", -1, methods,
};

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddIntConstant(m, "MAX_ELEMENTS", LA_MAX) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
