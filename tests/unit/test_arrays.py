"""Shaped arrays (issue 14): `Array[T, N]` in the front end (located errors), at launch (LaunchErrors naming the
parameter and the shapes) and on both interpreter executors (per-dimension bounds checks)."""

import re
from pathlib import Path

import numpy as np
import pytest

import sarek
from sarek import Array, Vec, device, f32, i32, kernel
from sarek.gpu import global_idx_x, global_idx_y, local_array, shared, thread_idx_x
from sarek.interp import InterpError

_LINES = Path(__file__).read_text().splitlines()


def expect_error(fn, marker: str, *fragments: str) -> None:
    """compile(fn) fails with a CompileError located on the line marked `# <marker>`, saying `fragments`."""
    want = [i + 1 for i, text in enumerate(_LINES) if f"# <{marker}>" in text]
    with pytest.raises(sarek.CompileError) as info:
        sarek.compile(fn)
    text = str(info.value)
    m = re.match(r"(.+\.py):(\d+):(\d+): error: ", text)
    assert m and [int(m.group(2))] == want, text
    assert all(frag in text for frag in fragments), text


# ------------------------------------------------------------------------------------------------ front end


def test_array_annotation():
    assert Array[f32, 1] == Vec[f32]
    assert repr(Array[f32, 3]) == "Array[f32, 3]"
    with pytest.raises(TypeError, match="rank N must be an int from 1 to 4"):
        Array[f32, 5]
    with pytest.raises(TypeError, match="element type and a rank"):
        Array[f32]


def test_too_few_indices():
    def k(a: Array[f32, 2], i: i32):
        a[i] = 1.0  # <few>
    expect_error(k, "few", "'a' is Array[f32, 2]: it takes 2 indices (a[i, j]), got 1")


def test_too_many_indices_on_a_vec():
    def k(a: Vec[f32], i: i32):
        a[0] = a[i, i]  # <many>
    expect_error(k, "many", "'a' is Vec[f32]: it takes 1 index (a[i]), got 2")


def test_float_index():
    def k(a: Array[f32, 2], x: f32):
        a[0, 0] = a[0, x]  # <findex>
    expect_error(k, "findex", "an index must be an integer, got f32")


def test_shape_out_of_range():
    def k(a: Array[f32, 2]):
        a[0, 0] = f32(a.shape[2])  # <shape>
    expect_error(k, "shape", "shape[2] is out of range: the array is Array[f32, 2] (rank 2)")


def test_shape_needs_a_constant():
    def k(a: Array[f32, 2], d: i32):
        a[0, 0] = f32(a.shape[d])  # <shapek>
    expect_error(k, "shapek", "a.shape[k] needs a constant integer k")


def test_shared_shape_must_be_constant():
    def k(a: Array[f32, 2], n: i32):
        t = shared(f32, (4, n))  # <dyn>
        t[0, 0] = 1.0
    expect_error(k, "dyn", "the extents of an N-dimensional shared() array must be constant integers")


def test_local_shape_positive_and_rank():
    def k(a: Array[f32, 2]):
        t = local_array(f32, (4, 0))  # <zero>
        t[0, 0] = 1.0

    def k2(a: Array[f32, 2]):
        t = local_array(f32, (2, 2, 2, 2, 2))  # <rank5>
        t[0, 0, 0, 0, 0] = 1.0
    expect_error(k, "zero", "local_array() needs a positive size, got 0")
    expect_error(k2, "rank5", "local_array() takes a shape of 1 to 4 extents, got 5")


def test_atomics_on_nd_arrays_take_one_index_per_dimension():
    from sarek.gpu import atomic_add

    def k(h: Array[i32, 2]):
        atomic_add(h, 0, 1)  # <atomic>
    expect_error(k, "atomic", "atomic_add() on Array[i32, 2] takes a tuple of 2 indices, e.g. atomic_add(a, (i, j), x), "
                 "got 1")


