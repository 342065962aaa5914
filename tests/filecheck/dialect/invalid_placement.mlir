// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Statements and expressions belong to a kernel or helper body, never to the module itself.
builtin.module {
  %c = sarek.constant 1 : i32
}
// CHECK: sarek.constant must be inside a sarek.kernel or sarek.helper, not at module level

// -----

builtin.module {
  sarek.barrier
}
// CHECK: sarek.barrier must be inside a sarek.kernel or sarek.helper, not at module level

// -----

builtin.module {
  sarek.block {
  }
}
// CHECK: sarek.block must be inside a sarek.kernel or sarek.helper, not at module level
