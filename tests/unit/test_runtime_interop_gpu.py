"""Zero-copy interop on an NVIDIA GPU (issue 13; `gpu` marker: run on the H200 with
`bash scripts/gpu_run.sh python3 -m pytest -m gpu tests/unit`): PyTorch tensors, CuPy arrays, Numba device
arrays and JAX arrays go through sarek kernels on cuda and ptx in place (checked by pointer, and by the runtime
allocating nothing); sarek.Vector is shared with them through `__cuda_array_interface__` and `__dlpack__`;
launches are asynchronous; streams (sarek, CuPy, PyTorch, `__cuda_stream__`, raw handles) and PyTorch's current
stream order sarek launches with the frameworks' own work."""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import sarek  # noqa: E402
from sarek import Vec, bf16, f32, i32, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.runtime import LaunchError  # noqa: E402

def _sibling(name: str):
    import importlib.util
    from pathlib import Path

    spec = importlib.util.spec_from_file_location(f"_{name}", Path(__file__).with_name(f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


axpy = _sibling("test_runtime_interop").axpy  # the same kernel as the CPU interop tests

pytestmark = pytest.mark.gpu
CUDA = ["cuda", "ptx"]


@kernel
def slow_fill(y: Vec[f32], iters: i32, n: i32):
    """y[i] = iters after a loop of `iters` steps (long enough that a missing wait shows)."""
    i = global_thread_id
    if i < n:
        acc = 0.0
        for k in range(iters):
            acc = acc + 1.0
        y[i] = acc


def _no_alloc(monkeypatch, dev):
    monkeypatch.setattr(dev, "_alloc", lambda n: pytest.fail("the runtime allocated a buffer: a copy was made"))


@pytest.mark.parametrize("dev", CUDA)
def test_torch_tensors_in_place(dev, monkeypatch):
    torch = pytest.importorskip("torch")
    d = sarek.get_device(dev)
    x = torch.arange(1024, dtype=torch.float32, device="cuda")
    y = torch.ones(1024, dtype=torch.float32, device="cuda")
    ptr = y.data_ptr()
    _no_alloc(monkeypatch, d)
    axpy.launch(x, y, 2.0, 1024, threads=1024, device=d)
    torch.cuda.synchronize()
    assert y.data_ptr() == ptr
    assert torch.equal(y, 2 * x + 1)
    y2d = torch.zeros((32, 32), dtype=torch.float32, device="cuda")  # C-contiguous n-D: its elements in order
    axpy.launch(x, y2d, 1.0, 1024, threads=1024, device=d)
    assert torch.equal(y2d.reshape(-1), x)


@pytest.mark.parametrize("dev", CUDA)
def test_cupy_arrays_in_place(dev, monkeypatch):
    cp = pytest.importorskip("cupy")
    d = sarek.get_device(dev)
    x = cp.arange(1000, dtype=cp.float32)
    y = cp.ones(1000, dtype=cp.float32)
    ptr = y.data.ptr
    _no_alloc(monkeypatch, d)
    axpy.launch(x, y, 3.0, 1000, threads=1000, device=d)
    assert y.data.ptr == ptr
    assert bool(cp.all(y == 3 * x + 1))


@pytest.mark.parametrize("dev", CUDA)
def test_numba_device_array_through_cai(dev, monkeypatch):
    nb = pytest.importorskip("numba.cuda")
    d = sarek.get_device(dev)
    x = nb.to_device(np.arange(256, dtype=np.float32))
    y = nb.to_device(np.ones(256, np.float32))
    _no_alloc(monkeypatch, d)
    axpy.launch(x, y, 2.0, 256, threads=256, device=d)
    d.synchronize()
    assert (y.copy_to_host() == 2 * np.arange(256) + 1).all()


@pytest.mark.parametrize("dev", CUDA)
def test_jax_array_as_input(dev, monkeypatch):
    jnp = pytest.importorskip("jax.numpy")
    cp = pytest.importorskip("cupy")
    d = sarek.get_device(dev)
    x = jnp.arange(128, dtype=jnp.float32)
    if "cuda" not in str(x.devices()).lower() and "gpu" not in str(x.devices()).lower():
        pytest.fail(f"JAX has no GPU here: {x.devices()}")
    x.block_until_ready()
    y = cp.zeros(128, dtype=cp.float32)
    _no_alloc(monkeypatch, d)
    axpy.launch(x, y, 1.0, 128, threads=128, device=d)
    assert (cp.asnumpy(y) == np.arange(128)).all()


@pytest.mark.parametrize("dev", CUDA)
def test_refusals(dev):
    torch = pytest.importorskip("torch")
    x = torch.zeros(64, dtype=torch.float32, device="cuda")
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\) expects a vector of float32, got a PyTorch CUDA "
                                          "tensor of float64"):
        axpy.launch(x, torch.zeros(64, dtype=torch.float64, device="cuda"), 1.0, 64, threads=64, device=dev)
    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\): a PyTorch CUDA tensor is not C-contiguous"):
        axpy.launch(x, torch.zeros(128, device="cuda")[::2], 1.0, 64, threads=64, device=dev)
    with pytest.raises(LaunchError, match=r"argument 'x' \(#1\): a PyTorch CUDA tensor lives in CUDA device 0; "
                                          "interp cannot use it in place"):
        axpy.launch(x, np.zeros(64, np.float32), 1.0, 64, threads=64, device="interp")
    with pytest.raises(LaunchError, match="lives in CUDA device 0; opencl"):
        axpy.launch(x, np.zeros(64, np.float32), 1.0, 64, threads=64, device="opencl")

    class ReadOnly:
        def __init__(self, t):
            cai = dict(t.__cuda_array_interface__)
            cai["data"] = (cai["data"][0], True)
            self.__cuda_array_interface__ = cai

    with pytest.raises(LaunchError, match=r"argument 'y' \(#2\) is written by the kernel but .* exported read-only"):
        axpy.launch(x, ReadOnly(torch.zeros(64, device="cuda")), 1.0, 64, threads=64, device=dev)
    # a CPU tensor is host memory: like a numpy array (uploaded, written back)
    yc = torch.zeros(64)
    axpy.launch(torch.ones(64), yc, 2.0, 64, threads=64, device=dev)
    assert bool((yc == 2).all())


