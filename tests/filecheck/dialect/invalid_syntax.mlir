// RUN: sarek-opt %s --parsing-diagnostics --verify-diagnostics --split-input-file | filecheck %s

// Errors the custom syntax reports while parsing (types written after an operand must be its type).

sarek.kernel @k() {
  %c = sarek.constant 1.5 : i32
}
// CHECK: integer constant expected for type i32

// -----

sarek.kernel @k() {
  %c = sarek.constant 2147483648 : i32
}
// CHECK: integer constant 2147483648 does not fit i32

// -----

sarek.kernel @k() {
  %c = sarek.constant 2 : i1
}
// CHECK: integer constant 2 does not fit i1

// -----

sarek.kernel @k() {
  %c = sarek.constant 1.0e40 : f32
}
// CHECK: float constant 1e+40 does not fit f32

// -----

sarek.kernel @k() {
  %c = sarek.constant 0x1FFFF : f16
}
// CHECK: hexadecimal constant does not fit f16

// -----

sarek.kernel @k() {
  %c = sarek.constant 1 : !sarek.unit
}
// CHECK: constant of type !sarek.unit is not supported

// -----

sarek.kernel @k(%a : i32 "a", %b : i64 "b") {
  %r = sarek.binop add %a, %b : i32
}
// CHECK: operands have types i32 and i64, not i32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.binop frob %a, %a : i32
}
// CHECK: Expected `add`, `sub`, `mul`, `div`, `rem`, `eq`, `ne`, `lt`, `le`, `gt`, `ge`, `and`, `or`, `shl`, `shr`, `bitand`, `bitor`, or `bitxor`.

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.unop neg %a : f32
}
// CHECK: operand has type i32, not f32

// -----

sarek.kernel @k(%a : i32 "a") {
  %r = sarek.cast %a : i64 to f32
}
// CHECK: operand has type i32, not i64

// -----

sarek.kernel @k(%a : f32 "a") {
  %r = sarek.intrinsic "sqrt"(%a) : (f64) -> f64
}
// CHECK: operand types do not match the function type

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i") {
  %x = sarek.array_read %v[%i] : !sarek.vec<f64>
}
// CHECK: array operand has type !sarek.vec<f32>, not !sarek.vec<f64>

// -----

sarek.kernel @k(%x : f32 "x", %i : i32 "i") {
  %y = sarek.array_read %x[%i] : f32
}
// CHECK: expected a vector or array type, got f32

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i64 "i") {
  %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
}
// CHECK: index has type i64, not i32

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %n = sarek.array_len %v : !sarek.vec<i32>
}
// CHECK: operand has type !sarek.vec<f32>, not !sarek.vec<i32>

// -----

sarek.kernel @k(%n : i32 "n") {
  %a = sarek.alloc_array "a"[%n] : !sarek.vec<f32>
}
// CHECK: expected !sarek.array type, got !sarek.vec<f32>

// -----

sarek.kernel @k(%n : i32 "n") {
  %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, private>
}
// CHECK: Expected `global`, `shared`, `local`, or `constant`.

// -----

sarek.helper @h(%x : f32 "x") -> f32 {
  sarek.return %x : f32
}
sarek.kernel @k(%x : f32 "x") {
  %r = sarek.call @h(%x) : (i32) -> f32
}
// CHECK: operand types do not match the function type

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let "y" %x : f64
}
// CHECK: operand has type f32, not f64

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let_mut "y" %x : i32
}
// CHECK: operand has type f32, not i32

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let_mut "y" %x : f32
  %v = sarek.load %y : f32
}
// CHECK: operand has type !sarek.ref<f32>, not f32

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let_mut "y" %x : f32
  sarek.store %y, %x : !sarek.ref<f64>
}
// CHECK: place has type !sarek.ref<f32>, not !sarek.ref<f64>

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%p : !sarek.record<@point> "p") {
  %m = sarek.let_mut "m" %p : !sarek.record<@point>
  %f = sarek.field_ref %m "x" : f32
}
// CHECK: field_ref gives a !sarek.ref type, got f32

// -----

sarek.kernel @k(%c : i1 "c", %x : f32 "x") {
  %r = sarek.if_expr %c -> f32 {
    sarek.yield %x : f64
  } else {
    sarek.yield %x : f32
  }
}
// CHECK: operand has type f32, not f64

// -----

sarek.variant @shape {Circle(f32)}
sarek.variant @opt {None}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@opt> {
    default {
    }
  }
}
// CHECK: scrutinee has type !sarek.variant<@shape>, not !sarek.variant<@opt>

// -----

sarek.variant @shape {Circle(f32)}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  sarek.match %s : !sarek.variant<@shape> {
    other {
    }
  }
}
// CHECK: Expected 'case'

// -----

sarek.variant @shape {Circle(f32)}
sarek.variant @opt {None}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.match_expr %s : !sarek.variant<@opt> -> i1 {
    default {
      %t = sarek.constant true
      sarek.yield %t : i1
    }
  }
}
// CHECK: scrutinee has type !sarek.variant<@shape>, not !sarek.variant<@opt>

// -----

sarek.helper @h(%x : f32 "x") -> f32 {
  sarek.return %x : i32
}
// CHECK: operand has type f32, not i32

// -----

sarek.kernel @k() {
  sarek.native {cuda = 1 : i32}
}
// CHECK: native text for 'cuda' must be a string

// -----

sarek.kernel @k() {
  sarek.coopmat_decl "fa" a 16by16 : f16
}
// CHECK: expected ROWSxCOLS

// -----

sarek.kernel @k(%v : !sarek.vec<f16> "v", %i : i32 "i") {
  sarek.coopmat_decl "fa" a 16x16 : f16
  sarek.coopmat_load "fa" from %v[%i] stride %i : !sarek.vec<f32>
}
// CHECK: buffer has type !sarek.vec<f16>, not !sarek.vec<f32>

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let "y" %undefined : f32
}
// CHECK: SSA value used before assignment

// -----

sarek.kernel @k() {
  sarek.pragma [1] {
  }
}
// CHECK: pragma hints must be an array of strings, got [1 : i64]

// -----

sarek.variant @v {A(i32)}
sarek.kernel @k(%s : !sarek.variant<@v> "s") {
  %p = sarek.payload %s "A" 0 path "A" : i32
}
// CHECK: payload path must be an array of strings, got "A"
