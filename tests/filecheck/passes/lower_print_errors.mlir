// RUN: sarek-opt %s --verify-diagnostics | filecheck %s

builtin.module {
  sarek.kernel @bad(%n : i32 "n") {
    // CHECK: print format has 2 placeholder(s), 1 value(s) given
    sarek.print "{} {}\0A"(%n) : i32
  }
}
