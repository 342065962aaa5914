// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// sarek.intrinsic: known names, arity, operand types, result type, atomics not on local arrays.

sarek.kernel @k() {
  %r = sarek.intrinsic "thread_idx_w"() : () -> i32
}
// CHECK: unknown intrinsic 'thread_idx_w'

// -----

sarek.kernel @k(%x : f32 "x") {
  %r = sarek.intrinsic "sqrt"(%x, %x) : (f32, f32) -> f32
}
// CHECK: intrinsic 'sqrt' expects 1 operand(s), got 2

// -----

sarek.kernel @k(%x : f32 "x") {
  %r = sarek.intrinsic "thread_idx_x"(%x) : (f32) -> i32
}
// CHECK: intrinsic 'thread_idx_x' expects 0 operand(s), got 1

// -----

sarek.kernel @k(%x : i32 "x") {
  %r = sarek.intrinsic "sqrt"(%x) : (i32) -> i32
}
// CHECK: intrinsic 'sqrt' expects 1 operand(s) of one float type, got (i32)

// -----

sarek.kernel @k(%x : f32 "x", %y : f64 "y") {
  %r = sarek.intrinsic "pow"(%x, %y) : (f32, f64) -> f32
}
// CHECK: intrinsic 'pow' expects 2 operand(s) of one float type, got (f32, f64)

// -----

sarek.kernel @k(%x : i1 "x") {
  %r = sarek.intrinsic "abs"(%x) : (i1) -> i1
}
// CHECK: intrinsic 'abs' expects 1 operand(s) of one numeric type, got (i1)

// -----

sarek.kernel @k(%x : i32 "x", %y : i64 "y") {
  %r = sarek.intrinsic "min"(%x, %y) : (i32, i64) -> i32
}
// CHECK: intrinsic 'min' expects 2 operand(s) of one numeric type, got (i32, i64)

// -----

sarek.kernel @k(%x : f32 "x") {
  %r = sarek.intrinsic "popcount"(%x) : (f32) -> i32
}
// CHECK: intrinsic 'popcount' expects an integer operand, got f32

// -----

sarek.kernel @k(%x : f32 "x") {
  %r = sarek.intrinsic "sqrt"(%x) : (f32) -> f64
}
// CHECK: intrinsic 'sqrt' returns f32, not f64

// -----

sarek.kernel @k() {
  %r = sarek.intrinsic "thread_idx_x"() : () -> i64
}
// CHECK: intrinsic 'thread_idx_x' returns i32, not i64

// -----

sarek.kernel @k() {
  sarek.intrinsic "thread_idx_x"() : () -> ()
}
// CHECK: intrinsic 'thread_idx_x' returns i32, not nothing

// -----

sarek.kernel @k(%x : f32 "x") {
  %r, %s = sarek.intrinsic "sqrt"(%x) : (f32) -> (f32, f32)
}
// CHECK: intrinsic 'sqrt' returns f32, not f32, f32

// -----

sarek.kernel @k(%x : i32 "x") {
  %r = sarek.intrinsic "atomic_add"(%x, %x, %x) : (i32, i32, i32) -> i32
}
// CHECK: intrinsic 'atomic_add' expects a vector or array as first operand, got i32

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v", %i : i32 "i", %x : f16 "x") {
  %r = sarek.intrinsic "atomic_add"(%v, %i, %x) : (!sarek.vec<f16>, i32, f16) -> f16
}
// CHECK: intrinsic 'atomic_add' expects an i32, i64, u32, u64, f32 or f64 element type, got f16

// -----

sarek.kernel @k(%v : !sarek.vec<i32> "v", %i : i64 "i", %x : i32 "x") {
  %r = sarek.intrinsic "atomic_max"(%v, %i, %x) : (!sarek.vec<i32>, i64, i32) -> i32
}
// CHECK: intrinsic 'atomic_max' expects an i32 index, got i64

// -----

sarek.kernel @k(%v : !sarek.vec<i32> "v", %i : i32 "i", %x : i64 "x") {
  %r = sarek.intrinsic "atomic_cas"(%v, %i, %x, %x) : (!sarek.vec<i32>, i32, i64, i64) -> i32
}
// CHECK: intrinsic 'atomic_cas' expects value operands of the element type i32, got i64

// -----

sarek.kernel @k(%v : !sarek.vec<i32> "v", %i : i32 "i") {
  %r = sarek.intrinsic "atomic_inc"(%v, %i) : (!sarek.vec<i32>, i32) -> i64
}
// CHECK: intrinsic 'atomic_inc' returns i32, not i64

// -----

sarek.kernel @k(%i : i32 "i") {
  %l = sarek.alloc_array "l"[%i] : !sarek.array<i32, local>
  %r = sarek.intrinsic "atomic_add"(%l, %i, %i) : (!sarek.array<i32, local>, i32, i32) -> i32
}
// CHECK: intrinsic 'atomic_add' on a local (private) array

// -----

sarek.kernel @k(%x : i1 "x", %i : i32 "i") {
  %r = sarek.intrinsic "warp_shuffle"(%x, %i) : (i1, i32) -> i1
}
// CHECK: intrinsic 'warp_shuffle' expects an i32, i64, f32 or f64 value, got i1

// -----

sarek.kernel @k(%x : f32 "x", %i : i64 "i") {
  %r = sarek.intrinsic "warp_shuffle_down"(%x, %i) : (f32, i64) -> f32
}
// CHECK: intrinsic 'warp_shuffle_down' expects an i32 lane operand, got i64

// -----

sarek.kernel @k(%x : ui32 "x") {
  %r = sarek.intrinsic "bit_reverse"(%x) : (ui32) -> ui32
}
// CHECK: intrinsic 'bit_reverse' expects an i32 or i64 operand, got ui32
