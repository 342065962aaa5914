// RUN: sarek-opt %s -p sarek-adjoint --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-adjoint{max_slots=0}' --split-input-file | filecheck %s --check-prefix=OFF
// RUN: sarek-opt %s -p sarek-adjoint,sarek-verify-barriers --split-input-file | filecheck %s --check-prefix=VERIFY

// The generated warp sums are in converged control flow: sarek-verify-barriers accepts every adjoint here.
// VERIFY: sarek.kernel @stencil_adjoint(
// VERIFY: sarek.kernel @scalars_adjoint(
// VERIFY: sarek.kernel @nested_adjoint(
// VERIFY: sarek.kernel @alone_adjoint(

// The stencil's weights w[k], k the index of a constant-trip loop: every thread adds into the same 3 elements.
// The adjoint zeroes a private accumulator of 3 slots at its entry and declares a shared one for the block
// (shared arrays start at zero), adds w[k]'s adjoint into slot k where the reverse sweep reads it
// (x[(i + k) % n], per thread, keeps its atomic), and at the end of the kernel, outside the `if`, sums each slot
// over the warp (shuffle-xor with offsets 1, 2, 4, ... below warp_size, when the block is whole power-of-two
// warps) and adds it into the shared slot once (lane 0; every thread where the warps are not whole); after a
// barrier, thread 0 adds each shared slot into w_adj.
// The stencil's weights: w[k] in a constant-trip loop.
builtin.module {
  sarek.kernel @stencil(%x: !sarek.vec<f32> "x", %w: !sarek.vec<f32> "w", %out: !sarek.vec<f32> "out", %n: i32 "n") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.binop lt %i, %n : i32
    sarek.if %1 {
      %2 = sarek.constant 0.0 : f32
      %acc = sarek.let_mut "acc" %2 : f32
      %3 = sarek.constant 0 : i32
      %4 = sarek.constant 3 : i32
      sarek.for "k" %k = %3 to %4 step 1 : i32 {
        %5 = sarek.binop add %i, %k : i32
        %6 = sarek.binop rem %5, %n : i32
        %7 = sarek.array_read %w[%k] : !sarek.vec<f32>
        %8 = sarek.array_read %x[%6] : !sarek.vec<f32>
        %9 = sarek.binop mul %7, %8 : f32
        %10 = sarek.load %acc : !sarek.ref<f32>
        %11 = sarek.binop add %10, %9 : f32
        sarek.store %acc, %11 : !sarek.ref<f32>
      }
      %12 = sarek.load %acc : !sarek.ref<f32>
      %13 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
      sarek.store %13, %12 : !sarek.ref<f32>
    }
  }
}
// CHECK-LABEL: sarek.kernel @stencil_adjoint(
// CHECK-NEXT:    %[[S:.*]] = sarek.constant 3 : i32
// CHECK-NEXT:    %w_adj_acc = sarek.alloc_array "w_adj_acc"[%[[S]]] : !sarek.array<f32, local>
// CHECK:         sarek.for "z" %z = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK-NEXT:      %[[Z:.*]] = sarek.elem_ref %w_adj_acc[%z] : !sarek.array<f32, local>
// CHECK-NEXT:      %[[ZERO:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:      sarek.store %[[Z]], %[[ZERO]] : !sarek.ref<f32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[SB:.*]] = sarek.constant 3 : i32
// CHECK-NEXT:    %w_adj_block = sarek.alloc_array "w_adj_block"[%[[SB]]] : !sarek.array<f32, shared>
// CHECK:         sarek.if
// CHECK:           sarek.for "r_k" %r_k
// CHECK:             %[[K:.*]] = sarek.binop add %{{.*}}, %{{.*}} : i32
// CHECK:             sarek.array_read %w[%[[K]]] : !sarek.vec<f32>
// CHECK-NOT:         "atomic_add"(%w_adj
// CHECK:             sarek.intrinsic "atomic_add"(%x_adj, %{{.*}}, %{{.*}})
// CHECK-NOT:         "atomic_add"(%w_adj
// CHECK:             %[[SLOT:.*]] = sarek.elem_ref %w_adj_acc[%[[K]]] : !sarek.array<f32, local>
// CHECK-NEXT:        %[[OLD:.*]] = sarek.load %[[SLOT]] : !sarek.ref<f32>
// CHECK-NEXT:        %[[NEW:.*]] = sarek.binop add %[[OLD]], %{{.*}} : f32
// CHECK-NEXT:        sarek.store %[[SLOT]], %[[NEW]] : !sarek.ref<f32>
// CHECK-NEXT:      }
// CHECK:         }
// CHECK-NEXT:    sarek.block {
// CHECK-NEXT:      %[[WS:.*]] = sarek.intrinsic "warp_size"() : () -> i32
// CHECK-NEXT:      %ws = sarek.let "ws" %[[WS]] : i32
// CHECK-NEXT:      %[[L:.*]] = sarek.intrinsic "lane_id"() : () -> i32
// CHECK-NEXT:      %lane = sarek.let "lane" %[[L]] : i32
// CHECK:           sarek.binop bitand %ws
// CHECK:           %[[MAXW:.*]] = sarek.constant 128 : i32
// CHECK-NEXT:      sarek.binop le %ws, %[[MAXW]] : i32
// CHECK:           sarek.binop rem %{{.*}}, %ws : i32
// CHECK:           %whole_warps = sarek.let "whole_warps" %{{.*}} : i1
// CHECK-NEXT:      %[[NW:.*]] = sarek.unop not %whole_warps : i1
// CHECK-NEXT:      %[[L0:.*]] = sarek.binop eq %lane, %{{.*}} : i32
// CHECK-NEXT:      %[[A:.*]] = sarek.binop or %[[NW]], %[[L0]] : i1
// CHECK-NEXT:      %adds = sarek.let "adds" %[[A]] : i1
// CHECK:           sarek.for "e" %e = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK-NEXT:        %[[V:.*]] = sarek.array_read %w_adj_acc[%e] : !sarek.array<f32, local>
// CHECK-NEXT:        %warp_sum = sarek.let_mut "warp_sum" %[[V]] : f32
// CHECK-NEXT:        sarek.if %whole_warps {
// CHECK:               sarek.for "bit" %bit = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK-NEXT:            %[[ONE:.*]] = sarek.constant 1 : i32
// CHECK-NEXT:            %[[SHIFT:.*]] = sarek.binop shl %[[ONE]], %bit : i32
// CHECK-NEXT:            %[[IN:.*]] = sarek.binop lt %[[SHIFT]], %ws : i32
// CHECK-NEXT:            sarek.if %[[IN]] {
// CHECK-NEXT:              %[[CUR:.*]] = sarek.load %warp_sum : !sarek.ref<f32>
// CHECK-NEXT:              %[[OTHER:.*]] = sarek.intrinsic "warp_shuffle_xor"(%[[CUR]], %[[SHIFT]]) : (f32, i32) -> f32
// CHECK-NEXT:              %[[SUM:.*]] = sarek.binop add %[[CUR]], %[[OTHER]] : f32
// CHECK-NEXT:              sarek.store %warp_sum, %[[SUM]] : !sarek.ref<f32>
// CHECK:             sarek.if %adds {
// CHECK-NEXT:          %[[T:.*]] = sarek.load %warp_sum : !sarek.ref<f32>
// CHECK-NEXT:          sarek.intrinsic "atomic_add"(%w_adj_block, %e, %[[T]]) : (!sarek.array<f32, shared>, i32, f32) -> f32
// CHECK:             }
// CHECK-NEXT:      }
// CHECK-NEXT:      sarek.barrier
// CHECK:           %[[T0:.*]] = sarek.binop eq %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:      sarek.if %[[T0]] {
// CHECK:             sarek.for "e" %[[E:.*]] = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK-NEXT:          %[[B:.*]] = sarek.array_read %w_adj_block[%[[E]]] : !sarek.array<f32, shared>
// CHECK-NEXT:          sarek.intrinsic "atomic_add"(%w_adj, %[[E]], %[[B]]) : (!sarek.vec<f32>, i32, f32) -> f32

