// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Every scalar type as a record field, nested records, and a variant inside a record.
sarek.record @scalars {a : i1, b : i32, c : i64, d : f16, e : f32, f : f64, g : ui8}
sarek.record @point {x : f32, y : f32}
sarek.record @seg {p : !sarek.record<@point>, q : !sarek.record<@point>}
sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.record @outer {s : !sarek.record<@seg>, tag : !sarek.variant<@shape>}
sarek.kernel @types(%a : !sarek.vec<f32> "a", %b : !sarek.vec<ui8> "b", %c : !sarek.vec<!sarek.record<@outer>> "c", %d : !sarek.vec<!sarek.variant<@shape>> "d", %e : i1 "e", %f : f16 "f", %g : f64 "g", %h : i64 "h", %r : !sarek.record<@seg> "r", %v : !sarek.variant<@shape> "v") {
}
// CHECK:      sarek.record @scalars {a : i1, b : i32, c : i64, d : f16, e : f32, f : f64, g : ui8}
// CHECK-NEXT: sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.record @seg {p : !sarek.record<@point>, q : !sarek.record<@point>}
// CHECK-NEXT: sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
// CHECK-NEXT: sarek.record @outer {s : !sarek.record<@seg>, tag : !sarek.variant<@shape>}
// CHECK-NEXT: sarek.kernel @types(%a: !sarek.vec<f32> "a", %b: !sarek.vec<ui8> "b", %c: !sarek.vec<!sarek.record<@outer>> "c", %d: !sarek.vec<!sarek.variant<@shape>> "d", %e: i1 "e", %f: f16 "f", %g: f64 "g", %h: i64 "h", %r: !sarek.record<@seg> "r", %v: !sarek.variant<@shape> "v") {
// CHECK-NEXT: }

// -----

// Arrays in every memory space (global only as a type: helper parameters); refs to every kind of element.
sarek.record @point {x : f32, y : f32}
sarek.helper @arrays(%x : !sarek.array<f32, global> "x", %y : !sarek.array<i32, shared> "y", %z : !sarek.array<!sarek.record<@point>, local> "z", %w : !sarek.vec<i64> "w") -> !sarek.unit {
  %c0 = sarek.constant 0 : i32
  %p = sarek.elem_ref %z[%c0] : !sarek.array<!sarek.record<@point>, local>
  %px = sarek.field_ref %p "x" : !sarek.ref<f32>
  %q = sarek.elem_ref %x[%c0] : !sarek.array<f32, global>
  %v = sarek.load %q : !sarek.ref<f32>
  sarek.store %px, %v : !sarek.ref<f32>
  %one = sarek.constant 1 : i64
  %m = sarek.let_mut "m" %one : i64
  %mv = sarek.load %m : !sarek.ref<i64>
  %wr = sarek.elem_ref %w[%c0] : !sarek.vec<i64>
  sarek.store %wr, %mv : !sarek.ref<i64>
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.helper @arrays(%x: !sarek.array<f32, global> "x", %y: !sarek.array<i32, shared> "y", %z: !sarek.array<!sarek.record<@point>, local> "z", %w: !sarek.vec<i64> "w") -> !sarek.unit {
// CHECK-NEXT:   %c0 = sarek.constant 0 : i32
// CHECK-NEXT:   %p = sarek.elem_ref %z[%c0] : !sarek.array<!sarek.record<@point>, local>
// CHECK-NEXT:   %px = sarek.field_ref %p "x" : !sarek.ref<f32>
// CHECK-NEXT:   %q = sarek.elem_ref %x[%c0] : !sarek.array<f32, global>
// CHECK-NEXT:   %v = sarek.load %q : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %px, %v : !sarek.ref<f32>
// CHECK-NEXT:   %one = sarek.constant 1 : i64
// CHECK-NEXT:   %m = sarek.let_mut "m" %one : i64
// CHECK-NEXT:   %mv = sarek.load %m : !sarek.ref<i64>
// CHECK-NEXT:   %wr = sarek.elem_ref %w[%c0] : !sarek.vec<i64>
// CHECK-NEXT:   sarek.store %wr, %mv : !sarek.ref<i64>
// CHECK-NEXT: }

// -----

// Symbol names and field/constructor names that are not bare identifiers are quoted.
sarek.record @"my point" {"x y" : i32, "a.b" : f32, z : i64}
sarek.variant @"v-2" {"C 1", C2(i64), "C.3"(!sarek.record<@"my point">)}
sarek.kernel @"k 1"(%p : !sarek.record<@"my point"> "p", %v : !sarek.variant<@"v-2"> "v", %0 : i32 "0", %1 : i32 "a b") {
}
// CHECK:      sarek.record @"my point" {"x y" : i32, "a.b" : f32, z : i64}
// CHECK-NEXT: sarek.variant @"v-2" {"C 1", C2(i64), "C.3"(!sarek.record<@"my point">)}
// CHECK-NEXT: sarek.kernel @"k 1"(%p: !sarek.record<@"my point"> "p", %v: !sarek.variant<@"v-2"> "v", %0: i32 "0", %1: i32 "a b") {
// CHECK-NEXT: }

// -----

// Quotes and backslashes in symbol names are escaped the same way in declarations and in types,
// constructions and calls; a record may have no field.
sarek.record @"q\22uote" {a : i32}
sarek.record @"back\\slash" {a : i32}
sarek.record @empty {}
sarek.variant @"v-2" {"C 1", C2(i64)}
sarek.helper @"my h"(%q : !sarek.record<@"q\22uote"> "q") -> !sarek.record<@"q\22uote"> {
  sarek.return %q : !sarek.record<@"q\22uote">
}
sarek.kernel @k(%i : i32 "i", %q : !sarek.record<@"q\22uote"> "q", %b : !sarek.record<@"back\\slash"> "b") {
  %e = sarek.make_record @empty()
  %p = sarek.make_record @"back\\slash"(%i)
  %v = sarek.make_variant @"v-2" "C 1"()
  %r = sarek.call @"my h"(%q) : (!sarek.record<@"q\22uote">) -> !sarek.record<@"q\22uote">
}
// CHECK:      sarek.record @"q\22uote" {a : i32}
// CHECK-NEXT: sarek.record @"back\\slash" {a : i32}
// CHECK-NEXT: sarek.record @empty {}
// CHECK-NEXT: sarek.variant @"v-2" {"C 1", C2(i64)}
// CHECK-NEXT: sarek.helper @"my h"(%q: !sarek.record<@"q\22uote"> "q") -> !sarek.record<@"q\22uote"> {
// CHECK-NEXT:   sarek.return %q : !sarek.record<@"q\22uote">
// CHECK-NEXT: }
// CHECK-NEXT: sarek.kernel @k(%i: i32 "i", %q: !sarek.record<@"q\22uote"> "q", %b: !sarek.record<@"back\\slash"> "b") {
// CHECK-NEXT:   %e = sarek.make_record @empty()
// CHECK-NEXT:   %p = sarek.make_record @"back\\slash"(%i)
// CHECK-NEXT:   %v = sarek.make_variant @"v-2" "C 1"()
// CHECK-NEXT:   %r = sarek.call @"my h"(%q) : (!sarek.record<@"q\22uote">) -> !sarek.record<@"q\22uote">
// CHECK-NEXT: }
