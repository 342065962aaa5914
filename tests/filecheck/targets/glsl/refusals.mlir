// RUN: sarek-opt %s -t glsl --verify-diagnostics --split-input-file | filecheck %s

// The capability table's refusals, reported as located diagnostics.
sarek.kernel @k(%v : !sarek.vec<f16> "v") {
}
// CHECK: error: GLSL: float16 not yet supported

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %z = sarek.constant 0 : i32
  %one = sarek.constant 1.0 : f32
  %o = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<f32>, i32, f32) -> f32
}
// CHECK: error: GLSL: atomics on floats not yet supported

// -----

sarek.helper @f(%x : i32 "x") -> i32 {
  %r = sarek.call @f(%x) : (i32) -> i32
  sarek.return %r : i32
}
sarek.kernel @k(%n : i32 "n") {
  %r = sarek.call @f(%n) : (i32) -> i32
}
// CHECK: error: {{.*}}recursi

// -----

sarek.kernel @k(%v : !sarek.vec<f64> "v") {
  %z = sarek.constant 0 : i32
  %x = sarek.array_read %v[%z] : !sarek.vec<f64>
  %s = sarek.intrinsic "pow"(%x, %x) : (f64, f64) -> f64
  %p = sarek.elem_ref %v[%z] : !sarek.vec<f64>
  sarek.store %p, %s : !sarek.ref<f64>
}
// CHECK: error: GLSL: 'pow' on f64 not yet supported — the sarek math library has no double-precision pow