def test_ir_of_a_2d_kernel():
    @kernel
    def k(a: Array[f32, 2], b: Array[f32, 3]):
        t = shared(f32, (4, 5))
        t[thread_idx_x, 1] = a[1, 2] + f32(len(b)) + f32(b.shape[2]) + f32(t.shape[1])

    ir = k.ir()
    assert '%a: !sarek.vec<f32, 2> "a", %b: !sarek.vec<f32, 3> "b"' in ir
    assert "sarek.array_read %a[" in ir and "] : !sarek.vec<f32, 2>" in ir
    assert "sarek.array_dim %b, 0 : !sarek.vec<f32, 3>" in ir  # len() is the first extent
    assert "sarek.array_dim %b, 2 : !sarek.vec<f32, 3>" in ir
    assert re.search(r'sarek.alloc_array "t"\[%\d+, %\d+\] : !sarek.array<f32, shared, 2>', ir)


# ------------------------------------------------------------------------------------------------ launch


@kernel
def scale2d(a: Array[f32, 2], out: Array[f32, 2], s: f32):
    i = global_idx_y
    j = global_idx_x
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j] * s


def test_wrong_rank_is_a_launch_error():
    a = np.ones(12, np.float32)
    with pytest.raises(sarek.LaunchError, match=r"kernel scale2d: argument 'a' \(#1\) expects a 2-D array of float32 "
                       r"\(Array\[\.\.\., 2\]\), got an array of float32 with shape \(12,\) \(1-D\)"):
        scale2d.launch(a, np.ones((3, 4), np.float32), 2.0, grid=1, block=(4, 4), device="interp")


def test_wrong_dtype_is_a_launch_error():
    with pytest.raises(sarek.LaunchError, match=r"argument 'out' \(#2\) expects a 2-D array of float32, got an "
                       r"array of float64 with shape \(3, 4\)"):
        scale2d.launch(np.ones((3, 4), np.float32), np.ones((3, 4)), 2.0, grid=1, block=(4, 4), device="interp")


def test_non_contiguous_is_a_launch_error():
    a = np.ones((4, 6), np.float32)[:, ::2]
    with pytest.raises(sarek.LaunchError, match=r"argument 'a' \(#1\) is not C-contiguous"):
        scale2d.launch(a, np.ones((4, 3), np.float32), 2.0, grid=1, block=(4, 4), device="interp")


def test_vector_for_an_array_is_a_launch_error():
    v = sarek.Vector(np.ones(12, np.float32))
    with pytest.raises(sarek.LaunchError, match=r"argument 'a' \(#1\) expects a 2-D array of float32; a "
                       r"sarek.Vector is one-dimensional"):
        scale2d.launch(v, np.ones((3, 4), np.float32), 2.0, grid=1, block=(4, 4), device="interp")


def test_vec_still_takes_nd_arrays_flat():
    @kernel
    def inc(v: Vec[f32]):
        i = global_idx_x
        if i < len(v):
            v[i] += 1.0

    a = np.zeros((3, 4), np.float32)
    inc.launch(a, grid=1, block=16, device="interp")
    assert (a == 1).all()


@pytest.mark.parametrize("dev", ["interp", "interp-ref"])
def test_shapes_reach_the_kernel(dev):
    a = np.arange(35, dtype=np.float32).reshape(5, 7)
    out = np.zeros_like(a)
    scale2d.launch(a, out, 3.0, grid=(1, 1), block=(8, 8), device=dev)
    assert np.array_equal(out, a * 3)


@device
def corner(m: Array[f32, 2]) -> f32:
    return m[m.shape[0] - 1, len(m) - 1]


@kernel
def helper_user(m: Array[f32, 2], out: Vec[f32]):
    if thread_idx_x == 0:
        out[0] = corner(m)


@pytest.mark.parametrize("dev", ["interp", "interp-ref"])
def test_helper_takes_an_array(dev):
    m = np.arange(16, dtype=np.float32).reshape(4, 4)
    out = np.zeros(1, np.float32)
    helper_user.launch(m, out, grid=1, block=1, device=dev)
    assert out[0] == 15


