// RUN: sarek-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Where a parse error of the custom syntax points: at the offending text (line:column, then the caret
// under it), not at the token after it (which may be on the next line).

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.unop neg %a : f32
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:28
// CHECK-NEXT:   %r = sarek.unop neg %a : f32
// CHECK-NEXT:                            ^^^
// CHECK-NEXT:                            operand has type i32, not f32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.cast %a : i64 to f32
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:24
// CHECK-NEXT:   %r = sarek.cast %a : i64 to f32
// CHECK-NEXT:                        ^^^
// CHECK-NEXT:                        operand has type i32, not i64

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %x = sarek.let "x" %v : !sarek.vec<i32>   // a trailing comment is not part of the type
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:27
// CHECK-NEXT:   %x = sarek.let "x" %v : !sarek.vec<i32>   // a trailing comment is not part of the type
// CHECK-NEXT:                           ^^^^^^^^^^^^^^^
// CHECK-NEXT:                           operand has type !sarek.vec<f32>, not !sarek.vec<i32>

// -----

sarek.kernel @k(%a : i32 "a", %b : i64 "b") {
  %r = sarek.binop add %a, %b : i32
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:33
// CHECK-NEXT:   %r = sarek.binop add %a, %b : i32
// CHECK-NEXT:                                 ^^^
// CHECK-NEXT:                                 operands have types i32 and i64, not i32

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.let_mut "r" %a : f32
  sarek.store %r, %a : !sarek.ref<f64>
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:24
// CHECK-NEXT:   sarek.store %r, %a : !sarek.ref<f64>
// CHECK-NEXT:                        ^^^^^^^^^^^^^^^
// CHECK-NEXT:                        place has type !sarek.ref<f32>, not !sarek.ref<f64>

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i64 "i") {
  %x = sarek.array_read %v[%i] : !sarek.vec<f32>
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:27
// CHECK-NEXT:   %x = sarek.array_read %v[%i] : !sarek.vec<f32>
// CHECK-NEXT:                           ^^^^
// CHECK-NEXT:                           index has type i64, not i32

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i64 "i") {
  %x = sarek.array_read %v[%i] : !sarek.vec<f32>, i32
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:51
// CHECK-NEXT:   %x = sarek.array_read %v[%i] : !sarek.vec<f32>, i32
// CHECK-NEXT:                                                   ^^^
// CHECK-NEXT:                                                   index has type i64, not i32

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.intrinsic "sqrt"(%a) : (f64) -> f64
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:37
// CHECK-NEXT:   %r = sarek.intrinsic "sqrt"(%a) : (f64) -> f64
// CHECK-NEXT:                                     ^^^^^^^^^^^^
// CHECK-NEXT:                                     operand types do not match the function type

// -----

sarek.helper @h(%a : f32 "a") -> f32 {
  sarek.return %a : f64
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:21
// CHECK-NEXT:   sarek.return %a : f64
// CHECK-NEXT:                     ^^^
// CHECK-NEXT:                     operand has type f32, not f64

// -----

sarek.kernel @k() {
  %c = sarek.constant -2147483649 : i32
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:23
// CHECK-NEXT:   %c = sarek.constant -2147483649 : i32
// CHECK-NEXT:                       ^^^^^^^^^^^
// CHECK-NEXT:                       integer constant -2147483649 does not fit i32

// -----

sarek.kernel @k() {
  %c = sarek.constant 1 : !sarek.unit
}
// CHECK:      invalid_syntax_locations.mlir:[[# @LINE - 2]]:27
// CHECK-NEXT:   %c = sarek.constant 1 : !sarek.unit
// CHECK-NEXT:                           ^^^^^^^^^^^
// CHECK-NEXT:                           constant of type !sarek.unit is not supported
