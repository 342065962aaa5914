// RUN: sarek-opt %s -t wgsl --verify-diagnostics --split-input-file | filecheck %s

// The capability table's refusals, reported as located diagnostics.
sarek.kernel @k(%v : !sarek.vec<f64> "v") {
}
// CHECK: error: WGSL: float64 not yet supported

// -----

sarek.kernel @k(%v : !sarek.vec<i64> "v") {
}
// CHECK: error: WGSL: int64 not yet supported

// -----

sarek.record @half_pair {a : f32, b : f16}
sarek.kernel @k(%v : !sarek.vec<!sarek.record<@half_pair>> "v") {
}
// CHECK: error: WGSL: record 'half_pair' has an f16 field, which WGSL stores as its 16 bits only in vectors and arrays; make the field f32, or u16 holding the bits

// -----

sarek.kernel @k() {
  sarek.mem_fence
}
// CHECK: error: WGSL: {{.*}}not yet supported

// -----

sarek.record @pt {x : f32, b : i1}
sarek.kernel @k(%p : !sarek.record<@pt> "p") {
}
// CHECK: error: WGSL: parameter 'p': a record/variant passed by value on wgsl must hold only i32/f32 fields
