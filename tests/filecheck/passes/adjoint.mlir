// RUN: sarek-opt %s -p sarek-adjoint --split-input-file | filecheck %s

// Straight-line code: k's parameters then one adjoint vector per f32/f64 vector; a read of a differentiable
// vector becomes an atomic add into its adjoint, a write becomes a read of the output's adjoint (the primal
// write is not repeated), `mul` sends r*y to x and r*x to y; a scalar parameter's adjoint stays local.
builtin.module {
  sarek.kernel @saxpy(%a: f32 "a", %x: !sarek.vec<f32> "x", %y: !sarek.vec<f32> "y", %n: i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %xi = sarek.array_read %x[%i] : !sarek.vec<f32>
    %v = sarek.binop mul %a, %xi : f32
    %r = sarek.elem_ref %y[%i] : !sarek.vec<f32>
    sarek.store %r, %v : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @saxpy_adjoint(%a: f32 "a", %x: !sarek.vec<f32> "x", %y: !sarek.vec<f32> "y", %n: i32 "n", %x_adj: !sarek.vec<f32> "x_adj", %y_adj: !sarek.vec<f32> "y_adj")
// CHECK:         %a_adj = sarek.let_mut "a_adj"
// CHECK:         %xi = sarek.array_read %x[%i] : !sarek.vec<f32>
// CHECK:         %v = sarek.binop mul %a, %xi : f32
// CHECK-NOT:     sarek.store %r
// CHECK:         %[[DY:.*]] = sarek.array_read %y_adj[%i] : !sarek.vec<f32>
// CHECK:         sarek.store %v_adj
// CHECK:         %[[DV:.*]] = sarek.load %v_adj
// CHECK-NEXT:    %[[DA:.*]] = sarek.binop mul %[[DV]], %xi : f32
// CHECK:         sarek.store %a_adj
// CHECK:         %[[DX:.*]] = sarek.binop mul %[[DV]], %a : f32
// CHECK:         sarek.store %xi_adj
// CHECK:         %[[G:.*]] = sarek.load %xi_adj
// CHECK-NEXT:    sarek.intrinsic "atomic_add"(%x_adj, %i, %[[G]]) : (!sarek.vec<f32>, i32, f32) -> f32
// CHECK-NOT:     sarek.store %r

// -----

// An `if` is recomputed, then reversed under the same condition: sin's derivative is cos of the forward value;
// `v * v` sends the adjoint to v twice. Nothing after the `if` reads what it changes, so the forward copy does
// not run it (its reverse recomputes it).
builtin.module {
  sarek.kernel @branch(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %v = sarek.let "v" %1 : f32
    %2 = sarek.constant 0.0 : f32
    %3 = sarek.binop gt %v, %2 : f32
    sarek.if %3 {
      %4 = sarek.intrinsic "sin"(%v) : (f32) -> f32
      %5 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
      sarek.store %5, %4 : !sarek.ref<f32>
    } else {
      %6 = sarek.binop mul %v, %v : f32
      %7 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
      sarek.store %7, %6 : !sarek.ref<f32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @branch_adjoint(
// CHECK:         %[[C:.*]] = sarek.binop gt %v, %{{.*}} : f32
// CHECK-NOT:     "sin"
// CHECK:         sarek.if %[[C]] {
// CHECK:           sarek.intrinsic "sin"(%v)
// CHECK:           sarek.array_read %out_adj[%i]
// CHECK:           sarek.intrinsic "cos"(%v) : (f32) -> f32
// CHECK:         } else {
// CHECK:           sarek.array_read %out_adj[%i]
// CHECK:           sarek.binop mul %{{.*}}, %v : f32
// CHECK:           sarek.binop mul %{{.*}}, %v : f32
// CHECK:         }
// CHECK:         sarek.intrinsic "atomic_add"(%x_adj, %i, %{{.*}})

// -----

// A constant-trip loop whose product the reverse needs: the forward loop stores the local at the start of each
// iteration on a tape (a local array); the reverse loop runs the iterations backwards, restores the local from
// the tape, recomputes the body and reverses it.
builtin.module {
  sarek.kernel @tape(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant 1.0 : f32
    %p = sarek.let_mut "p" %1 : f32
    %2 = sarek.constant 4 : i32
    %3 = sarek.constant 0 : i32
    sarek.for "k" %k = %3 to %2 step 1 : i32 {
      %4 = sarek.load %p : !sarek.ref<f32>
      %5 = sarek.array_read %x[%k] : !sarek.vec<f32>
      %6 = sarek.binop mul %4, %5 : f32
      sarek.store %p, %6 : !sarek.ref<f32>
    }
    %7 = sarek.load %p : !sarek.ref<f32>
    %8 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %8, %7 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @tape_adjoint(
// CHECK:         %p_tape = sarek.alloc_array "p_tape"[%{{.*}}] : !sarek.array<f32, local>
// CHECK:         sarek.for "k" %k = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK:           %[[E:.*]] = sarek.elem_ref %p_tape[%{{.*}}] : !sarek.array<f32, local>
// CHECK-NEXT:      %[[P:.*]] = sarek.load %p : !sarek.ref<f32>
// CHECK-NEXT:      sarek.store %[[E]], %[[P]] : !sarek.ref<f32>
// CHECK:         sarek.for "r_k" %r_k = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK:           %[[IT:.*]] = sarek.binop sub %{{.*}}, %r_k : i32
// CHECK:           %[[T:.*]] = sarek.array_read %p_tape[%[[IT]]] : !sarek.array<f32, local>
// CHECK-NEXT:      sarek.store %p, %[[T]] : !sarek.ref<f32>
// CHECK:           sarek.binop mul
// CHECK:           sarek.intrinsic "atomic_add"(%x_adj
// CHECK:         }

// -----

// A loop with a run-time trip count whose product the reverse needs: the forward loop tapes the local for the
// first 256 iterations (the dynamic_tape option); each reverse iteration reads the tape when the loop fitted,
// else restores the local from the loop's entry and replays the iterations before it (`j_k`).
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
// CHECK:         %p_tape = sarek.alloc_array "p_tape"[%{{.*}}] : !sarek.array<f32, local>
// CHECK:         sarek.for "k"
// CHECK:           %[[IN:.*]] = sarek.binop lt %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      sarek.if %[[IN]] {
// CHECK-NEXT:        sarek.elem_ref %p_tape
// CHECK:         sarek.for "r_k" %r_k = %{{.*}} to %[[N:.*]] step 1 : i32 {
// CHECK:           %[[C:.*]] = sarek.constant 256 : i32
// CHECK-NEXT:      %[[FITS:.*]] = sarek.binop le %[[N]], %[[C]] : i32
// CHECK-NEXT:      sarek.if %[[FITS]] {
// CHECK-NEXT:        %[[T:.*]] = sarek.array_read %p_tape[%{{.*}}] : !sarek.array<f32, local>
// CHECK-NEXT:        sarek.store %p, %[[T]] : !sarek.ref<f32>
// CHECK-NEXT:      } else {
// CHECK:             sarek.load %p_snap
// CHECK:             sarek.for "j_k"
// CHECK:           sarek.intrinsic "atomic_add"(%x_adj
// -----

// A local that only accumulates with `+` needs neither tape nor replay: its adjoint flows unchanged.
builtin.module {
  sarek.kernel @accumulate(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out", %n: i32 "n") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant 0.0 : f32
    %s = sarek.let_mut "s" %1 : f32
    %2 = sarek.constant 0 : i32
    sarek.for "k" %k = %2 to %n step 1 : i32 {
      %3 = sarek.load %s : !sarek.ref<f32>
      %4 = sarek.array_read %x[%k] : !sarek.vec<f32>
      %5 = sarek.binop add %3, %4 : f32
      sarek.store %s, %5 : !sarek.ref<f32>
    }
    %6 = sarek.load %s : !sarek.ref<f32>
    %7 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %7, %6 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @accumulate_adjoint(
// CHECK-NOT:     sarek.alloc_array
// CHECK:         sarek.for "r_k"
// CHECK-NOT:     sarek.for "j_k"
// CHECK:           sarek.intrinsic "atomic_add"(%x_adj

// -----

// Records: a field store moves the field's adjoint to the stored value and clears it; a field read adds into the
// record's adjoint field; make_record hands each field's adjoint to its operand.
builtin.module {
  sarek.record @P {x : f32, y : f32}
  sarek.kernel @rec(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %2 = sarek.constant 2.0 : f32
    %3 = sarek.make_record @P(%1, %2)
    %p = sarek.let_mut "p" %3 : !sarek.record<@P>
    %4 = sarek.load %p : !sarek.ref<!sarek.record<@P>>
    %5 = sarek.field %4 "x" : f32
    %6 = sarek.load %p : !sarek.ref<!sarek.record<@P>>
    %7 = sarek.field %6 "y" : f32
    %8 = sarek.binop mul %5, %7 : f32
    %9 = sarek.field_ref %p "y" : !sarek.ref<f32>
    sarek.store %9, %8 : !sarek.ref<f32>
    %10 = sarek.load %p : !sarek.ref<!sarek.record<@P>>
    %11 = sarek.field %10 "y" : f32
    %12 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %12, %11 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @rec_adjoint(
// CHECK:         %p_adj = sarek.let_mut "p_adj" %{{.*}} : !sarek.record<@P>
// CHECK:         %[[OUT:.*]] = sarek.array_read %out_adj[%i]
// CHECK:         sarek.field_ref %p_adj "y" : !sarek.ref<f32>
// CHECK:         %[[Z:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:    sarek.store %{{.*}}, %[[Z]] : !sarek.ref<f32>
// CHECK:         sarek.field_ref %p_adj "x" : !sarek.ref<f32>
// CHECK:         sarek.intrinsic "atomic_add"(%x_adj, %i

// -----

// Shared memory: a zeroed shared adjoint array (the block zeroes it, then a barrier); reads add atomically into
// it, barriers stay in place, the write reads the adjoint back and clears it.
builtin.module {
  sarek.kernel @shmem(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.constant 32 : i32
    %s = sarek.alloc_array "s"[%0] : !sarek.array<f32, shared>
    %1 = sarek.intrinsic "thread_idx_x"() : () -> i32
    %t = sarek.let "t" %1 : i32
    %2 = sarek.array_read %x[%t] : !sarek.vec<f32>
    %3 = sarek.elem_ref %s[%t] : !sarek.array<f32, shared>
    sarek.store %3, %2 : !sarek.ref<f32>
    sarek.barrier
    %4 = sarek.constant 31 : i32
    %5 = sarek.binop sub %4, %t : i32
    %6 = sarek.array_read %s[%5] : !sarek.array<f32, shared>
    %7 = sarek.elem_ref %out[%t] : !sarek.vec<f32>
    sarek.store %7, %6 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @shmem_adjoint(
// CHECK:         %s = sarek.alloc_array "s"[%0] : !sarek.array<f32, shared>
// CHECK-NEXT:    %s_adj = sarek.alloc_array "s_adj"[%0] : !sarek.array<f32, shared>
// CHECK:         sarek.for "z" %z = %{{.*}} to %0 step %{{.*}} : i32 {
// CHECK:         sarek.barrier
// CHECK:         sarek.store %{{.*}}, %{{.*}} : !sarek.ref<f32>
// CHECK:         sarek.barrier
// CHECK:         %[[R:.*]] = sarek.binop sub %{{.*}}, %t : i32
// CHECK:         sarek.intrinsic "atomic_add"(%s_adj, %[[R]], %{{.*}}) : (!sarek.array<f32, shared>, i32, f32) -> f32
// CHECK-NEXT:    sarek.barrier
// CHECK-NEXT:    %[[E:.*]] = sarek.elem_ref %s_adj[%t] : !sarek.array<f32, shared>
// CHECK-NEXT:    sarek.load %[[E]]
// CHECK:         sarek.intrinsic "atomic_add"(%x_adj, %t

// -----

// max: the adjoint goes to the operand the result is (the first on ties), chosen from the forward values.
builtin.module {
  sarek.kernel @minmax(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %2 = sarek.constant 0.0 : f32
    %3 = sarek.intrinsic "max"(%1, %2) : (f32, f32) -> f32
    %4 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %4, %3 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @minmax_adjoint(
// CHECK:         %[[M:.*]] = sarek.intrinsic "max"(%[[A:.*]], %[[B:.*]]) : (f32, f32) -> f32
// CHECK:         %[[C:.*]] = sarek.binop ge %[[A]], %[[B]] : f32
// CHECK:         sarek.if_expr %[[C]] -> f32

// -----

// Helpers are inlined first; one that returns from inside an `if` stores its result into a local, and the rest
// of its body moves into the branch that does not return.
builtin.module {
  sarek.helper @relu(%v: f32 "v") -> f32 {
    %0 = sarek.constant 0.0 : f32
    %1 = sarek.binop gt %v, %0 : f32
    sarek.if %1 {
      sarek.return %v : f32
    }
    %2 = sarek.constant 0.0 : f32
    sarek.return %2 : f32
  }
  sarek.kernel @nested_ret(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %2 = sarek.call @relu(%1) : (f32) -> f32
    %3 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %3, %2 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @nested_ret_adjoint(
// CHECK-NOT:     sarek.call
// CHECK:         %relu_result = sarek.let_mut "relu_result"
// CHECK:         sarek.if %{{.*}} {
// CHECK-NEXT:      sarek.store %relu_result, %{{.*}} : !sarek.ref<f32>
// CHECK-NEXT:    } else {
// CHECK:           sarek.store %relu_result, %{{.*}} : !sarek.ref<f32>
// CHECK-NEXT:    }
// CHECK-NOT:     sarek.return
// CHECK:         %relu_result_adj = sarek.let_mut "relu_result_adj"

// -----

// An N-dimensional vector: the atomic add into its adjoint takes the row-major flat index (i * shape[1] + j).
builtin.module {
  sarek.kernel @matrix(%a: !sarek.vec<f32, 2> "a", %out: !sarek.vec<f32, 2> "out") {
    %0 = sarek.intrinsic "global_idx_y"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.intrinsic "global_idx_x"() : () -> i32
    %j = sarek.let "j" %1 : i32
    %2 = sarek.array_dim %a, 0 : !sarek.vec<f32, 2>
    %3 = sarek.binop lt %i, %2 : i32
    %4 = sarek.if_expr %3 -> i1 {
      %5 = sarek.array_dim %a, 1 : !sarek.vec<f32, 2>
      %6 = sarek.binop lt %j, %5 : i32
      sarek.yield %6 : i1
    } else {
      %7 = sarek.constant false
      sarek.yield %7 : i1
    }
    sarek.if %4 {
      %8 = sarek.array_read %a[%i, %j] : !sarek.vec<f32, 2>
      %9 = sarek.intrinsic "exp"(%8) : (f32) -> f32
      %10 = sarek.constant 1 : i32
      %11 = sarek.binop add %j, %10 : i32
      %12 = sarek.array_dim %a, 1 : !sarek.vec<f32, 2>
      %13 = sarek.binop rem %11, %12 : i32
      %14 = sarek.array_read %a[%i, %13] : !sarek.vec<f32, 2>
      %15 = sarek.binop mul %9, %14 : f32
      %16 = sarek.elem_ref %out[%i, %j] : !sarek.vec<f32, 2>
      sarek.store %16, %15 : !sarek.ref<f32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @matrix_adjoint(%a: !sarek.vec<f32, 2> "a", %out: !sarek.vec<f32, 2> "out", %a_adj: !sarek.vec<f32, 2> "a_adj", %out_adj: !sarek.vec<f32, 2> "out_adj")
// CHECK:         sarek.array_read %out_adj[%i, %j] : !sarek.vec<f32, 2>
// CHECK:         %[[D:.*]] = sarek.array_dim %a_adj, 1 : !sarek.vec<f32, 2>
// CHECK-NEXT:    %[[M:.*]] = sarek.binop mul %i, %[[D]] : i32
// CHECK-NEXT:    %[[F:.*]] = sarek.binop add %[[M]], %{{.*}} : i32
// CHECK-NEXT:    sarek.intrinsic "atomic_add"(%a_adj, %[[F]], %{{.*}}) : (!sarek.vec<f32, 2>, i32, f32) -> f32
