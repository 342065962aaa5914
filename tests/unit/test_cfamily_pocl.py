"""The C-family test kernels run on pocl (OpenCL on the CPU) and match numpy."""

from pathlib import Path

import numpy as np
import pytest

from sarek.analysis.layout import numpy_dtype
from sarek.dialect.sarek import RecordType, VariantType
from sarek.targets import emit_source
from sarek.tools.ir import parse_module
from sarek.validate import opencl

ROOT = Path(__file__).parents[2]
INPUTS = ROOT / "tests" / "filecheck" / "targets" / "Inputs"
RNG = np.random.default_rng(7)


def load(path: Path):
    m = parse_module(path.read_text(), str(path))
    return m, emit_source(m, "opencl")


def blocks(n: int, b: int) -> int:
    return (n + b - 1) // b


def test_vector_add():
    _, src = load(ROOT / "examples" / "vector_add.mlir")
    n = 1000
    a, b = RNG.random(n, np.float32), RNG.random(n, np.float32)
    c = np.zeros(n, np.float32)
    opencl.run(src, "vector_add", [a, b, c, np.int32(n)], (blocks(n, 64),), (64,))
    np.testing.assert_allclose(c, a + b, atol=1e-6)


def test_saxpy():
    _, src = load(INPUTS / "saxpy.mlir")
    n = 777
    x, y = RNG.random(n, np.float32), RNG.random(n, np.float32)
    want = np.float32(2.5) * x + y
    opencl.run(src, "saxpy", [np.float32(2.5), x, y, np.int32(n)], (blocks(n, 64),), (64,))
    np.testing.assert_allclose(y, want, atol=1e-6)


def test_record():
    m, src = load(ROOT / "examples" / "record.mlir")
    dt = numpy_dtype(m, RecordType("point"))
    n = 100
    pts = np.zeros(n, dt)
    pts["x"], pts["y"] = RNG.random(n), RNG.random(n)
    out = np.zeros(n, dt)
    opencl.run(src, "shift_points", [pts, out, np.int32(n)], (blocks(n, 32),), (32,))
    np.testing.assert_allclose(out["x"], pts["x"] + 1, atol=1e-6)
    np.testing.assert_allclose(out["y"], pts["y"] * 2, atol=1e-6)


def test_variant_match_statement_and_expression():
    m, src = load(ROOT / "examples" / "variant_match.mlir")
    dt = numpy_dtype(m, VariantType("shape"))
    n = 60
    shapes = np.zeros(n, dt)
    tags = np.arange(n) % 3
    shapes["tag"] = tags
    r = RNG.random(n).astype(np.float32) + 0.5
    w, h = RNG.random(n).astype(np.float32), RNG.random(n).astype(np.float32)
    shapes["Circle_v"] = np.where(tags == 0, r, 0)
    rect = np.where(tags == 1, w, shapes["Circle_v"])
    shapes["Rect_v"]["_0"] = rect
    shapes["Rect_v"]["_1"] = np.where(tags == 1, h, 0)
    area, perim = np.zeros(n, np.float32), np.zeros(n, np.float32)
    opencl.run(src, "areas", [shapes, area, perim, np.int32(n)], (blocks(n, 32),), (32,))
    pi = np.float32(3.14159274)
    want_area = np.select([tags == 0, tags == 1], [pi * r * r, w * h], 0)
    want_perim = np.select([tags == 0, tags == 1], [np.float32(6.28318548) * r, 2 * (w + h)], 0)
    np.testing.assert_allclose(area, want_area, atol=1e-5)
    np.testing.assert_allclose(perim, want_perim, atol=1e-5)


def test_helpers_calling_helpers():
    m, src = load(INPUTS / "helpers_chain.mlir")
    dt = numpy_dtype(m, RecordType("vec2"))
    n = 200
    pts = np.zeros(n, dt)
    pts["x"], pts["y"] = RNG.normal(size=n) * 4, RNG.normal(size=n) * 4
    out = np.zeros(n, np.float32)
    opencl.run(src, "lengths", [pts, out, np.float32(1.5)], (blocks(n, 64),), (64,))
    want = np.minimum(np.hypot(pts["x"] * 1.5, pts["y"] * 1.5), 10.0)
    np.testing.assert_allclose(out, want, atol=1e-4)


def test_shared_tree_reduction():
    _, src = load(ROOT / "examples" / "reduce.mlir")
    n = 1000
    a = RNG.random(n, np.float32)
    out = np.zeros(blocks(n, 256), np.float32)
    opencl.run(src, "reduce_sum", [a, out, np.int32(n)], (len(out),), (256,))
    want = [a[i * 256:(i + 1) * 256].sum() for i in range(len(out))]
    np.testing.assert_allclose(out, want, atol=1e-3)


