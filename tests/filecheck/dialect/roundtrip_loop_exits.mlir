// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// break and continue at any statement depth of a loop body, a for with a run-time step, a kernel's return,
// assert.
sarek.kernel @exits(%n : i32 "n", %s : i32 "s", %c : i1 "c") {
  %z = sarek.constant 0 : i32
  sarek.assert %c, "c must hold"
  sarek.for "i" %i = %z to %n step %s : i32 {
    sarek.if %c {
      sarek.continue
    }
    sarek.block {
      sarek.break
    }
  }
  sarek.while {
    sarek.yield %c : i1
  } do {
    sarek.pragma ["unroll"] {
      sarek.break
    }
    sarek.continue
  }
  sarek.if %c {
    sarek.return
  }
}
// CHECK:      sarek.kernel @exits(%n: i32 "n", %s: i32 "s", %c: i1 "c") {
// CHECK-NEXT:   %z = sarek.constant 0 : i32
// CHECK-NEXT:   sarek.assert %c, "c must hold"
// CHECK-NEXT:   sarek.for "i" %i = %z to %n step %s : i32 {
// CHECK-NEXT:     sarek.if %c {
// CHECK-NEXT:       sarek.continue
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek.block {
// CHECK-NEXT:       sarek.break
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.while {
// CHECK-NEXT:     sarek.yield %c : i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:     sarek.pragma ["unroll"] {
// CHECK-NEXT:       sarek.break
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek.continue
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:     sarek.return
// CHECK-NEXT:   }
// CHECK-NEXT: }

// -----

// A run-time step of i64 bounds; a constant step keeps its syntax.
sarek.kernel @steps(%n : i64 "n", %s : i64 "s") {
  %z = sarek.constant 0 : i64
  sarek.for "i" %i = %n to %z step %s : i64 {
  }
  sarek.for "j" %j = %n to %z step -3 : i64 {
  }
}
// CHECK:      sarek.for "i" %i = %n to %z step %s : i64 {
// CHECK-NEXT: }
// CHECK-NEXT: sarek.for "j" %j = %n to %z step -3 : i64 {
// CHECK-NEXT: }
