// sarek-opt knows builtin and sarek (plus the target dialects), not xDSL's full list, and only sarek passes.
// RUN: not sarek-opt %s 2>&1 | filecheck %s --check-prefix=DIALECT
// RUN: not sarek-opt %s -p canonicalize 2>&1 | filecheck %s --check-prefix=PASS
// RUN: sarek-opt %s --allow-unregistered-dialect | filecheck %s --check-prefix=UNREG

builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %c = "arith.constant"() <{value = 1 : i32}> : () -> i32
  }
}

// DIALECT: Operation arith.constant is not registered
// PASS: error: Unrecognized passes: ['canonicalize']
// UNREG: sarek.kernel @k(%n: i32 "n") {
// UNREG-NEXT: %c = "arith.constant"() <{value = 1 : i32}> : () -> i32
