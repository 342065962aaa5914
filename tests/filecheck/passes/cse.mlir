// RUN: sarek-opt %s -p sarek-cse | filecheck %s

// Equal pure expressions merge where the first dominates: ids, arithmetic, constants, math; reads of memory
// and of variables do not; a value computed inside an `if` is not reused after it, one before it is.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    %g1 = sarek.intrinsic "global_thread_id"() : () -> i32
    %g2 = sarek.intrinsic "global_thread_id"() : () -> i32
    %c1 = sarek.constant 4 : i32
    %c2 = sarek.constant 4 : i32
    %m1 = sarek.binop mul %g1, %c1 : i32
    %m2 = sarek.binop mul %g2, %c2 : i32
    %r1 = sarek.array_read %a[%m1] : !sarek.vec<f32>
    %r2 = sarek.array_read %a[%m2] : !sarek.vec<f32>
    %s1 = sarek.intrinsic "sqrt"(%r1) : (f32) -> f32
    %s2 = sarek.intrinsic "sqrt"(%r1) : (f32) -> f32
    %lt = sarek.binop lt %g1, %n : i32
    sarek.if %lt {
      %m3 = sarek.binop mul %g2, %c2 : i32
      %in = sarek.binop add %m3, %n : i32
      %e = sarek.elem_ref %a[%in] : !sarek.vec<f32>
      sarek.store %e, %s2 : !sarek.ref<f32>
    }
    %in2 = sarek.binop add %m2, %n : i32
    %e2 = sarek.elem_ref %a[%in2] : !sarek.vec<f32>
    %v = sarek.binop add %r2, %s1 : f32
    sarek.store %e2, %v : !sarek.ref<f32>
  }
}
// CHECK:      %g1 = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT: %c1 = sarek.constant 4 : i32
// CHECK-NEXT: %m1 = sarek.binop mul %g1, %c1 : i32
// CHECK-NEXT: %r1 = sarek.array_read %a[%m1]
// CHECK-NEXT: %r2 = sarek.array_read %a[%m1]
// CHECK-NEXT: %s1 = sarek.intrinsic "sqrt"(%r1)
// CHECK-NEXT: %lt = sarek.binop lt %g1, %n
// CHECK-NEXT: sarek.if %lt {
// CHECK-NEXT:   %in = sarek.binop add %m1, %n : i32
// CHECK-NEXT:   %e = sarek.elem_ref %a[%in]
// CHECK-NEXT:   sarek.store %e, %s1
// CHECK-NEXT: }
// CHECK-NEXT: %in2 = sarek.binop add %m1, %n : i32
