// RUN: sarek-opt %S/../Inputs/loop_exits.mlir -p 'sarek-pipeline{target=glsl}' -t glsl | filecheck %s
// RUN: sarek-opt %S/../Inputs/loop_exits.mlir -p 'sarek-pipeline{target=wgsl}' -t wgsl | filecheck %s --check-prefix=WGSL
// GLSL and WGSL source of loop_exits.mlir: a helper's return inside a loop, a kernel's early return, a
// run-time step (evaluated once, its sign picks the test), continue/break in a while, a break inside a match
// through a flag (a switch's break leaves the switch), and no trace of the assert.

// CHECK-NOT: range() step
// CHECK:      int find_v(int sarek_pc_shadow_n_1, float x) {
// CHECK-NEXT:   for (int j = 0; j < sarek_pc_shadow_n_1; j += 1) {
// CHECK-NEXT:     if ((v[j] == x)) {
// CHECK-NEXT:       return j;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   return (-1);
// CHECK:      void main() {
// CHECK-NEXT:   if ((int(gl_GlobalInvocationID.x) >= n)) {
// CHECK-NEXT:     return;
// CHECK-NEXT:   }
// CHECK-NEXT:   int sarek_step = int(gl_WorkGroupSize.x * gl_NumWorkGroups.x);
// CHECK-NEXT:   for (int i = int(gl_GlobalInvocationID.x); (sarek_step > 0 && i < n) || (sarek_step < 0 && i > n); i += sarek_step) {
// CHECK:              continue;
// CHECK:              break;
// CHECK:          for (int q = 0; q < 3; q += 1) {
// CHECK-NEXT:       bool brk = false;
// CHECK-NEXT:       switch (sarek_t.tag) {
// CHECK-NEXT:         case 0: {
// CHECK-NEXT:           brk = true;
// CHECK-NEXT:           break;
// CHECK-NEXT:         }
// CHECK-NEXT:         case 1: {
// CHECK-NEXT:           continue;
// CHECK:            if (brk) {
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:       o[i] = (o[i] + q);
// CHECK-NOT: range() step

// WGSL-NOT: range() step
// WGSL:      fn find_v(n_1 : i32, x : f32) -> i32 {
// WGSL-NEXT:   for (var j : i32 = 0i; j < n_1; j += 1i) {
// WGSL-NEXT:     if ((v[j] == x)) {
// WGSL-NEXT:       return j;
// WGSL-NEXT:     }
// WGSL-NEXT:   }
// WGSL-NEXT:   return (-1i);
// WGSL:        if ((i32(sarek_gid.x) >= params.n)) {
// WGSL-NEXT:     return;
// WGSL-NEXT:   }
// WGSL-NEXT:   let sarek_step : i32 = i32(sarek_nwg.x * 256u);
// WGSL-NEXT:   for (var i : i32 = i32(sarek_gid.x); (sarek_step > 0i && i < params.n) || (sarek_step < 0i && i > params.n); i += sarek_step) {
// WGSL:              continue;
// WGSL:              break;
// WGSL:          for (var q : i32 = 0i; q < 3i; q += 1i) {
// WGSL-NEXT:       var brk : bool = false;
// WGSL-NEXT:       switch (sarek_t.tag) {
// WGSL-NEXT:         case 0i: {
// WGSL-NEXT:           brk = true;
// WGSL-NEXT:         }
// WGSL-NEXT:         case 1i: {
// WGSL-NEXT:           continue;
// WGSL-NEXT:         }
// WGSL:            if (brk) {
// WGSL-NEXT:         break;
// WGSL-NEXT:       }
// WGSL-NEXT:       o[i] = (o[i] + q);
// WGSL-NOT: range() step