@pytest.mark.parametrize("dev", CUDA)
def test_vector_exports_share_memory(dev):
    torch = pytest.importorskip("torch")
    cp = pytest.importorskip("cupy")
    d = sarek.get_device(dev)
    v = sarek.Vector(np.zeros(512, np.float32))
    axpy.launch(np.ones(512, np.float32), v, 1.0, 512, threads=512, device=d)  # v now lives on the GPU
    ptr = int(v.device_buffer(d))
    t = torch.from_dlpack(v)
    assert t.data_ptr() == ptr and t.is_cuda
    c = cp.asarray(v)
    assert c.data.ptr == ptr
    t[0] = 7.0  # written through torch: the Vector's host copy is stale, the next read brings it
    torch.cuda.synchronize()
    assert v[0] == 7.0 and v[1] == 1.0
    c[1] = 9.0
    cp.cuda.runtime.deviceSynchronize()
    axpy.launch(np.ones(512, np.float32), v, 1.0, 512, threads=512, device=d)
    got = v.to_numpy()
    assert got[0] == 8.0 and got[1] == 10.0 and got[2] == 2.0
    del t, c


@pytest.mark.parametrize("dev", CUDA)
def test_vector_from_dlpack_adopts(dev, monkeypatch):
    torch = pytest.importorskip("torch")
    d = sarek.get_device(dev)
    t = torch.zeros(256, dtype=torch.float32, device="cuda")
    v = sarek.Vector.from_dlpack(t, device=dev)
    x = sarek.Vector.from_dlpack(torch.ones(256, dtype=torch.float32, device="cuda"), device=dev)
    _no_alloc(monkeypatch, d)
    axpy.launch(x, v, 5.0, 256, threads=256, device=d)
    torch.cuda.synchronize()
    assert bool((t == 5).all())  # the tensor's own memory
    assert (v.to_numpy() == 5).all()
    assert int(v.device_buffer(d)) == t.data_ptr()


