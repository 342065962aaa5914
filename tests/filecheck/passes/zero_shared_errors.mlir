// RUN: sarek-opt %s -p 'sarek-zero-shared{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s

// A shared array's size must be computable at kernel entry (constants and the block's dimensions): a size
// read from a vector is refused, located at the declaration.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i32> "v") {
    %c0 = sarek.constant 0 : i32
    %n = sarek.array_read %v[%c0] : !sarek.vec<i32>
    %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared> loc("k.py":4:9)
    %x = sarek.array_read %s[%c0] : !sarek.array<f32, shared>
  }
}
// CHECK: k.py:4:9: error: GLSL: the size of shared array 's' must be computed from constants and the block's dimensions (shared arrays are allocated when the kernel starts)

// -----
// A size computed from the block's dimensions moves with the array (the shader lowering folds it).
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %c0 = sarek.constant 0 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %p = sarek.binop lt %t, %c0 : i32
    sarek.if %p {
      %d = sarek.intrinsic "block_dim_x"() : () -> i32
      %c2 = sarek.constant 2 : i32
      %n = sarek.binop mul %d, %c2 : i32
      %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
      %x = sarek.array_read %s[%c0] : !sarek.array<f32, shared>
    }
  }
}
// CHECK:      sarek.kernel @k(
// CHECK-NEXT:   %[[D:.*]] = sarek.intrinsic "block_dim_x"() : () -> i32
// CHECK-NEXT:   %[[C2:.*]] = sarek.constant 2 : i32
// CHECK-NEXT:   %[[N:.*]] = sarek.binop mul %[[D]], %[[C2]] : i32
// CHECK-NEXT:   %s = sarek.alloc_array "s"[%[[N]]] : !sarek.array<f32, shared>
// CHECK:        sarek.binop lt %{{.*}}, %[[N]] : i32
// CHECK:        sarek.barrier
