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
