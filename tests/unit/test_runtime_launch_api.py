"""Launch ergonomics and the launch refusals (issue 13, and issue 21's bad-launch findings): threads=,
@kernel(block=...), sarek.cdiv, no grid and no threads, unknown keywords, a 1-element array for a scalar,
variant tags naming no constructor, n beyond a vector's length, @kernel on a class or builtin, an OpenCL
program without the requested kernel, device.warp_size / limits / synchronize everywhere."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, f32, i32, kernel, variant  # noqa: E402
from sarek.gpu import block_dim_x, block_idx_x, block_idx_y, global_thread_id, grid_dim_x, grid_dim_y, thread_idx_x  # noqa: E402
from sarek.runtime import LaunchError  # noqa: E402

DEVICES = ["interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl"]


@kernel
def fill(out: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = i + 1


@kernel(block=64)
def blocked(out: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = block_dim_x


@kernel
def add_one(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = a[i] + 1.0


@variant
class Shape:
    Circle: f32
    Square: f32
    Empty: None


@kernel
def areas(s: Vec[Shape], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        match s[i]:
            case Shape.Circle(r):
                out[i] = 3.0 * r * r
            case Shape.Square(a):
                out[i] = a * a
            case Shape.Empty():
                out[i] = 0.0


@kernel
def first(out: Vec[f32], x: f32):
    if thread_idx_x == 0:
        out[0] = x


def test_cdiv():
    assert sarek.cdiv(10, 3) == 4 and sarek.cdiv(9, 3) == 3 and sarek.cdiv(0, 256) == 0
    with pytest.raises(ValueError):
        sarek.cdiv(3, 0)
    with pytest.raises(TypeError):
        sarek.cdiv(3.0, 2)


@pytest.mark.parametrize("dev", DEVICES)
def test_threads_computes_the_grid(dev):
    out = np.zeros(1000, np.int32)
    fill.launch(out, 1000, threads=1000, block=128, device=dev)
    assert (out == np.arange(1, 1001)).all()
    out[:] = 0
    fill.launch(out, 1000, threads=1000, device=dev)  # default block (256 here)
    assert (out == np.arange(1, 1001)).all()


@pytest.mark.parametrize("dev", ["interp", "opencl", "vulkan"])
def test_declared_block_is_the_default(dev):
    out = np.zeros(130, np.int32)
    blocked.launch(out, 130, threads=130, device=dev)
    assert (out == 64).all()
    blocked.launch(out, 130, grid=3, block=64, device=dev)  # the same block, said again: fine
    with pytest.raises(LaunchError, match=r"declared with block=64.*block=\(32, 2\)"):
        blocked.launch(out, 130, grid=3, block=(32, 2), device=dev)


def test_declared_block_2d_and_bad_declaration():
    @kernel(block=(16, 16))
    def k2(out: Vec[i32]):
        out[0] = 1

    assert k2.declared_block == (16, 16, 1)
    with pytest.raises(sarek.CompileError, match=r"@kernel\(block=...\)") as e:
        kernel(block=(0, 4))(lambda: None)
    assert e.value.file == __file__


@pytest.mark.parametrize("dev", DEVICES)
def test_neither_grid_nor_threads_is_a_launch_error(dev):
    """launch() used to run one thread silently."""
    out = np.zeros(4, np.int32)
    with pytest.raises(LaunchError, match="needs grid=.*or threads="):
        fill.launch(out, 4, device=dev)
    with pytest.raises(LaunchError, match="needs grid=.*or threads="):
        sarek.launch(fill, [out, 4], device=dev)
    with pytest.raises(LaunchError, match="not both"):
        fill.launch(out, 4, grid=1, threads=4, device=dev)


@pytest.mark.parametrize("bad", [0, (4, 0), 2.5, "8"])
def test_bad_threads(bad):
    with pytest.raises(LaunchError, match="threads"):
        fill.launch(np.zeros(4, np.int32), 4, threads=bad)


def test_unknown_keyword_is_a_launch_error_naming_the_keywords():
    """Was a raw TypeError from Kernel.launch."""
    out = np.zeros(4, np.int32)
    with pytest.raises(LaunchError, match=r"unknown keyword argument\(s\) blocks.*grid, block, threads, device, "
                                          "stream"):
        fill.launch(out, 4, grid=1, blocks=4)
    with pytest.raises(LaunchError, match="unknown keyword argument.*shared_mem"):
        sarek.launch(fill, [out, 4], grid=1, shared_mem=0)


@pytest.mark.parametrize("dev", DEVICES)
def test_one_element_array_for_a_scalar_is_refused(dev):
    """Was accepted (an argument-order mistake went unnoticed)."""
    out = np.zeros(1, np.float32)
    with pytest.raises(LaunchError, match=r"argument 'x' \(#2\) expects a float32 scalar, got an array with shape "
                                          r"\(1,\)"):
        first.launch(out, np.ones(1, np.float32), grid=1, block=1, device=dev)
    first.launch(out, np.array(2.5, np.float32), grid=1, block=1, device=dev)  # 0-d: a scalar
    assert out[0] == 2.5


def _shapes(tags):
    s = np.zeros(len(tags), Shape.dtype)
    s["tag"] = tags
    return s


@pytest.mark.parametrize("dev", DEVICES)
def test_variant_tag_naming_no_constructor_is_refused(dev):
    """A device other than the interpreter returned a wrong result silently."""
    out = np.zeros(3, np.float32)
    with pytest.raises(LaunchError, match=r"argument 's' \(#1\): element 1 holds tag 7, which names no constructor "
                                          r"of a vector of Shape .*tags 0..2"):
        areas.launch(_shapes([0, 7, 1]), out, 3, grid=1, block=4, device=dev)
    with pytest.raises(LaunchError, match="element 2 holds tag -1"):
        areas.launch(sarek.Vector(_shapes([0, 1, -1])), out, 3, grid=1, block=4, device=dev)
    v = sarek.Vector(_shapes([0, 1, 2]))
    areas.launch(v, out, 3, grid=1, block=4, device=dev)
    v[0] = _shapes([9])[0]  # a host write: checked again at the next launch
    with pytest.raises(LaunchError, match="element 0 holds tag 9"):
        areas.launch(v, out, 3, grid=1, block=4, device=dev)


@pytest.mark.parametrize("dev", DEVICES)
def test_n_beyond_the_vector_is_refused(dev):
    """`if i < n: a[i]` with n > len(a): pocl's process died (rc -11) reading past the buffer."""
    a = np.zeros(16, np.float32)
    with pytest.raises(LaunchError, match=r"'n' = 100000 but vector 'a' has 16 elements.*past the end"):
        add_one.launch(a, 100000, grid=400, block=256, device=dev)
    add_one.launch(a, 100000, grid=1, block=16, device=dev)  # only 16 threads: no index reaches 16
    add_one.launch(sarek.Vector(a), 16, grid=400, block=256, device=dev)


