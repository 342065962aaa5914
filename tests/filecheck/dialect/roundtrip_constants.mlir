// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

sarek.kernel @constants() {
  %t = sarek.constant true
  %f = sarek.constant false
  %a = sarek.constant 42 : i32
  %b = sarek.constant -7 : i32
  %imin = sarek.constant -2147483648 : i32
  %imax = sarek.constant 2147483647 : i32
  %c = sarek.constant 9223372036854775807 : i64
  %d = sarek.constant -9223372036854775808 : i64
  %h = sarek.constant 1.5 : f16
  %hmax = sarek.constant 65500.0 : f16
  %x = sarek.constant 2.5 : f32
  %y = sarek.constant -0.25 : f32
  %z = sarek.constant 0.0 : f64
  %nz = sarek.constant -0.0 : f64
  %e1 = sarek.constant 2.5e-10 : f64
  %e2 = sarek.constant -1.0e+300 : f64
  %e3 = sarek.constant 1.0e-10 : f64
  %p = sarek.constant 0.333333333333 : f64
  %u = sarek.constant unit
}
// CHECK:      sarek.kernel @constants() {
// CHECK-NEXT:   %t = sarek.constant true
// CHECK-NEXT:   %f = sarek.constant false
// CHECK-NEXT:   %a = sarek.constant 42 : i32
// CHECK-NEXT:   %b = sarek.constant -7 : i32
// CHECK-NEXT:   %imin = sarek.constant -2147483648 : i32
// CHECK-NEXT:   %imax = sarek.constant 2147483647 : i32
// CHECK-NEXT:   %c = sarek.constant 9223372036854775807 : i64
// CHECK-NEXT:   %d = sarek.constant -9223372036854775808 : i64
// CHECK-NEXT:   %h = sarek.constant 1.5 : f16
// CHECK-NEXT:   %hmax = sarek.constant 65500.0 : f16
// CHECK-NEXT:   %x = sarek.constant 2.5 : f32
// CHECK-NEXT:   %y = sarek.constant -0.25 : f32
// CHECK-NEXT:   %z = sarek.constant 0.0 : f64
// CHECK-NEXT:   %nz = sarek.constant -0.0 : f64
// CHECK-NEXT:   %e1 = sarek.constant 2.5e-10 : f64
// CHECK-NEXT:   %e2 = sarek.constant -1.0e+300 : f64
// CHECK-NEXT:   %e3 = sarek.constant 1.0e-10 : f64
// CHECK-NEXT:   %p = sarek.constant 0.333333333333 : f64
// CHECK-NEXT:   %u = sarek.constant unit
// CHECK-NEXT: }

// -----

// Non-canonical spellings: an integer for a float type, 1/0 for i1, f16/f32 values rounded to their width.
// An f16 or f32 value prints as the shortest decimal that reads back as the same value at that width (not
// as the 17 digits of the f64 it converts to).
sarek.kernel @canonical() {
  %a = sarek.constant 3 : f32
  %b = sarek.constant 1 : i1
  %c = sarek.constant 0 : i1
  %d = sarek.constant 0.1 : f32
  %e = sarek.constant 1.0e5 : f64
  %f = sarek.constant 1.0e+20 : f32
  %g = sarek.constant 0.10000000149011612 : f32
  %h = sarek.constant 0.1 : f16
  %i = sarek.constant 65504.0 : f16
  %j = sarek.constant 16777217.0 : f32
  %k = sarek.constant 3.4028234663852886e+38 : f32
  %l = sarek.constant 1.0e-45 : f32
  %m = sarek.constant -0.0 : f32
  %n = sarek.constant 1.0e-10 : f32
  %o = sarek.constant 0.015625 : f16
  %p = sarek.constant 0.1 : f64
}
// CHECK:      sarek.kernel @canonical() {
// CHECK-NEXT:   %a = sarek.constant 3.0 : f32
// CHECK-NEXT:   %b = sarek.constant true
// CHECK-NEXT:   %c = sarek.constant false
// CHECK-NEXT:   %d = sarek.constant 0.1 : f32
// CHECK-NEXT:   %e = sarek.constant 100000.0 : f64
// CHECK-NEXT:   %f = sarek.constant 1.0e+20 : f32
// CHECK-NEXT:   %g = sarek.constant 0.1 : f32
// CHECK-NEXT:   %h = sarek.constant 0.1 : f16
// CHECK-NEXT:   %i = sarek.constant 65500.0 : f16
// CHECK-NEXT:   %j = sarek.constant 16777216.0 : f32
// CHECK-NEXT:   %k = sarek.constant 3.4028235e+38 : f32
// CHECK-NEXT:   %l = sarek.constant 1.0e-45 : f32
// CHECK-NEXT:   %m = sarek.constant -0.0 : f32
// CHECK-NEXT:   %n = sarek.constant 1.0e-10 : f32
// CHECK-NEXT:   %o = sarek.constant 0.01563 : f16
// CHECK-NEXT:   %p = sarek.constant 0.1 : f64
// CHECK-NEXT: }

// -----

// NaN and infinities print as the bit pattern of their type.
sarek.kernel @special() {
  %a = sarek.constant 0x7FC00000 : f32
  %b = sarek.constant 0x7F800000 : f32
  %c = sarek.constant 0xFF800000 : f32
  %d = sarek.constant 0x7FF8000000000000 : f64
  %e = sarek.constant 0xFFF0000000000000 : f64
  %f = sarek.constant 0x7C00 : f16
}
// CHECK:      sarek.kernel @special() {
// CHECK-NEXT:   %a = sarek.constant 0x7FC00000 : f32
// CHECK-NEXT:   %b = sarek.constant 0x7F800000 : f32
// CHECK-NEXT:   %c = sarek.constant 0xFF800000 : f32
// CHECK-NEXT:   %d = sarek.constant 0x7FF8000000000000 : f64
// CHECK-NEXT:   %e = sarek.constant 0xFFF0000000000000 : f64
// CHECK-NEXT:   %f = sarek.constant 0x7C00 : f16
// CHECK-NEXT: }
