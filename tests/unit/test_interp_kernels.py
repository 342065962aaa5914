"""Every test kernel (examples/*.mlir and tests/unit/interp_kernels/*.mlir) runs on both executors of
sarek.interp with the same inputs, and the outputs agree (ints and records exactly, floats to 1e-6)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

from sarek.interp import run
from sarek.interp.common import Types
from sarek.dialect.sarek import KernelOp, RecordType, VariantType
from sarek.tools.ir import parse_module

ROOT = Path(__file__).parents[2]
FILES = sorted((ROOT / "examples").glob("*.mlir")) + sorted((ROOT / "tests/unit/interp_kernels").glob("*.mlir"))

Launch = tuple[list[Any], tuple[int, int, int], tuple[int, int, int], int]


def _rng() -> np.random.Generator:
    return np.random.default_rng(7)


def _dtype(m, t):  # noqa: ANN001
    return Types.of(m).numpy_dtype(t)


def vector_add(m) -> Launch:  # noqa: ANN001
    r = _rng()
    n = 1000
    return [r.random(n, np.float32), r.random(n, np.float32), np.zeros(n, np.float32), n], (4, 1, 1), (256, 1, 1), 32


def reduce_sum(m) -> Launch:  # noqa: ANN001
    n = 1000
    return [_rng().random(n, np.float32), np.zeros(4, np.float32), n], (4, 1, 1), (256, 1, 1), 32


def apply(m) -> Launch:  # noqa: ANN001
    # one thread per block: the loop around the barrier is then block-uniform
    return [np.arange(6, dtype=np.float32), np.zeros(6, np.float32), 6], (6, 1, 1), (1, 1, 1), 32


def shift_points(m) -> Launch:  # noqa: ANN001
    dt = _dtype(m, RecordType("point"))
    src = np.zeros(10, dt)
    src["x"] = np.arange(10)
    src["y"] = 3
    return [src, np.zeros(10, dt), 10], (2, 1, 1), (8, 1, 1), 32


def areas(m) -> Launch:  # noqa: ANN001
    dt = _dtype(m, VariantType("shape"))
    s = np.zeros(6, dt)
    s["tag"] = [0, 1, 2, 0, 1, 2]
    raw = s.view(np.uint8).reshape(6, -1)
    raw[:, 4:8] = np.arange(1, 7, dtype=np.float32).view(np.uint8).reshape(6, 4)
    raw[:, 8:12] = np.full(6, 2.0, np.float32).view(np.uint8).reshape(6, 4)
    return [s, np.zeros(6, np.float32), np.zeros(6, np.float32), 6], (1, 1, 1), (8, 1, 1), 32


def matmul(m) -> Launch:  # noqa: ANN001
    n = 32
    r = _rng()
    return [r.random(n * n, np.float32), r.random(n * n, np.float32), np.zeros(n * n, np.float32), n], \
        (2, 2, 1), (16, 16, 1), 32


def int_ops(m) -> Launch:  # noqa: ANN001
    r = _rng()
    n = 64
    x = r.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    x[:4] = [-2**31, 2**31 - 1, -7, 7]
    y = r.integers(-40, 40, n).astype(np.int32)
    y[y == 0] = 3
    y[:4] = [-1, 2, 2, -2]
    return [x, y, np.zeros(16 * n, np.int32), n], (1, 1, 1), (64, 1, 1), 32


def float_ops(m) -> Launch:  # noqa: ANN001
    r = _rng()
    n = 40
    x = (r.standard_normal(n) * 1e3).astype(np.float32)
    y = (r.standard_normal(n) * 10).astype(np.float32)
    x[:6] = [2.5, -2.5, 3e9, -3e9, np.nan, 0.5]
    y[:3] = [0.0, 1.0, 3.0]
    return [x, y, np.zeros(8 * n, np.float32), np.zeros(n, np.float16), np.zeros(n, np.int32), n], \
        (1, 1, 1), (64, 1, 1), 32


def atomics(m) -> Launch:  # noqa: ANN001
    n = 100
    x = _rng().integers(0, 1000, n).astype(np.int32)
    mx = np.array([0, 0, 0], np.int32)
    return [x, np.zeros(9, np.int32), np.zeros(n, np.int32), mx, np.zeros(n + 1, np.float32), n], \
        (4, 1, 1), (32, 1, 1), 32


def shuffles(m) -> Launch:  # noqa: ANN001
    n = 80
    r = _rng()
    return [np.arange(n, dtype=np.int32) * 3, r.integers(-3, 40, n).astype(np.int32), np.zeros(4 * n, np.int32),
            np.zeros(n, np.int32)], (2, 1, 1), (40, 1, 1), 32


def index3d(m) -> Launch:  # noqa: ANN001
    return [np.zeros(8 * 2 * 3 * 2 * 4 * 2 * 3, np.int32)], (2, 3, 2), (4, 2, 3), 32


def control(m) -> Launch:  # noqa: ANN001
    n = 50
    x = _rng().integers(-5, 20, n).astype(np.int32)
    return [x, np.zeros(6 * 64, np.int32), n], (2, 1, 1), (32, 1, 1), 32


def records(m) -> Launch:  # noqa: ANN001
    ts = Types.of(m)
    v = np.zeros(8, ts.numpy_dtype(RecordType("pt")))
    v["x"] = np.arange(8) + 0.5
    segs = np.zeros(8, ts.numpy_dtype(RecordType("seg")))
    segs["a"]["x"] = np.arange(8) * 2
    segs["tag"] = 5
    return [v, segs, np.zeros(48, np.float32)], (1, 1, 1), (8, 1, 1), 32


def variants(m) -> Launch:  # noqa: ANN001
    ts = Types.of(m)
    cs = np.zeros(6, ts.numpy_dtype(VariantType("col")))
    raw = cs.view(np.uint8).reshape(6, -1)
    raw[:, 0:4] = np.array([0, 1, 2, 1, 0, 2], np.int32).view(np.uint8).reshape(6, 4)
    raw[:, 4:8] = np.arange(6, dtype=np.int32).view(np.uint8).reshape(6, 4)
    return [cs, np.zeros(12, np.int32), np.zeros(6, ts.numpy_dtype(VariantType("opt")))], (1, 1, 1), (6, 1, 1), 32


def aggregates(m) -> Launch:  # noqa: ANN001
    ts = Types.of(m)
    x = np.arange(-6, 26, dtype=np.int32)
    vs = np.zeros(32, ts.numpy_dtype(VariantType("res")))
    vs.view(np.uint8).reshape(32, -1)[:, :4] = np.full(32, 1, np.int32).view(np.uint8).reshape(32, 4)
    return [x, np.zeros(64, np.int32), np.zeros(32, ts.numpy_dtype(RecordType("acc"))), vs], (2, 1, 1), \
        (16, 1, 1), 32


LAUNCHES: dict[str, Callable[..., Launch]] = {f.__name__: f for f in (
    vector_add, reduce_sum, apply, shift_points, areas, matmul, int_ops, float_ops, atomics, shuffles, index3d,
    control, records, variants, aggregates)}


def _kernels() -> list[tuple[Path, str]]:
    out = []
    for f in FILES:
        m = parse_module(f.read_text(), str(f))
        out += [(f, op.sym_name.data) for op in m.body.block.ops if isinstance(op, KernelOp)]
    return out


KERNELS = _kernels()


def launch(path: Path, kernel: str, executor: str) -> list[Any]:
    m = parse_module(path.read_text(), str(path))
    args, grid, block, ws = LAUNCHES[kernel](m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run(m, kernel, args, grid, block, executor=executor, warp_size=ws)
    return [a for a in args if isinstance(a, np.ndarray)]


def test_every_kernel_has_a_launch():
    assert len(KERNELS) >= 13
    missing = [k for _, k in KERNELS if k not in LAUNCHES]
    assert not missing


@pytest.mark.parametrize("path,kernel", KERNELS, ids=[k for _, k in KERNELS])
def test_executors_agree(path: Path, kernel: str):
    ref = launch(path, kernel, "reference")
    fast = launch(path, kernel, "fast")
    for r, f in zip(ref, fast):
        if r.dtype.names is None and r.dtype.kind == "f":
            np.testing.assert_allclose(f, r, rtol=1e-6, equal_nan=True)
        else:
            assert r.tobytes() == f.tobytes()


AGGREGATE_KERNELS: set[str] = set()  # records and variants are vectorized too


@pytest.mark.parametrize("path,kernel", [(p, k) for p, k in KERNELS if k not in AGGREGATE_KERNELS],
                         ids=[k for _, k in KERNELS if k not in AGGREGATE_KERNELS])
def test_fast_executor_vectorizes(path: Path, kernel: str):
    """The comparison above is only meaningful if the fast executor really ran: no fallback here."""
    m = parse_module(path.read_text(), str(path))
    args, grid, block, ws = LAUNCHES[kernel](m)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(m, kernel, args, grid, block, executor="fast", warp_size=ws)


def test_reference_source_is_compiled_once():
    from sarek.interp.reference import compile_module

    path = next(f for f in FILES if f.name == "reduce.mlir")
    m = parse_module(path.read_text())
    p = compile_module(m)
    assert compile_module(m) is p
    assert "yield (0," in p.source and p.gen["reduce_sum"]  # barriers are yields of a generator


@pytest.mark.parametrize("executor", ["reference", "fast"])
def test_compiled_code_follows_module_changes(executor: str):
    from xdsl.rewriter import Rewriter

    from sarek.dialect.sarek import BinOp

    path = next(f for f in FILES if f.name == "vector_add.mlir")
    m = parse_module(path.read_text())
    a, b, c = np.arange(4, dtype=np.float32), np.ones(4, np.float32), np.zeros(4, np.float32)
    run(m, "vector_add", [a, b, c, 4], 1, 4, executor=executor)
    assert list(c) == [1, 2, 3, 4]
    add = next(o for o in m.walk() if isinstance(o, BinOp) and o.op.value == "add")
    Rewriter.replace_op(add, BinOp("sub", add.lhs, add.rhs))
    run(m, "vector_add", [a, b, c, 4], 1, 4, executor=executor)
    assert list(c) == [-1, 0, 1, 2]
