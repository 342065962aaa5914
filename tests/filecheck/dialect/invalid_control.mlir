// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// if, if_expr, while, for and yield.

sarek.kernel @k(%c : i32 "c") {
  sarek.if %c {
  }
}
// CHECK: operand 'cond' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i1 but got i32

// -----

sarek.kernel @k(%c : i1 "c") {
  "sarek.if"(%c) ({
  ^bb0:
  }, {
  ^bb0:
  ^bb1:
  }) : (i1) -> ()
}
// CHECK: 'sarek.if' does not contain single-block regions

// -----

sarek.kernel @k(%c : i1 "c", %x : f32 "x") {
  %r = sarek.if_expr %c -> f32 {
    sarek.yield %x : f32
  } else {
    sarek.barrier
  }
}
// CHECK: Operation sarek.barrier terminates block in single-block region but is not a terminator

// -----

sarek.kernel @k(%c : i1 "c", %x : f32 "x") {
  %r = sarek.if_expr %c -> f32 {
  } else {
    sarek.yield %x : f32
  }
}
// CHECK: Region 'then_region' at position 0 expected a single block, but got 0 blocks

// -----

sarek.kernel @k(%c : i1 "c", %x : f32 "x", %i : i32 "i") {
  %r = sarek.if_expr %c -> f32 {
    sarek.yield %x : f32
  } else {
    sarek.yield %i : i32
  }
}
// CHECK: if_expr else region yields i32, result is f32

// -----

sarek.kernel @k(%i : i32 "i") {
  sarek.while {
    sarek.yield %i : i32
  } do {
  }
}
// CHECK: while condition yields i32, not i1

// -----

sarek.kernel @k(%i : i32 "i") {
  sarek.while {
    sarek.barrier
  } do {
  }
}
// CHECK: while condition must end with sarek.yield

// -----

sarek.kernel @k(%c : i1 "c") {
  sarek.while {
    sarek.yield %c : i1
  } do {
    sarek.yield %c : i1
  }
}
// CHECK: while body must not end with sarek.yield

// -----

sarek.kernel @k(%c : i1 "c") {
  sarek.if %c {
    sarek.yield %c : i1
  }
}
// CHECK: 'sarek.yield' expects parent op to be one of 'sarek.if_expr', 'sarek.match_expr', 'sarek.while'

// -----

sarek.kernel @k(%n : i32 "n") {
  sarek.for "" %i = %n to %n step 1 : i32 {
  }
}
// CHECK: for index name must not be empty

// -----

sarek.kernel @k(%c : i1 "c") {
  sarek.yield %c : i1
}
// CHECK: 'sarek.yield' expects parent op to be one of 'sarek.if_expr', 'sarek.match_expr', 'sarek.while'

// -----

sarek.kernel @k(%n : i32 "n") {
  sarek.for "i" %i = %n to %n step 0 : i32 {
  }
}
// CHECK: for step must be non-zero

// -----

sarek.kernel @k(%x : f32 "x") {
  sarek.for "i" %i = %x to %x step 1 : f32 {
  }
}
// CHECK: for bounds must be i32 or i64, got f32

// -----

sarek.kernel @k(%n : i32 "n") {
  "sarek.for"(%n, %n) <{name = "i", step = 1 : i32}> ({
  ^bb0(%i: i64):
  }) : (i32, i32) -> ()
}
// CHECK: for body must take one i32 argument (the index)

// -----

sarek.kernel @k(%n : i32 "n", %m : i64 "m") {
  "sarek.for"(%n, %m) <{name = "i", step = 1 : i32}> ({
  ^bb0(%i: i32):
  }) : (i32, i64) -> ()
}
// CHECK: operand 'hi' at position 1 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64

// -----

sarek.kernel @k(%n : i32 "n") {
  "sarek.for"(%n, %n) <{name = "i", step = 1 : i32}> ({
  ^bb0:
  }) : (i32, i32) -> ()
}
// CHECK: for body must take one i32 argument (the index)
