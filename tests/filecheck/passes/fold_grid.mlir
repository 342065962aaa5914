// RUN: sarek-opt %s -p 'sarek-fold-grid{kernel=k}' | filecheck %s
// RUN: sarek-opt %s -p 'sarek-fold-grid{kernel=k},sarek-fold-grid{kernel=k}' --verify-diagnostics | filecheck %s --check-prefix=TWICE
// RUN: sarek-opt %s -p 'sarek-fold-grid{kernel=nope}' --verify-diagnostics | filecheck %s --check-prefix=NOPE
// RUN: sarek-opt %s -p 'sarek-fold-grid' --verify-diagnostics | filecheck %s --check-prefix=NONE

// Every grid-dependent index is recomputed from the appended base/grid parameters; thread_idx and
// block_dim are untouched, and so is a kernel that is not named.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i32> "v") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %b = sarek.intrinsic "block_idx_y"() : () -> i32
    %n = sarek.intrinsic "grid_dim_x"() : () -> i32
    %s = sarek.intrinsic "global_size_z"() : () -> i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %a = sarek.binop add %g, %b : i32
    %c = sarek.binop add %n, %s : i32
    %d = sarek.binop add %a, %c : i32
    %p = sarek.elem_ref %v[%t] : !sarek.vec<i32>
    sarek.store %p, %d : !sarek.ref<i32>
  }
  sarek.kernel @other(%v : !sarek.vec<i32> "v") {
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %p = sarek.elem_ref %v[%b] : !sarek.vec<i32>
    sarek.store %p, %b : !sarek.ref<i32>
  }
}

// CHECK:      sarek.kernel @k(%v: !sarek.vec<i32> "v", %sarek_grid_base_x: i32 "sarek_grid_base_x", %sarek_grid_base_y: i32 "sarek_grid_base_y", %sarek_grid_base_z: i32 "sarek_grid_base_z", %sarek_grid_dim_x: i32 "sarek_grid_dim_x", %sarek_grid_dim_y: i32 "sarek_grid_dim_y", %sarek_grid_dim_z: i32 "sarek_grid_dim_z") {
// CHECK-NEXT:   %[[BX:.*]] = sarek.intrinsic "block_idx_x"() : () -> i32
// CHECK-NEXT:   %[[B:.*]] = sarek.binop add %[[BX]], %sarek_grid_base_x : i32
// CHECK-NEXT:   %[[DX:.*]] = sarek.intrinsic "block_dim_x"() : () -> i32
// CHECK-NEXT:   %[[TX:.*]] = sarek.intrinsic "thread_idx_x"() : () -> i32
// CHECK-NEXT:   %[[M:.*]] = sarek.binop mul %[[B]], %[[DX]] : i32
// CHECK-NEXT:   %[[G:.*]] = sarek.binop add %[[M]], %[[TX]] : i32
// CHECK-NEXT:   %[[BY:.*]] = sarek.intrinsic "block_idx_y"() : () -> i32
// CHECK-NEXT:   %[[Y:.*]] = sarek.binop add %[[BY]], %sarek_grid_base_y : i32
// CHECK-NEXT:   %[[DZ:.*]] = sarek.intrinsic "block_dim_z"() : () -> i32
// CHECK-NEXT:   %[[S:.*]] = sarek.binop mul %sarek_grid_dim_z, %[[DZ]] : i32
// CHECK-NEXT:   %t = sarek.intrinsic "thread_idx_x"() : () -> i32
// CHECK-NEXT:   %a = sarek.binop add %[[G]], %[[Y]] : i32
// CHECK-NEXT:   %c = sarek.binop add %sarek_grid_dim_x, %[[S]] : i32
// CHECK:      sarek.kernel @other(%v: !sarek.vec<i32> "v") {
// CHECK-NEXT:   %b = sarek.intrinsic "block_idx_x"() : () -> i32

// TWICE: error: sarek-fold-grid: kernel 'k' is folded already
// NOPE: error: sarek-fold-grid: no kernel 'nope' in the module
// NONE: error: sarek-fold-grid: give the kernel to fold (sarek-fold-grid{kernel=NAME})
