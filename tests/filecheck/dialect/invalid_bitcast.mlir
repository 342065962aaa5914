// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// sarek.bitcast: both types are i32, i64, f16, f32 or f64, of the same width.

sarek.kernel @k(%x : f32 "x") {
  %a = sarek.bitcast %x : f32 to i64
}
// CHECK: bitcast between f32 (32 bits) and i64 (64 bits): widths differ

// -----

sarek.kernel @k(%d : f64 "d") {
  %a = sarek.bitcast %d : f64 to f32
}
// CHECK: bitcast between f64 (64 bits) and f32 (32 bits): widths differ

// -----

sarek.kernel @k(%p : i1 "p") {
  %a = sarek.bitcast %p : i1 to i32
}
// CHECK: bitcast between i1 and i32: only i32, i64, f16, f32 and f64 reinterpret

// -----

sarek.kernel @k(%x : f32 "x") {
  %a = sarek.bitcast %x : f32 to ui8
}
// CHECK: bitcast between f32 and ui8: only i32, i64, f16, f32 and f64 reinterpret
