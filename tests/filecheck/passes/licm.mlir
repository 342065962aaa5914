// RUN: sarek-opt %s -p sarek-licm | filecheck %s

// Invariant pure expressions leave for and while loops (through a `let` of an outside value, which stays),
// inner loops first so they rise through both; a division by a variable, memory reads, a variable the loop
// writes and anything depending on the index stay. A load of a variable the loop never writes moves.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %n : i32 "n", %d : i32 "d") {
    %z = sarek.constant 0 : i32
    %acc = sarek.let_mut "acc" %z : i32
    %lim = sarek.let_mut "lim" %n : i32
    sarek.for "i" %i = %z to %n step 1 : i32 {
      sarek.for "j" %j = %z to %n step 1 : i32 {
        %nl = sarek.let "nl" %n : i32
        %nn = sarek.binop mul %nl, %nl : i32
        %q = sarek.binop div %n, %d : i32
        %two = sarek.constant 2 : i32
        %h = sarek.binop div %n, %two : i32
        %r = sarek.array_read %a[%z] : !sarek.vec<f32>
        %l = sarek.load %lim : !sarek.ref<i32>
        %ij = sarek.binop add %i, %nn : i32
        %v = sarek.load %acc : !sarek.ref<i32>
        %s1 = sarek.binop add %v, %ij : i32
        %s2 = sarek.binop add %s1, %q : i32
        %s3 = sarek.binop add %s2, %h : i32
        %s4 = sarek.binop add %s3, %l : i32
        sarek.store %acc, %s4 : !sarek.ref<i32>
      }
    }
  }
}
// CHECK:      %lim = sarek.let_mut "lim" %n : i32
// CHECK-NEXT: %nn = sarek.binop mul %n, %n : i32
// CHECK-NEXT: %two = sarek.constant 2 : i32
// CHECK-NEXT: %h = sarek.binop div %n, %two : i32
// CHECK-NEXT: %l = sarek.load %lim : !sarek.ref<i32>
// CHECK-NEXT: sarek.for "i"
// CHECK-NEXT:   %ij = sarek.binop add %i, %nn : i32
// CHECK-NEXT:   sarek.for "j"
// CHECK-NEXT:     %nl = sarek.let "nl" %n : i32
// CHECK-NEXT:     %q = sarek.binop div %n, %d : i32
// CHECK-NEXT:     %r = sarek.array_read %a[%z]
// CHECK-NEXT:     %v = sarek.load %acc
