#!/usr/bin/env bats
# python.bats -- the Python package (python/drtopk): its NumPy tests and,
# where torch >= 2.4 is installed, its torch CPU tests (tests/python, the CPU
# backend of build/libdrtopk.so); `pip install` of the repository offline
# into a scratch directory, whose installed module carries its own copy of
# the library in a platform wheel and imports without NumPy; and the
# README's `pip install .` into a fresh virtual environment (its isolated
# build fetches setuptools from PyPI).  The interpreter is the first of
# $DRTOPK_PYTHON, python3, /usr/bin/python3 that has NumPy (configure.sh
# installs python3-numpy, python3-setuptools, python3-pip and python3-venv);
# the torch tests take the first of $DRTOPK_TORCH_PYTHON and those that has
# torch >= 2.4 (PyPI's Linux torch brings gigabytes of CUDA wheels and
# Debian's is 1.13, so the CI machine has none: they are skipped there).

bats_require_minimum_version 1.5.0

ROOT="$BATS_TEST_DIRNAME/../.."

setup_file() {
    [ -f "$ROOT/build/libdrtopk.so" ] || { echo "no build/libdrtopk.so (run ninja first)" >&2; return 1; }
}

find_python() {
    for py in "${DRTOPK_PYTHON:-}" python3 /usr/bin/python3; do
        [ -n "$py" ] && "$py" -c 'import numpy, setuptools' 2>/dev/null && { PY="$py"; return 0; }
    done
    echo "no python3 with numpy and setuptools: run ./configure.sh (it installs python3-numpy)" >&2
    return 1
}

@test "python: drtopk.topk on NumPy matches NumPy's sort (tests/python)" {
    find_python
    cd "$ROOT"
    run -0 env PYTHONPATH=python DRTOPK_LIBRARY= "$PY" -m unittest -v tests/python/test_topk_numpy.py
    [[ "$output" == *"OK"* ]]
    [[ "$output" == *"test_types_orders_dims"* ]]
}

@test "python: drtopk.topk on torch CPU tensors matches torch.topk, compiles and differentiates (tests/python)" {
    local py="" cand
    for cand in "${DRTOPK_TORCH_PYTHON:-}" "${DRTOPK_PYTHON:-}" python3 /usr/bin/python3; do
        [ -n "$cand" ] && "$cand" -c 'import numpy, torch.library as l; l.register_fake' 2>/dev/null &&
            { py=$cand; break; }
    done
    [ -n "$py" ] || skip "no python3 with numpy and torch >= 2.4 (set DRTOPK_TORCH_PYTHON)"
    cd "$ROOT"
    run -0 env PYTHONPATH=python DRTOPK_LIBRARY= "$py" -m unittest -v tests/python/test_topk_torch.py
    [[ "$output" == *"OK"* && "$output" != *"skipped"* ]]
    [[ "$output" == *"test_compile_fullgraph"*"... ok"* ]]
}

@test "python: experiments/py_overhead.py splits a NumPy call's host time into the binding's and the library's" {
    find_python
    cd "$ROOT"
    run -0 env PYTHONPATH=python DRTOPK_LIBRARY= "$PY" experiments/py_overhead.py --calls 50 --reps 2
    [[ "$output" == *"best of 2 spans of 50 calls"* ]]
    for what in "drtopk.topk" "library call alone" "binding's share (drtopk.topk - library)" "np.argpartition (for scale)"; do
        grep -qE "^\| (numpy 1 x 64, k 4)? \| $(sed 's/[().]/\\&/g' <<< "$what") \| -?[0-9]+\.[0-9]{2} \|$" <<< "$output" ||
            { echo "no row for $what in: $output" >&2; return 1; }
    done
    run -2 env PYTHONPATH=python DRTOPK_LIBRARY= "$PY" experiments/py_overhead.py --calls 0
    [[ "$output" == *"--calls and --reps must be at least 1 (got 0 and 5)"* ]]
}

@test "python: pip install of the repository works offline and ships the library" {
    find_python
    "$PY" -m pip --version >/dev/null 2>&1 || { echo "no pip for $PY: run ./configure.sh" >&2; return 1; }
    local dest="$BATS_TEST_TMPDIR/site"
    run -0 "$PY" -m pip install --quiet --no-build-isolation --no-deps --no-index --target "$dest" "$ROOT"
    [ -f "$dest/drtopk/libdrtopk.so" ]
    # a platform wheel (it carries a native library), not py3-none-any
    run -0 "$PY" -m pip wheel --quiet --no-build-isolation --no-deps --no-index -w "$BATS_TEST_TMPDIR/wheel" "$ROOT"
    run -0 ls "$BATS_TEST_TMPDIR/wheel"
    [[ "$output" == drtopk-*-linux_$(uname -m).whl ]]
    cd "$BATS_TEST_TMPDIR"
    run -0 env PYTHONPATH="$dest" DRTOPK_LIBRARY= "$PY" -c '
import numpy as np, drtopk
assert drtopk.library_path().startswith("'"$dest"'"), drtopk.library_path()
v, i = drtopk.topk(np.array([[3, 9, 1, 7]], np.int64), 2, sorted=True)
assert v.tolist() == [[9, 7]] and i.tolist() == [[1, 3]], (v, i)
print("installed ok")'
    [[ "$output" == *"installed ok"* ]]
}

@test "python: the README's pip install . works in a fresh virtual environment without NumPy" {
    find_python
    local venv="$BATS_TEST_TMPDIR/venv"
    "$PY" -m venv "$venv" || skip "no venv module for $PY: run ./configure.sh (python3-venv)"
    "$venv/bin/pip" download --quiet --no-deps -d "$BATS_TEST_TMPDIR/probe" setuptools >/dev/null 2>&1 ||
        skip "PyPI cannot be reached: the isolated build needs setuptools from it"
    cd "$ROOT"
    run -0 "$venv/bin/pip" install --quiet .
    cd "$BATS_TEST_TMPDIR"
    run -0 env DRTOPK_LIBRARY= "$venv/bin/python" -c '
import sys, drtopk
assert "numpy" not in sys.modules and "torch" not in sys.modules
assert drtopk.library_path().startswith("'"$venv"'"), drtopk.library_path()
try:
    drtopk.topk([3, 1], 1)
except TypeError as e:
    print("refused:", e)'
    [[ "$output" == *"refused: drtopk.topk: x must be a NumPy array"* ]]
}
