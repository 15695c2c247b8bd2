"""drtopk -- exact top-k (Dr. Top-k, SC'21) from Python, over the C library.

    import drtopk
    values, indices = drtopk.topk(x, k, dim=-1, largest=True, sorted=True, deterministic=False)
    values, indices = drtopk.segmented_topk(x, offsets, k, ks=None, largest=True, sorted=True,
                                            deterministic=False)

topk is a drop-in for torch.topk: x is a NumPy array (the CPU backend), a
torch tensor (CPU tensors on the CPU backend, CUDA tensors on the GPU one) or
a CuPy array; the result is a named (values, indices) pair of the same array
type and device, k values and their int64 positions along `dim`, best first
with sorted=True (the default, as in torch), else in an unspecified order (the
CPU backend gives increasing positions).  GPU work is enqueued on the
framework's current stream, with its workspace from the framework's caching
allocator (torch: kept per device and stream between calls, and never shared
with a CUDA graph being captured), so a torch call can be captured in a CUDA
graph; x is read in place when `dim` is its last axis and contiguous, any
other layout is first made contiguous.  With torch, drtopk.topk and
drtopk.segmented_topk are the operators torch.ops.drtopk.topk and
torch.ops.drtopk.segmented_topk (torch >= 2.4): torch.compile traces them and
their gradient is scattered to the indices, as torch.topk's.

Ties at the k-th value may return any of the equal elements; with
deterministic=True they are the ones of smallest position, and sorted=True
orders equal values by position: the same result run to run, on either
backend and whatever plan runs (the GPU pays a fix-up after the selection,
docs/performance.md#deterministic-ties).  Floats order NaN above +inf and
-0.0 equal to +0.0.  Every call goes through
drtopk_batch_topk (drtopk.h) of the shared library libdrtopk.so: the copy
installed with this package, or the one named by $DRTOPK_LIBRARY, or
build/libdrtopk.so of a source tree.  Its plan and workspace size are cached
per (backend, device, key type, order, sortedness, shape, k), so a repeated
shape costs one library call.  NumPy, torch and CuPy are optional: each is
imported only when an array of its kind is passed.
"""
import collections
import ctypes
import operator
import os
import sys
from threading import get_ident as _get_ident

__all__ = ["topk", "segmented_topk", "TopkResult", "DrtopkError", "library_path"]

TopkResult = collections.namedtuple("TopkResult", ["values", "indices"])
TopkResult.__doc__ = "The result of drtopk.topk and drtopk.segmented_topk: values and their int64 positions."

_BACKEND_CPU, _BACKEND_CUDA = 0, 1
_LARGEST, _SMALLEST = 0, 1
_SORTED = 1 << 4                        # DRTOPK_SORTED
_DETERMINISTIC = 1 << 5                 # DRTOPK_DETERMINISTIC
_STATUS_BAD_INPUT = (1, 2, 3, 4)        # DRTOPK_ERR_INVALID_ARGUMENT, _K_ZERO, _K_GT_N, _N_ZERO
_PLAN_CACHE_MAX = 4096                  # cached plans before the cache starts over (a plan is ~100 bytes)

# drtopk_dtype by the frameworks' dtype names (numpy, torch and cupy agree).
_DTYPES = {"uint32": 0, "int32": 1, "float32": 2, "float16": 3, "bfloat16": 4,
           "uint64": 5, "int64": 6, "float64": 7}


class DrtopkError(RuntimeError):
    """A failed drtopk call: its status and the library's message."""


class _Problem(ctypes.Structure):       # drtopk_batch_problem
    _fields_ = [("backend", ctypes.c_int), ("dtype", ctypes.c_int), ("order", ctypes.c_int),
                ("segments", ctypes.c_uint64), ("len", ctypes.c_uint64),
                ("offsets", ctypes.c_void_p), ("k", ctypes.c_uint64), ("ks", ctypes.c_void_p),
                ("values", ctypes.c_void_p), ("total", ctypes.c_uint64)]


