// Plain xdsl-opt knows the sarek dialect and passes through the `xdsl.universe` entry point (pip install -e .).
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s --print-op-generic | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s -p sarek-order-type-decls | filecheck %s --check-prefix=PASS

builtin.module {
  sarek.kernel @k(%v : !sarek.vec<!sarek.record<@point>> "v", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %p = sarek.elem_ref %v[%g] : !sarek.vec<!sarek.record<@point>>
      %x = sarek.field_ref %p "x" : !sarek.ref<f32>
      %one = sarek.constant 1.0 : f32
      sarek.store %x, %one : !sarek.ref<f32>
    }
  }
  sarek.record @point {x : f32, y : f32}
}

// CHECK:      sarek.kernel @k(%v: !sarek.vec<!sarek.record<@point>> "v", %n: i32 "n") {
// CHECK-NEXT:   %g = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT:   %lt = sarek.binop lt %g, %n : i32
// CHECK-NEXT:   sarek.if %lt {
// CHECK-NEXT:     %p = sarek.elem_ref %v[%g] : !sarek.vec<!sarek.record<@point>>
// CHECK-NEXT:     %x = sarek.field_ref %p "x" : !sarek.ref<f32>
// CHECK-NEXT:     %one = sarek.constant 1.0 : f32
// CHECK-NEXT:     sarek.store %x, %one : !sarek.ref<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: sarek.record @point {x : f32, y : f32}

// The sarek passes are registered too (what the pass does is tested in tests/filecheck/passes).
// PASS-DAG: sarek.record @point {x : f32, y : f32}
// PASS-DAG: sarek.kernel @k(
