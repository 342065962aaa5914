// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// print: as many values as `{}` placeholders (doubled braces are text), scalar values only.

sarek.kernel @k(%n : i32 "n") {
  sarek.print "{} {}\0A"(%n) : i32
}
// CHECK: print format has 2 placeholder(s), 1 value(s) given

// -----

sarek.kernel @k(%n : i32 "n") {
  sarek.print "{{}}\0A"(%n) : i32
}
// CHECK: print format has 0 placeholder(s), 1 value(s) given

// -----

sarek.kernel @k(%a : !sarek.vec<f32> "a") {
  sarek.print "{}\0A"(%a) : !sarek.vec<f32>
}
// CHECK: print takes scalar values, got !sarek.vec<f32>
