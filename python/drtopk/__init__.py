"""drtopk -- exact top-k (Dr. Top-k, SC'21) from Python, over the C library.

    import drtopk
    values, indices = drtopk.topk(x, k, dim=-1, largest=True, sorted=False)

x is a NumPy array (the CPU backend), or a torch tensor or CuPy array on a
CUDA device (the GPU backend; the call is enqueued on the framework's current
stream and reads x in place when dim is its last, contiguous axis -- any
other layout is first made contiguous by the framework).  The result holds k
values and their int64 positions along `dim`, of the same array type and
device, like torch.topk: best first with sorted=True, else in an unspecified
order (the CPU backend gives increasing positions).  Ties at the k-th value
may return any of the equal elements; floats order NaN above +inf and -0.0
equal to +0.0.  Every row goes through drtopk_batch_select (drtopk.h) of the
shared library libdrtopk.so: the copy installed with this package, or the one
named by $DRTOPK_LIBRARY, or build/libdrtopk.so of a source tree.
"""
import ctypes
import os

__all__ = ["topk", "DrtopkError", "library_path"]

_BACKEND_CPU, _BACKEND_CUDA = 0, 1
_LARGEST, _SMALLEST = 0, 1
_SORTED = 1 << 4                        # DRTOPK_SORTED
_STATUS_K_GT_N = 3                      # DRTOPK_ERR_K_GT_N

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
                ("block_max_len_64", ctypes.c_uint64)]


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


def _library():
    global _lib
    if _lib is None:
        lib = ctypes.CDLL(library_path())
        lib.drtopk_batch_plan_auto.argtypes = [ctypes.POINTER(_Plan), ctypes.POINTER(_Problem)]
        lib.drtopk_batch_workspace.argtypes = [ctypes.POINTER(_Problem), ctypes.POINTER(_Plan),
                                               ctypes.POINTER(ctypes.c_size_t)]
        lib.drtopk_batch_select.argtypes = [ctypes.POINTER(_Problem), ctypes.POINTER(_Plan), ctypes.c_void_p,
                                            ctypes.c_size_t, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
        lib.drtopk_status_string.restype = ctypes.c_char_p
        lib.drtopk_status_string.argtypes = [ctypes.c_int]
        lib.drtopk_last_error.restype = ctypes.c_char_p
        for f in ("drtopk_batch_plan_auto", "drtopk_batch_workspace", "drtopk_batch_select"):
            getattr(lib, f).restype = ctypes.c_int
        _lib = lib
    return _lib


def _check(lib, status, what):
    if status != 0:
        msg = lib.drtopk_last_error().decode()
        text = "%s: %s%s" % (what, lib.drtopk_status_string(status).decode(), ": " + msg if msg else "")
        raise (ValueError if status == _STATUS_K_GT_N else DrtopkError)(text)


def _kind(x):
    """'numpy', 'torch' or 'cupy' by the array's module (imports none of them)."""
    mod = type(x).__module__.split(".")[0]
    if mod in ("numpy", "torch", "cupy"):
        return mod
    raise TypeError("drtopk.topk takes a NumPy array, a torch tensor or a CuPy array, not %s" % type(x).__name__)


def _dtype_code(name):
    name = name.split(".")[-1]
    if name not in _DTYPES:
        raise TypeError("drtopk.topk: key type %s is not supported (%s)" % (name, " ".join(_DTYPES)))
    return _DTYPES[name]


def topk(x, k, dim=-1, largest=True, sorted=False):
    """The k largest (or smallest) elements of x along dim: (values, indices)."""
    kind = _kind(x)
    ndim = x.ndim
    if ndim == 0:
        raise ValueError("drtopk.topk: x is a scalar; it needs at least one dimension")
    if not -ndim <= dim < ndim:
        raise IndexError("drtopk.topk: dim %d is out of range for %d dimensions" % (dim, ndim))
    dim %= ndim
    cols = x.shape[dim]
    k = int(k)
    if k < 0 or k > cols:
        raise ValueError("drtopk.topk: k = %d is out of range 0..%d (the length of dim %d)" % (k, cols, dim))
    code = _dtype_code(str(x.dtype))
    if kind == "numpy":
        import numpy as xp
        moved = xp.ascontiguousarray(xp.moveaxis(x, dim, -1))
        empty = lambda shape, dt: xp.empty(shape, dtype=dt)
        ptr = lambda a: a.ctypes.data
        backend, stream, device = _BACKEND_CPU, None, None
    elif kind == "torch":
        import torch as xp
        if not x.is_cuda:
            raise TypeError("drtopk.topk: a torch tensor must be on a CUDA device (use x.numpy() for the CPU)")
        moved = x.movedim(dim, -1).contiguous()
        empty = lambda shape, dt: xp.empty(shape, dtype=dt, device=x.device)
        ptr = lambda a: a.data_ptr()
        backend, device = _BACKEND_CUDA, xp.cuda.device(x.device)
        stream = lambda: xp.cuda.current_stream(x.device).cuda_stream
    else:
        import cupy as xp
        moved = xp.ascontiguousarray(xp.moveaxis(x, dim, -1))
        empty = lambda shape, dt: xp.empty(shape, dtype=dt)
        ptr = lambda a: a.data.ptr
        backend, device = _BACKEND_CUDA, x.device
        stream = lambda: xp.cuda.get_current_stream().ptr
    out_shape = tuple(moved.shape[:-1]) + (k,)
    values = empty(out_shape, moved.dtype)
    indices = empty(out_shape, xp.int64)
    rows = 1
    for s in moved.shape[:-1]:
        rows *= s
    if rows > 0 and k > 0:
        lib = _library()
        p = _Problem(backend, code, _LARGEST if largest else _SMALLEST, rows, cols, None, k, None, ptr(moved))
        plan = _Plan()
        _check(lib, lib.drtopk_batch_plan_auto(ctypes.byref(plan), ctypes.byref(p)), "drtopk_batch_plan_auto")
        if sorted:
            plan.flags |= _SORTED
        nbytes = ctypes.c_size_t()
        _check(lib, lib.drtopk_batch_workspace(ctypes.byref(p), ctypes.byref(plan), ctypes.byref(nbytes)),
               "drtopk_batch_workspace")
        if device is None:
            ws = bytearray(max(nbytes.value, 1))
            ws_ptr = ctypes.addressof((ctypes.c_char * len(ws)).from_buffer(ws))
            _check(lib, lib.drtopk_batch_select(ctypes.byref(p), ctypes.byref(plan), ws_ptr, nbytes.value,
                                                ptr(values), ptr(indices), None), "drtopk_batch_select")
        else:
            with device:
                ws = empty((max(nbytes.value, 1),), xp.uint8)
                _check(lib, lib.drtopk_batch_select(ctypes.byref(p), ctypes.byref(plan), ptr(ws), nbytes.value,
                                                    ptr(values), ptr(indices), stream()), "drtopk_batch_select")
    if kind == "torch":
        return values.movedim(-1, dim), indices.movedim(-1, dim)
    return xp.moveaxis(values, -1, dim), xp.moveaxis(indices, -1, dim)