def test_kernel_on_a_class_or_builtin_is_a_located_compile_error():
    class NotAKernel:
        pass

    with pytest.raises(sarek.CompileError, match="applies to a Python function.*the class NotAKernel") as e:
        kernel(NotAKernel)
    assert e.value.file == __file__ and e.value.line is not None
    with pytest.raises(sarek.CompileError, match="applies to a Python function.*builtin_function_or_method") as e:
        kernel(len)
    assert e.value.file == __file__ and e.value.line is not None


def test_opencl_never_runs_another_kernel_of_the_program():
    """The OpenCL device fell back to a program's only kernel when the requested name was missing."""
    from sarek.runtime.core import kernel_spec

    dev = sarek.get_device("opencl")
    spec = kernel_spec(fill.module, fill.name)
    saved, plans = dict(spec.cache), dict(spec.plans)
    try:
        for k in [k for k in spec.cache if k.startswith("opencl")]:
            del spec.cache[k]
        spec.plans.clear()
        spec.cache["source:opencl"] = "__kernel void other(__global int *o, int len, int n) { o[0] = 42; }"
        out = np.zeros(4, np.int32)
        with pytest.raises(sarek.DeviceError, match="kernel 'fill' not found in the OpenCL program.*other"):
            dev.launch(fill.module, fill.name, [out, 4], grid=1, block=4)
        assert out[0] == 0
    finally:
        spec.cache.clear()
        spec.cache.update(saved)
        spec.plans.update(plans)


@pytest.mark.parametrize("dev", DEVICES)
def test_every_device_has_warp_size_limits_synchronize(dev):
    d = sarek.get_device(dev)
    assert isinstance(d.warp_size, int) and d.warp_size >= 1
    lim = d.limits
    assert lim.max_threads_per_block >= 1 and len(lim.max_block) == 3 and len(lim.max_grid) == 3
    d.synchronize()
    sarek.synchronize(dev)
    if d.kind == "interp":
        assert d.warp_size == 32
    if d.kind == "opencl":
        assert d.warp_size == 1  # pocl has no sub-groups: warp operations are refused there
    if d.kind == "vulkan":
        # the sub-group width a kernel reads (lavapipe: its SIMD width, 8 lanes of f32 at 256 bits)
        out = np.zeros(1, np.int32)
        from sarek.runtime.probe import warp_probe

        p = warp_probe()
        sarek.launch((p.module, p.name), [out], grid=1, block=64, device=d)
        assert d.warp_size == out[0]


@pytest.mark.parametrize("dev", DEVICES)
def test_stream_argument(dev):
    d = sarek.get_device(dev)
    s = d.stream()
    v = sarek.Vector(np.zeros(8, np.float32))
    add_one.launch(v, 8, grid=1, block=8, device=d, stream=s)
    s.synchronize()
    assert (v.to_numpy() == 1).all()
    with pytest.raises(LaunchError, match="stream="):
        add_one.launch(v, 8, grid=1, block=8, device=d, stream="fast")


@kernel
def where_am_i(out: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = block_idx_x * 2 + grid_dim_x


@kernel
def where_y(out: Vec[i32], n: i32):
    j = block_idx_y
    if j < n:
        out[j] = j + grid_dim_y


@pytest.mark.parametrize("dev", ["vulkan", "vulkan-glsl"])
def test_vulkan_grid_beyond_65535_blocks(dev):
    """Was refused (lavapipe and NVIDIA allow 65535 workgroups per dimension): now split into dispatches by
    sarek-fold-grid, the kernel seeing the ids and grid of the one big launch."""
    d = sarek.get_device(dev)
    assert d.limits.max_grid[0] == 65535
    g = 65535 + 3
    out = np.zeros(g, np.int32)
    where_am_i.launch(out, g, grid=g, block=1, device=d)
    assert (out == np.arange(g) * 2 + g).all()
    outy = np.zeros(g, np.int32)
    where_y.launch(outy, g, grid=(1, g), block=1, device=d)
    assert (outy == np.arange(g) + g).all()
