// RUN: sarek-opt %s -p sarek-unroll --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-unroll{max-trip=2}' --split-input-file | filecheck %s --check-prefix=TWO
// RUN: sarek-opt %s -p 'sarek-unroll{max-trip=-1}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=BAD
// RUN: sarek-opt %s -p 'sarek-unroll{mode=hint}' --split-input-file | filecheck %s --check-prefix=HINT
// RUN: sarek-opt %s -p 'sarek-unroll{mode=copy}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=BADMODE

// A constant 3-trip loop becomes 3 scoped copies, each binding the index name to its value; with
// max-trip=2 it stays.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %lo = sarek.constant 1 : i32
    %hi = sarek.constant 7 : i32
    sarek.for "i" %i = %lo to %hi step 2 : i32 {
      %v = sarek.let "v" %i : i32
      %e = sarek.elem_ref %a[%i] : !sarek.vec<i32>
      sarek.store %e, %v : !sarek.ref<i32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @k
// CHECK:       sarek.block {
// CHECK-NEXT:    %[[C:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:    %i = sarek.let "i" %[[C]] : i32
// CHECK-NEXT:    %v = sarek.let "v" %i : i32
// CHECK:       sarek.block {
// CHECK-NEXT:    sarek.constant 3 : i32
// CHECK:       sarek.block {
// CHECK-NEXT:    sarek.constant 5 : i32
// CHECK-NOT:   sarek.for
// TWO:         sarek.for "i"
// With mode=hint (the C family's pipeline) the loop stays one copy under `pragma ["unroll"]`.
// HINT-LABEL:  sarek.kernel @k
// HINT-NEXT:     %lo = sarek.constant 1 : i32
// HINT-NEXT:     %hi = sarek.constant 7 : i32
// HINT-NEXT:     sarek.pragma ["unroll"] {
// HINT-NEXT:       sarek.for "i"
// HINT-NOT:    sarek.block
// BADMODE:     error: sarek-unroll: mode must be ir or hint, not 'copy'
// BAD:         error: sarek-unroll: max-trip and max-ops must be >= 0, got -1 and 512

// -----

// `for k in range(t, t + 4)` under pragma unroll: 4 copies at t+0..t+3, run only when t + 4 did not wrap;
// "unroll 1" keeps the loop; a body with a shared array stays rolled.
builtin.module {
  sarek.kernel @p(%a : !sarek.vec<f32> "a", %t : i32 "t") {
    %four = sarek.constant 4 : i32
    %hi = sarek.binop add %t, %four : i32
    sarek.pragma ["unroll"] {
      sarek.for "k" %k = %t to %hi step 1 : i32 {
        %e = sarek.elem_ref %a[%k] : !sarek.vec<f32>
        %x = sarek.array_read %a[%k] : !sarek.vec<f32>
        sarek.store %e, %x : !sarek.ref<f32>
      }
    }
    sarek.pragma ["unroll 1"] {
      sarek.for "k" %k = %t to %hi step 1 : i32 {
        %x = sarek.array_read %a[%k] : !sarek.vec<f32>
      }
    }
    %lo = sarek.constant 0 : i32
    sarek.for "j" %j = %lo to %four step 1 : i32 {
      %c = sarek.constant 8 : i32
      %s = sarek.alloc_array "s"[%c] : !sarek.array<f32, shared>
    }
  }
}
// CHECK-LABEL: sarek.kernel @p
// CHECK:       sarek.pragma ["unroll"] {
// CHECK-NEXT:    %[[G:.*]] = sarek.binop lt %t, %hi : i32
// CHECK-NEXT:    sarek.if %[[G]] {
// CHECK-NEXT:      sarek.block {
// CHECK-NEXT:        %[[O:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:        %[[K:.*]] = sarek.binop add %t, %[[O]] : i32
// CHECK-NEXT:        %k = sarek.let "k" %[[K]] : i32
// CHECK:             sarek.constant 3 : i32
// CHECK:         sarek.pragma ["unroll 1"] {
// CHECK-NEXT:      sarek.for "k"
// CHECK:         sarek.for "j"
// A loop already under a pragma is not wrapped again in mode=hint.
// HINT-LABEL:  sarek.kernel @p
// HINT:        sarek.pragma ["unroll"] {
// HINT-NEXT:     sarek.for "k"
// HINT-NOT:    sarek.pragma ["unroll"]
// HINT:        sarek.pragma ["unroll 1"] {

// -----

// A while loop counted by a local variable that starts constant and halves at the end of the body (the
// reduction tree) runs 3 times: 3 scoped copies reading s as 4, 2, 1; the updates stay.
builtin.module {
  sarek.kernel @w(%a : !sarek.vec<i32> "a") {
    %c4 = sarek.constant 4 : i32
    %s = sarek.let_mut "s" %c4 : i32
    sarek.while {
      %v = sarek.load %s : !sarek.ref<i32>
      %z = sarek.constant 0 : i32
      %c = sarek.binop gt %v, %z : i32
      sarek.yield %c : i1
    } do {
      %v = sarek.load %s : !sarek.ref<i32>
      %e = sarek.elem_ref %a[%v] : !sarek.vec<i32>
      sarek.store %e, %v : !sarek.ref<i32>
      %two = sarek.constant 2 : i32
      %h = sarek.binop div %v, %two : i32
      sarek.store %s, %h : !sarek.ref<i32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @w
// CHECK:       sarek.block {
// CHECK-NEXT:    %[[A:.*]] = sarek.constant 4 : i32
// CHECK-NEXT:    sarek.elem_ref %a[%[[A]]]
// CHECK:       sarek.block {
// CHECK-NEXT:    %[[B:.*]] = sarek.constant 2 : i32
// CHECK-NEXT:    sarek.elem_ref %a[%[[B]]]
// CHECK:       sarek.block {
// CHECK-NEXT:    %[[C:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:    sarek.elem_ref %a[%[[C]]]
// CHECK-NOT:   sarek.while
