# RUN: sarek ir %s:areas | filecheck %s

from sarek import Vec, device, f32, i32, kernel, record, variant
from sarek import math as sm
from sarek.gpu import global_thread_id


@record
class Point:
    x: f32
    y: f32


@variant
class Shape:
    Circle: f32
    Rect: (f32, f32)
    Empty: ()


@device
def area(s: Shape) -> f32:
    match s:
        case Shape.Circle(r):
            return 3.0 * r * r
        case Shape.Rect(w, h):
            return w * h
        case _:
            return 0.0


@device
def norm(p: Point) -> f32:
    return sm.sqrt(p.x * p.x + p.y * p.y)


@kernel
def areas(shapes: Vec[Shape], pts: Vec[Point], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = pts[i]
        p.x += 1.0
        pts[i].y = norm(p)
        out[i] = area(shapes[i])

# declarations first, then helpers in call order, then the kernel
# CHECK:      sarek.variant @Shape {Circle(f32), Rect(f32, f32), Empty}
# CHECK-NEXT: sarek.record @Point {x : f32, y : f32}
# CHECK-NEXT: sarek.helper @norm(%p: !sarek.record<@Point> "p") -> f32 {
# CHECK:        sarek.intrinsic "sqrt"
# CHECK:        sarek.return %{{.*}} : f32
# CHECK:      sarek.helper @area(%s: !sarek.variant<@Shape> "s") -> f32 {
# CHECK-NEXT:   sarek.match %s : !sarek.variant<@Shape> {
# CHECK-NEXT:     case "Circle"(%{{.*}}: f32 "r") {
# CHECK:          case "Rect"(%{{.*}}: f32 "w", %{{.*}}: f32 "h") {
# CHECK:          default {
# CHECK:      sarek.kernel @areas(
# a record local whose field is assigned is a mutable copy
# CHECK:        %p = sarek.let_mut "p" %{{.*}} : !sarek.record<@Point>
# CHECK-NEXT:   %[[F:.*]] = sarek.field_ref %p "x" : !sarek.ref<f32>
# CHECK:        sarek.call @norm(%{{.*}}) : (!sarek.record<@Point>) -> f32
# CHECK:        %[[E:.*]] = sarek.elem_ref %pts[%i] : !sarek.vec<!sarek.record<@Point>>
# CHECK-NEXT:   %{{.*}} = sarek.field_ref %[[E]] "y" : !sarek.ref<f32>
# CHECK:        sarek.call @area(
