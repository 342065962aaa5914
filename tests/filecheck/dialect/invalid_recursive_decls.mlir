// RUN: sarek-opt %s --verify-diagnostics --split-input-file | filecheck %s

// Issue 21: a self-recursive record passed the verifier; shared/local arrays of size <= 0 were accepted.

sarek.record @node {value : i32, next : !sarek.record<@node>}
// CHECK: record @node contains itself (field 'next'): a record cannot be recursive

// -----

sarek.kernel @k() {
  %n = sarek.constant 0 : i32
  %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
}
// CHECK: sarek.alloc_array needs a positive size, got 0

// -----

sarek.kernel @k() {
  %n = sarek.constant -4 : i32
  %s = sarek.alloc_array "t"[%n] : !sarek.array<i32, local>
}
// CHECK: sarek.alloc_array needs a positive size, got -4