@pytest.mark.parametrize("dev", CUDA)
def test_launch_is_asynchronous(dev):
    from sarek.runtime.cuda import _driver  # pyright: ignore[reportPrivateUsage]

    d = sarek.get_device(dev)
    v = sarek.Vector(np.zeros(256, np.float32))
    slow_fill.launch(v, 10, 256, threads=256, device=d)
    d.synchronize()
    slow_fill.launch(v, 10_000_000, 256, threads=256, device=d)  # (f32 counts exactly up to 2**24)
    err = _driver().cuStreamQuery(0)[0]
    assert err.name == "CUDA_ERROR_NOT_READY", err  # the launch returned with the kernel still running
    assert v[0] == 10_000_000.0  # reading waits


@pytest.mark.parametrize("dev", CUDA)
def test_torch_current_stream_orders_with_torch_ops(dev):
    """No stream=: a launch with torch tensors goes on torch's current stream, so a torch op after it (same
    stream) sees its result and one before it is seen, with no synchronize in between."""
    torch = pytest.importorskip("torch")
    s = torch.cuda.Stream()
    n = 1 << 16
    with torch.cuda.stream(s):
        y = torch.zeros(n, device="cuda")
        slow_fill.launch(y, 200_000, n, threads=n, device=dev)  # long: a launch on another stream would lose
        z = y * 2
        w = torch.ones(n, device="cuda")
        axpy.launch(z, w, 1.0, n, threads=n, device=dev)
        r = w.sum()
    s.synchronize()
    assert float(r) == n * (2 * 200_000 + 1)


@pytest.mark.parametrize("dev", CUDA)
def test_stream_kinds(dev):
    torch = pytest.importorskip("torch")
    cp = pytest.importorskip("cupy")
    d = sarek.get_device(dev)
    n = 4096
    v = sarek.Vector(np.zeros(n, np.float32))
    one = sarek.Vector(np.ones(n, np.float32))

    class Proto:
        def __init__(self, h):
            self.h = h

        def __cuda_stream__(self):
            return (0, self.h)

    ts, cs, ss = torch.cuda.Stream(), cp.cuda.Stream(non_blocking=True), d.stream()
    for st, sync in [(ss, ss.synchronize), (ts, ts.synchronize), (cs, cs.synchronize),
                     (Proto(ts.cuda_stream), ts.synchronize), (cs.ptr, cs.synchronize)]:
        slow_fill.launch(v, 100_000, n, threads=n, device=d, stream=st)
        axpy.launch(one, v, 1.0, n, threads=n, device=d, stream=st)  # ordered after it on the same stream
        sync()
        assert (v.to_numpy() == 100_001).all(), st
    with pytest.raises(LaunchError, match="stream= must be"):
        axpy.launch(one, v, 1.0, n, threads=n, device=d, stream="default")
    assert d.warp_size == 32


@pytest.mark.parametrize("dev", CUDA)
def test_cai_v3_producer_stream_is_waited_for(dev):
    """A CuPy array written on a CuPy stream, then passed with no stream=: its CAI v3 stream is waited on."""
    cp = pytest.importorskip("cupy")
    n = 1 << 20
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        x = cp.zeros(n, dtype=cp.float32)
        for _ in range(50):
            x += 1  # queued work on s that the kernel must see
        y = cp.zeros(n, dtype=cp.float32)
        axpy.launch(x, y, 1.0, n, threads=n, device=dev)
    sarek.get_device(dev).synchronize()
    assert float(y.sum()) == 50.0 * n


