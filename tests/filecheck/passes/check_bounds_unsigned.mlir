// RUN: sarek-opt %s -p 'sarek-check-bounds' | filecheck %s

// Debug mode checks an integer `//` and `%` by a run-time divisor whatever its signedness: u32 and u64 as
// well as i32 and i64 (a zero divisor is reported and the division divides by 1 instead).
builtin.module {
  sarek.kernel @k(%o : !sarek.vec<ui32> "o", %w : !sarek.vec<ui64> "w", %a : ui32 "a", %d : ui32 "d", %b : ui64 "b", %e : ui64 "e") {
    %z = sarek.constant 0 : i32
    %q = sarek.binop div %a, %d : ui32 loc("k.py":4:9)
    %r = sarek.binop rem %b, %e : ui64 loc("k.py":5:9)
    %two = sarek.constant 2 : ui32
    %h = sarek.binop div %a, %two : ui32 loc("k.py":6:9)
    %p = sarek.elem_ref %o[%z] : !sarek.vec<ui32>
    sarek.store %p, %q : !sarek.ref<ui32>
    sarek.store %p, %h : !sarek.ref<ui32>
    %pw = sarek.elem_ref %w[%z] : !sarek.vec<ui64>
    sarek.store %pw, %r : !sarek.ref<ui64>
  }
}
// CHECK:      builtin.module attributes {sarek.debug_checks = [{{.*}}["k.py:4:9", "div", "integer division by zero"], ["k.py:5:9", "div", "integer modulo by zero"]{{.*}}]} {
// CHECK-NOT:  "k.py:6:9"
// CHECK:      sarek.binop ne %d, %{{.*}} : ui32
// CHECK:      %q = sarek.binop div %a, %{{.*}} : ui32
// CHECK:      sarek.binop ne %e, %{{.*}} : ui64
// CHECK:      %r = sarek.binop rem %b, %{{.*}} : ui64
// CHECK:      %h = sarek.binop div %a, %two : ui32
