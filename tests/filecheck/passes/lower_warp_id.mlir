// RUN: sarek-opt %s -p 'sarek-lower-warp{target=cuda}' | filecheck %s

// warp_id is the linear thread index in the block divided by the warp size.
builtin.module {
  sarek.kernel @k(%c : !sarek.vec<i32> "c") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %z = sarek.constant 0 : i32
    %p = sarek.elem_ref %c[%z] : !sarek.vec<i32>
    sarek.store %p, %w : !sarek.ref<i32>
  }
}
// CHECK:      %[[TX:.*]] = sarek.intrinsic "thread_idx_x"() : () -> i32
// CHECK-NEXT: %[[BX:.*]] = sarek.intrinsic "block_dim_x"() : () -> i32
// CHECK-NEXT: %[[TY:.*]] = sarek.intrinsic "thread_idx_y"() : () -> i32
// CHECK-NEXT: %[[BY:.*]] = sarek.intrinsic "block_dim_y"() : () -> i32
// CHECK-NEXT: %[[TZ:.*]] = sarek.intrinsic "thread_idx_z"() : () -> i32
// CHECK-NEXT: %[[A:.*]] = sarek.binop mul %[[BY]], %[[TZ]] : i32
// CHECK-NEXT: %[[B:.*]] = sarek.binop add %[[TY]], %[[A]] : i32
// CHECK-NEXT: %[[C:.*]] = sarek.binop mul %[[BX]], %[[B]] : i32
// CHECK-NEXT: %[[L:.*]] = sarek.binop add %[[TX]], %[[C]] : i32
// CHECK-NEXT: %[[WS:.*]] = sarek.intrinsic "warp_size"() : () -> i32
// CHECK-NEXT: %[[W:.*]] = sarek.binop div %[[L]], %[[WS]] : i32
// CHECK:      sarek.store %{{.*}}, %[[W]] : !sarek.ref<i32>
// CHECK-NOT:  "warp_id"
