// RUN: sarek-opt %s | filecheck %s
// RUN: sarek-opt %s | sarek-opt | filecheck %s
// RUN: sarek-opt %s --print-op-generic | sarek-opt | filecheck %s

// A parsed value keeps the SSA name its text gives it: the name property of a binder (let, let_mut,
// alloc_array) is not its SSA name, so `%2 = sarek.let "c"` stays `%2` and print -> parse -> print is a fixed
// point from the first print (also from generic text, whose numbered names carry no hint).

sarek.kernel @names(%0 : f32 "x", %1 : i32 "n") {
  %2 = sarek.let "c" %0 : f32
  %3 = sarek.let_mut "m" %2 : f32
  %4 = sarek.alloc_array "s"[%1] : !sarek.array<f32, shared>
  %y = sarek.let "z" %2 : f32
  sarek.for "i" %5 = %1 to %1 step 1 : i32 {
    %6 = sarek.let "j" %5 : i32
  }
}
// CHECK:      sarek.kernel @names(%0: f32 "x", %1: i32 "n") {
// CHECK-NEXT:   %2 = sarek.let "c" %0 : f32
// CHECK-NEXT:   %3 = sarek.let_mut "m" %2 : f32
// CHECK-NEXT:   %4 = sarek.alloc_array "s"[%1] : !sarek.array<f32, shared>
// CHECK-NEXT:   %y = sarek.let "z" %2 : f32
// CHECK-NEXT:   sarek.for "i" %5 = %1 to %1 step 1 : i32 {
// CHECK-NEXT:     %6 = sarek.let "j" %5 : i32
// CHECK-NEXT:   }
// CHECK-NEXT: }