class _Plan(ctypes.Structure):          # drtopk_batch_plan
    _fields_ = [("warp_max_k", ctypes.c_uint64), ("warp_max_len", ctypes.c_uint64),
                ("block_max_len", ctypes.c_uint64), ("tiny_max_k", ctypes.c_uint64),
                ("staged_max_len", ctypes.c_uint64), ("dr_min_len", ctypes.c_uint64),
                ("flags", ctypes.c_uint), ("tiny_max_k_64", ctypes.c_uint64),
                ("block_max_len_64", ctypes.c_uint64), ("filter_min_len", ctypes.c_uint64)]


def library_path():
    """The libdrtopk.so this module loads."""
    env = os.environ.get("DRTOPK_LIBRARY")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for cand in (os.path.join(here, "libdrtopk.so"),
                 os.path.join(here, "..", "..", "build", "libdrtopk.so")):
        if os.path.exists(cand):
            return os.path.normpath(cand)
    raise DrtopkError("libdrtopk.so not found: install the package (pip install .), build the "
                      "library (ninja build/libdrtopk.so) or set DRTOPK_LIBRARY")


_lib = None
_run_c = None                           # drtopk_batch_topk with its argtypes set once
_plans = {}                             # cache key -> (_Plan, c_size_t workspace bytes)


