// RUN: sarek-opt %s -t glsl --verify-diagnostics --split-input-file | filecheck %s

// The capability table's refusals, reported as located diagnostics.
sarek.variant @maybe_half {Half(f16), Nothing}
sarek.kernel @k(%v : !sarek.vec<!sarek.variant<@maybe_half>> "v") {
}
// CHECK: error: GLSL: variant 'maybe_half' has an f16 payload, which GLSL cannot store; make the payload f32

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
