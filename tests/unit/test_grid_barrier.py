"""grid_barrier() (issue 33 item 5): every thread of every block waits there. The interpreters run it (the
reference executor runs the blocks together between grid barriers, and reports a barrier not every block
reaches; the fast one checks the whole grid is active); the CUDA source validates (nvcc, NVRTC) and launches
cooperatively after a co-residency check (the driver is faked here; `gpu`-marked: the H200's cuda runs the
conformance cases); the other targets refuse it, PTX included (measured on the H200: the driver's JIT gives a
PTX module no grid-sync workspace, and nvcc's own barrier sequence faulted with an illegal address)."""

from __future__ import annotations

import os
import tempfile
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek.interp as interp  # noqa: E402
from sarek import CompileError, LaunchError, Vec, device, f32, i32, kernel  # noqa: E402
from sarek.gpu import block_dim_x, block_idx_x, global_thread_id, grid_barrier, grid_dim_x, thread_idx_x  # noqa: E402
from sarek.interp import InterpError  # noqa: E402
from sarek.registry import parse_module  # noqa: E402
from sarek.runtime.conformance import corpus, run_case  # noqa: E402

B = 32


@kernel
def rotate(a: Vec[f32], out: Vec[f32]):
    g = global_thread_id
    a[g] = a[g] + 1.0
    grid_barrier()
    out[g] = a[(block_idx_x + 1) % grid_dim_x * block_dim_x + thread_idx_x]


@kernel
def rotate_unsynchronised(a: Vec[f32], out: Vec[f32]):
    g = global_thread_id
    a[g] = a[g] + 1.0
    out[g] = a[(block_idx_x + 1) % grid_dim_x * block_dim_x + thread_idx_x]


@device
def block_sum(a: Vec[i32], b: i32) -> i32:
    acc = 0
    for i in range(block_dim_x):
        acc = acc + a[b * block_dim_x + i]
    return acc


@kernel
def prefix1(a: Vec[i32], sums: Vec[i32], out: Vec[i32], out2: Vec[i32]):
    """One grid barrier: each block sums its slice, then adds up the sums of the blocks before it."""
    b = block_idx_x
    if thread_idx_x == 0:
        sums[b] = block_sum(a, b)
    grid_barrier()
    if thread_idx_x == 0:
        p = 0
        for j in range(b):
            p = p + sums[j]
        out[b] = p


@kernel
def prefix3(a: Vec[i32], sums: Vec[i32], out: Vec[i32], out2: Vec[i32]):
    """Three grid barriers: block sums; block 0 scans them in place (exclusive); each block reads its prefix;
    each block reads the next block's prefix."""
    b = block_idx_x
    t = thread_idx_x
    if t == 0:
        sums[b] = block_sum(a, b)
    grid_barrier()
    if b == 0 and t == 0:
        run = 0
        for j in range(grid_dim_x):
            v = sums[j]
            sums[j] = run
            run = run + v
    grid_barrier()
    if t == 0:
        out[b] = sums[b]
    grid_barrier()
    if t == 0:
        out2[b] = out[(b + 1) % grid_dim_x]


