// RUN: sarek-opt %s -p 'sarek-widen-f16{target=glsl},sarek-canonicalize' | filecheck %s

// An f16 element copied as it is (read from f16 storage, stored into f16 storage) stores the bits it read:
// narrowing the widened value gives those bits back for every one of the 65536 patterns (NaN payloads
// included), so the round trip through f32 is dropped. A value computed from the read is still rounded.
builtin.module {
  sarek.kernel @copy(%x : !sarek.vec<f16> "x", %y : !sarek.vec<f16> "y") {
    %z = sarek.constant 0 : i32
    %o = sarek.constant 1 : i32
    %n = sarek.constant 64 : i32
    %sh = sarek.alloc_array "sh"[%n] : !sarek.array<f16, shared>
    %h = sarek.array_read %x[%z] : !sarek.vec<f16>
    %r = sarek.elem_ref %sh[%z] : !sarek.array<f16, shared>
    sarek.store %r, %h : !sarek.ref<f16>
    %g = sarek.load %r : !sarek.ref<f16>
    %p = sarek.elem_ref %y[%z] : !sarek.vec<f16>
    sarek.store %p, %g : !sarek.ref<f16>
    %d = sarek.binop add %g, %g : f16
    %q = sarek.elem_ref %y[%o] : !sarek.vec<f16>
    sarek.store %q, %d : !sarek.ref<f16>
  }
}
// CHECK:      %[[B:.*]] = sarek.array_read %x[%{{.*}}] : !sarek.vec<ui16>
// CHECK-NEXT: %[[R:.*]] = sarek.elem_ref %sh[%{{.*}}] : !sarek.array<ui16, shared>
// CHECK-NEXT: sarek.store %[[R]], %[[B]] : !sarek.ref<ui16>
// CHECK-NEXT: %[[G:.*]] = sarek.load %[[R]] : !sarek.ref<ui16>
// CHECK:      %[[P:.*]] = sarek.elem_ref %y[%{{.*}}] : !sarek.vec<ui16>
// CHECK-NEXT: sarek.store %[[P]], %[[G]] : !sarek.ref<ui16>
// CHECK:      sarek.binop add %{{.*}}, %{{.*}} : f32
// CHECK:      %[[S:.*]] = sarek.cast %{{.*}} : i32 to ui16
// CHECK-NEXT: sarek.store %{{.*}}, %[[S]] : !sarek.ref<ui16>
