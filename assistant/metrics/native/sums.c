/* Sums added in numpy's order, so that a kernel's score equals its numpy definition to the last bit. */
#include "native.h"

/* numpy's pairwise summation of a contiguous float64 array (``np.add.reduce``, ``ndarray.sum``, ``mean``):
 * below 8 values one running sum, up to 128 eight running sums, beyond that halves rounded to a multiple of 8. */
double la_pairwise_sum(const double *v, Py_ssize_t n) {
    if (n < 8) {
        double res = 0.0;
        for (Py_ssize_t i = 0; i < n; i++) res += v[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        Py_ssize_t i;
        for (int j = 0; j < 8; j++) r[j] = v[j];
        for (i = 8; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; j++) r[j] += v[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; i++) res += v[i];
        return res;
    }
    Py_ssize_t n2 = n / 2;
    n2 -= n2 % 8;
    return la_pairwise_sum(v, n2) + la_pairwise_sum(v + n2, n - n2);
}
