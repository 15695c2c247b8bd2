"""test_topk_numpy.py -- drtopk.topk and drtopk.segmented_topk (python/drtopk)
on NumPy arrays, the CPU backend of the C library: every NumPy key type, both
orders, sorted and not, every dim of a 3-D array, non-contiguous and
big-endian input, ties, NaN and -0.0, k = 0 and k = the row length, ragged
segments with per-segment k, against NumPy's own sort; deterministic=True
against NumPy's stable sort (ties by position); the named result and
torch's defaults; the plan cache, whose plans are the library planner's;
that importing drtopk imports no framework;
and the argument errors, each naming its argument.  Run by
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
                          plan.block_max_len_64, plan.filter_min_len),
                         (0, 1 << 15, 1 << 20, 16, 1 << 16, 1 << 20, 0, 16, 1 << 20, 1 << 10))

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

    def test_named_result_and_torch_defaults(self):
        r = drtopk.topk(np.arange(10.0), 3)
        self.assertIsInstance(r, drtopk.TopkResult)
        self.assertEqual(r.values.tolist(), [9.0, 8.0, 7.0])      # sorted=True by default, as torch
        self.assertEqual(r.indices.tolist(), [9, 8, 7])
        v, i = r
        self.assertIs(v, r.values)

    def test_cached_path(self):
        # a repeated shape takes the cached entry: the same answers, and what the entry was not
        # made for (strides, byte order, a mask, a bool k or flag, another dim) still handled or refused
        rng = np.random.default_rng(23)
        x = data((6, 40), np.float32, rng)
        first = drtopk.topk(x, 5)
        self.assertIn((x.shape, x.dtype, 5, True, True, False), drtopk._np_entries)
        for y in (x, x + 1, x[:, ::-1], x.astype(">f4"), np.asfortranarray(x)):
            v, i = drtopk.topk(y, 5)
            want = reference(np.asarray(y, dtype=np.float32), 5, -1, True)
            self.assertTrue(np.array_equal(v, want) and np.array_equal(np.take_along_axis(y, i, axis=-1), v))
        self.assertTrue(np.array_equal(drtopk.topk(x, 5, dim=1).values, first.values))
        self.assertTrue(np.array_equal(drtopk.topk(x, 5, dim=0).values, reference(x, 5, 0, True)))
        with self.assertRaisesRegex(TypeError, "k must be an integer, not a bool"):
            drtopk.topk(x[:, :1], True)
        drtopk.topk(x, 1)
        with self.assertRaisesRegex(TypeError, "k must be an integer, not a bool"):
            drtopk.topk(x, True)
        with self.assertRaisesRegex(TypeError, "largest must be True or False"):
            drtopk.topk(x, 5, largest=1)
        with self.assertRaisesRegex(TypeError, "masked array"):
            drtopk.topk(np.ma.masked_less(x, 0), 5)

    def test_threads(self):
        # one entry, several threads at once: each thread its own problem and workspace
        import threading
        rng = np.random.default_rng(24)
        xs = [data((64, 3000), np.float64, rng) for _ in range(4)]
        drtopk.topk(xs[0], 30)
        bad = []

        def work(x):
            for _ in range(20):
                v, i = drtopk.topk(x, 30)
                if not np.array_equal(v, reference(x, 30, -1, True)):
                    bad.append(1)
        threads = [threading.Thread(target=work, args=(x,)) for x in xs]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(bad, [])

    def test_big_endian_converted(self):
        rng = np.random.default_rng(18)
        for t in (">f4", ">i8", ">u4", ">f8", ">f2"):
            x = data((4, 50), np.dtype(t).newbyteorder("="), rng).astype(t)
            self.assertFalse(x.dtype.isnative)
            v, i = drtopk.topk(x, 5)
            want = reference(x.astype(x.dtype.newbyteorder("=")), 5, -1, True)
            self.assertTrue(np.array_equal(v, want), t)
            self.assertTrue(np.array_equal(np.take_along_axis(x, i, axis=-1), v), t)

    def test_plan_cache(self):
        drtopk._plans.clear()
        drtopk._np_entries.clear()                               # the entries hold their plans
        x = np.arange(40, dtype=np.float32).reshape(4, 10)
        drtopk.topk(x, 3)
        drtopk.topk(x + 1, 3)
        self.assertEqual(len(drtopk._plans), 1)                  # one plan per shape, dtype, k and flags
        drtopk.topk(x, 3, sorted=False)
        drtopk.topk(x, 4)
        drtopk.topk(x.astype(np.int32), 3)
        self.assertEqual(len(drtopk._plans), 4)
        plan, nbytes = next(iter(drtopk._plans.values()))
        self.assertGreater(nbytes.value, 0)
        self.assertNotEqual(plan.staged_max_len, 0)

    def test_plans_come_from_the_planner(self):
        # every cached plan is the library planner's for its problem
        # (drtopk_batch_plan_auto), with DRTOPK_SORTED as asked: the binding plans nothing itself
        import ctypes
        lib = drtopk._library()
        fields = [f[0] for f in drtopk._Plan._fields_]
        drtopk._plans.clear()
        x = np.arange(60, dtype=np.float32).reshape(6, 10)
        drtopk.topk(x, 3)
        drtopk.topk(x.astype(np.uint64), 2, sorted=False)
        drtopk.segmented_topk(x.ravel(), np.array([0, 7, 60], np.int64), 4)
        self.assertEqual(len(drtopk._plans), 3)
        for (backend, _, code, order, flags, rows, cols, k), (plan, _) in drtopk._plans.items():
            prob = drtopk._Problem()
            prob.backend, prob.dtype, prob.order, prob.k = backend, code, order, k
            prob.segments, prob.len = (rows, cols) if rows >= 0 else (-rows, 0)
            want = drtopk._Plan()
            self.assertEqual(lib.drtopk_batch_plan_auto(ctypes.byref(want), ctypes.byref(prob)), 0)
            want.flags = flags
            self.assertEqual([getattr(plan, f) for f in fields], [getattr(want, f) for f in fields])

    def test_segmented(self):
        rng = np.random.default_rng(19)
        for t in TYPES:
            lens = [0, 1, 5, 37, 3, 200, 0, 64]
            offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
            x = data(int(offsets[-1]), t, rng)
            ks = np.array([3, 3, 9, 1, 0, 20, 4, 64], np.int64)
            for largest in (True, False):
                for sorted_ in (True, False):
                    for per_row in (None, ks):
                        v, i = drtopk.segmented_topk(x, offsets, 16, ks=per_row, largest=largest, sorted=sorted_)
                        self.assertEqual(v.shape, (len(lens), 16))
                        self.assertEqual(i.dtype, np.int64)
                        for s, n in enumerate(lens):
                            seg = x[offsets[s]:offsets[s + 1]]
                            ks_s = min(16, n, 16 if per_row is None else int(ks[s]))
                            want = reference(seg, ks_s, 0, largest)
                            got_i = i[s, :ks_s]
                            self.assertTrue(np.all(i[s, ks_s:] == -1), "padding of segment %d" % s)
                            self.assertTrue(np.all(v[s, ks_s:] == 0))
                            self.assertTrue(np.array_equal(seg[got_i], v[s, :ks_s]))
                            got = v[s, :ks_s] if sorted_ else reference(v[s, :ks_s], ks_s, 0, largest)
                            self.assertTrue(np.array_equal(got, want, equal_nan=np.issubdtype(t, np.floating)),
                                            "%s segment %d largest=%s sorted=%s" % (t, s, largest, sorted_))

    def test_deterministic(self):
        # deterministic=True: the k best by (value, smaller position first), NumPy's stable sort of
        # the values; sorted, exactly that order; unsorted, that set
        rng = np.random.default_rng(21)
        for t in TYPES:
            x = data((6, 301), t, rng, ties=True)
            for largest in (True, False):
                keys = x.astype(np.float64)
                order = np.argsort(-keys if largest else keys, axis=-1, kind="stable")
                for k in (1, 40, 301):
                    want = order[:, :k]
                    for sorted_ in (True, False):
                        v, i = drtopk.topk(x, k, largest=largest, sorted=sorted_, deterministic=True)
                        got = i if sorted_ else np.sort(i, axis=-1)
                        self.assertTrue(np.array_equal(got, want if sorted_ else np.sort(want, axis=-1)),
                                        "%s k=%d largest=%s sorted=%s" % (t, k, largest, sorted_))
                        self.assertTrue(np.array_equal(np.take_along_axis(x, i, -1), v))
                        plan = drtopk._np_entries[(x.shape, x.dtype, k, largest, sorted_, True)].plan[0]
                        self.assertEqual(plan.flags, drtopk._DETERMINISTIC | (drtopk._SORTED if sorted_ else 0))
            lens = [0, 5, 40, 300]
            offsets = np.concatenate([[0], np.cumsum(lens)]).astype(np.int64)
            flat = data(int(offsets[-1]), t, rng, ties=True)
            v, i = drtopk.segmented_topk(flat, offsets, 8, sorted=True, deterministic=True)
            for s, n in enumerate(lens):
                seg = flat[offsets[s]:offsets[s + 1]].astype(np.float64)
                k_s = min(8, n)
                self.assertEqual(list(i[s, :k_s]), list(np.argsort(-seg, kind="stable")[:k_s]), "%s segment %d" % (t, s))

    def test_import_loads_no_framework(self):
        import subprocess
        import sys
        code = ("import sys, drtopk; "
                "print(sorted(m for m in ('numpy', 'torch', 'cupy') if m in sys.modules))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        self.assertEqual(out.stdout.strip(), "[]")

    def test_errors(self):
        x = np.zeros((2, 3), np.float32)
        with self.assertRaisesRegex(ValueError, "k = 4 is out of range"):
            drtopk.topk(x, 4)
        with self.assertRaisesRegex(IndexError, "dim = 2"):
            drtopk.topk(x, 1, dim=2)
        with self.assertRaisesRegex(TypeError, "x has key type bool"):
            drtopk.topk(np.zeros(3, bool), 1)
        with self.assertRaisesRegex(TypeError, "x must be a NumPy array"):
            drtopk.topk([1, 2, 3], 1)
        with self.assertRaisesRegex(ValueError, "scalar"):
            drtopk.topk(np.float32(1), 1)
        for bad in (2.7, "3", True, np.True_, None, np.float32(2)):
            with self.assertRaisesRegex(TypeError, "k must be an integer"):
                drtopk.topk(x, bad)
        for good in (np.int64(2), np.uint8(2), np.array(2)):
            self.assertEqual(drtopk.topk(x, good).values.shape, (2, 2))
        with self.assertRaisesRegex(TypeError, "dim must be an integer"):
            drtopk.topk(x, 1, dim=1.0)
        with self.assertRaisesRegex(TypeError, "sorted must be True or False"):
            drtopk.topk(x, 1, sorted=1)
        with self.assertRaisesRegex(TypeError, "largest must be True or False"):
            drtopk.topk(x, 1, largest="no")
        with self.assertRaisesRegex(TypeError, "deterministic must be True or False"):
            drtopk.topk(x, 1, deterministic=None)
        with self.assertRaisesRegex(TypeError, "x is a NumPy masked array"):
            drtopk.topk(np.ma.masked_array(x, mask=x > 0), 1)
        offs = np.array([0, 2, 6])
        y = np.arange(6, dtype=np.float32)
        with self.assertRaisesRegex(TypeError, "offsets is a NumPy masked array"):
            drtopk.segmented_topk(y, np.ma.masked_array(offs), 1)
        with self.assertRaisesRegex(TypeError, "offsets must hold integers"):
            drtopk.segmented_topk(y, offs.astype(np.float64), 1)
        with self.assertRaisesRegex(ValueError, "offsets must be 1-D"):
            drtopk.segmented_topk(y, offs.reshape(3, 1), 1)
        with self.assertRaisesRegex(ValueError, "offsets run past x"):
            drtopk.segmented_topk(y, np.array([0, 2, 7]), 1)
        with self.assertRaisesRegex(ValueError, "offsets.*ends before it starts"):
            drtopk.segmented_topk(y, np.array([0, 4, 2, 6]), 1)
        with self.assertRaisesRegex(ValueError, "ks must be 1-D with one k per segment"):
            drtopk.segmented_topk(y, offs, 1, ks=np.array([1, 2, 3]))
        with self.assertRaisesRegex(ValueError, "ks must not be negative"):
            drtopk.segmented_topk(y, offs, 1, ks=np.array([1, -2]))
        with self.assertRaisesRegex(ValueError, "x must be 1-D"):
            drtopk.segmented_topk(x, offs, 1)
        with self.assertRaisesRegex(TypeError, "k must be an integer"):
            drtopk.segmented_topk(y, offs, 1.5)


if __name__ == "__main__":
    unittest.main()
