// RUN: sarek-opt %s -t glsl --verify-diagnostics --split-input-file | filecheck %s

// The capability table's refusals, reported as located diagnostics.
sarek.kernel @k(%v : !sarek.vec<f16> "v") {
}
// CHECK: error: GLSL: float16 not yet supported

// -----

sarek.kernel @k(%v : !sarek.vec<f64> "v") {
  %z = sarek.constant 0 : i32
  %one = sarek.constant 1.0 : f64
  %o = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<f64>, i32, f64) -> f64
}
// CHECK: error: GLSL: {{.*}}GLSL atomics are 32-bit

// -----

sarek.helper @f(%x : i32 "x") -> i32 {
  %r = sarek.call @f(%x) : (i32) -> i32
  sarek.return %r : i32
}
sarek.kernel @k(%n : i32 "n") {
  %r = sarek.call @f(%n) : (i32) -> i32
}
// CHECK: error: {{.*}}recursi
