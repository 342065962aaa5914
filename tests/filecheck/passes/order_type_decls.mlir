// RUN: sarek-opt %s -p sarek-order-type-decls --verify-diagnostics --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-order-type-decls{first=variants}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=VFIRST

// A valid order comes back unchanged, declarations interleaved with other ops included.
builtin.module {
  sarek.record @pt {x : f32, y : f32}
  sarek.kernel @k(%n : i32 "n") {
  }
  sarek.variant @shape {Dot(!sarek.record<@pt>), Empty}
  sarek.record @tagged {s : !sarek.record<@pt>, n : i32}
}
// CHECK:      builtin.module {
// CHECK-NEXT:   sarek.record @pt {x : f32, y : f32}
// CHECK-NEXT:   sarek.kernel @k(%n: i32 "n") {
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.variant @shape {Dot(!sarek.record<@pt>), Empty}
// CHECK-NEXT:   sarek.record @tagged {s : !sarek.record<@pt>, n : i32}
// CHECK-NEXT: }
// With variants first the input is [shape; pt; tagged], and shape still waits for pt.
// VFIRST:      builtin.module {
// VFIRST-NEXT:   sarek.record @pt {x : f32, y : f32}
// VFIRST-NEXT:   sarek.kernel @k
// VFIRST-NEXT:   }
// VFIRST-NEXT:   sarek.variant @shape

// -----
// The tie-break between independent declarations is the input order, which `first` builds.
builtin.module {
  sarek.record @r {x : f32}
  sarek.variant @v {A, B}
}
// CHECK:       sarek.record @r {x : f32}
// CHECK-NEXT:  sarek.variant @v {A, B}
// VFIRST:      sarek.variant @v {A, B}
// VFIRST-NEXT: sarek.record @r {x : f32}

// -----
// [a (needs c); b; c] gives [b; c; a]: a blocked declaration is overtaken by later independent ones.
builtin.module {
  sarek.record @a {f : !sarek.record<@c>}
  sarek.record @b {x : f32}
  sarek.record @c {x : f32}
}
// CHECK:      sarek.record @b {x : f32}
// CHECK-NEXT: sarek.record @c {x : f32}
// CHECK-NEXT: sarek.record @a {f : !sarek.record<@c>}

// -----
// Edges cross kinds in both directions: record -> variant -> record.
builtin.module {
  sarek.record @outer {v : !sarek.variant<@opt>}
  sarek.variant @opt {Some(!sarek.record<@inner>), None}
  sarek.record @inner {x : i32}
}
// CHECK:      sarek.record @inner {x : i32}
// CHECK-NEXT: sarek.variant @opt {Some(!sarek.record<@inner>), None}
// CHECK-NEXT: sarek.record @outer {v : !sarek.variant<@opt>}

// -----
// The declarations keep the module slots they had; only their order among those slots changes.
builtin.module {
  sarek.record @a {f : !sarek.record<@b>}
  sarek.kernel @k(%n : i32 "n") {
  }
  sarek.record @b {x : f32}
}
// CHECK:      builtin.module {
// CHECK-NEXT:   sarek.record @b {x : f32}
// CHECK-NEXT:   sarek.kernel @k
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.record @a {f : !sarek.record<@b>}

// -----
// A self-referencing field is refused by the verifier (issue 21), before the pass runs.
builtin.module {
  sarek.record @node {next : !sarek.record<@node>}
  sarek.record @first {x : f32}
}
// CHECK: record @node contains itself (field 'next'): a record cannot be recursive

// -----
// Mangled names resolve kind-blind: "M.pt" is what "M_pt" names too.
builtin.module {
  sarek.variant @user {Has(!sarek.record<@M_pt>)}
  sarek.record @"M.pt" {x : f32}
  sarek.record @M_pt {y : f32}
}
// CHECK:      sarek.record @M.pt {x : f32}
// CHECK-NEXT: sarek.record @M_pt {y : f32}
// CHECK-NEXT: sarek.variant @user {Has(!sarek.record<@M_pt>)}

// -----
// A cycle between distinct declarations: every unplaced declaration, kind-prefixed.
builtin.module {
  sarek.record @a {f : !sarek.variant<@b>} loc("t.py":1:1)
  sarek.variant @b {B(!sarek.record<@a>)}
  sarek.record @ok {x : f32}
  sarek.record @after {y : !sarek.record<@a>}
}
// CHECK: t.py:1:1: error: type declarations form a cycle: record a, variant b, record after

// -----
// Undeclared references: one message per reference, both names mangled.
builtin.module {
  sarek.record @"Geo.seg" {a : !sarek.record<@"Geo.pt">, b : !sarek.record<@"Geo.pt">, c : f32} loc("t.py":2:1)
  sarek.variant @probe2 {At2(!sarek.record<@"probe.pt">), Nowhere}
}
// CHECK: t.py:2:1: error: record "Geo_seg"'s field "a" references undeclared type "Geo_pt"; record "Geo_seg"'s field "b" references undeclared type "Geo_pt"; variant "probe2"'s constructor "At2" references undeclared type "probe_pt"

// -----
// Completeness is checked before placement: an undeclared reference wins over a cycle.
builtin.module {
  sarek.record @a {f : !sarek.record<@b>}
  sarek.record @b {f : !sarek.record<@a>, g : !sarek.variant<@gone>}
}
// CHECK: error: record "b"'s field "g" references undeclared type "gone"

// -----
builtin.module {
  sarek.record @a {x : f32}
}
// CHECK: sarek.record @a {x : f32}
