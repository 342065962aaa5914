// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// print: a format whose `{}` take the scalar values in order (`{{`/`}}` are braces); no values, ints,
// floats and bools; the 8/16-bit, unsigned and bf16 scalars too (the front end's `print(u8(x))` was an
// internal error: fuzz).
sarek.kernel @prints(%n : i32 "n", %x : f32 "x", %c : i1 "c", %l : i64 "l", %d : f64 "d") {
  sarek.print "hello\0A"()
  sarek.print "n = {} x = {} c = {}\0A"(%n, %x, %c) : i32, f32, i1
  sarek.print "{{}} {} {}"(%l, %d) : i64, f64
}
sarek.kernel @narrow(%a : ui8 "a", %b : i16 "b", %c : ui64 "c", %d : bf16 "d") {
  sarek.print "{} {} {} {}"(%a, %b, %c, %d) : ui8, i16, ui64, bf16
}
// CHECK:      sarek.kernel @prints(%n: i32 "n", %x: f32 "x", %c: i1 "c", %l: i64 "l", %d: f64 "d") {
// CHECK-NEXT:   sarek.print "hello\0A"()
// CHECK-NEXT:   sarek.print "n = {{[{][}]}} x = {{[{][}]}} c = {{[{][}]}}\0A"(%n, %x, %c) : i32, f32, i1
// CHECK-NEXT:   sarek.print "{{[{][{][}][}] [{][}] [{][}]}}"(%l, %d) : i64, f64
// CHECK-NEXT: }
// CHECK:      sarek.kernel @narrow(%a: ui8 "a", %b: i16 "b", %c: ui64 "c", %d: bf16 "d") {
// CHECK-NEXT:   sarek.print "{{[{][}] [{][}] [{][}] [{][}]}}"(%a, %b, %c, %d) : ui8, i16, ui64, bf16
// CHECK-NEXT: }