@kernel
def widen_bf16(x: Vec[bf16], y: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        y[i] = f32(x[i]) * 2.0


@pytest.mark.parametrize("dev", CUDA)
def test_torch_bfloat16_tensor_is_a_bf16_argument(dev, monkeypatch):
    """A torch bfloat16 CUDA tensor is a bf16 vector in place (torch's __cuda_array_interface__ refuses bf16:
    sarek reads its pointer, or its DLPack kDLBfloat export); a CPU one through a view of its bits."""
    torch = pytest.importorskip("torch")
    x = torch.arange(256, dtype=torch.float32, device="cuda").to(torch.bfloat16)
    y = torch.zeros(256, dtype=torch.float32, device="cuda")
    widen_bf16.launch(x, y, 256, threads=256, device=dev)
    torch.cuda.synchronize()
    assert torch.equal(y, 2 * x.float())

    class DLPackOnly:
        def __dlpack__(self, **kw):
            return x.__dlpack__(**kw)

        def __dlpack_device__(self):
            return x.__dlpack_device__()

    y.zero_()
    widen_bf16.launch(DLPackOnly(), y, 256, threads=256, device=dev)
    torch.cuda.synchronize()
    assert torch.equal(y, 2 * x.float())
    yc = np.zeros(256, np.float32)
    widen_bf16.launch(x.cpu(), yc, 256, threads=256, device=dev)
    assert np.array_equal(yc, 2 * x.float().cpu().numpy())


def _no_full_path(monkeypatch):
    """After the warm-up: a launch that takes the full path (its argument check) fails the test."""
    import sarek.runtime.core as core

    monkeypatch.setattr(core, "check_args", lambda *a: pytest.fail("a warm launch took the full path"))


@pytest.mark.parametrize("dev", CUDA)
def test_torch_launch_loop_takes_the_foreign_fast_path(dev, monkeypatch):
    """Repeated launches on torch tensors (the foreign-array fast path, sarek.runtime.cuda_foreign): right
    answer, in place, on the default stream and on a non-default torch stream (`with torch.cuda.stream(s):`
    changes where the next launch goes, asked at every launch)."""
    torch = pytest.importorskip("torch")
    d = sarek.get_device(dev)
    n = 1 << 16
    x = torch.arange(n, dtype=torch.float32, device="cuda")
    y = torch.zeros(n, dtype=torch.float32, device="cuda")
    axpy.launch(x, y, 1.0, n, threads=n, device=d)  # full path, then the plan is made
    slow_fill.launch(torch.zeros(n, device="cuda"), 1, n, threads=n, device=d)
    _no_full_path(monkeypatch)
    for _ in range(49):
        axpy.launch(x, y, 1.0, n, threads=n, device=d)
    torch.cuda.synchronize()
    assert torch.equal(y, 50 * x)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        z = torch.zeros(n, device="cuda")
        slow_fill.launch(z, 200_000, n, threads=n, device=d)  # long: a launch on another stream would lose
        w = z * 2  # torch's op after it, on s, sees its result
        for _ in range(10):
            axpy.launch(x, w, 1.0, n, threads=n, device=d)  # on s: after `w = z * 2`
        r = w + 0  # and torch's next op on s sees them
    s.synchronize()
    assert torch.equal(r, 2 * 200_000 + 10 * x)


@pytest.mark.parametrize("dev", CUDA)
def test_cupy_launch_loop_takes_the_foreign_fast_path(dev, monkeypatch):
    """Repeated launches on CuPy arrays, on CuPy's default stream and inside `with cupy.cuda.Stream():`."""
    cp = pytest.importorskip("cupy")
    d = sarek.get_device(dev)
    n = 1 << 16
    x = cp.arange(n, dtype=cp.float32)
    y = cp.zeros(n, dtype=cp.float32)
    axpy.launch(x, y, 1.0, n, threads=n, device=d)
    _no_full_path(monkeypatch)
    for _ in range(49):
        axpy.launch(x, y, 1.0, n, threads=n, device=d)
    d.synchronize()
    assert bool(cp.all(y == 50 * x))
    s = cp.cuda.Stream(non_blocking=True)
    with s:
        w = cp.zeros(n, dtype=cp.float32)
        for _ in range(20):
            w += 1  # queued on s: the launches (on s) must come after
        for _ in range(10):
            axpy.launch(x, w, 1.0, n, threads=n, device=d)
        r = w + 0
    s.synchronize()
    assert bool(cp.all(r == 20 + 10 * x))
