// RUN: sarek-opt %s -p sarek-strip-asserts | filecheck %s

// An assert goes, and so do the values only it used (its comparison, a read, a load); a value something
// else also uses stays.
sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  %ok = sarek.binop gt %n, %z : i32
  sarek.assert %ok, "n must be positive"
  %m = sarek.let_mut "m" %n : i32
  %x = sarek.array_read %v[%z] : !sarek.vec<f32>
  %zf = sarek.constant 0.0 : f32
  %pos = sarek.binop ge %x, %zf : f32
  sarek.assert %pos, "v[0] >= 0"
  %mv = sarek.load %m : !sarek.ref<i32>
  %lt = sarek.binop lt %mv, %n : i32
  sarek.assert %lt, "m < n"
  %p = sarek.elem_ref %v[%z] : !sarek.vec<f32>
  sarek.store %p, %zf : !sarek.ref<f32>
}
// CHECK:      sarek.kernel @k(%v: !sarek.vec<f32> "v", %n: i32 "n") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   %m = sarek.let_mut "m" %n : i32
// CHECK-NEXT:   %zf = sarek.constant 0.0 : f32
// CHECK-NEXT:   %p = sarek.elem_ref %v[%z] : !sarek.vec<f32>
// CHECK-NEXT:   sarek.store %p, %zf : !sarek.ref<f32>
// CHECK-NEXT: }
