"""5. variants: area of circles and squares from a variant vector, through a helper matching payloads;
a statement match, a nullary constructor and a catch-all."""

import numpy as np

from sarek import Vec, device, f32, i32, kernel, variant
from sarek.frontend.corpus import Case
from sarek.gpu import global_thread_id

PI = 3.14159265


@variant
class Shape:
    Circle: f32
    Square: f32
    Rect: (f32, f32)
    Empty: ()


@device
def area(s: Shape) -> f32:
    match s:
        case Shape.Circle(r):
            return PI * r * r
        case Shape.Square(c):
            return c * c
        case Shape.Rect(w, h):
            return w * h
        case _:
            return 0.0


@kernel
def dispatch(shapes: Vec[Shape], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = area(shapes[i])


@kernel
def perimeter(shapes: Vec[Shape], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = 0.0
        match shapes[i]:
            case Shape.Circle(r):
                p = 2.0 * PI * r
            case Shape.Square(c):
                p = 4.0 * c
            case Shape.Rect(w, h):
                p = 2.0 * (w + h)
            case Shape.Empty():
                p = -1.0
        out[i] = p


def _values(n):
    rng = np.random.default_rng(6)
    out = []
    for i in range(n):
        k = i % 4
        a, b = float(rng.random()), float(rng.random())
        out.append([Shape.Circle(a), Shape.Square(a), Shape.Rect(a, b), Shape.Empty()][k])
    return out


def _args(n):
    return (Shape.pack(_values(n)), np.zeros(n, np.float32), n)


def _area(v):
    return {"Circle": lambda r: np.float32(PI) * np.float32(r) * np.float32(r), "Square": lambda c: c * c,
            "Rect": lambda w, h: w * h, "Empty": lambda: 0.0}[v.ctor](*v.payload)


def _perim(v):
    return {"Circle": lambda r: 2 * PI * r, "Square": lambda c: 4 * c, "Rect": lambda w, h: 2 * (w + h),
            "Empty": lambda: -1.0}[v.ctor](*v.payload)


CASES = [
    Case("dispatch", dispatch, _args, lambda a: {1: np.array([_area(v) for v in Shape.unpack(a[0])], np.float32)},
         n=400, features=frozenset({"variants"})),
    Case("perimeter", perimeter, _args,
         lambda a: {1: np.array([_perim(v) for v in Shape.unpack(a[0])], np.float32)}, n=400,
         features=frozenset({"variants"})),
]
