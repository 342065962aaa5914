// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// sarek.bitcast reinterprets a scalar's bits as a type of the same width, both ways and onto itself.
sarek.kernel @bitcasts(%i : i32 "i", %l : i64 "l", %h : f16 "h", %x : f32 "x", %d : f64 "d") {
  %a = sarek.bitcast %x : f32 to i32
  %b = sarek.bitcast %i : i32 to f32
  %c = sarek.bitcast %d : f64 to i64
  %e = sarek.bitcast %l : i64 to f64
  %f = sarek.bitcast %i : i32 to i32
  %g = sarek.bitcast %h : f16 to f16
}

// CHECK:      %a = sarek.bitcast %x : f32 to i32
// CHECK-NEXT: %b = sarek.bitcast %i : i32 to f32
// CHECK-NEXT: %c = sarek.bitcast %d : f64 to i64
// CHECK-NEXT: %e = sarek.bitcast %l : i64 to f64
// CHECK-NEXT: %f = sarek.bitcast %i : i32 to i32
// CHECK-NEXT: %g = sarek.bitcast %h : f16 to f16
