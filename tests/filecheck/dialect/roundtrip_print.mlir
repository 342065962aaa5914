// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// print: a format whose `{}` take the scalar values in order (`{{`/`}}` are braces); no values, ints,
// floats and bools.
sarek.kernel @prints(%n : i32 "n", %x : f32 "x", %c : i1 "c", %l : i64 "l", %d : f64 "d") {
  sarek.print "hello\0A"()
  sarek.print "n = {} x = {} c = {}\0A"(%n, %x, %c) : i32, f32, i1
  sarek.print "{{}} {} {}"(%l, %d) : i64, f64
}
// CHECK:      sarek.kernel @prints(%n: i32 "n", %x: f32 "x", %c: i1 "c", %l: i64 "l", %d: f64 "d") {
// CHECK-NEXT:   sarek.print "hello\0A"()
// CHECK-NEXT:   sarek.print "n = {{[{][}]}} x = {{[{][}]}} c = {{[{][}]}}\0A"(%n, %x, %c) : i32, f32, i1
// CHECK-NEXT:   sarek.print "{{[{][{][}][}] [{][}] [{][}]}}"(%l, %d) : i64, f64
// CHECK-NEXT: }
