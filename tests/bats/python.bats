#!/usr/bin/env bats
# python.bats -- the Python package (python/drtopk): its NumPy
# tests (tests/python, the CPU backend of build/libdrtopk.so), and
# `pip install` of the repository offline into a scratch directory, whose
# installed module carries its own copy of the library.  The interpreter is
# the first of $DRTOPK_PYTHON, python3, /usr/bin/python3 that has NumPy
# (configure.sh installs python3-numpy, python3-setuptools and python3-pip).

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

@test "python: pip install of the repository works offline and ships the library" {
    find_python
    "$PY" -m pip --version >/dev/null 2>&1 || { echo "no pip for $PY: run ./configure.sh" >&2; return 1; }
    local dest="$BATS_TEST_TMPDIR/site"
    run -0 "$PY" -m pip install --quiet --no-build-isolation --no-deps --no-index --target "$dest" "$ROOT"
    [ -f "$dest/drtopk/libdrtopk.so" ]
    cd "$BATS_TEST_TMPDIR"
    run -0 env PYTHONPATH="$dest" DRTOPK_LIBRARY= "$PY" -c '
import numpy as np, drtopk
assert drtopk.library_path().startswith("'"$dest"'"), drtopk.library_path()
v, i = drtopk.topk(np.array([[3, 9, 1, 7]], np.int64), 2, sorted=True)
assert v.tolist() == [[9, 7]] and i.tolist() == [[1, 3]], (v, i)
print("installed ok")'
    [[ "$output" == *"installed ok"* ]]
}
