"""@record / @variant on the host: aligned numpy dtypes (SAREK_SPEC §4.9), pack/unpack, equality, repr."""

import numpy as np
import pytest

from sarek import f32, f64, i32, record, variant


@record
class AB:
    a: i32
    b: f64


@record
class Point:
    x: f32
    y: f32


@record
class Seg:
    p: Point
    q: Point
    w: i32


@variant
class Shape:
    Circle: f32
    Rect: (f32, f32)
    Empty: ()


@variant
class Wide:
    A: f64
    B: ()


def test_record_dtype_aligned():
    assert AB.dtype.itemsize == 16
    assert AB.dtype.fields["a"][1] == 0 and AB.dtype.fields["b"][1] == 8
    assert Point.dtype.itemsize == 8
    assert Seg.dtype.itemsize == 20 and Seg.dtype.fields["w"][1] == 16


def test_variant_dtype_aligned():
    assert Shape.dtype.itemsize == 12
    assert Shape.dtype.fields["tag"][1] == 0
    assert Wide.dtype.itemsize == 16  # tag@0, payload@8


def test_variant_values_equality_and_repr():
    assert Shape.Circle(1.0) == Shape.Circle(1)
    assert Shape.Circle(1.0) != Shape.Circle(2.0)
    assert Shape.Circle(1.0) != Shape.Empty()
    assert repr(Shape.Circle(1.0)) == "Shape.Circle(1.0)"
    assert repr(Shape.Rect(2, 3.5)) == "Shape.Rect(2.0, 3.5)"
    assert repr(Shape.Empty()) == "Shape.Empty()"
    with pytest.raises(TypeError):
        Shape.Circle()


def test_variant_pack_unpack_roundtrip_and_tags():
    vals = [Shape.Circle(1.5), Shape.Rect(2.0, 3.0), Shape.Empty(), Shape.Circle(-4.0)]
    arr = Shape.pack(vals)
    assert arr.dtype == Shape.dtype
    assert list(arr["tag"]) == [0, 1, 2, 0]  # declaration index
    assert Shape.unpack(arr) == vals


def test_record_pack_unpack():
    arr = Seg.pack([Seg(Point(1.0, 2.0), Point(3.0, 4.0), 5)])
    assert arr["q"]["y"][0] == 4.0 and arr["w"][0] == 5
    assert Seg.unpack(arr) == [Seg(Point(1.0, 2.0), Point(3.0, 4.0), 5)]


def test_bad_field_type_refused():
    with pytest.raises(TypeError, match="not a sarek type"):
        @record
        class Bad:
            x: str


def test_record_with_a_variant_field_has_no_dtype_but_works_in_kernels():
    """Variants are laid out only at the top level (sarek.analysis.layout), so such a record has no numpy
    dtype: asking for one raises the layout's located diagnostic (it used to fall back to a private layout
    no device shares). Declaring it and using it inside a kernel still works."""
    from sarek import Vec, kernel
    from sarek.analysis.layout import LayoutError
    from sarek.gpu import global_thread_id

    @variant
    class Opt:
        Some: f32
        Nothing: ()

    @record
    class Cell:
        v: Opt
        w: f32

    with pytest.raises(LayoutError, match="variants are laid out only at the top level"):
        _ = Cell.dtype

    @kernel
    def use_cell(out: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            c = Cell(Opt.Some(f32(i)), 2.0)
            match c.v:
                case Opt.Some(x):
                    out[i] = x * c.w
                case _:
                    out[i] = 0.0

    out = np.zeros(8, np.float32)
    use_cell.launch(out, 8, grid=1, block=8, device="interp")
    np.testing.assert_array_equal(out, 2.0 * np.arange(8, dtype=np.float32))
