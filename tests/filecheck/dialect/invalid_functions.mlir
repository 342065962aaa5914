// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Kernels, helpers, parameters, calls and returns.

sarek.kernel @""() {
}
// CHECK: kernel name must not be empty

// -----

sarek.helper @""() -> !sarek.unit {
}
// CHECK: helper name must not be empty

// -----

sarek.kernel @k(%a : i32 "") {
}
// CHECK: parameter name must not be empty

// -----

"sarek.kernel"() <{sym_name = "k", param_names = ["a"]}> ({
^bb0(%a: i32, %b: i32):
}) : () -> ()
// CHECK: kernel @k has 2 parameters but 1 parameter names

// -----

sarek.helper @h(%a : i32 "a", %b : i32 "") -> !sarek.unit {
}
// CHECK: parameter name must not be empty

// -----

sarek.kernel @k(%a : !sarek.array<f32, shared> "a") {
}
// CHECK: kernel parameter 'a' has type !sarek.array<f32, shared>; kernel parameters are scalars, records, variants or vectors

// -----

sarek.kernel @k(%u : !sarek.unit "u") {
}
// CHECK: kernel parameter 'u' has type !sarek.unit; kernel parameters are scalars, records, variants or vectors

// -----

sarek.kernel @k(%r : !sarek.ref<i32> "r") {
}
// CHECK: kernel parameter 'r' has type !sarek.ref<i32>; kernel parameters are scalars, records, variants or vectors

// -----

sarek.helper @h(%r : !sarek.ref<i32> "r") -> !sarek.unit {
}
// CHECK: helper parameter 'r' has type !sarek.ref<i32>; helper parameters are scalars, records, variants, vectors or arrays

// -----

sarek.helper @h(%u : !sarek.unit "u") -> !sarek.unit {
}
// CHECK: helper parameter 'u' has type !sarek.unit; helper parameters are scalars, records, variants, vectors or arrays

// -----

sarek.helper @h() -> !sarek.vec<f32> {
}
// CHECK: helper @h returns !sarek.vec<f32>, not a scalar, record, variant or !sarek.unit

// -----

sarek.helper @h() -> !sarek.record<@nowhere> {
}
// CHECK: helper @h return has type !sarek.record<@nowhere>, but no sarek.record @nowhere is declared

// -----

sarek.kernel @k(%x : f32 "x") {
  sarek.return %x : f32
}
// CHECK: kernel @k returns nothing, the return gives f32

// -----

sarek.helper @h(%x : f32 "x") -> i32 {
  sarek.return %x : f32
}
// CHECK: helper @h returns i32, the return gives f32

// -----

sarek.helper @h(%x : f32 "x") -> !sarek.unit {
  sarek.return %x : f32
}
// CHECK: helper @h returns !sarek.unit, the return gives f32

// -----

sarek.helper @h(%c : i1 "c") -> i32 {
  sarek.if %c {
    sarek.return
  }
}
// CHECK: helper @h returns i32, the return gives nothing

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.call @missing(%x) : (f32) -> f32
}
// CHECK: @missing is not a sarek.helper

// -----

sarek.kernel @other() {
}
sarek.kernel @k() {
  sarek.call @other() : () -> ()
}
// CHECK: @other is not a sarek.helper

// -----

sarek.helper @h(%x : f32 "x", %y : f32 "y") -> f32 {
  sarek.return %x : f32
}
sarek.kernel @k(%x : f32 "x") {
  %r = sarek.call @h(%x) : (f32) -> f32
}
// CHECK: helper @h takes 2 argument(s), 1 given

// -----

sarek.helper @h(%x : f32 "x") -> f32 {
  sarek.return %x : f32
}
sarek.kernel @k(%i : i32 "i") {
  %r = sarek.call @h(%i) : (i32) -> f32
}
// CHECK: argument 0 of @h has type f32, given i32

// -----

sarek.helper @h(%x : f32 "x") -> f32 {
  sarek.return %x : f32
}
sarek.kernel @k(%x : f32 "x") {
  sarek.call @h(%x) : (f32) -> ()
}
// CHECK: helper @h returns f32

// -----

sarek.helper @h() -> !sarek.unit {
}
sarek.kernel @k() {
  %r = sarek.call @h() : () -> !sarek.unit
}
// CHECK: helper @h returns !sarek.unit

// -----

sarek.helper @h(%x : f32 "x") -> f32 {
  sarek.return %x : f32
}
sarek.kernel @k(%x : f32 "x") {
  %r = sarek.call @h(%x) : (f32) -> i32
}
// CHECK: helper @h returns f32