def _prefix_args(blocks: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    a = np.random.default_rng(blocks).integers(-100, 100, blocks * B, dtype=np.int32)
    return a, np.zeros(blocks, np.int32), np.zeros(blocks, np.int32), np.zeros(blocks, np.int32)


def _prefix_want(a: np.ndarray, blocks: int) -> tuple[np.ndarray, np.ndarray]:
    """numpy's exclusive prefix of the block sums, and the same rolled by one block."""
    sums = a.reshape(blocks, B).sum(axis=1, dtype=np.int32)
    excl = (np.cumsum(sums, dtype=np.int32) - sums).astype(np.int32)
    return excl, np.roll(excl, -1)


def _rotate(k: Any, device: str) -> tuple[np.ndarray, np.ndarray]:
    a = np.arange(4 * B, dtype=np.float32)
    out = np.zeros_like(a)
    k.launch(a, out, grid=4, block=B, device=device)
    return out, np.roll((np.arange(4 * B, dtype=np.float32) + 1).reshape(4, B), -1, axis=0).reshape(-1)


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_blocks_see_each_others_writes(device: str):
    got, want = _rotate(rotate, device)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
@pytest.mark.parametrize("k", [prefix1, prefix3], ids=lambda k: k.name)
def test_prefix_of_block_sums(k: Any, device: str):
    a, sums, out, out2 = _prefix_args(5)
    k.launch(a, sums, out, out2, grid=5, block=B, device=device)
    want = _prefix_want(a, 5)
    np.testing.assert_array_equal(out, want[0])
    if k is prefix3:
        np.testing.assert_array_equal(out2, want[1])


def test_reference_runs_blocks_one_after_another_without_it():
    """The check above can fail: without the barrier, block b reads block b + 1 before it ran."""
    got, want = _rotate(rotate_unsynchronised, "interp-ref")
    assert not np.array_equal(got, want)


# a grid barrier only block 0 reaches, and one where the blocks wait at different grid barriers: the front end
# refuses both (block-divergent control); the interpreters, given the IR, report them at the barrier
_PARTIAL = """
builtin.module {
  sarek.kernel @k(%x : !sarek.vec<f32> "x") {
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %b, %c0 : i32
    sarek.if %p {
      sarek.grid_barrier loc("k.py":7:7)
    } ELSE
  }
}
"""


@pytest.mark.parametrize(("executor", "message"), [
    ("reference", "k.py:7:7: error: interp: grid barrier reached by only 1 of 4 blocks"),
    ("fast", "k.py:7:7: error: interp: grid barrier reached by only 32 of 128 threads \\(1 of 4 blocks"),
])
def test_grid_barrier_not_reached_by_every_block(executor: str, message: str):
    m = parse_module(_PARTIAL.replace("ELSE", ""))
    with pytest.raises(InterpError, match=message):
        interp.run(m, "k", [np.zeros(128, np.float32)], 4, B, executor=executor)


def test_blocks_at_different_grid_barriers():
    m = parse_module(_PARTIAL.replace("ELSE", 'else {\n      sarek.grid_barrier loc("k.py":9:7)\n    }'))
    with pytest.raises(InterpError, match="blocks wait at different grid barriers: k.py:7:7, k.py:9:7"):
        interp.run(m, "k", [np.zeros(128, np.float32)], 4, B, executor="reference")


def test_threads_of_a_block_at_a_grid_and_a_block_barrier():
    m = parse_module(_PARTIAL.replace("ELSE", "").replace("%p = sarek.binop eq %b, %c0 : i32", """
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %p = sarek.binop eq %t, %c0 : i32""").replace("    } \n", '    } else {\n      sarek.barrier loc("k.py:9:7")\n    }\n'))
    with pytest.raises(InterpError, match="threads of a block wait at different barriers"):
        interp.run(m, "k", [np.zeros(128, np.float32)], 4, B, executor="reference")


@kernel
def by_block(x: Vec[f32]):
    if block_idx_x > 0:
        grid_barrier()


def test_block_divergent_grid_barrier_is_refused():
    with pytest.raises(CompileError, match="grid_barrier\\(\\) under divergent control flow \\(the condition at "
                                           "line [0-9]+ depends on block_idx_x\\): every thread of every block"):
        by_block.source("cuda")


@pytest.mark.parametrize("target", ["hip", "opencl", "metal", "glsl", "wgsl"])
def test_other_targets_refuse(target: str):
    with pytest.raises(CompileError, match="grid-wide barriers not yet supported \\(.*\\); split the kernel into "
                                           "two launches"):
        rotate.source(target)


def test_cuda_source_validates():
    from sarek.validate import cuda

    cuda.check(rotate.source("cuda"))


def test_cuda_source_compiles_with_nvrtc():
    """cooperative_groups.h needs CUDA 13's include/cccl on NVRTC's include path (cuda_include_dirs)."""
    from sarek.runtime.cuda import nvrtc_compile

    assert nvrtc_compile(rotate.source("cuda"), "sm_90", "rotate.cu", output="ptx")


def test_spec_and_warm_record_carry_grid_sync():
    from sarek.runtime.core import kernel_spec

    assert kernel_spec(rotate.module, "rotate").grid_sync
    assert not kernel_spec(rotate_unsynchronised.module, "rotate_unsynchronised").grid_sync


# ------------------------------------------------------------------------------------------------ the launch


class _FakeDriver:
    """The few driver calls a cooperative launch makes: 2 resident blocks per SM, 3 SMs."""

    CUdevice_attribute = SimpleNamespace(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH="coop",
                                         CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT="sms")

    def __init__(self, coop: int = 1):
        self.coop = coop
        self.launched: list[str] = []

    def cuDeviceGetAttribute(self, a: str, dev: Any) -> tuple[int, int]:
        return 0, {"coop": self.coop, "sms": 3}[a]

    def cuOccupancyMaxActiveBlocksPerMultiprocessor(self, fn: Any, threads: int, shared: int) -> tuple[int, int]:
        return 0, 2

    def cuLaunchCooperativeKernel(self, *args: Any) -> tuple[int]:
        assert len(args) == 10
        self.launched.append("cooperative")
        return (0,)

    def cuLaunchKernel(self, *args: Any) -> tuple[int]:
        self.launched.append("plain")
        return (0,)


def _device(monkeypatch: pytest.MonkeyPatch, drv: _FakeDriver) -> Any:
    import sarek.runtime.cuda as cu

    monkeypatch.setattr(cu, "_driver", lambda: drv)
    dev = object.__new__(cu.CudaDevice)
    dev.name, dev.device_name, dev.dev = "cuda:0", "Fake GPU", 0
    monkeypatch.setattr(dev, "activate", lambda: None, raising=False)
    return dev, SimpleNamespace(fn="fn", fmax=1024, resident={}, shared=0, pack=lambda bound: 0)


@pytest.mark.parametrize("grid", [(6, 1, 1), (3, 2, 1)])
def test_cooperative_launch_within_the_resident_limit(monkeypatch: pytest.MonkeyPatch, grid: tuple[int, int, int]):
    from sarek.runtime.core import kernel_spec

    drv = _FakeDriver()
    dev, plan = _device(monkeypatch, drv)
    monkeypatch.setattr(dev, "_plan", lambda spec: plan, raising=False)
    dev._run(kernel_spec(rotate.module, "rotate"), [], grid, (B, 1, 1), None)
    dev._run(kernel_spec(rotate_unsynchronised.module, "rotate_unsynchronised"), [], grid, (B, 1, 1), None)
    assert drv.launched == ["cooperative", "plain"]


def test_too_many_blocks_for_a_grid_barrier(monkeypatch: pytest.MonkeyPatch):
    from sarek.runtime.core import kernel_spec

    drv = _FakeDriver()
    dev, plan = _device(monkeypatch, drv)
    monkeypatch.setattr(dev, "_plan", lambda spec: plan, raising=False)
    with pytest.raises(LaunchError, match="kernel rotate has a grid_barrier\\(\\), so all its blocks must be resident "
                                          "at once: cuda:0 holds at most 6 blocks of 32 threads \\(2 per multiprocessor "
                                          "x 3 multiprocessors\\), the launch asks for 7"):
        dev._run(kernel_spec(rotate.module, "rotate"), [], (7, 1, 1), (B, 1, 1), None)
    assert not drv.launched


def test_device_without_cooperative_launch(monkeypatch: pytest.MonkeyPatch):
    from sarek.runtime.core import kernel_spec

    dev, plan = _device(monkeypatch, _FakeDriver(coop=0))
    monkeypatch.setattr(dev, "_plan", lambda spec: plan, raising=False)
    with pytest.raises(LaunchError, match="needs a cooperative launch, and cuda:0 \\(Fake GPU\\) cannot make one"):
        dev._run(kernel_spec(rotate.module, "rotate"), [], (2, 1, 1), (B, 1, 1), None)


def test_ptx_launch_zeroes_the_counter_and_passes_it_last(monkeypatch: pytest.MonkeyPatch):
    """The PTX device's cooperative launch: the plan has one more u64 parameter after the kernel's own; each
    launch zeroes the stream's counter (cuMemsetD32Async, on that stream, before the launch) and writes its
    address there; a second stream gets its own counter, the same stream reuses it."""
    import struct

    from sarek.runtime.core import kernel_spec
    from sarek.runtime.cuda_plan import Plan
    import sarek.runtime.ptx as ptx_runtime
    from sarek.runtime.ptx import PtxDevice

    drv = _FakeDriver()
    dev, _ = _device(monkeypatch, drv)
    monkeypatch.setattr(ptx_runtime, "_driver", lambda: drv)
    ptx = object.__new__(PtxDevice)
    ptx.__dict__.update(dev.__dict__)
    allocs = iter([0x1000, 0x2000])
    monkeypatch.setattr(ptx, "_alloc", lambda n: next(allocs), raising=False)
    spec = kernel_spec(rotate.module, "rotate")
    plan = Plan(spec, "fn", 1024, counter=spec.grid_sync and ptx.grid_counter)
    assert plan.counter_at == 32  # a: u64 + s32, out: u64 + s32 (each pointer 8-aligned), then the counter
    memsets: list[tuple[int, int, int, int]] = []

    def memset(ptr: int, value: int, n: int, stream: int) -> tuple[int]:
        memsets.append((ptr, value, n, stream))
        return (0,)

    drv.cuMemsetD32Async = memset  # type: ignore[attr-defined]
    launch = ptx._cooperative(plan)
    for stream in (0, 7, 0):
        params = plan.pack([(0x5000, 4 * B), (0x6000, 4 * B)])  # the values first, then the counter's address
        assert struct.unpack_from("<Q", plan.buf, 16)[0] == 0x6000
        launch("fn", 4, 1, 1, B, 1, 1, 0, stream, params, 0)
        at = plan.counter_at
        assert struct.unpack_from("<Q", plan.buf, at)[0] == {0: 0x1000, 7: 0x2000}[stream]
    assert memsets == [(0x1000, 0, 1, 0), (0x2000, 0, 1, 7), (0x1000, 0, 1, 0)]
    assert drv.launched == ["cooperative"] * 3
    assert Plan(spec, "fn", 1024).counter_at is None  # the CUDA device: cooperative_groups, no counter


def test_ptx_entry_takes_the_counter_last():
    from sarek.validate import ptx

    src = prefix3.source("ptx")
    ptx.check(src)
    params = [ln.strip() for ln in src.splitlines() if ln.strip().startswith(".param")]
    assert params[-1] == ".param .u64 prefix3_grid_counter"
    assert src.count("atom.release.gpu.global.add.u32") == 3
    assert "grid_counter" not in rotate_unsynchronised.source("ptx")


# ------------------------------------------------------------------------------------------------ the H200

_CASES = [c for c in corpus()[0] if c.name.startswith("grid_barrier.py:")]


def test_conformance_cases_present():
    assert len(_CASES) == 3


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
@pytest.mark.parametrize("case", _CASES, ids=lambda c: c.name)
def test_conformance_on_the_gpu(case: Any, device: str):
    import sarek.runtime as rt

    r = run_case(case, rt.get_device(device))
    assert r.ok and not r.refused, r.message


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
@pytest.mark.parametrize("blocks", [2, 132, 264])
@pytest.mark.parametrize("k", [prefix1, prefix3], ids=lambda k: k.name)
def test_prefix_on_the_gpu(k: Any, blocks: int, device: str):
    """1 and 3 grid barriers, up to two blocks per multiprocessor of the H200, against numpy."""
    import sarek.runtime as rt

    a, sums, out, out2 = _prefix_args(blocks)
    k.launch(a, sums, out, out2, grid=blocks, block=B, device=rt.get_device(device))
    want = _prefix_want(a, blocks)
    np.testing.assert_array_equal(out, want[0])
    if k is prefix3:
        np.testing.assert_array_equal(out2, want[1])


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
def test_grid_barrier_on_the_gpu_many_times(device: str):
    """Every block resident (132 SMs on the H200), the barrier reused 200 times in one launch."""
    import sarek.runtime as rt
    from examples.grid_barrier import smooth

    dev = rt.get_device(device)
    x = np.random.default_rng(5).random(132 * 128, dtype=np.float32)
    want = x.copy()
    for _ in range(200):
        t = want.copy()
        t[1:-1] = (want[:-2] + want[1:-1] + want[2:]) / np.float32(3.0)
        want = t
    smooth.launch(x, 200, grid=132, block=128, device=dev)
    np.testing.assert_array_equal(x, want)


@pytest.mark.gpu
@pytest.mark.parametrize("device", ["cuda:0", "ptx:0"])
def test_too_large_a_grid_on_the_gpu(device: str):
    import sarek.runtime as rt

    a = np.zeros(1 << 22, np.float32)
    with pytest.raises(LaunchError, match="so all its blocks must be resident at once"):
        rotate.launch(a, np.zeros_like(a), grid=(1 << 22) // 256, block=256, device=rt.get_device(device))
