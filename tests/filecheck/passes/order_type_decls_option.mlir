// RUN: sarek-opt %s -p 'sarek-order-type-decls{first=structs}' --verify-diagnostics | filecheck %s

builtin.module {
  sarek.record @a {x : f32}
}
// CHECK: error: sarek-order-type-decls: first must be none, records or variants, not 'structs'
