/* ``assistant.importer._spatial``: the compiled ``BoxIndex`` of assistant/importer/spatial.py.
 *
 * The same grid of one level per size class, cell by cell in the same order, so that a query answers exactly
 * what the Python definition answers (the tests compare them): levels in the order they were first used; on a
 * level, the cells the query's range covers, column by column (x outer, y inner), or, when that range holds
 * more spots than the level has cells, the level's cells in the order they were first filled; in a cell, its
 * boxes in the order they were filed. A query stops once it has ``limit`` answers.
 *
 * Keys are indices into some list (0 to 2^30); removed keys are left out of answers.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_SIDE 1e-9
#define CELL 1.0
/* keys index a list of at most a few hundred thousand elements; a larger one is refused, not allocated for */
#define MAX_KEY ((Py_ssize_t)1 << 30)

typedef struct {
    Py_ssize_t *keys;
    double *edges; /* x1 y1 x2 y2 per key */
    Py_ssize_t n, cap;
    double min_x1, min_y1, max_x1, max_y1, min_x2, min_y2, max_x2, max_y2;
} Cell;

typedef struct {
    int64_t ix, iy;
    Py_ssize_t cell; /* index into Level.cells, or -1 for an empty slot */
} Slot;

typedef struct {
    int level;
    double span, size;
    Cell *cells; /* in the order first filled */
    int64_t *cix, *ciy;
    Py_ssize_t ncells, capcells;
    Slot *table; /* open addressing over (ix, iy) */
    Py_ssize_t tcap;
} Level;

typedef struct {
    PyObject_HEAD
    Level *levels; /* in the order first used */
    Py_ssize_t nlevels, caplevels;
    double *edges; /* per key: x1 y1 x2 y2 */
    unsigned char *state; /* per key: 0 not filed, 1 filed */
    unsigned char *removed; /* per key: 1 removed */
    Py_ssize_t capkeys;
    Py_ssize_t filed, nremoved;
} BoxIndex;

static int grow_keys(BoxIndex *self, Py_ssize_t key) {
    if (key < self->capkeys) return 0;
    Py_ssize_t cap = self->capkeys ? self->capkeys : 64;
    while (cap <= key) cap *= 2;
    double *e = PyMem_Realloc(self->edges, (size_t)cap * 4 * sizeof(double));
    if (e == NULL) { PyErr_NoMemory(); return -1; }
    self->edges = e;
    unsigned char *s = PyMem_Realloc(self->state, (size_t)cap);
    if (s == NULL) { PyErr_NoMemory(); return -1; }
    self->state = s;
    unsigned char *r = PyMem_Realloc(self->removed, (size_t)cap);
    if (r == NULL) { PyErr_NoMemory(); return -1; }
    self->removed = r;
    memset(self->state + self->capkeys, 0, (size_t)(cap - self->capkeys));
    memset(self->removed + self->capkeys, 0, (size_t)(cap - self->capkeys));
    self->capkeys = cap;
    return 0;
}

