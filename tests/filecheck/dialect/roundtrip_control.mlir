// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// if without else, with else, with an empty then-branch, nested.
sarek.kernel @ifs(%c : i1 "c", %d : i1 "d") {
  sarek.if %c {
    sarek.barrier
  }
  sarek.if %c {
    sarek.barrier
  } else {
    sarek.mem_fence
  }
  sarek.if %c {
  } else {
    sarek.if %d {
      sarek.warp_barrier
    }
  }
  sarek.if %d {
  }
}
// CHECK:      sarek.kernel @ifs(%c: i1 "c", %d: i1 "d") {
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:     sarek.barrier
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:     sarek.barrier
// CHECK-NEXT:   } else {
// CHECK-NEXT:     sarek.mem_fence
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:   } else {
// CHECK-NEXT:     sarek.if %d {
// CHECK-NEXT:       sarek.warp_barrier
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.if %d {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// if_expr: only the taken region runs; regions end in sarek.yield.
sarek.record @point {x : f32, y : f32}
sarek.kernel @if_exprs(%c : i1 "c", %x : f32 "x", %p : !sarek.record<@point> "p") {
  %r = sarek.if_expr %c -> f32 {
    sarek.yield %x : f32
  } else {
    %z = sarek.constant 0.0 : f32
    sarek.yield %z : f32
  }
  %sc = sarek.if_expr %c -> i1 {
    %t = sarek.constant true
    sarek.yield %t : i1
  } else {
    sarek.yield %c : i1
  }
  %q = sarek.if_expr %sc -> !sarek.record<@point> {
    sarek.yield %p : !sarek.record<@point>
  } else {
    %n = sarek.if_expr %c -> !sarek.record<@point> {
      sarek.yield %p : !sarek.record<@point>
    } else {
      %m = sarek.make_record @point(%r, %x)
      sarek.yield %m : !sarek.record<@point>
    }
    sarek.yield %n : !sarek.record<@point>
  }
}
// CHECK:      sarek.record @point {x : f32, y : f32}
// CHECK-NEXT: sarek.kernel @if_exprs(%c: i1 "c", %x: f32 "x", %p: !sarek.record<@point> "p") {
// CHECK-NEXT:   %r = sarek.if_expr %c -> f32 {
// CHECK-NEXT:     sarek.yield %x : f32
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %z = sarek.constant 0.0 : f32
// CHECK-NEXT:     sarek.yield %z : f32
// CHECK-NEXT:   }
// CHECK-NEXT:   %sc = sarek.if_expr %c -> i1 {
// CHECK-NEXT:     %t = sarek.constant true
// CHECK-NEXT:     sarek.yield %t : i1
// CHECK-NEXT:   } else {
// CHECK-NEXT:     sarek.yield %c : i1
// CHECK-NEXT:   }
// CHECK-NEXT:   %q = sarek.if_expr %sc -> !sarek.record<@point> {
// CHECK-NEXT:     sarek.yield %p : !sarek.record<@point>
// CHECK-NEXT:   } else {
// CHECK-NEXT:     %n = sarek.if_expr %c -> !sarek.record<@point> {
// CHECK-NEXT:       sarek.yield %p : !sarek.record<@point>
// CHECK-NEXT:     } else {
// CHECK-NEXT:       %m = sarek.make_record @point(%r, %x)
// CHECK-NEXT:       sarek.yield %m : !sarek.record<@point>
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek.yield %n : !sarek.record<@point>
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// while: a condition region yielding i1, and a statement body (possibly empty).
sarek.kernel @whiles(%n : i32 "n") {
  %z = sarek.constant 0 : i32
  %i = sarek.let_mut "i" %z : i32
  sarek.while {
    %iv = sarek.load %i : !sarek.ref<i32>
    %c = sarek.binop lt %iv, %n : i32
    sarek.yield %c : i1
  } do {
    %iv_1 = sarek.load %i : !sarek.ref<i32>
    %one = sarek.constant 1 : i32
    %next = sarek.binop add %iv_1, %one : i32
    sarek.store %i, %next : !sarek.ref<i32>
  }
  sarek.while {
    %f = sarek.constant false
    sarek.yield %f : i1
  } do {
  }
}
// CHECK:      sarek.kernel @whiles(%n: i32 "n") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   %i = sarek.let_mut "i" %z : i32
// CHECK-NEXT:   sarek.while {
// CHECK-NEXT:     %iv = sarek.load %i : !sarek.ref<i32>
// CHECK-NEXT:     %c = sarek.binop lt %iv, %n : i32
// CHECK-NEXT:     sarek.yield %c : i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:     %iv_1 = sarek.load %i : !sarek.ref<i32>
// CHECK-NEXT:     %one = sarek.constant 1 : i32
// CHECK-NEXT:     %next = sarek.binop add %iv_1, %one : i32
// CHECK-NEXT:     sarek.store %i, %next : !sarek.ref<i32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.while {
// CHECK-NEXT:     %f = sarek.constant false
// CHECK-NEXT:     sarek.yield %f : i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// for: half-open, constant non-zero step (positive or negative), i32 or i64 bounds, nested.
sarek.kernel @fors(%n : i32 "n", %m : i64 "m", %v : !sarek.vec<f32> "v") {
  %z = sarek.constant 0 : i32
  sarek.for "i" %i = %z to %n step 1 : i32 {
    %x = sarek.array_read %v[%i] : !sarek.vec<f32>
  }
  sarek.for "j" %j = %n to %z step -1 : i32 {
    sarek.for "k" %k = %z to %j step 3 : i32 {
      %s = sarek.binop add %j, %k : i32
    }
  }
  %zl = sarek.constant 0 : i64
  sarek.for "l" %l = %zl to %m step 2 : i64 {
    %y = sarek.array_read %v[%l] : !sarek.vec<f32>, i64
  }
  sarek.for "down" %down = %m to %zl step -4 : i64 {
  }
  sarek.for "a b" %0 = %z to %n step 1 : i32 {
  }
}
// CHECK:      sarek.kernel @fors(%n: i32 "n", %m: i64 "m", %v: !sarek.vec<f32> "v") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   sarek.for "i" %i = %z to %n step 1 : i32 {
// CHECK-NEXT:     %x = sarek.array_read %v[%i] : !sarek.vec<f32>
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.for "j" %j = %n to %z step -1 : i32 {
// CHECK-NEXT:     sarek.for "k" %k = %z to %j step 3 : i32 {
// CHECK-NEXT:       %s = sarek.binop add %j, %k : i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %zl = sarek.constant 0 : i64
// CHECK-NEXT:   sarek.for "l" %l = %zl to %m step 2 : i64 {
// CHECK-NEXT:     %y = sarek.array_read %v[%l] : !sarek.vec<f32>, i64
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.for "down" %down = %m to %zl step -4 : i64 {
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.for "a b" %0 = %z to %n step 1 : i32 {
// CHECK-NEXT:   }
// CHECK-NEXT: }
