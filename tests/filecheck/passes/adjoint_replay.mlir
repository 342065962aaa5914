// RUN: sarek-opt %s -p 'sarek-adjoint{dynamic_tape=0}' | filecheck %s

// A loop with a run-time trip count whose product the reverse needs, with no tape (dynamic_tape=0, as for loops
// longer than the tape): each reverse iteration restores the local from its value at the loop's entry and
// replays the iterations before it (`j_k`).
builtin.module {
  sarek.kernel @replay(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out", %n: i32 "n") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant 1.0 : f32
    %p = sarek.let_mut "p" %1 : f32
    %2 = sarek.constant 0 : i32
    sarek.for "k" %k = %2 to %n step 1 : i32 {
      %3 = sarek.load %p : !sarek.ref<f32>
      %4 = sarek.array_read %x[%k] : !sarek.vec<f32>
      %5 = sarek.binop mul %3, %4 : f32
      sarek.store %p, %5 : !sarek.ref<f32>
    }
    %6 = sarek.load %p : !sarek.ref<f32>
    %7 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %7, %6 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @replay_adjoint(
// CHECK-NOT:     sarek.alloc_array
// CHECK:         %p_snap = sarek.let_mut "p_snap"
// CHECK:         %[[N:.*]] = sarek.intrinsic "max"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK:         sarek.for "r_k" %r_k = %{{.*}} to %[[N]] step 1 : i32 {
// CHECK:           %[[S:.*]] = sarek.load %p_snap : !sarek.ref<f32>
// CHECK-NEXT:      sarek.store %p, %[[S]] : !sarek.ref<f32>
// CHECK:           sarek.for "j_k" %j_k = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK:             sarek.binop mul
// CHECK:           }
// CHECK:           sarek.intrinsic "atomic_add"(%x_adj

