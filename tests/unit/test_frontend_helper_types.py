"""A record or variant type a kernel only meets as a helper's return value (never as a parameter or through a
constructor in the kernel itself) can still be matched and read by field: calling the helper registers the
types its signature names. Before that fix the match below failed with an internal KeyError."""

import numpy as np
import pytest

from sarek import Vec, device, f32, i32, kernel, record, variant
from sarek.gpu import global_thread_id


@record
class Pair:
    lo: f32
    hi: f32


@variant
class Sh:
    Circle: f32
    Rect: (f32, f32)
    Empty: ()


@device
def make_shape(i: i32) -> Sh:
    if i % 3 == 0:
        return Sh.Circle(f32(i))
    elif i % 3 == 1:
        return Sh.Rect(f32(i), 2.0)
    return Sh.Empty()


@device
def make_pair(x: f32) -> Pair:
    return Pair(x - 1.0, x + 1.0)


@kernel
def from_helpers(out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        match make_shape(i):
            case Sh.Circle(r):
                out[i] = r * r
            case Sh.Rect(w, h):
                out[i] = w * h
            case _:
                out[i] = make_pair(f32(i)).hi


def expected(n: int) -> np.ndarray:
    i = np.arange(n, dtype=np.float32)
    return np.where(i % 3 == 0, i * i, np.where(i % 3 == 1, i * 2, i + 1)).astype(np.float32)


@pytest.mark.parametrize("dev", ["interp", "interp-ref", "opencl", "vulkan:0", "vulkan-glsl:0"])
def test_types_known_only_from_helper_signatures(dev):
    n = 100
    out = np.zeros(n, np.float32)
    from_helpers.launch(out, n, grid=1, block=128, device=dev)
    np.testing.assert_array_equal(out, expected(n))


def test_types_declared_in_emitted_source():
    src = from_helpers.source("cuda")
    assert "} Pair;" in src and "} Sh;" in src


@variant
class Left:
    Leaf: f32
    Other: ()


@variant
class Right:
    Leaf: i32
    Other: ()


@kernel
def shared_ctor_names(ls: Vec[Left], rs: Vec[Right], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        x = 0.0
        match ls[i]:
            case Left.Leaf(r):
                x = r
            case Left.Other():
                x = -1.0
        match rs[i]:
            case Right.Leaf(k):
                x += f32(k)
            case _:
                x += 100.0
        out[i] = x


@pytest.mark.parametrize("dev", ["interp", "opencl", "vulkan:0", "vulkan-glsl:0"])
def test_two_variants_sharing_constructor_names(dev):
    """C targets qualify the shared tags (Left_Leaf, Right_Leaf ...); every device agrees with numpy."""
    n = 12
    ls = Left.pack([Left.Leaf(float(i)) if i % 2 else Left.Other() for i in range(n)])
    rs = Right.pack([Right.Leaf(i) if i % 3 else Right.Other() for i in range(n)])
    out = np.zeros(n, np.float32)
    shared_ctor_names.launch(ls, rs, out, n, grid=1, block=16, device=dev)
    i = np.arange(n, dtype=np.float32)
    want = np.where(i % 2 == 1, i, -1.0) + np.where(i % 3 != 0, i, 100.0)
    np.testing.assert_array_equal(out, want.astype(np.float32))