static uint64_t spot_hash(int64_t ix, int64_t iy) {
    uint64_t h = (uint64_t)ix * 0x9E3779B97F4A7C15ULL ^ ((uint64_t)iy + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    return h ^ (h >> 29);
}

/* the slot of (ix, iy) in the level's table: its cell, or the empty slot where it would go */
static Slot *find_slot(Level *lv, int64_t ix, int64_t iy) {
    Py_ssize_t mask = lv->tcap - 1;
    Py_ssize_t i = (Py_ssize_t)(spot_hash(ix, iy) & (uint64_t)mask);
    for (;;) {
        Slot *s = &lv->table[i];
        if (s->cell < 0 || (s->ix == ix && s->iy == iy)) return s;
        i = (i + 1) & mask;
    }
}

static int grow_table(Level *lv) {
    Py_ssize_t cap = lv->tcap ? lv->tcap * 2 : 64;
    Slot *t = PyMem_Malloc((size_t)cap * sizeof(Slot));
    if (t == NULL) { PyErr_NoMemory(); return -1; }
    for (Py_ssize_t i = 0; i < cap; i++) t[i].cell = -1;
    Slot *old = lv->table;
    lv->table = t;
    lv->tcap = cap;
    for (Py_ssize_t c = 0; c < lv->ncells; c++) {
        Slot *s = find_slot(lv, lv->cix[c], lv->ciy[c]);
        s->ix = lv->cix[c];
        s->iy = lv->ciy[c];
        s->cell = c;
    }
    PyMem_Free(old);
    return 0;
}

static Level *level_of(BoxIndex *self, int level) {
    for (Py_ssize_t i = 0; i < self->nlevels; i++)
        if (self->levels[i].level == level) return &self->levels[i];
    if (self->nlevels == self->caplevels) {
        Py_ssize_t cap = self->caplevels ? self->caplevels * 2 : 16;
        Level *l = PyMem_Realloc(self->levels, (size_t)cap * sizeof(Level));
        if (l == NULL) { PyErr_NoMemory(); return NULL; }
        self->levels = l;
        self->caplevels = cap;
    }
    Level *lv = &self->levels[self->nlevels++];
    memset(lv, 0, sizeof(Level));
    lv->level = level;
    lv->span = ldexp(1.0, level);
    lv->size = CELL * lv->span;
    if (grow_table(lv) < 0) { self->nlevels--; return NULL; }
    return lv;
}

static int cell_add(Cell *c, Py_ssize_t key, double x1, double y1, double x2, double y2) {
    if (c->n == c->cap) {
        Py_ssize_t cap = c->cap ? c->cap * 2 : 4;
        Py_ssize_t *k = PyMem_Realloc(c->keys, (size_t)cap * sizeof(Py_ssize_t));
        if (k == NULL) { PyErr_NoMemory(); return -1; }
        c->keys = k;
        double *e = PyMem_Realloc(c->edges, (size_t)cap * 4 * sizeof(double));
        if (e == NULL) { PyErr_NoMemory(); return -1; }
        c->edges = e;
        c->cap = cap;
    }
    if (c->n == 0) {
        c->min_x1 = c->max_x1 = x1;
        c->min_y1 = c->max_y1 = y1;
        c->min_x2 = c->max_x2 = x2;
        c->min_y2 = c->max_y2 = y2;
    } else {
        if (x1 < c->min_x1) c->min_x1 = x1; else if (x1 > c->max_x1) c->max_x1 = x1;
        if (y1 < c->min_y1) c->min_y1 = y1; else if (y1 > c->max_y1) c->max_y1 = y1;
        if (x2 < c->min_x2) c->min_x2 = x2; else if (x2 > c->max_x2) c->max_x2 = x2;
        if (y2 < c->min_y2) c->min_y2 = y2; else if (y2 > c->max_y2) c->max_y2 = y2;
    }
    c->keys[c->n] = key;
    double *e = &c->edges[4 * c->n];
    e[0] = x1; e[1] = y1; e[2] = x2; e[3] = y2;
    c->n++;
    return 0;
}

static PyObject *BoxIndex_add(BoxIndex *self, PyObject *args) {
    Py_ssize_t key;
    double x, y, w, h;
    if (!PyArg_ParseTuple(args, "ndddd", &key, &x, &y, &w, &h)) return NULL;
    if (key < 0 || key >= MAX_KEY) { PyErr_SetString(PyExc_ValueError, "keys are list indices"); return NULL; }
    double x1 = x, y1 = y, x2 = x1 + w, y2 = y1 + h;
    double side = x2 - x1 > y2 - y1 ? x2 - x1 : y2 - y1;
    if (!(side > MIN_SIDE)) side = MIN_SIDE; /* max(…, MIN_SIDE), NaN included */
    double lg = ceil(log2(side));
    if (!isfinite(x1) || !isfinite(y1) || !isfinite(x2) || !isfinite(y2) || !isfinite(lg)) {
        PyErr_SetString(PyExc_ValueError, "box is not finite");
        return NULL;
    }
    Level *lv = level_of(self, (int)lg);
    if (lv == NULL) return NULL;
    double fx = floor(x1 / lv->size), fy = floor(y1 / lv->size);
    if (!(fabs(fx) < 4e18 && fabs(fy) < 4e18)) {
        PyErr_SetString(PyExc_OverflowError, "box too far from the origin for its size");
        return NULL;
    }
    int64_t ix = (int64_t)fx, iy = (int64_t)fy;
    if (grow_keys(self, key) < 0) return NULL;
    Slot *s = find_slot(lv, ix, iy);
    Py_ssize_t ci = s->cell;
    if (ci < 0) {
        if (lv->ncells == lv->capcells) {
            Py_ssize_t cap = lv->capcells ? lv->capcells * 2 : 16;
            Cell *c = PyMem_Realloc(lv->cells, (size_t)cap * sizeof(Cell));
            if (c == NULL) return PyErr_NoMemory();
            lv->cells = c;
            int64_t *a = PyMem_Realloc(lv->cix, (size_t)cap * sizeof(int64_t));
            if (a == NULL) return PyErr_NoMemory();
            lv->cix = a;
            int64_t *b = PyMem_Realloc(lv->ciy, (size_t)cap * sizeof(int64_t));
            if (b == NULL) return PyErr_NoMemory();
            lv->ciy = b;
            lv->capcells = cap;
        }
        ci = lv->ncells++;
        memset(&lv->cells[ci], 0, sizeof(Cell));
        lv->cix[ci] = ix;
        lv->ciy[ci] = iy;
        s->ix = ix;
        s->iy = iy;
        s->cell = ci;
        if (2 * lv->ncells > lv->tcap && grow_table(lv) < 0) return NULL;
    }
    if (cell_add(&lv->cells[ci], key, x1, y1, x2, y2) < 0) return NULL;
    if (!self->state[key]) self->filed++;
    self->state[key] = 1;
    double *e = &self->edges[4 * key];
    e[0] = x1; e[1] = y1; e[2] = x2; e[3] = y2;
    Py_RETURN_NONE;
}

static PyObject *BoxIndex_remove(BoxIndex *self, PyObject *arg) {
    Py_ssize_t key = PyLong_AsSsize_t(arg);
    if (key == -1 && PyErr_Occurred()) return NULL;
    if (key < 0 || key >= MAX_KEY) { PyErr_SetString(PyExc_ValueError, "keys are list indices"); return NULL; }
    if (grow_keys(self, key) < 0) return NULL;
    if (!self->removed[key]) self->nremoved++;
    self->removed[key] = 1;
    Py_RETURN_NONE;
}

static PyObject *BoxIndex_box(BoxIndex *self, PyObject *arg) {
    Py_ssize_t key = PyLong_AsSsize_t(arg);
    if (key == -1 && PyErr_Occurred()) return NULL;
    if (key < 0 || key >= self->capkeys || !self->state[key]) {
        PyErr_SetObject(PyExc_KeyError, arg);
        return NULL;
    }
    double *e = &self->edges[4 * key];
    return Py_BuildValue("(dddd)", e[0], e[1], e[2], e[3]);
}

/* add the cell's boxes that meet the query to ``found``; 1 when ``limit`` is reached, -1 on error */
static int take_cell(BoxIndex *self, Cell *c, double qx1, double qy1, double qx2, double qy2, PyObject *found,
                     Py_ssize_t limit) {
    if (c->min_x1 > qx2 || c->max_x2 < qx1 || c->min_y1 > qy2 || c->max_y2 < qy1)
        return limit >= 0 && PyList_GET_SIZE(found) >= limit ? 1 : 0;
    int all = c->max_x1 <= qx2 && c->min_x2 >= qx1 && c->max_y1 <= qy2 && c->min_y2 >= qy1;
    for (Py_ssize_t i = 0; i < c->n; i++) {
        Py_ssize_t k = c->keys[i];
        if (self->nremoved && k < self->capkeys && self->removed[k]) continue;
        if (!all) {
            const double *e = &c->edges[4 * i];
            if (!(e[0] <= qx2 && qx1 <= e[2] && e[1] <= qy2 && qy1 <= e[3])) continue;
        }
        PyObject *v = PyLong_FromSsize_t(k);
        if (v == NULL) return -1;
        int r = PyList_Append(found, v);
        Py_DECREF(v);
        if (r < 0) return -1;
    }
    /* (checked after each cell, as the Python definition does; the answer is then cut to ``limit``) */
    return limit >= 0 && PyList_GET_SIZE(found) >= limit ? 1 : 0;
}

static PyObject *BoxIndex_query(BoxIndex *self, PyObject *args) {
    double qx1, qy1, qx2, qy2;
    Py_ssize_t limit = -1;
    if (!PyArg_ParseTuple(args, "dddd|n", &qx1, &qy1, &qx2, &qy2, &limit)) return NULL;
    PyObject *found = PyList_New(0);
    if (found == NULL) return NULL;
    for (Py_ssize_t l = 0; l < self->nlevels; l++) {
        Level *lv = &self->levels[l];
        double span = lv->span, size = lv->size;
        double ix0 = floor((qx1 - span) / size), ix1 = floor(qx2 / size);
        double iy0 = floor((qy1 - span) / size), iy1 = floor(qy2 / size);
        double spots = (ix1 - ix0 + 1) * (iy1 - iy0 + 1);
        int r = 0;
        int far = !(fabs(ix0) < 4e18 && fabs(ix1) < 4e18 && fabs(iy0) < 4e18 && fabs(iy1) < 4e18);
        if (far || !(spots <= (double)lv->ncells)) {
            for (Py_ssize_t c = 0; c < lv->ncells && r == 0; c++) {
                double ix = (double)lv->cix[c], iy = (double)lv->ciy[c];
                if (ix0 <= ix && ix <= ix1 && iy0 <= iy && iy <= iy1)
                    r = take_cell(self, &lv->cells[c], qx1, qy1, qx2, qy2, found, limit);
            }
        } else if (spots >= 1) {
            int64_t a0 = (int64_t)ix0, a1 = (int64_t)ix1, b0 = (int64_t)iy0, b1 = (int64_t)iy1;
            for (int64_t ix = a0; ix <= a1 && r == 0; ix++) {
                for (int64_t iy = b0; iy <= b1 && r == 0; iy++) {
                    Slot *s = find_slot(lv, ix, iy);
                    if (s->cell >= 0) r = take_cell(self, &lv->cells[s->cell], qx1, qy1, qx2, qy2, found, limit);
                }
            }
        }
        if (r < 0) {
            Py_DECREF(found);
            return NULL;
        }
        if (r == 1) {
            if (PyList_GET_SIZE(found) > limit && PyList_SetSlice(found, limit, PyList_GET_SIZE(found), NULL) < 0) {
                Py_DECREF(found);
                return NULL;
            }
            return found;
        }
    }
    return found;
}

static Py_ssize_t BoxIndex_len(BoxIndex *self) {
    return self->filed - self->nremoved;
}

static void BoxIndex_dealloc(BoxIndex *self) {
    for (Py_ssize_t l = 0; l < self->nlevels; l++) {
        Level *lv = &self->levels[l];
        for (Py_ssize_t c = 0; c < lv->ncells; c++) {
            PyMem_Free(lv->cells[c].keys);
            PyMem_Free(lv->cells[c].edges);
        }
        PyMem_Free(lv->cells);
        PyMem_Free(lv->cix);
        PyMem_Free(lv->ciy);
        PyMem_Free(lv->table);
    }
    PyMem_Free(self->levels);
    PyMem_Free(self->edges);
    PyMem_Free(self->state);
    PyMem_Free(self->removed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMethodDef BoxIndex_methods[] = {
    {"add", (PyCFunction)BoxIndex_add, METH_VARARGS, "add(key, x, y, width, height): file a box under key"},
    {"remove", (PyCFunction)BoxIndex_remove, METH_O, "remove(key): leave key out of later answers"},
    {"box", (PyCFunction)BoxIndex_box, METH_O, "box(key) -> (x1, y1, x2, y2)"},
    {"query", (PyCFunction)BoxIndex_query, METH_VARARGS,
     "query(x1, y1, x2, y2[, limit]) -> keys of the boxes that meet those edges"},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods BoxIndex_seq = {.sq_length = (lenfunc)BoxIndex_len};

static PyTypeObject BoxIndexType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "assistant.importer._spatial.BoxIndex",
    .tp_basicsize = sizeof(BoxIndex),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Boxes by integer key, queried by the boxes they meet (see assistant/importer/spatial.py).",
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)BoxIndex_dealloc,
    .tp_methods = BoxIndex_methods,
    .tp_as_sequence = &BoxIndex_seq,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_spatial", "The compiled spatial index of the importer.", -1, NULL,
};

PyMODINIT_FUNC PyInit__spatial(void) {
    if (PyType_Ready(&BoxIndexType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&BoxIndexType);
    if (PyModule_AddObject(m, "BoxIndex", (PyObject *)&BoxIndexType) < 0) {
        Py_DECREF(&BoxIndexType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
