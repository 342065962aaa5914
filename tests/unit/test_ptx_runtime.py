"""The ptx device: argument packing and PTX source here; launches, accuracy against numpy and agreement with
the interpreter on a GPU (these run on the H200 through scripts/gpu_run.sh; without a driver the device is
absent and only the host-side tests run)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import sarek.runtime as rt
from sarek.tools.ir import parse_module

ROOT = Path(__file__).parents[2]


def _ptx_device():
    devs = [d for d in rt.devices() if d.kind == "ptx"]
    if not devs:
        raise AssertionError(f"no ptx device on this machine ({rt.unavailable.get('ptx', 'no NVIDIA driver')})")
    return devs[0]


def test_ptx_listed_only_with_a_driver():
    names = rt.device_names()
    if any(n.startswith("ptx:") for n in names):
        assert rt.get_device("ptx").kind == "ptx"
    else:
        assert "ptx" in rt.unavailable


def test_pack_args_matches_the_entry_params():
    """Vectors are (u64 pointer, s32 length); bool is s32; f16 is its 16 bits; records are layout bytes."""
    pytest.importorskip("cuda.bindings.driver")
    from sarek.runtime.core import kernel_spec
    from sarek.runtime.ptx import PtxDevice
    from sarek.targets.ptx.target import emit_ptx

    m = parse_module((Path(__file__).parent / "ptx_kernels" / "storage.mlir").read_text())
    spec = kernel_spec(m, "storage")
    base = np.zeros(1, dtype=spec.params[2].dtype)
    bound = [(0x1000, 8), (0x2000, 8), base, (0x3000, 8), (0x4000, 8), np.bool_(True), np.float32(2.0), np.int32(8)]
    st = PtxDevice.pack_args(spec, bound)
    params = [l.strip() for l in emit_ptx(m).splitlines() if l.strip().startswith(".param")]
    assert len(st) == len(params)
    sizes = {"u64": 8, "s32": 4, "b16": 2, "f32": 4}
    for s, p in zip(st, params):
        ty = p.split()[1].lstrip(".")
        want = 16 if ".b8" in p else sizes[ty]
        assert s.nbytes == want, (p, s)
    assert st[9].dtype == np.int32 and st[9][0] == 1  # flag (after 4 vectors x 2 params and the record)


def test_launch_plan_packs_what_pack_args_does():
    """The launch plan's generated packer (one flat pack_into per kernel signature) writes each parameter's bytes
    at its aligned offset exactly as pack_args lays them out (vectors, a record, bool, f32, i32)."""
    from sarek.runtime.core import kernel_spec
    from sarek.runtime.cuda_plan import Plan, pack_args

    m = parse_module((Path(__file__).parent / "ptx_kernels" / "storage.mlir").read_text())
    spec = kernel_spec(m, "storage")
    rec = np.zeros(1, dtype=spec.params[2].dtype)
    rec.view(np.uint8)[:] = np.arange(rec.nbytes, dtype=np.uint8) + 1
    bound = [(0x1000, 8), (0x2000, 9), rec, (0x3000, 10), (0x4000, 11), True, 2.5, 8]
    plan = Plan(spec, "fn", 1024)
    assert plan.pack(bound) == plan.params
    base = plan.buf.ctypes.data
    want = pack_args(spec, bound)
    got = [plan.buf[int(a) - base:int(a) - base + s.nbytes].tobytes() for a, s in zip(plan.ptrs, want)]
    assert got == [s.tobytes() for s in want]


@pytest.mark.gpu
def test_vector_add_on_ptx():
    dev = _ptx_device()
    m = parse_module((ROOT / "examples" / "vector_add.mlir").read_text())
    n = 1000
    a, b = np.arange(n, dtype=np.float32), np.ones(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    dev.launch(m, "vector_add", [a, b, c, n], grid=(4,), block=(256,))
    assert np.array_equal(c, a + b)


@pytest.mark.gpu
@pytest.mark.parametrize("path", sorted((Path(__file__).parent / "ptx_kernels").glob("*.mlir")) +
                         [ROOT / "examples" / f for f in ("record.mlir", "reduce.mlir", "variant_match.mlir")],
                         ids=lambda p: p.name)
def test_ptx_agrees_with_the_interpreter(path: Path):
    dev = _ptx_device()
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_ptx as b  # pyright: ignore[reportMissingImports]

    from sarek.runtime.core import kernel_names

    m = parse_module(path.read_text(), str(path))
    rng = np.random.default_rng(5)
    for k in kernel_names(m):
        args, n = b.make_args(m, k, 1024, rng)
        got = b._run_on(dev, m, k, args, n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = b._run_on(rt.get_device("interp"), m, k, args, n)
        assert b._compare(got, want) is None


@pytest.mark.gpu
@pytest.mark.parametrize("name", ["sin", "cos", "tan", "log", "pow", "atan2", "tanh", "cbrt", "fmod",
                                  "asin", "expm1", "log1p", "log10", "rsqrt"])
def test_f32_math_accuracy(name: str):
    """Within 1 ulp of the correctly rounded value (CUDA's libm: 1-3 ulp on the same inputs); exp is the
    hardware's ex2.approx at fp=default (tests/unit/test_fast_math.py checks CUDA's 2 ulp)."""
    dev = _ptx_device()
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_ptx as b  # pyright: ignore[reportMissingImports]

    rng = np.random.default_rng(7)
    n = 1 << 16
    if name in b.UNARY_DOMAINS:
        lo, hi = b.UNARY_DOMAINS[name]
        ins = [rng.uniform(max(lo, -1e4), min(hi, 1e4), n).astype(np.float32)]
    else:
        (lx, hx), (ly, hy) = b.BINARY_DOMAINS[name]
        ins = [rng.uniform(lx, hx, n).astype(np.float32), rng.uniform(ly, hy, n).astype(np.float32)]
    m = parse_module(b._math_module(name, len(ins)))
    out = np.zeros(n, dtype=np.float32)
    dev.launch(m, f"m_{name}", [*ins, out, n], grid=(n // 256,), block=(256,))
    assert b.ulp_error(out, b._ref(name, *ins)).max() <= 1.0
