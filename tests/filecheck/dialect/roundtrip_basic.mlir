// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

builtin.module {
  sarek.kernel @vector_add(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %a[%g] : !sarek.vec<f32>
      %p = sarek.elem_ref %a[%g] : !sarek.vec<f32>
      sarek.store %p, %x : !sarek.ref<f32>
    }
  }
}
// CHECK:      sarek.kernel @vector_add(%a: !sarek.vec<f32> "a", %n: i32 "n") {
// CHECK-NEXT:   %g = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT:   %lt = sarek.binop lt %g, %n : i32
// CHECK-NEXT:   sarek.if %lt {
// CHECK-NEXT:     %x = sarek.array_read %a[%g] : !sarek.vec<f32>
// CHECK-NEXT:     %p = sarek.elem_ref %a[%g] : !sarek.vec<f32>
// CHECK-NEXT:     sarek.store %p, %x : !sarek.ref<f32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
