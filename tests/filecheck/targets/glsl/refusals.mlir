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
