// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Helpers: valued and unit, vector/array/record/variant parameters, no parameters, nested returns;
// calls with and without a result.
sarek.record @point {x : f32, y : f32}
sarek.variant @opt {None, Some(i32)}
sarek.helper @sq(%x : f32 "x") -> f32 {
  %r = sarek.binop mul %x, %x : f32
  sarek.return %r : f32
}
sarek.helper @seven() -> i32 {
  %c = sarek.constant 7 : i32
  sarek.return %c : i32
}
sarek.helper @noop() -> !sarek.unit {
}
sarek.helper @early(%c : i1 "c", %x : i64 "x") -> i64 {
  sarek.if %c {
    sarek.return %x : i64
  }
  %z = sarek.constant 0 : i64
  sarek.return %z : i64
}
sarek.helper @put(%v : !sarek.vec<f32> "v", %s : !sarek.array<f32, shared> "s", %i : i32 "i") -> !sarek.unit {
  %x = sarek.array_read %s[%i] : !sarek.array<f32, shared>
  %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
  sarek.return
}
sarek.helper @mk(%x : f32 "x") -> !sarek.record<@point> {
  %p = sarek.make_record @point(%x, %x)
  sarek.return %p : !sarek.record<@point>
}
sarek.helper @get(%o : !sarek.variant<@opt> "o", %l : !sarek.array<i32, local> "l") -> !sarek.variant<@opt> {
  sarek.return %o : !sarek.variant<@opt>
}
sarek.kernel @caller(%v : !sarek.vec<f32> "v", %o : !sarek.variant<@opt> "o") {
  %c0 = sarek.constant 0 : i32
  %x = sarek.array_read %v[%c0] : !sarek.vec<f32>
  %y = sarek.call @sq(%x) : (f32) -> f32
  %s7 = sarek.call @seven() : () -> i32
  sarek.call @noop() : () -> ()
  %s = sarek.alloc_array "s"[%s7] : !sarek.array<f32, shared>
  sarek.call @put(%v, %s, %c0) : (!sarek.vec<f32>, !sarek.array<f32, shared>, i32) -> ()
  %p = sarek.call @mk(%y) : (f32) -> !sarek.record<@point>
  %l = sarek.alloc_array "l"[%s7] : !sarek.array<i32, local>
  %g = sarek.call @get(%o, %l) : (!sarek.variant<@opt>, !sarek.array<i32, local>) -> !sarek.variant<@opt>
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.variant @opt {None, Some(i32)}
// CHECK-NEXT: sarek.helper @sq(%x: f32 "x") -> f32 {
// CHECK-NEXT:   %r = sarek.binop mul %x, %x : f32
// CHECK-NEXT:   sarek.return %r : f32
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @seven() -> i32 {
// CHECK-NEXT:   %c = sarek.constant 7 : i32
// CHECK-NEXT:   sarek.return %c : i32
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @noop() -> !sarek.unit {
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @early(%c: i1 "c", %x: i64 "x") -> i64 {
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:     sarek.return %x : i64
// CHECK-NEXT:   }
// CHECK-NEXT:   %z = sarek.constant 0 : i64
// CHECK-NEXT:   sarek.return %z : i64
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @put(%v: !sarek.vec<f32> "v", %s: !sarek.array<f32, shared> "s", %i: i32 "i") -> !sarek.unit {
// CHECK-NEXT:   %x = sarek.array_read %s[%i] : !sarek.array<f32, shared>
// CHECK-NEXT:   %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
// CHECK-NEXT:   sarek.store %p, %x : !sarek.ref<f32>
// CHECK-NEXT:   sarek.return
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @mk(%x: f32 "x") -> !sarek.record<@point> {
// CHECK-NEXT:   %p = sarek.make_record @point(%x, %x)
// CHECK-NEXT:   sarek.return %p : !sarek.record<@point>
// CHECK-NEXT: }
// CHECK-NEXT: sarek.helper @get(%o: !sarek.variant<@opt> "o", %l: !sarek.array<i32, local> "l") -> !sarek.variant<@opt> {
// CHECK-NEXT:   sarek.return %o : !sarek.variant<@opt>
// CHECK-NEXT: }
// CHECK-NEXT: sarek.kernel @caller(%v: !sarek.vec<f32> "v", %o: !sarek.variant<@opt> "o") {
// CHECK-NEXT:   %c0 = sarek.constant 0 : i32
// CHECK-NEXT:   %x = sarek.array_read %v[%c0] : !sarek.vec<f32>
// CHECK-NEXT:   %y = sarek.call @sq(%x) : (f32) -> f32
// CHECK-NEXT:   %s7 = sarek.call @seven() : () -> i32
// CHECK-NEXT:   sarek.call @noop() : () -> ()
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%s7] : !sarek.array<f32, shared>
// CHECK-NEXT:   sarek.call @put(%v, %s, %c0) : (!sarek.vec<f32>, !sarek.array<f32, shared>, i32) -> ()
// CHECK-NEXT:   %p = sarek.call @mk(%y) : (f32) -> !sarek.record<@point>
// CHECK-NEXT:   %l = sarek.alloc_array "l"[%s7] : !sarek.array<i32, local>
// CHECK-NEXT:   %g = sarek.call @get(%o, %l) : (!sarek.variant<@opt>, !sarek.array<i32, local>) -> !sarek.variant<@opt>
// CHECK-NEXT: }

// -----

// A helper may return from any nesting depth (loops, matches, blocks).
sarek.variant @opt {None, Some(i32)}
sarek.helper @deep(%o : !sarek.variant<@opt> "o", %n : i32 "n") -> i32 {
  %z = sarek.constant 0 : i32
  sarek.for "i" %i = %z to %n step 1 : i32 {
    sarek.match %o : !sarek.variant<@opt> {
      case "Some"(%v: i32 "v") {
        sarek.block {
          sarek.return %v : i32
        }
      }
      default {
      }
    }
  }
  sarek.return %z : i32
}
// CHECK:      sarek.variant @opt {None, Some(i32)}
// CHECK-NEXT: sarek.helper @deep(%o: !sarek.variant<@opt> "o", %n: i32 "n") -> i32 {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   sarek.for "i" %i = %z to %n step 1 : i32 {
// CHECK-NEXT:     sarek.match %o : !sarek.variant<@opt> {
// CHECK-NEXT:       case "Some"(%v: i32 "v") {
// CHECK-NEXT:         sarek.block {
// CHECK-NEXT:           sarek.return %v : i32
// CHECK-NEXT:         }
// CHECK-NEXT:       }
// CHECK-NEXT:       default {
// CHECK-NEXT:       }
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.return %z : i32
// CHECK-NEXT: }