def _library():
    global _lib, _run_c
    if _lib is None:
        lib = ctypes.CDLL(library_path())
        f = lib.drtopk_batch_topk
        f.argtypes = [ctypes.POINTER(_Problem), ctypes.POINTER(_Plan), ctypes.c_uint, ctypes.c_void_p,
                      ctypes.POINTER(ctypes.c_size_t), ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        f.restype = ctypes.c_int
        lib.drtopk_batch_plan_auto.argtypes = [ctypes.POINTER(_Plan), ctypes.POINTER(_Problem)]
        lib.drtopk_batch_plan_auto.restype = ctypes.c_int
        lib.drtopk_status_string.restype = ctypes.c_char_p
        lib.drtopk_status_string.argtypes = [ctypes.c_int]
        lib.drtopk_last_error.restype = ctypes.c_char_p
        _lib, _run_c = lib, f
    return _lib


def _fail(status, fn):
    """Raise the error of a failed library call: ValueError for a bad input, else DrtopkError."""
    lib = _library()
    msg = lib.drtopk_last_error().decode() or lib.drtopk_status_string(status).decode()
    raise (ValueError if status in _STATUS_BAD_INPUT else DrtopkError)("%s: %s" % (fn, msg))


def _plan_for(key, problem, flags, fn):
    """The cached (plan, workspace bytes) of key, planned and sized on a miss."""
    entry = _plans.get(key)
    if entry is None:
        _library()
        plan, nbytes = _Plan(), ctypes.c_size_t()
        st = _run_c(problem, plan, flags, None, nbytes, None, None, None)
        if st != 0:
            _fail(st, fn)
        if len(_plans) >= _PLAN_CACHE_MAX:
            _plans.clear()
        entry = _plans[key] = (plan, nbytes)
    return entry


def _run(problem, entry, ws_ptr, values_ptr, indices_ptr, stream, fn):
    st = _run_c(problem, entry[0], 0, ws_ptr, entry[1], values_ptr, indices_ptr, stream)
    if st != 0:
        _fail(st, fn)


# ---- torch, loaded on the first tensor (or at import when torch already is) ---

_torch_tensor = None                    # torch.Tensor once drtopk._torch is loaded
_torch_topk = None                      # drtopk._torch.topk


def _load_torch():
    global _torch_tensor, _torch_topk
    from . import _torch
    _torch_tensor, _torch_topk = _torch.torch.Tensor, _torch.topk
    return _torch


# ---- arguments ---------------------------------------------------------------

def _integer(v, name, fn):
    """v as a Python int: an int or an integer scalar of NumPy, torch or CuPy (no bool, float or string)."""
    if type(v) is int:
        return v
    dt = getattr(v, "dtype", None)
    if isinstance(v, bool) or (dt is not None and str(dt).split(".")[-1] == "bool"):
        raise TypeError("%s: %s must be an integer, not a bool (%r)" % (fn, name, v))
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError("%s: %s must be an integer (int, or a NumPy/torch integer scalar), not %s %r"
                        % (fn, name, type(v).__name__, v)) from None


def _flag(v, name, fn):
    if v is True or v is False or type(v).__name__ == "bool_":
        return bool(v)
    raise TypeError("%s: %s must be True or False, not %s %r" % (fn, name, type(v).__name__, v))


def _kind(x, name, fn):
    """'numpy', 'torch' or 'cupy' by the array's module (imports none of them)."""
    mod = type(x).__module__
    top = mod.split(".")[0]
    if top == "numpy" and mod.startswith("numpy.ma"):
        raise TypeError("%s: %s is a NumPy masked array, whose mask drtopk would ignore: pass %s.filled(v) with "
                        "a v that never wins (e.g. -inf for the largest) or %s.compressed()" % (fn, name, name, name))
    if top in ("numpy", "torch", "cupy"):
        return top
    raise TypeError("%s: %s must be a NumPy array, a torch tensor or a CuPy array, not %s"
                    % (fn, name, type(x).__name__))


def _dtype_code(dtype, name, fn):
    tname = str(dtype).split(".")[-1]
    if tname not in _DTYPES:
        raise TypeError("%s: %s has key type %s, which drtopk does not support (%s)"
                        % (fn, name, tname, " ".join(_DTYPES)))
    return _DTYPES[tname]


def _check_axis(ndim, shape, k, dim, fn):
    """dim in 0..ndim-1 and the length of that axis, after the checks torch.topk makes."""
    if ndim == 0:
        raise ValueError("%s: x is a scalar; it needs at least one dimension" % fn)
    if not -ndim <= dim < ndim:
        raise IndexError("%s: dim = %d is out of range for x of %d dimensions" % (fn, dim, ndim))
    dim %= ndim
    cols = shape[dim]
    if k < 0 or k > cols:
        raise ValueError("%s: k = %d is out of range 0..%d (the length of x's dim %d)" % (fn, k, cols, dim))
    return dim, cols


def _flags(sorted, deterministic):
    """drtopk_batch_topk's flags of the (checked) sorted and deterministic arguments."""
    return (_SORTED if sorted else 0) | (_DETERMINISTIC if deterministic else 0)


def _native(x, xp):
    """x with its bytes in this machine's order (a big-endian NumPy array is converted)."""
    if xp.__name__ == "numpy" and not x.dtype.isnative:
        return x.astype(x.dtype.newbyteorder("="))
    return x


# ---- topk --------------------------------------------------------------------

_ndarray = None                         # numpy.ndarray once a NumPy array was seen (numpy imported then)
_np_entries = {}                        # (shape, dtype, k, largest, sorted, deterministic) -> _NumpyEntry


class _NumpyEntry:
    """A NumPy top-k along the last axis of a C-contiguous array of one (shape, native dtype, k,
    order, sortedness, determinism), checked and planned once.  template is None when there is nothing to run
    (no rows, or k = 0).  threads: per thread its _Problem, workspace and the workspace's address
    (the library call releases the GIL, and the CPU backend is done when it returns, so a
    thread's workspace is free again for its next call)."""
    __slots__ = ("out_shape", "dtype", "template", "plan", "threads")


def _numpy_entry(x, k, largest, sorted, deterministic, code, fn):
    """The cached entry of x's top-k along its last axis (x native and C-contiguous, k checked)."""
    key = (x.shape, x.dtype, k, largest, sorted, deterministic)
    e = _np_entries.get(key)
    if e is None:
        e = _NumpyEntry()
        e.out_shape, e.dtype, e.template, e.threads = x.shape[:-1] + (k,), x.dtype, None, {}
        cols = x.shape[-1]
        rows = x.size // cols if cols else 0
        if rows > 0 and k > 0:
            order, flags = _LARGEST if largest else _SMALLEST, _flags(sorted, deterministic)
            e.template = (_BACKEND_CPU, code, order, rows, cols, None, k, None, None, 0)
            e.plan = _plan_for((_BACKEND_CPU, -1, code, order, flags, rows, cols, k), _Problem(*e.template), flags, fn)
        if len(_np_entries) >= _PLAN_CACHE_MAX:
            _np_entries.clear()
        _np_entries[key] = e
    return e


def _numpy_fill(e, x):
    """(values, indices) of entry e for x (its shape, dtype, C-contiguous) on the CPU backend."""
    import numpy
    values = numpy.empty(e.out_shape, e.dtype)
    indices = numpy.empty(e.out_shape, numpy.int64)
    if e.template is not None:
        tid = _get_ident()
        mine = e.threads.get(tid)
        if mine is None:
            ws = numpy.empty(e.plan[1].value, numpy.uint8)
            mine = e.threads[tid] = (_Problem(*e.template), ws, ws.ctypes.data)
        p = mine[0]
        p.values = x.ctypes.data
        _run(p, e.plan, mine[2], values.ctypes.data, indices.ctypes.data, None, "drtopk.topk")
    return values, indices


_cp_ndarray = None                      # cupy.ndarray once a CuPy array was seen (cupy imported then)
_cp_stream = None                       # cupy.cuda.get_current_stream
_cp_entries = {}                        # (shape, dtype, k, largest, sorted, deterministic, device, stream, thread)
                                        #   -> _CupyEntry


class _CupyEntry:
    """A CuPy top-k along the last axis of a C-contiguous array of one (shape, dtype, k, order,
    sortedness, determinism) on one device and stream, for one thread, checked and planned once: its
    _Problem, plan and workspace (the stream orders a call's use of it after the last one's; the
    library call releases the GIL, so another thread's call must not rewrite this _Problem meanwhile).
    problem is None when there is nothing to run (no rows, or k = 0)."""
    __slots__ = ("out_shape", "dtype", "problem", "plan", "ws", "ws_ptr", "device")


def _seen_cupy(cupy):
    """Note cupy.ndarray and its current-stream call for topk's cached path."""
    global _cp_ndarray, _cp_stream
    _cp_ndarray, _cp_stream = cupy.ndarray, cupy.cuda.get_current_stream


def _cupy_entry(x, k, largest, sorted, deterministic, code, stream, fn):
    """The cached entry of x's top-k along its last axis on x's device and `stream` (x C-contiguous, k checked)."""
    import cupy
    key = (x.shape, x.dtype, k, largest, sorted, deterministic, x.device.id, stream, _get_ident())
    e = _cp_entries.get(key)
    if e is None:
        e = _CupyEntry()
        e.out_shape, e.dtype, e.problem, e.device = x.shape[:-1] + (k,), x.dtype, None, x.device
        cols = x.shape[-1]
        rows = x.size // cols if cols else 0
        if rows > 0 and k > 0:
            order, flags = _LARGEST if largest else _SMALLEST, _flags(sorted, deterministic)
            e.problem = _Problem(_BACKEND_CUDA, code, order, rows, cols, None, k, None, x.data.ptr, 0)
            e.plan = _plan_for((_BACKEND_CUDA, x.device.id, code, order, flags, rows, cols, k), e.problem, flags, fn)
            with x.device:
                e.ws = cupy.empty(e.plan[1].value, dtype=cupy.uint8)
            e.ws_ptr = e.ws.data.ptr
        if len(_cp_entries) >= _PLAN_CACHE_MAX:
            _cp_entries.clear()
        _cp_entries[key] = e
    return e


def _cupy_fill(e, x, stream):
    """(values, indices) of entry e for x (its shape, dtype, device, C-contiguous) on `stream`."""
    import cupy
    with e.device:
        values = cupy.empty(e.out_shape, dtype=e.dtype)
        indices = cupy.empty(e.out_shape, dtype=cupy.int64)
        if e.problem is not None:
            e.problem.values = x.data.ptr
            _run(e.problem, e.plan, e.ws_ptr, values.data.ptr, indices.data.ptr, stream, "drtopk.topk")
    return values, indices


def topk(x, k, dim=-1, largest=True, sorted=True, deterministic=False):
    """The k largest (or smallest) elements of x along dim: TopkResult(values, indices), as torch.topk;
    deterministic=True: ties at the k-th value by smallest position (sorted: equal values by position)."""
    if _torch_tensor is not None and isinstance(x, _torch_tensor):
        return _torch_topk(x, k, dim, largest, sorted, deterministic)
    # a repeated NumPy call along a C-contiguous last axis with plain int and bool arguments (the
    # key cannot tell True from 1): checked and planned before, one lookup away
    if (type(x) is _ndarray and type(k) is int and type(largest) is bool and type(sorted) is bool
            and type(deterministic) is bool):
        e = _np_entries.get((x.shape, x.dtype, k, largest, sorted, deterministic))
        if e is not None and type(dim) is int and (dim == -1 or dim == len(e.out_shape) - 1) and x.flags.c_contiguous:
            return TopkResult(*_numpy_fill(e, x))
    # the same for CuPy, per device and current stream
    if (type(x) is _cp_ndarray and type(k) is int and type(largest) is bool and type(sorted) is bool
            and type(deterministic) is bool):
        stream = _cp_stream().ptr
        e = _cp_entries.get((x.shape, x.dtype, k, largest, sorted, deterministic, x.device.id, stream, _get_ident()))
        if e is not None and type(dim) is int and (dim == -1 or dim == len(e.out_shape) - 1) and x.flags.c_contiguous:
            return TopkResult(*_cupy_fill(e, x, stream))
    fn = "drtopk.topk"
    kind = _kind(x, "x", fn)
    if kind == "torch":
        _load_torch()
        return _torch_topk(x, k, dim, largest, sorted, deterministic)
    k = _integer(k, "k", fn)
    dim = _integer(dim, "dim", fn)
    largest, sorted = _flag(largest, "largest", fn), _flag(sorted, "sorted", fn)
    deterministic = _flag(deterministic, "deterministic", fn)
    if kind == "numpy":
        import numpy as xp
        _seen_numpy(xp)
    else:
        import cupy as xp
        _seen_cupy(xp)
    x = _native(x, xp)
    dim, cols = _check_axis(x.ndim, x.shape, k, dim, fn)
    code = _dtype_code(x.dtype, "x", fn)
    last = dim == x.ndim - 1
    moved = x if last and x.flags.c_contiguous else xp.ascontiguousarray(xp.moveaxis(x, dim, -1))
    if kind == "numpy":
        values, indices = _numpy_fill(_numpy_entry(moved, k, largest, sorted, deterministic, code, fn), moved)
    else:
        stream = _cp_stream().ptr
        values, indices = _cupy_fill(_cupy_entry(moved, k, largest, sorted, deterministic, code, stream, fn), moved,
                                     stream)
    if last:
        return TopkResult(values, indices)
    return TopkResult(xp.moveaxis(values, -1, dim), xp.moveaxis(indices, -1, dim))


def _seen_numpy(numpy):
    """Note numpy.ndarray for topk's cached path (numpy is imported only once an array of it is given)."""
    global _ndarray
    _ndarray = numpy.ndarray


# ---- segmented_topk ----------------------------------------------------------

def segmented_topk(x, offsets, k, ks=None, largest=True, sorted=True, deterministic=False):
    """The top k of each segment x[offsets[s]:offsets[s+1]] of a 1-D x: TopkResult(values, indices).

    offsets: segments + 1 non-decreasing integer offsets into x (any segment
    length, 0 included); ks: optional per-segment k, each clamped to k.  The
    result has shape (segments, k); segment s fills its first
    k_s = min(ks[s], k, its length) slots (best first with sorted=True) with
    values and int64 positions within the segment, and pads the rest with
    index -1 and value 0.  deterministic=True: each segment's ties at its k-th
    value by smallest position (sorted: equal values by position).  The GPU
    backend does not read offsets on the host: a decreasing pair there gives
    an empty segment (the CPU backend refuses it).
    """
    fn = "drtopk.segmented_topk"
    kind = _kind(x, "x", fn)
    if _kind(offsets, "offsets", fn) != kind or (ks is not None and _kind(ks, "ks", fn) != kind):
        raise TypeError("%s: x, offsets and ks must be arrays of one kind (all NumPy, torch or CuPy)" % fn)
    if kind == "torch":
        return _load_torch().segmented_topk(x, offsets, k, ks, largest, sorted, deterministic)
    k = _integer(k, "k", fn)
    largest, sorted = _flag(largest, "largest", fn), _flag(sorted, "sorted", fn)
    deterministic = _flag(deterministic, "deterministic", fn)
    if kind == "numpy":
        import numpy as xp
    else:
        import cupy as xp
    x, offsets = _native(x, xp), _native(offsets, xp)
    ks = _native(ks, xp) if ks is not None else None
    if x.ndim != 1:
        raise ValueError("%s: x must be 1-D (the segments one after another), not of shape %s" % (fn, x.shape))
    segments = _segment_count(offsets, ks, fn)
    if k < 0:
        raise ValueError("%s: k = %d must not be negative" % (fn, k))
    code = _dtype_code(x.dtype, "x", fn)
    x = xp.ascontiguousarray(x)
    offs = xp.ascontiguousarray(offsets.astype(xp.uint64, copy=False))
    kss = xp.ascontiguousarray(ks.astype(xp.uint64, copy=False)) if ks is not None else None
    if kind == "numpy" and segments > 0:          # the GPU backend must not read them on the host
        if offs[-1] > x.size:
            raise ValueError("%s: offsets run past x: the last one is %d, x has %d elements"
                             % (fn, offsets[-1], x.size))
        if kss is not None and ks.dtype.kind == "i" and (ks < 0).any():
            raise ValueError("%s: ks must not be negative (ks[%d] = %d)" % (fn, int(ks.argmin()), ks.min()))
    values = xp.empty((segments, k), dtype=x.dtype)
    indices = xp.empty((segments, k), dtype=xp.int64)
    if segments > 0 and k > 0:
        order = _LARGEST if largest else _SMALLEST
        flags = _flags(sorted, deterministic)
        if kind == "numpy":
            backend, device, ptr = _BACKEND_CPU, -1, (lambda a: a.ctypes.data if a is not None else None)
        else:
            backend, device, ptr = _BACKEND_CUDA, x.device.id, (lambda a: a.data.ptr if a is not None else None)
        p = _Problem(backend, code, order, segments, 0, ptr(offs), k, ptr(kss), ptr(x), x.size)
        entry = _plan_for((backend, device, code, order, flags, -segments, x.size, k), p, flags, fn)
        if kind == "numpy":
            ws = xp.empty(entry[1].value, dtype=xp.uint8)
            _run(p, entry, ptr(ws), ptr(values), ptr(indices), None, fn)
        else:
            with x.device:
                ws = xp.empty(entry[1].value, dtype=xp.uint8)
                _run(p, entry, ptr(ws), ptr(values), ptr(indices), xp.cuda.get_current_stream().ptr, fn)
    return TopkResult(values, indices)


def _segment_count(offsets, ks, fn):
    """The number of segments offsets describe, after checking offsets' and ks' shape and type."""
    if offsets.ndim != 1 or offsets.shape[0] < 1:
        raise ValueError("%s: offsets must be 1-D with segments + 1 >= 1 entries, not of shape %s"
                         % (fn, tuple(offsets.shape)))
    if not _is_integer_dtype(offsets.dtype):
        raise TypeError("%s: offsets must hold integers, not %s" % (fn, offsets.dtype))
    segments = offsets.shape[0] - 1
    if ks is not None:
        if tuple(ks.shape) != (segments,):
            raise ValueError("%s: ks must be 1-D with one k per segment (%d), not of shape %s"
                             % (fn, segments, tuple(ks.shape)))
        if not _is_integer_dtype(ks.dtype):
            raise TypeError("%s: ks must hold integers, not %s" % (fn, ks.dtype))
    return segments


def _is_integer_dtype(dtype):
    return str(dtype).split(".")[-1] in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")


if "torch" in sys.modules:              # register drtopk::topk now: torch.ops.drtopk works after import drtopk
    _load_torch()
