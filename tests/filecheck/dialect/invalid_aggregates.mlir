// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Record and variant construction, field and payload reads, arrays.

sarek.kernel @k(%x : f32 "x") {
  %p = sarek.make_record @point(%x, %x)
}
// CHECK: record type @point is not declared by a sarek.record

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%x : f32 "x") {
  %p = sarek.make_record @point(%x)
}
// CHECK: record @point has 2 field(s), 1 given

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%x : f32 "x", %i : i32 "i") {
  %p = sarek.make_record @point(%x, %i)
}
// CHECK: field 'y' of @point has type f32, given i32

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%x : f32 "x") {
  %p = sarek.make_record @shape(%x)
}
// CHECK: record type @shape is not declared by a sarek.record

// -----

sarek.kernel @k(%x : f32 "x") {
  %s = sarek.make_variant @shape "Circle"(%x)
}
// CHECK: variant type @shape is not declared by a sarek.variant

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%x : f32 "x") {
  %s = sarek.make_variant @shape "Square"(%x)
}
// CHECK: variant @shape has no constructor 'Square'

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%x : f32 "x") {
  %s = sarek.make_variant @shape "Empty"(%x)
}
// CHECK: constructor 'Empty' takes 0 payload value(s), 1 given

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%x : f32 "x") {
  %s = sarek.make_variant @shape "Circle"()
}
// CHECK: constructor 'Circle' takes 1 payload value(s), 0 given

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%x : f64 "x") {
  %s = sarek.make_variant @shape "Circle"(%x)
}
// CHECK: payload 0 of 'Circle' has type f32, given f64

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%p : !sarek.record<@point> "p") {
  %z = sarek.field %p "z" : f32
}
// CHECK: record @point has no field 'z'

// -----

sarek.record @point {x : f32, y : f32}
sarek.kernel @k(%p : !sarek.record<@point> "p") {
  %x = sarek.field %p "x" : f64
}
// CHECK: field 'x' of @point has type f32, not f64

// -----

sarek.kernel @k(%x : f32 "x") {
  %y = sarek.field %x "x" : f32
}
// CHECK: operand 'record' at position 0 does not verify:
// CHECK-NEXT: f32 should be of base attribute sarek.record

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.payload %s "Square" 0 : f32
}
// CHECK: variant @shape has no constructor 'Square'

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.payload %s "Circle" 1 : f32
}
// CHECK: constructor 'Circle' has no payload 1

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.payload %s "Empty" 0 : f32
}
// CHECK: constructor 'Empty' has no payload 0

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.payload %s "Circle" -1 : f32
}
// CHECK: constructor 'Circle' has no payload -1

// -----

sarek.variant @shape {Circle(f32), Empty}
sarek.kernel @k(%s : !sarek.variant<@shape> "s") {
  %r = sarek.payload %s "Circle" 0 : i32
}
// CHECK: payload 0 of 'Circle' has type f32, not i32

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i") {
  %x = "sarek.array_read"(%v, %i) : (!sarek.vec<f32>, i32) -> f64
}
// CHECK: element type is f32, result has type f64

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : f32 "i") {
  %x = sarek.array_read %v[%i] : !sarek.vec<f32>, f32
}
// CHECK: operand 'indices' at position 1 does not verify:
// CHECK-NEXT: f32 should be of base attribute integer_type

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i1 "i") {
  %x = sarek.elem_ref %v[%i] : !sarek.vec<f32>, i1
}
// CHECK: index must be i32 or i64, got i1

// -----

sarek.kernel @k(%v : !sarek.vec<f32> "v", %i : i32 "i") {
  %x = "sarek.elem_ref"(%v, %i) : (!sarek.vec<f32>, i32) -> !sarek.ref<i32>
}
// CHECK: result must be a ref to the element type

// -----

sarek.kernel @k(%x : f32 "x", %i : i32 "i") {
  %r = "sarek.array_read"(%x, %i) : (f32, i32) -> f32
}
// CHECK: operand 'array' at position 0 does not verify:
// CHECK-NEXT: Unexpected attribute f32

// -----

sarek.kernel @k(%n : i32 "n") {
  %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, global>
}
// CHECK: sarek.alloc_array allocates shared or local arrays, not global ones

// -----

sarek.kernel @k(%n : i32 "n") {
  %a = sarek.alloc_array ""[%n] : !sarek.array<f32, local>
}
// CHECK: array name must not be empty

// -----

sarek.kernel @k(%n : i64 "n") {
  %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, shared>
}
// CHECK: operand 'sizes' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64

// -----

sarek.kernel @k(%n : i32 "n") {
  %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, shared>
  %l = "sarek.array_len"(%a) : (!sarek.array<f32, shared>) -> i32
}
// CHECK: operand 'array' at position 0 does not verify:
// CHECK-NEXT: !sarek.array<f32, shared> should be of base attribute sarek.vec
