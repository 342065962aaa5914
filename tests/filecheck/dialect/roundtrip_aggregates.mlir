// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Record construction and field reads, nested records.
sarek.record @point {x : f32, y : f32}
sarek.record @seg {a : !sarek.record<@point>, b : !sarek.record<@point>, id : i32}
sarek.kernel @records(%x : f32 "x", %y : f32 "y", %i : i32 "i") {
  %p = sarek.make_record @point(%x, %y)
  %q = sarek.make_record @point(%y, %x)
  %s = sarek.make_record @seg(%p, %q, %i)
  %sa = sarek.field %s "a" : !sarek.record<@point>
  %sax = sarek.field %sa "x" : f32
  %sid = sarek.field %s "id" : i32
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.record @seg {a : !sarek.record<@point>, b : !sarek.record<@point>, id : i32}
// CHECK-NEXT: sarek.kernel @records(%x: f32 "x", %y: f32 "y", %i: i32 "i") {
// CHECK-NEXT:   %p = sarek.make_record @point(%x, %y)
// CHECK-NEXT:   %q = sarek.make_record @point(%y, %x)
// CHECK-NEXT:   %s = sarek.make_record @seg(%p, %q, %i)
// CHECK-NEXT:   %sa = sarek.field %s "a" : !sarek.record<@point>
// CHECK-NEXT:   %sax = sarek.field %sa "x" : f32
// CHECK-NEXT:   %sid = sarek.field %s "id" : i32
// CHECK-NEXT: }

// -----

// Variant construction (nullary, one payload, several, a record payload) and payload reads.
sarek.record @point {x : f32, y : f32}
sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty, At(!sarek.record<@point>, i64)}
sarek.kernel @variants(%x : f32 "x", %l : i64 "l", %p : !sarek.record<@point> "p") {
  %e = sarek.make_variant @shape "Empty"()
  %c = sarek.make_variant @shape "Circle"(%x)
  %r = sarek.make_variant @shape "Rect"(%x, %x)
  %a = sarek.make_variant @shape "At"(%p, %l)
  %r0 = sarek.payload %r "Rect" 0 : f32
  %r1 = sarek.payload %r "Rect" 1 : f32
  %a0 = sarek.payload %a "At" 0 path ["At", "f0"] : !sarek.record<@point>
  %a1 = sarek.payload %a "At" 1 path [] : i64
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty, At(!sarek.record<@point>, i64)}
// CHECK-NEXT: sarek.kernel @variants(%x: f32 "x", %l: i64 "l", %p: !sarek.record<@point> "p") {
// CHECK-NEXT:   %e = sarek.make_variant @shape "Empty"()
// CHECK-NEXT:   %c = sarek.make_variant @shape "Circle"(%x)
// CHECK-NEXT:   %r = sarek.make_variant @shape "Rect"(%x, %x)
// CHECK-NEXT:   %a = sarek.make_variant @shape "At"(%p, %l)
// CHECK-NEXT:   %r0 = sarek.payload %r "Rect" 0 : f32
// CHECK-NEXT:   %r1 = sarek.payload %r "Rect" 1 : f32
// CHECK-NEXT:   %a0 = sarek.payload %a "At" 0 path ["At", "f0"] : !sarek.record<@point>
// CHECK-NEXT:   %a1 = sarek.payload %a "At" 1 path [] : i64
// CHECK-NEXT: }

// -----

// Element reads and places on vectors, shared and local arrays, with i32 and i64 indices; vector length.
sarek.kernel @arrays(%v : !sarek.vec<f32> "v", %i : i32 "i", %l : i64 "l") {
  %n = sarek.array_len %v : !sarek.vec<f32>
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
  %c4 = sarek.constant 4 : i32
  %loc = sarek.alloc_array "loc"[%c4] : !sarek.array<i64, local>
  %a = sarek.array_read %v[%i] : !sarek.vec<f32>
  %b = sarek.array_read %v[%l] : !sarek.vec<f32>, i64
  %c = sarek.array_read %s[%i] : !sarek.array<f32, shared>
  %d = sarek.array_read %loc[%l] : !sarek.array<i64, local>, i64
  %pv = sarek.elem_ref %v[%l] : !sarek.vec<f32>, i64
  %ps = sarek.elem_ref %s[%i] : !sarek.array<f32, shared>
  %pl = sarek.elem_ref %loc[%i] : !sarek.array<i64, local>
  sarek.store %pv, %c : !sarek.ref<f32>
  sarek.store %ps, %a : !sarek.ref<f32>
  sarek.store %pl, %d : !sarek.ref<i64>
}
// CHECK:      sarek.kernel @arrays(%v: !sarek.vec<f32> "v", %i: i32 "i", %l: i64 "l") {
// CHECK-NEXT:   %n = sarek.array_len %v : !sarek.vec<f32>
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
// CHECK-NEXT:   %c4 = sarek.constant 4 : i32
// CHECK-NEXT:   %loc = sarek.alloc_array "loc"[%c4] : !sarek.array<i64, local>
// CHECK-NEXT:   %a = sarek.array_read %v[%i] : !sarek.vec<f32>
// CHECK-NEXT:   %b = sarek.array_read %v[%l] : !sarek.vec<f32>, i64
// CHECK-NEXT:   %c = sarek.array_read %s[%i] : !sarek.array<f32, shared>
// CHECK-NEXT:   %d = sarek.array_read %loc[%l] : !sarek.array<i64, local>, i64
// CHECK-NEXT:   %pv = sarek.elem_ref %v[%l] : !sarek.vec<f32>, i64
// CHECK-NEXT:   %ps = sarek.elem_ref %s[%i] : !sarek.array<f32, shared>
// CHECK-NEXT:   %pl = sarek.elem_ref %loc[%i] : !sarek.array<i64, local>
// CHECK-NEXT:   sarek.store %pv, %c : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %ps, %a : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %pl, %d : !sarek.ref<i64>
// CHECK-NEXT: }

