"""test_topk_numpy.py -- drtopk.topk (python/drtopk) on NumPy arrays, the CPU
backend of the C library: every NumPy key type, both orders, sorted and not,
every dim of a 3-D array, non-contiguous input, ties, NaN and -0.0, k = 0 and
k = the row length, against NumPy's own sort; and the argument errors.  Run by
tests/bats/python.bats (ninja test) with PYTHONPATH=python."""
import unittest

import numpy as np

import drtopk

TYPES = [np.uint32, np.int32, np.float32, np.float16, np.uint64, np.int64, np.float64]


def data(shape, dtype, rng, ties=False):
    if ties:
        return rng.integers(0, 4, size=shape).astype(dtype)
    if np.issubdtype(dtype, np.floating):
        return rng.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


def reference(x, k, dim, largest):
    """NumPy's top k, best first (NaN is the largest float, as in drtopk)."""
    s = np.sort(x, axis=dim)                     # ascending, NaN last
    if largest:
        s = np.flip(s, axis=dim)
    return np.take(s, np.arange(k), axis=dim)


class TopkNumpy(unittest.TestCase):
    def test_plan_struct_matches_the_library(self):
        # drtopk_batch_plan's defaults read through the ctypes struct: a field
        # out of order or missing reads another field's value
        import ctypes
        lib = drtopk._library()
        plan, prob = drtopk._Plan(), drtopk._Problem()
        prob.backend = drtopk._BACKEND_CPU                 # the built-in defaults
        self.assertEqual(lib.drtopk_batch_plan_auto(ctypes.byref(plan), ctypes.byref(prob)), 0)
        self.assertEqual((plan.warp_max_k, plan.warp_max_len, plan.block_max_len, plan.tiny_max_k,
                          plan.staged_max_len, plan.dr_min_len, plan.flags, plan.tiny_max_k_64,
                          plan.block_max_len_64),
                         (0, 1 << 15, 1 << 20, 16, 1 << 16, 1 << 20, 0, 16, 1 << 20))

    def check(self, x, k, dim, largest, sorted_):
        v, i = drtopk.topk(x, k, dim=dim, largest=largest, sorted=sorted_)
        want = reference(x, k, dim, largest)
        self.assertEqual(v.shape, want.shape)
        self.assertEqual(i.dtype, np.int64)
        self.assertEqual(v.dtype, x.dtype)
        # values are the elements at the indices (bit for bit: -0.0 and NaN payloads too)
        got_at = np.take_along_axis(x, i, axis=dim)
        bits = lambda a: np.ascontiguousarray(a).view(np.uint8)
        self.assertTrue(np.array_equal(bits(got_at), bits(v)))
        # no index twice in a row
        self.assertTrue(np.all(np.diff(np.sort(i, axis=dim), axis=dim) > 0) if k > 1 else True)
        vs = v if sorted_ else reference(v, k, dim, largest)
        self.assertTrue(np.array_equal(vs, want, equal_nan=np.issubdtype(x.dtype, np.floating)),
                        "%s k=%d dim=%d largest=%s sorted=%s" % (x.dtype, k, dim, largest, sorted_))

    def test_types_orders_dims(self):
        rng = np.random.default_rng(16)
        for t in TYPES:
            x = data((5, 7, 300), t, rng)
            for dim, k in ((-1, 37), (0, 3), (1, 7), (2, 1)):
                for largest in (True, False):
                    for sorted_ in (True, False):
                        self.check(x, k, dim, largest, sorted_)

    def test_ties_special_floats_and_noncontiguous(self):
        rng = np.random.default_rng(17)
        x = data((64, 129), np.int32, rng, ties=True)
        self.check(x, 50, -1, True, True)
        self.check(x[:, ::2], 10, -1, False, False)           # a strided view
        self.check(x.T, 20, 0, True, False)                   # Fortran order
        f = np.array([[1.0, -0.0, np.nan, np.inf, 0.0, -np.inf, np.nan]], dtype=np.float32)
        v, i = drtopk.topk(f, 3, sorted=True)
        self.assertTrue(np.isnan(v[0, 0]) and np.isnan(v[0, 1]) and v[0, 2] == np.inf)
        v, i = drtopk.topk(f, 3, largest=False, sorted=True)
        self.assertEqual(list(i[0]), [5, 1, 4])               # -inf, then -0.0 == +0.0 by position

    def test_edges(self):
        x = np.arange(12, dtype=np.uint32).reshape(3, 4)
        v, i = drtopk.topk(x, 0)
        self.assertEqual(v.shape, (3, 0))
        v, i = drtopk.topk(x, 4, sorted=True)
        self.assertEqual(i.tolist(), [[3, 2, 1, 0]] * 3)
        v, i = drtopk.topk(np.zeros((0, 5), np.float32), 2)
        self.assertEqual(v.shape, (0, 2))
        v, i = drtopk.topk(np.array([7.5]), 1)
        self.assertEqual((v.tolist(), i.tolist()), ([7.5], [0]))

    def test_errors(self):
        x = np.zeros((2, 3), np.float32)
        with self.assertRaisesRegex(ValueError, "k = 4 is out of range"):
            drtopk.topk(x, 4)
        with self.assertRaisesRegex(IndexError, "dim 2"):
            drtopk.topk(x, 1, dim=2)
        with self.assertRaisesRegex(TypeError, "bool"):
            drtopk.topk(np.zeros(3, bool), 1)
        with self.assertRaisesRegex(TypeError, "NumPy array"):
            drtopk.topk([1, 2, 3], 1)
        with self.assertRaisesRegex(ValueError, "scalar"):
            drtopk.topk(np.float32(1), 1)


if __name__ == "__main__":
    unittest.main()
