// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Record and variant declarations, and the types that name them.

sarek.record @"" {x : i32}
// CHECK: record name must not be empty

// -----

sarek.record @r {"" : i32}
// CHECK: record field name must not be empty

// -----

sarek.record @r {x : i32, y : f32, x : f32}
// CHECK: record @r declares field 'x' twice

// -----

sarek.record @r {v : !sarek.vec<f32>}
// CHECK: record field 'v' has type !sarek.vec<f32>, not a scalar, record or variant

// -----

sarek.record @r {u : !sarek.unit}
// CHECK: record field 'u' has type !sarek.unit, not a scalar, record or variant

// -----

"sarek.record"() <{sym_name = "r", field_names = ["x", "y"], field_types = [i32]}> : () -> ()
// CHECK: record field names and types differ in number

// -----

sarek.variant @"" {A}
// CHECK: variant name must not be empty

// -----

sarek.variant @v {}
// CHECK: variant @v has no constructor

// -----

sarek.variant @v {"", B}
// CHECK: variant constructor name must not be empty

// -----

sarek.variant @v {A(i32), B, A}
// CHECK: variant @v declares constructor 'A' twice

// -----

sarek.variant @v {A(i32, !sarek.array<i32, shared>)}
// CHECK: constructor 'A' payload has type !sarek.array<i32, shared>, not a scalar, record or variant

// -----

"sarek.variant"() <{sym_name = "v", ctor_names = ["A", "B"], ctor_payloads = [[]]}> : () -> ()
// CHECK: variant constructor names and payloads differ in number

// -----

sarek.kernel @k(%v : !sarek.vec<!sarek.unit> "v") {
}
// CHECK: vector element must be a scalar, record or variant, got !sarek.unit

// -----

sarek.kernel @k(%v : !sarek.vec<!sarek.vec<f32>> "v") {
}
// CHECK: vector element must be a scalar, record or variant, got !sarek.vec<f32>

// -----

sarek.helper @h(%a : !sarek.array<!sarek.unit, local> "a") -> !sarek.unit {
}
// CHECK: array element must be a scalar, record or variant, got !sarek.unit

// -----

sarek.kernel @k(%v : !sarek.vec<si8> "v") {
}
// CHECK: vector element must be a scalar, record or variant, got si8

// -----

sarek.kernel @k(%p : !sarek.record<@point> "p") {
}
// CHECK: parameter 'p' has type !sarek.record<@point>, but no sarek.record @point is declared

// -----

sarek.kernel @k(%v : !sarek.vec<!sarek.variant<@shape>> "v") {
}
// CHECK: parameter 'v' has type !sarek.vec<!sarek.variant<@shape>>, but no sarek.variant @shape is declared

// -----

sarek.variant @shape {Circle(f32)}
sarek.kernel @k(%p : !sarek.record<@shape> "p") {
}
// CHECK: parameter 'p' has type !sarek.record<@shape>, but no sarek.record @shape is declared

// -----

sarek.record @r {x : !sarek.record<@missing>}
sarek.kernel @k(%p : !sarek.record<@r> "p") {
  %x = sarek.field %p "x" : !sarek.record<@missing>
}
// CHECK: value has type !sarek.record<@missing>, but no sarek.record @missing is declared

// -----

// Declarations, kernels and helpers live at module level.
sarek.kernel @k() {
  sarek.kernel @inner() {
  }
}
// CHECK: 'sarek.kernel' expects parent op 'builtin.module'

// -----

sarek.kernel @k() {
  sarek.record @r {x : i32}
}
// CHECK: 'sarek.record' expects parent op 'builtin.module'

// -----

sarek.helper @h() -> !sarek.unit {
  sarek.block {
    sarek.variant @v {A}
  }
}
// CHECK: 'sarek.variant' expects parent op 'builtin.module'

// -----

sarek.kernel @k() {
  sarek.helper @h() -> !sarek.unit {
  }
}
// CHECK: 'sarek.helper' expects parent op 'builtin.module'
