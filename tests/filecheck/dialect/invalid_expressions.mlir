// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Constants, binop, unop and cast: operand and result types agree, and each kind applies to its types.

sarek.kernel @k() {
  %c = "sarek.constant"() <{value = 1 : i64}> : () -> i32
}
// CHECK: constant 1 : i64 does not fit result type i32

// -----

sarek.kernel @k() {
  %c = "sarek.constant"() <{value = 1.0 : f32}> : () -> i32
}
// CHECK: constant 1.000000e+00 : f32 does not fit result type i32

// -----

sarek.kernel @k() {
  %c = "sarek.constant"() <{value = 1.0 : f64}> : () -> f32
}
// CHECK: constant 1.000000e+00 : f64 does not fit result type f32

// -----

sarek.kernel @k() {
  %c = "sarek.constant"() <{value}> : () -> i32
}
// CHECK: constant unit does not fit result type i32

// -----

sarek.kernel @k() {
  %c = "sarek.constant"() <{value = 1 : i32}> : () -> !sarek.unit
}
// CHECK: constant 1 : i32 does not fit result type !sarek.unit

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = "sarek.binop"(%a, %a) <{kind = #sarek<binop_kind lt>}> : (i32, i32) -> i32
}
// CHECK: 'lt' on i32 gives i1, not i32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = "sarek.binop"(%a, %a) <{kind = #sarek<binop_kind add>}> : (i32, i32) -> i64
}
// CHECK: 'add' on i32 gives i32, not i64

// -----

sarek.kernel @k(%a : i32 "a", %b : f32 "b") {
  %r = "sarek.binop"(%a, %b) <{kind = #sarek<binop_kind add>}> : (i32, f32) -> i32
}
// CHECK: operand 'rhs' at position 1 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got f32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.binop and %a, %a : i32
}
// CHECK: 'and' needs i1 operands, got i32

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.binop or %a, %a : f32
}
// CHECK: 'or' needs i1 operands, got f32

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.binop shl %a, %a : f32
}
// CHECK: 'shl' needs i32, i64, ui32 or ui64 operands, got f32

// -----

sarek.kernel @k(%a : f64 "a") {
  %r = sarek.binop rem %a, %a : f64
}
// CHECK: 'rem' needs i32, i64, ui32 or ui64 operands, got f64

// -----

sarek.kernel @k(%a : i1 "a") {
  %r = sarek.binop bitxor %a, %a : i1
}
// CHECK: 'bitxor' needs i32, i64, ui32 or ui64 operands, got i1

// -----

sarek.record @p {x : i32}
sarek.kernel @k(%a : !sarek.record<@p> "a") {
  %r = sarek.binop eq %a, %a : !sarek.record<@p>
}
// CHECK: 'eq' needs scalar operands, got !sarek.record<@p>

// -----

sarek.kernel @k(%a : i1 "a") {
  %r = sarek.binop lt %a, %a : i1
}
// CHECK: 'lt' needs numeric operands, got i1

// -----

sarek.kernel @k(%a : i1 "a") {
  %r = sarek.binop add %a, %a : i1
}
// CHECK: 'add' needs numeric operands, got i1

// -----

sarek.kernel @k(%a : i1 "a") {
  %r = sarek.unop neg %a : i1
}
// CHECK: 'neg' cannot apply to i1

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.unop not %a : i32
}
// CHECK: 'not' cannot apply to i32

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.unop bitnot %a : f32
}
// CHECK: 'bitnot' cannot apply to f32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = "sarek.unop"(%a) <{kind = #sarek<unop_kind neg>}> : (i32) -> i64
}
// CHECK: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64

// -----

sarek.kernel @k(%a : !sarek.vec<ui8> "a", %i : i32 "i") {
  %x = sarek.array_read %a[%i] : !sarek.vec<ui8>
  %r = sarek.binop add %x, %x : ui8
}
// CHECK: 'add' needs numeric operands, got ui8 (arithmetic on ui8 is done in i32: cast the operands first)

// -----

sarek.kernel @k(%a : bf16 "a") {
  %r = sarek.unop neg %a : bf16
}
// CHECK: 'neg' cannot apply to bf16 (arithmetic on bf16 is done in f32: cast the operands first)

// -----

sarek.record @p {x : i32}
sarek.kernel @k(%a : !sarek.record<@p> "a") {
  %r = sarek.cast %a : !sarek.record<@p> to i32
}
// CHECK: cast between !sarek.record<@p> and i32: only scalar types convert

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.cast %a : i32 to !sarek.unit
}
// CHECK: cast between i32 and !sarek.unit: only scalar types convert

// -----

// An integer division or remainder by the constant 0 is refused (the front end reports it at the Python line;
// here it is the op's verifier): no device gives a defined answer.
sarek.kernel @k(%a : i32 "a") {
  %z = sarek.constant 0 : i32
  %q = sarek.binop div %a, %z : i32
}
// CHECK: integer division by the constant 0: undefined on every device (the interpreter stops, GPUs give an arbitrary value); test the divisor, or divide by a non-zero value

// -----

sarek.kernel @k(%a : ui64 "a") {
  %z = sarek.constant 0 : ui64
  %r = sarek.binop rem %a, %z : ui64
}
// CHECK: integer remainder by the constant 0: undefined on every device

// -----

// A float division by 0.0 is IEEE's (an infinity or NaN), not refused.
sarek.kernel @k(%a : f32 "a", %o : !sarek.vec<f32> "o") {
  %z = sarek.constant 0.0 : f32
  %i = sarek.constant 0 : i32
  %q = sarek.binop div %a, %z : f32
  %p = sarek.elem_ref %o[%i] : !sarek.vec<f32>
  sarek.store %p, %q : !sarek.ref<f32>
}
// CHECK: %q = sarek.binop div %a, %z : f32