// -----

// Binders and places: let, let_mut, load, store to a let_mut, an element, a field of an element, a field
// of a field, a field of a mutable record.
sarek.record @point {x : f32, y : f32}
sarek.record @seg {a : !sarek.record<@point>, b : !sarek.record<@point>}
sarek.kernel @places(%v : !sarek.vec<!sarek.record<@seg>> "v", %x : f32 "x", %i : i32 "i") {
  %k = sarek.let "k" %i : i32
  %m = sarek.let_mut "m" %x : f32
  %mv = sarek.load %m : !sarek.ref<f32>
  sarek.store %m, %mv : !sarek.ref<f32>
  %e = sarek.elem_ref %v[%k] : !sarek.vec<!sarek.record<@seg>>
  %ev = sarek.load %e : !sarek.ref<!sarek.record<@seg>>
  %ea = sarek.field_ref %e "a" : !sarek.ref<!sarek.record<@point>>
  %eay = sarek.field_ref %ea "y" : !sarek.ref<f32>
  sarek.store %eay, %x : !sarek.ref<f32>
  %sv = sarek.let "s" %ev : !sarek.record<@seg>
  sarek.store %e, %sv : !sarek.ref<!sarek.record<@seg>>
  %p = sarek.make_record @point(%x, %x)
  %mp = sarek.let_mut "mp" %p : !sarek.record<@point>
  %mpx = sarek.field_ref %mp "x" : !sarek.ref<f32>
  sarek.store %mpx, %mv : !sarek.ref<f32>
  %pl = sarek.load %mp : !sarek.ref<!sarek.record<@point>>
  sarek.store %ea, %pl : !sarek.ref<!sarek.record<@point>>
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.record @seg {a : !sarek.record<@point>, b : !sarek.record<@point>}
// CHECK-NEXT: sarek.kernel @places(%v: !sarek.vec<!sarek.record<@seg>> "v", %x: f32 "x", %i: i32 "i") {
// CHECK-NEXT:   %k = sarek.let "k" %i : i32
// CHECK-NEXT:   %m = sarek.let_mut "m" %x : f32
// CHECK-NEXT:   %mv = sarek.load %m : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %m, %mv : !sarek.ref<f32>
// CHECK-NEXT:   %e = sarek.elem_ref %v[%k] : !sarek.vec<!sarek.record<@seg>>
// CHECK-NEXT:   %ev = sarek.load %e : !sarek.ref<!sarek.record<@seg>>
// CHECK-NEXT:   %ea = sarek.field_ref %e "a" : !sarek.ref<!sarek.record<@point>>
// CHECK-NEXT:   %eay = sarek.field_ref %ea "y" : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %eay, %x : !sarek.ref<f32>
// CHECK-NEXT:   %sv = sarek.let "s" %ev : !sarek.record<@seg>
// CHECK-NEXT:   sarek.store %e, %sv : !sarek.ref<!sarek.record<@seg>>
// CHECK-NEXT:   %p = sarek.make_record @point(%x, %x)
// CHECK-NEXT:   %mp = sarek.let_mut "mp" %p : !sarek.record<@point>
// CHECK-NEXT:   %mpx = sarek.field_ref %mp "x" : !sarek.ref<f32>
// CHECK-NEXT:   sarek.store %mpx, %mv : !sarek.ref<f32>
// CHECK-NEXT:   %pl = sarek.load %mp : !sarek.ref<!sarek.record<@point>>
// CHECK-NEXT:   sarek.store %ea, %pl : !sarek.ref<!sarek.record<@point>>
// CHECK-NEXT: }

// -----

// Binder names that are not SSA-name friendly keep their names; shadowing names get fresh SSA names.
sarek.kernel @names(%i : i32 "i") {
  %x = sarek.let "x" %i : i32
  %x_1 = sarek.let "x" %x : i32
  %0 = sarek.let "1st" %x_1 : i32
  %1 = sarek.let_mut "a b" %0 : i32
}
// CHECK:      sarek.kernel @names(%i: i32 "i") {
// CHECK-NEXT:   %x = sarek.let "x" %i : i32
// CHECK-NEXT:   %x_1 = sarek.let "x" %x : i32
// CHECK-NEXT:   %0 = sarek.let "1st" %x_1 : i32
// CHECK-NEXT:   %1 = sarek.let_mut "a b" %0 : i32
// CHECK-NEXT: }
