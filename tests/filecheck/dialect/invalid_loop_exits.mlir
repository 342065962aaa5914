// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// break / continue: only in the body of a loop of the same function, not in a value region or a while
// condition; a run-time step has the bounds' type; a kernel's return has no value; assert takes an i1.

sarek.kernel @k(%c : i1 "c") {
  sarek.if %c {
    sarek.break
  }
}
// CHECK: sarek.break must be inside the body of a sarek.while or sarek.for of its function

// -----

sarek.helper @h() -> !sarek.unit {
  sarek.continue
}
// CHECK: sarek.continue must be inside the body of a sarek.while or sarek.for of its function

// -----

sarek.kernel @k(%c : i1 "c", %n : i32 "n") {
  %z = sarek.constant 0 : i32
  sarek.for "i" %i = %z to %n step 1 : i32 {
    %r = sarek.if_expr %c -> i32 {
      sarek.break
      sarek.yield %z : i32
    } else {
      sarek.yield %z : i32
    }
  }
}
// CHECK: sarek.break cannot leave a value region (sarek.if_expr / sarek.match_expr)

// -----

sarek.kernel @k(%c : i1 "c") {
  sarek.while {
    sarek.continue
    sarek.yield %c : i1
  } do {
  }
}
// CHECK: sarek.continue cannot be in the condition of a sarek.while

// -----

sarek.kernel @k(%n : i32 "n", %s : i64 "s") {
  %z = sarek.constant 0 : i32
  "sarek.for"(%z, %n, %s) <{name = "i"}> ({
  ^bb0(%i : i32):
  }) : (i32, i32, i64) -> ()
}
// CHECK: operand 'dyn_step' at position 2 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64

// -----

sarek.kernel @k(%n : i32 "n", %s : i32 "s") {
  %z = sarek.constant 0 : i32
  "sarek.for"(%z, %n, %s) <{name = "i", step = 1 : i32}> ({
  ^bb0(%i : i32):
  }) : (i32, i32, i32) -> ()
}
// CHECK: for needs one step: a constant or an operand

// -----

sarek.kernel @k(%n : i32 "n") {
  %z = sarek.constant 0 : i32
  "sarek.for"(%z, %n) <{name = "i"}> ({
  ^bb0(%i : i32):
  }) : (i32, i32) -> ()
}
// CHECK: for needs one step: a constant or an operand

// -----

sarek.kernel @k(%n : i32 "n", %s : i32 "s") {
  %z = sarek.constant 0 : i32
  "sarek.for"(%z, %n, %s, %s) <{name = "i"}> ({
  ^bb0(%i : i32):
  }) : (i32, i32, i32, i32) -> ()
}
// CHECK: for takes at most one step operand

// -----

sarek.kernel @k(%x : f32 "x") {
  sarek.return %x : f32
}
// CHECK: kernel @k returns nothing, the return gives f32

// -----

sarek.kernel @k(%x : i32 "x") {
  sarek.assert %x, "x"
}
// CHECK: Expected attribute i1 but got i32