@kernel
def oob(a: Array[f32, 2], j: i32):
    a[thread_idx_x, j] = 1.0


@pytest.mark.parametrize("dev", ["interp", "interp-ref"])
def test_out_of_bounds_names_the_dimension(dev):
    a = np.zeros((2, 3), np.float32)
    with pytest.raises(InterpError, match=r"index \[0, 3\] out of bounds for an array of shape \[2, 3\] "
                       r"\(dimension 1: 3 not in 0..2\)"):
        oob.launch(a, 3, grid=1, block=1, device=dev)
    with pytest.raises(InterpError, match=r"out of bounds for an array of shape \[2, 3\] \(dimension 0: 2 not in 0..1\)"):
        oob.launch(a, 0, grid=1, block=3, device=dev)


# ------------------------------------------------------------------------------------------------ foreign arrays


class InterfaceOnly:
    """A numpy-compatible object that is not an ndarray (`__array_interface__` only)."""

    def __init__(self, a):
        self.a = a
        self.__array_interface__ = a.__array_interface__


def test_array_interface_object_keeps_its_shape():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    out = np.zeros((3, 4), np.float32)
    scale2d.launch(InterfaceOnly(a), InterfaceOnly(out), 2.0, grid=1, block=(4, 4), device="interp")
    assert np.array_equal(out, a * 2)
    with pytest.raises(sarek.LaunchError, match=r"argument 'a' \(#1\) expects a 2-D array of float32 .* shape \(12,\)"):
        scale2d.launch(InterfaceOnly(a.reshape(-1)), out, 2.0, grid=1, block=(4, 4), device="interp")


def test_pyopencl_2d_array_on_pocl_in_place(monkeypatch):
    cla = pytest.importorskip("pyopencl.array")
    dev = sarek.get_device("opencl")
    a = np.arange(35, dtype=np.float32).reshape(5, 7)
    x = cla.to_device(dev.queue, a)
    y = cla.to_device(dev.queue, np.zeros((5, 7), np.float32))
    monkeypatch.setattr(dev, "_alloc", lambda n: pytest.fail("a pyopencl array was copied into a new buffer"))
    scale2d.launch(x, y, 3.0, grid=1, block=(8, 8), device=dev)
    assert np.array_equal(y.get(), a * 3)
    with pytest.raises(sarek.LaunchError, match=r"argument 'a' \(#1\) expects a 2-D array of float32 \(Array\[\.\.\., "
                       r"2\]\), got a pyopencl array with shape \(35,\)"):
        scale2d.launch(cla.to_device(dev.queue, a.reshape(-1)), y, 3.0, grid=1, block=(8, 8), device=dev)


@pytest.mark.gpu
@pytest.mark.parametrize("dev", ["cuda", "ptx"])
def test_torch_and_cupy_2d_in_place(dev):
    """On the H200: 2-D PyTorch and CuPy arrays reach an Array[f32, 2] kernel in place with their shapes."""
    torch = pytest.importorskip("torch")
    a = torch.arange(35, dtype=torch.float32, device="cuda").reshape(5, 7)
    out = torch.zeros((5, 7), dtype=torch.float32, device="cuda")
    scale2d.launch(a, out, 3.0, grid=1, block=(8, 8), device=dev)
    torch.cuda.synchronize()
    assert torch.equal(out, a * 3)
    with pytest.raises(sarek.LaunchError, match=r"got a PyTorch CUDA tensor with shape \(35,\)"):
        scale2d.launch(a.reshape(-1), out, 3.0, grid=1, block=(8, 8), device=dev)
    cp = pytest.importorskip("cupy")
    c = cp.arange(35, dtype=cp.float32).reshape(5, 7)
    co = cp.zeros((5, 7), cp.float32)
    scale2d.launch(c, co, 2.0, grid=1, block=(8, 8), device=dev)
    cp.cuda.runtime.deviceSynchronize()
    assert bool((co == c * 2).all())
