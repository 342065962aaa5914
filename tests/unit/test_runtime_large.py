"""Arrays past 2^31 elements (issue 34, item 6). An `Array[u8, 2]` of 50000 x 50000 (2.5e9 elements, a sparse
np.memmap: a few pages are ever written) gets `a[r - 1, c - 1] = 7` at the right element: the row-major offset is
64-bit on the fast interpreter, the C family and PTX (the lowering's side is in the lit tests of
tests/filecheck/targets/*/arrays.mlir). Where a device cannot, the launch is refused with a LaunchError naming
the parameter and the limit: an extent past i32 everywhere (`len(v)` and `a.shape[k]` are i32), more than 2^31 - 1
elements on Vulkan (the shaders index in i32) and interp-ref (Python lists), more than one buffer may hold on
OpenCL (CL_DEVICE_MAX_MEM_ALLOC_SIZE). Nothing here allocates gigabytes."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Array, Vec, f32, i32, kernel, u8  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.runtime import LaunchError  # noqa: E402

R = C = 50_000  # 2.5e9 elements: past 2^31 (2,147,483,648), each extent far below it
BIG = 2**31 + 16


@kernel
def poke(a: Array[u8, 2], r: i32, c: i32):
    a[r - 1, c - 1] = u8(7)


@kernel
def last_row(a: Array[u8, 2], r: i32, c: i32):
    """Threads 0..63 write a[r - 1, c - 64 + t] = t + 1: the vectorised (per-lane) offsets of the interpreter."""
    t = global_thread_id
    if t < 64:
        a[r - 1, c - 64 + t] = u8(t + 1)


@kernel
def scale(v: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        v[i] = v[i] * 2.0


@pytest.fixture
def sparse(tmp_path):
    """A sparse file mapped as a zeroed u8 array of `shape` (its pages are allocated only where written)."""

    def make(shape):
        return np.memmap(tmp_path / "big.bin", dtype=np.uint8, mode="w+", shape=shape)

    return make


def _wrapped(r: int, c: int, cols: int) -> int:
    """Where `a[r, c]` landed when the offset wrapped in 32 bits (numpy reads a negative offset from the end)."""
    w = (r * cols + c + 2**31) % 2**32 - 2**31
    return w % (R * C)


def test_interp_writes_the_right_element_past_2_31(sparse):
    a = sparse((R, C))
    poke.launch(a, R, C, grid=1, block=1, device="interp")
    last_row.launch(a, R, C, grid=1, block=64, device="interp")
    flat = a.reshape(-1)
    assert a[R - 1, C - 1] == 64  # poke's 7, then overwritten by lane 63
    np.testing.assert_array_equal(a[R - 1, C - 64:], np.arange(1, 65, dtype=np.uint8))
    assert flat[_wrapped(R - 1, C - 1, C)] == 0  # where the 32-bit offset used to write
    assert np.count_nonzero(flat[: 1 << 20]) == 0


def test_pocl_row_major_offset_past_2_31(sparse):
    """On pocl a buffer over the memmap itself (CL_MEM_USE_HOST_PTR: no copy). pocl's one-buffer limit follows
    the machine's free memory: where it is below 2.5e9 bytes the launch is refused, naming it, before anything
    is allocated; above, the 64-bit offset writes the right element (the 32-bit one crashed pocl)."""
    import pyopencl as cl
    import pyopencl.array as cla

    d = sarek.get_device("opencl")
    a = sparse((R, C))
    cap = int(d.device.max_mem_alloc_size)
    if cap < R * C:
        with pytest.raises(LaunchError, match=rf"argument 'a' \(#1\) has {R * C} elements; {d.name} allocates at "
                                              rf"most {cap} bytes in one buffer \(CL_DEVICE_MAX_MEM_ALLOC_SIZE\)"):
            poke.launch(a, R, C, grid=1, block=1, device=d)
        return
    buf = cl.Buffer(d.context, cl.mem_flags.READ_WRITE | cl.mem_flags.USE_HOST_PTR, hostbuf=a)
    arr = cla.Array(d.queue, (R, C), np.uint8, data=buf)
    poke.launch(arr, R, C, grid=1, block=1, device=d)
    assert int(arr[R - 1, C - 1].get()) == 7
    assert int(arr.reshape(-1)[_wrapped(R - 1, C - 1, C)].get()) == 0


@pytest.mark.parametrize("dev,reason", [
    ("interp-ref", "interp-ref holds every vector as a Python list"),
    ("vulkan", "vulkan:0 runs WGSL, which indexes a vector with 32-bit integers"),
    ("vulkan-glsl", "vulkan-glsl:0 runs GLSL, which indexes a vector with 32-bit integers"),
])
def test_32_bit_devices_refuse_past_2_31_elements(sparse, dev, reason):
    a = sparse((R, C))
    with pytest.raises(LaunchError, match=rf"kernel poke: argument 'a' \(#1\) has {R * C} elements; {reason}, at "
                                          rf"most {2**31 - 1} elements per vector"):
        poke.launch(a, R, C, grid=1, block=1, device=dev)


def test_opencl_refuses_more_than_one_buffer_holds(tmp_path):
    """Refused before any allocation (a sparse array one element past the device's buffer limit, 2-D so that
    each extent stays an i32)."""
    d = sarek.get_device("opencl")
    cap = int(d.device.max_mem_alloc_size)
    rows = cap // 2**30 + 1
    a = np.memmap(tmp_path / "cap.bin", dtype=np.uint8, mode="w+", shape=(rows, 2**30))
    with pytest.raises(LaunchError, match=rf"has {rows * 2**30} elements; {d.name} allocates at most {cap} bytes"):
        poke.launch(a, 1, 1, grid=1, block=1, device=d)


@pytest.mark.parametrize("dev", ["interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl"])
def test_vector_longer_than_i32_is_refused(sparse, dev):
    """`len(v)` is i32: a vector of 2^31 + 16 elements (numpy or sarek.Vector) is a LaunchError naming it, where
    the interpreter raised an internal error and pocl a raw OverflowError."""
    msg = (rf"kernel scale: argument 'v' \(#1\) has {BIG} elements; a vector's length and an array's extents are "
           rf"i32 in a kernel \(`len\(v\)`, `a.shape\[k\]`\), at most {2**31 - 1}: pass it as an Array\[T, 2\]")
    v = sparse((BIG * 4,)).view(np.float32)  # 2^31 + 16 float32 elements over a sparse file
    assert v.size == BIG
    with pytest.raises(LaunchError, match=msg):
        scale.launch(v, 16, grid=1, block=16, device=dev)
    vec = sarek.Vector(BIG, np.float32)  # np.zeros: pages untouched
    for _ in range(2):  # the second launch of a kernel tries the fast path: it leaves the refusal to the full one
        with pytest.raises(LaunchError, match=msg):
            scale.launch(vec, 16, grid=1, block=16, device=dev)


def test_extent_longer_than_i32_is_refused(sparse):
    a = sparse((1, BIG))
    with pytest.raises(LaunchError, match=rf"argument 'a' \(#1\) has extent {BIG} in dimension 1 \(shape \(1, {BIG}\)\); "
                                          r"a vector's length and an array's extents are i32"):
        poke.launch(a, 1, 1, grid=1, block=1, device="interp")


@pytest.mark.gpu
@pytest.mark.parametrize("dev", ["cuda", "ptx", "opencl"])
def test_gpu_row_major_offset_past_2_31(dev):
    """On the H200: a 2.5e9-element u8 array (host zeros, uploaded and copied back) gets the element right."""
    a = np.zeros((R, C), np.uint8)
    poke.launch(a, R, C, grid=1, block=1, device=dev)
    last_row.launch(a, R - 1, C, grid=1, block=64, device=dev)
    assert a[R - 1, C - 1] == 7
    np.testing.assert_array_equal(a[R - 2, C - 64:], np.arange(1, 65, dtype=np.uint8))
    assert a.reshape(-1)[_wrapped(R - 1, C - 1, C)] == 0