// Aggregation off: the weights' adjoints are added atomically where they are reversed.
// OFF-LABEL: sarek.kernel @stencil_adjoint(
// OFF-NOT:     w_adj_acc
// OFF-NOT:     sarek.barrier
// OFF:         sarek.intrinsic "atomic_add"(%w_adj
// OFF-NOT:     "warp_shuffle_xor"
// OFF-LABEL: sarek.kernel @scalars_adjoint(
// OFF-NOT:     _adj_acc
// OFF-LABEL: sarek.kernel @nested_adjoint(
// OFF-NOT:     _adj_acc

// -----

// Indices without a loop: a constant, a scalar parameter, a block index (the same on every thread of a block).
// Each read gets a scalar accumulator and a one-slot shared one (two reads of bias: two of each); x[i] keeps its
// atomic. Thread 0 recomputes block_idx_x at the end.
builtin.module {
  sarek.kernel @scalars(%x: !sarek.vec<f32> "x", %bias: !sarek.vec<f32> "bias", %gain: !sarek.vec<f32> "gain", %out: !sarek.vec<f32> "out", %c: i32 "c") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant 0 : i32
    %2 = sarek.array_read %bias[%1] : !sarek.vec<f32>
    %3 = sarek.array_read %bias[%c] : !sarek.vec<f32>
    %4 = sarek.intrinsic "block_idx_x"() : () -> i32
    %5 = sarek.array_read %gain[%4] : !sarek.vec<f32>
    %6 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %7 = sarek.binop mul %3, %6 : f32
    %8 = sarek.binop add %2, %7 : f32
    %9 = sarek.binop mul %8, %5 : f32
    %10 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %10, %9 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @scalars_adjoint(
// CHECK-NEXT:    %[[Z0:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:    %bias_adj_acc = sarek.let_mut "bias_adj_acc" %[[Z0]] : f32
// CHECK-NEXT:    %[[Z1:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:    %bias_adj_acc_1 = sarek.let_mut "bias_adj_acc" %[[Z1]] : f32
// CHECK-NEXT:    %[[Z2:.*]] = sarek.constant 0.0 : f32
// CHECK-NEXT:    %gain_adj_acc = sarek.let_mut "gain_adj_acc" %[[Z2]] : f32
// CHECK:         sarek.intrinsic "atomic_add"(%x_adj, %i, %{{.*}})
// CHECK:         sarek.store %gain_adj_acc
// CHECK:         sarek.store %bias_adj_acc_1
// CHECK:         sarek.store %bias_adj_acc
// CHECK:         sarek.block {
// CHECK:           sarek.load %bias_adj_acc : !sarek.ref<f32>
// CHECK:           sarek.if %adds {
// CHECK-NEXT:        %[[S0:.*]] = sarek.load %warp_sum : !sarek.ref<f32>
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%bias_adj_block, %{{.*}}, %[[S0]])
// CHECK:           sarek.load %bias_adj_acc_1 : !sarek.ref<f32>
// CHECK:           sarek.if %adds {
// CHECK-NEXT:        %[[S1:.*]] = sarek.load %warp_sum_1 : !sarek.ref<f32>
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%bias_adj_block_1, %{{.*}}, %[[S1]])
// CHECK:           sarek.load %gain_adj_acc : !sarek.ref<f32>
// CHECK:           sarek.if %adds {
// CHECK-NEXT:        %[[S2:.*]] = sarek.load %warp_sum_2 : !sarek.ref<f32>
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%gain_adj_block, %{{.*}}, %[[S2]])
// CHECK:           sarek.barrier
// CHECK:           sarek.if %{{.*}} {
// CHECK-NEXT:        %[[C0:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:        %[[V0:.*]] = sarek.array_read %bias_adj_block[%[[C0]]] : !sarek.array<f32, shared>
// CHECK-NEXT:        %[[I0:.*]] = sarek.constant 0 : i32
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%bias_adj, %[[I0]], %[[V0]])
// CHECK:             %[[V1:.*]] = sarek.array_read %bias_adj_block_1[%{{.*}}] : !sarek.array<f32, shared>
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%bias_adj, %c, %[[V1]])
// CHECK:             %[[V2:.*]] = sarek.array_read %gain_adj_block[%{{.*}}] : !sarek.array<f32, shared>
// CHECK-NEXT:        %[[B:.*]] = sarek.intrinsic "block_idx_x"() : () -> i32
// CHECK-NEXT:        sarek.intrinsic "atomic_add"(%gain_adj, %[[B]], %[[V2]])

