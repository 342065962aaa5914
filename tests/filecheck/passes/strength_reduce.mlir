// RUN: sarek-opt %s -p sarek-strength-reduce | filecheck %s

// `k * n` (n invariant) in a step-2 loop becomes a variable starting at lo*n, advanced by n*2 at the end of
// each iteration; a product with a value defined in the loop, and any loop holding a return, stay.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a", %lo : i32 "lo", %hi : i32 "hi", %n : i32 "n") {
    sarek.for "k" %k = %lo to %hi step 2 : i32 {
      %p = sarek.binop mul %k, %n : i32
      %q = sarek.binop mul %k, %p : i32
      %e = sarek.elem_ref %a[%p] : !sarek.vec<i32>
      sarek.store %e, %q : !sarek.ref<i32>
    }
  }
  sarek.helper @h(%lo : i32 "lo", %n : i32 "n") -> i32 {
    sarek.for "k" %k = %lo to %n step 1 : i32 {
      %p = sarek.binop mul %k, %n : i32
      sarek.return %p : i32
    }
    sarek.return %n : i32
  }
}
// CHECK:      %[[I:.*]] = sarek.binop mul %lo, %n : i32
// CHECK-NEXT: %k_x = sarek.let_mut "k_x" %[[I]] : i32
// CHECK-NEXT: %[[S:.*]] = sarek.constant 2 : i32
// CHECK-NEXT: %[[D:.*]] = sarek.binop mul %n, %[[S]] : i32
// CHECK-NEXT: sarek.for "k" %k = %lo to %hi step 2 : i32 {
// CHECK-NEXT:   %[[P:.*]] = sarek.load %k_x : !sarek.ref<i32>
// CHECK-NEXT:   %q = sarek.binop mul %k, %[[P]] : i32
// CHECK-NEXT:   %e = sarek.elem_ref %a[%[[P]]]
// CHECK-NEXT:   sarek.store %e, %q
// CHECK-NEXT:   %[[N:.*]] = sarek.binop add %[[P]], %[[D]] : i32
// CHECK-NEXT:   sarek.store %k_x, %[[N]] : !sarek.ref<i32>
// CHECK-NEXT: }
// CHECK:      sarek.helper @h
// CHECK-NEXT:   sarek.for "k"
// CHECK-NEXT:     %p = sarek.binop mul %k, %n