def test_histogram_atomics():
    _, src = load(INPUTS / "histogram.mlir")
    n = 5000
    data = RNG.integers(0, 1000, n).astype(np.int32)
    hist = np.zeros(16, np.int32)
    opencl.run(src, "histogram", [data, hist, np.int32(n)], (4,), (64,))
    np.testing.assert_array_equal(hist, np.bincount(data % 16, minlength=16))


def test_tiled_matmul():
    _, src = load(INPUTS / "matmul_tiled.mlir")
    n = 48
    a, b = RNG.random((n, n), np.float32), RNG.random((n, n), np.float32)
    c = np.zeros(n * n, np.float32)
    opencl.run(src, "matmul", [a.ravel(), b.ravel(), c, np.int32(n)], (n // 16, n // 16), (16, 16))
    np.testing.assert_allclose(c.reshape(n, n), a @ b, atol=1e-3)


def test_while_loop_with_mutables():
    _, src = load(INPUTS / "while_mutables.mlir")
    n = 300
    x = RNG.integers(1, 5000, n).astype(np.int32)
    steps = np.zeros(n, np.int32)
    opencl.run(src, "collatz", [x, steps, np.int32(n)], (blocks(n, 64),), (64,))

    def collatz(v: int) -> int:
        k = 0
        while v > 1:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            k += 1
        return k

    np.testing.assert_array_equal(steps, [collatz(int(v)) for v in x])


def test_f64_math():
    _, src = load(INPUTS / "f64_math.mlir")
    assert "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" in src
    n = 257
    x = RNG.random(n) * 10
    y, z = np.zeros(n, np.float64), np.zeros(n, np.float32)
    opencl.run(src, "f64_math", [x, y, z, np.int32(n)], (blocks(n, 64),), (64,))
    want = np.sqrt(x) * np.exp(-x / 8) + np.sin(x)
    np.testing.assert_allclose(y, want, rtol=1e-13, atol=1e-13)
    np.testing.assert_allclose(z, want.astype(np.float32), rtol=1e-6)


def test_warp_shuffle_reduction():
    _, src = load(INPUTS / "warp_reduce.mlir")
    n = 1000
    x = RNG.integers(-100, 100, n).astype(np.int32)
    total = np.zeros(1, np.int32)
    opencl.run(src, "warp_sum", [x, total, np.int32(n)], (blocks(n, 64),), (64,))
    assert int(total[0]) == int(x.sum())


@pytest.mark.parametrize("name", ["vector_add", "saxpy"])
def test_pocl_platform_is_explicit(name: str):
    ctx, _ = opencl.pocl_context()
    assert ctx.devices[0].platform.name == opencl.POCL_PLATFORM


def test_misc_local_array_i64_variants_casts():
    _, src = load(INPUTS / "cf_misc.mlir")
    n = 64
    out = np.full(n, 7, np.int64)
    f = np.linspace(-3, 3, n).astype(np.float32)
    f0 = f.copy()
    opencl.run(src, "misc", [out, f, np.int32(1)], (1,), (n,))
    np.testing.assert_array_equal(out, 0)  # tmp[0] is zero-initialised, Some(0) * 2
    np.testing.assert_array_equal(f, np.where(f0.astype(np.int32) == 0, -f0, np.float32(1.5e-3)))
    out[:] = 7
    opencl.run(src, "misc", [out, f, np.int32(0)], (1,), (n,))
    np.testing.assert_array_equal(out, -1)  # None


def test_math_intrinsics():
    _, src = load(INPUTS / "cf_math.mlir")
    n = 64
    x = (RNG.random(n) * 4 + 0.1).astype(np.float32)
    k = RNG.integers(-1000, 1000, n).astype(np.int32)
    acc = np.zeros(n, np.int32)
    x0, k0 = x.copy(), k.copy()
    opencl.run(src, "math", [x, k, acc], (1,), (n,))
    a = np.sqrt(x0)
    want = np.abs(np.power(np.minimum(a * x0 + x0, x0), a))
    np.testing.assert_allclose(x, want, rtol=1e-5)
    m = np.maximum(np.abs(k0), np.arange(n)).astype(np.uint32)
    clz = np.array([32 - int(v).bit_length() for v in m])
    np.testing.assert_array_equal(k, [bin(c).count("1") for c in clz])
