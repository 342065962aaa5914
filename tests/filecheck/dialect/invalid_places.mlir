// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Binders and places: names, bound types, stores only to places and with the place's type.

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let "" %x : f32
}
// CHECK: let name must not be empty

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %y = sarek.let "y" %v : !sarek.vec<f32>
}
// CHECK: let binds a scalar, record or variant, got !sarek.vec<f32>

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = "sarek.let"(%x) <{name = "y"}> : (f32) -> i32
}
// CHECK: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute f32 expected from variable 'T', but got i32

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let_mut "" %x : f32
}
// CHECK: let_mut name must not be empty

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %y = sarek.let_mut "y" %v : !sarek.vec<f32>
}
// CHECK: let_mut binds a scalar, record or variant, got !sarek.vec<f32>

// -----

sarek.kernel @k() {
  %u = sarek.constant unit
  %y = sarek.let_mut "y" %u : !sarek.unit
}
// CHECK: let_mut binds a scalar, record or variant, got !sarek.unit

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = "sarek.let_mut"(%x) <{name = "y"}> : (f32) -> !sarek.ref<i32>
}
// CHECK: result must be !sarek.ref<f32>

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.let_mut "y" %x : f32
  %z = "sarek.load"(%y) : (!sarek.ref<f32>) -> i32
}
// CHECK: load of !sarek.ref<f32> gives f32

// -----

sarek.kernel @k(%x : f32 "x", %c : i1 "c") {
  %y = sarek.let_mut "y" %x : f32
  %r = sarek.if_expr %c -> !sarek.ref<f32> {
    sarek.yield %y : !sarek.ref<f32>
  } else {
    sarek.yield %y : !sarek.ref<f32>
  }
  sarek.store %r, %x : !sarek.ref<f32>
}
// CHECK: store target must be a place (sarek.let_mut, sarek.elem_ref or sarek.field_ref)

// -----

sarek.kernel @k(%x : f32 "x", %i : i32 "i") {
  %y = sarek.let_mut "y" %x : f32
  sarek.store %y, %i : !sarek.ref<f32>
}
// CHECK: stored value has type i32, the place holds f32

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i", %x : f64 "x") {
  %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
}
// CHECK: stored value has type f64, the place holds f32

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%p : !sarek.record<@point> "p", %c : i1 "c") {
  %m = sarek.let_mut "m" %p : !sarek.record<@point>
  %r = sarek.if_expr %c -> !sarek.ref<!sarek.record<@point>> {
    sarek.yield %m : !sarek.ref<!sarek.record<@point>>
  } else {
    sarek.yield %m : !sarek.ref<!sarek.record<@point>>
  }
  %f = sarek.field_ref %r "x" : !sarek.ref<f32>
}
// CHECK: field_ref base must be a place

// -----

sarek.kernel @k(%x : f32 "x") {
  %m = sarek.let_mut "m" %x : f32
  %f = sarek.field_ref %m "x" : !sarek.ref<f32>
}
// CHECK: field_ref base must be a record place, got !sarek.ref<f32>

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%p : !sarek.record<@point> "p") {
  %m = sarek.let_mut "m" %p : !sarek.record<@point>
  %f = sarek.field_ref %m "z" : !sarek.ref<f32>
}
// CHECK: record @point has no field 'z'

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%v : !sarek.vec<!sarek.record<@point>> "v", %i : i32 "i") {
  %e = sarek.elem_ref %v[%i] : !sarek.vec<!sarek.record<@point>>
  %f = sarek.field_ref %e "y" : !sarek.ref<i64>
}
// CHECK: field 'y' of @point has type f32, not i64