// -----

// w[2k + j] in two constant-trip loops: 3 x 2 slots, slot = k * 2 + j where the reverse reads it; the flush
// turns slot e back into k = e / 2 and j = e % 2 and recomputes 2k + j from them.
builtin.module {
  sarek.kernel @nested(%w: !sarek.vec<f32> "w", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %z = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %z : f32
    %c0 = sarek.constant 0 : i32
    %c2 = sarek.constant 2 : i32
    %c3 = sarek.constant 3 : i32
    sarek.for "k" %k = %c0 to %c3 step 1 : i32 {
      sarek.for "j" %j = %c0 to %c2 step 1 : i32 {
        %1 = sarek.binop mul %k, %c2 : i32
        %2 = sarek.binop add %1, %j : i32
        %3 = sarek.array_read %w[%2] : !sarek.vec<f32>
        %4 = sarek.load %acc : !sarek.ref<f32>
        %5 = sarek.binop add %4, %3 : f32
        sarek.store %acc, %5 : !sarek.ref<f32>
      }
    }
    %6 = sarek.load %acc : !sarek.ref<f32>
    %7 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %7, %6 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @nested_adjoint(
// CHECK-NEXT:    %[[S:.*]] = sarek.constant 6 : i32
// CHECK-NEXT:    %w_adj_acc = sarek.alloc_array "w_adj_acc"[%[[S]]] : !sarek.array<f32, local>
// CHECK:         sarek.for "r_k" %r_k
// CHECK:           %[[K:.*]] = sarek.binop add %c0, %{{.*}} : i32
// CHECK:           sarek.for "r_j" %r_j
// CHECK:             %[[J:.*]] = sarek.binop add %c0, %{{.*}} : i32
// CHECK-NOT:         "atomic_add"
// CHECK:             %[[TJ:.*]] = sarek.constant 2 : i32
// CHECK-NEXT:        %[[KJ:.*]] = sarek.binop mul %[[K]], %[[TJ]] : i32
// CHECK-NEXT:        %[[SL:.*]] = sarek.binop add %[[KJ]], %[[J]] : i32
// CHECK-NEXT:        sarek.elem_ref %w_adj_acc[%[[SL]]] : !sarek.array<f32, local>
// CHECK:         sarek.for "e" %e
// CHECK:             sarek.intrinsic "atomic_add"(%w_adj_block, %e, %{{.*}})
// CHECK:         sarek.barrier
// CHECK:         sarek.for "e" %[[E:.*]] = %{{.*}} to %{{.*}} step 1 : i32 {
// CHECK-NEXT:      %[[V:.*]] = sarek.array_read %w_adj_block[%[[E]]] : !sarek.array<f32, shared>
// CHECK-NEXT:      %[[TWO:.*]] = sarek.constant 2 : i32
// CHECK-NEXT:      %[[EJ:.*]] = sarek.binop rem %[[E]], %[[TWO]] : i32
// CHECK-NEXT:      %[[EK:.*]] = sarek.binop div %[[E]], %[[TWO]] : i32
// CHECK-NEXT:      %[[C2:.*]] = sarek.constant 2 : i32
// CHECK-NEXT:      %[[M:.*]] = sarek.binop mul %[[EK]], %[[C2]] : i32
// CHECK-NEXT:      %[[IX:.*]] = sarek.binop add %[[M]], %[[EJ]] : i32
// CHECK-NEXT:      sarek.intrinsic "atomic_add"(%w_adj, %[[IX]], %[[V]])

// -----

// Left alone (atomics where the reverse reads): x[i] (the thread index), w[idx[0]] (read from memory), w[q]
// (a mutable), w[k] in a loop with a run-time trip count, and w[t] in a loop of 64 iterations (more slots than
// max_slots, 32).
builtin.module {
  sarek.kernel @alone(%x: !sarek.vec<f32> "x", %w: !sarek.vec<f32> "w", %idx: !sarek.vec<i32> "idx", %out: !sarek.vec<f32> "out", %m: i32 "m") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %z = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %z : f32
    %c0 = sarek.constant 0 : i32
    %c1 = sarek.constant 1 : i32
    %c64 = sarek.constant 64 : i32
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32>
    %2 = sarek.array_read %idx[%c0] : !sarek.vec<i32>
    %3 = sarek.array_read %w[%2] : !sarek.vec<f32>
    %q = sarek.let_mut "q" %c1 : i32
    %4 = sarek.load %q : !sarek.ref<i32>
    %5 = sarek.array_read %w[%4] : !sarek.vec<f32>
    %6 = sarek.binop add %1, %3 : f32
    %7 = sarek.binop add %6, %5 : f32
    sarek.store %acc, %7 : !sarek.ref<f32>
    sarek.for "k" %k = %c0 to %m step 1 : i32 {
      %8 = sarek.array_read %w[%k] : !sarek.vec<f32>
      %9 = sarek.load %acc : !sarek.ref<f32>
      %10 = sarek.binop add %9, %8 : f32
      sarek.store %acc, %10 : !sarek.ref<f32>
    }
    sarek.for "t" %t = %c0 to %c64 step 1 : i32 {
      %11 = sarek.array_read %w[%t] : !sarek.vec<f32>
      %12 = sarek.load %acc : !sarek.ref<f32>
      %13 = sarek.binop add %12, %11 : f32
      sarek.store %acc, %13 : !sarek.ref<f32>
    }
    %14 = sarek.load %acc : !sarek.ref<f32>
    %15 = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %15, %14 : !sarek.ref<f32>
  }
}
// CHECK-LABEL: sarek.kernel @alone_adjoint(
// CHECK-NOT:     _adj_acc
// CHECK-NOT:     "warp_shuffle_xor"
// CHECK-NOT:     sarek.block
// CHECK-NOT:     sarek.barrier
// CHECK:         sarek.for "r_t"
// CHECK:           sarek.intrinsic "atomic_add"(%w_adj, %{{.*}}, %{{.*}})
// CHECK:         sarek.for "r_k"
// CHECK:           sarek.intrinsic "atomic_add"(%w_adj, %{{.*}}, %{{.*}})
// CHECK:         sarek.intrinsic "atomic_add"(%w_adj, %{{.*}}, %{{.*}})
// CHECK-NEXT:    sarek.load
// CHECK-NEXT:    sarek.intrinsic "atomic_add"(%w_adj, %{{.*}}, %{{.*}})
// CHECK-NEXT:    sarek.load
// CHECK-NEXT:    sarek.intrinsic "atomic_add"(%x_adj, %i, %{{.*}})
// CHECK-NOT:     "warp_shuffle_xor"
