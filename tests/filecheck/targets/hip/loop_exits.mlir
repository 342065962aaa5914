// RUN: sarek-opt %S/../Inputs/loop_exits.mlir -p 'sarek-pipeline{target=hip}' -t hip | filecheck %s
// hip source of loop_exits.mlir: a helper's return inside a loop, a kernel's early return, a run-time
// step, continue/break in a while, a break inside a match through a flag (a switch's break leaves the
// switch), and no trace of the assert.
// CHECK-NOT: range() step
// CHECK:      __device__ int find(
// CHECK-NEXT:   for (int j = 0; j < n; j++) {
// CHECK-NEXT:     if (v[j] == x) {
// CHECK-NEXT:       return j;
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   return -1;
// CHECK:      extern "C" __global__ void loops(
// CHECK:        return;
// CHECK-NEXT:   }
// CHECK-NEXT:   for (int i = sarek_g; (sarek_gs > 0 && i < n) || (sarek_gs < 0 && i > n); i += sarek_gs) {
// CHECK:            continue;
// CHECK:            break;
// CHECK:          for (int q = 0; q < 3; q++) {
// CHECK-NEXT:       int brk = 0;
// CHECK-NEXT:       switch (sarek_c.tag) {
// CHECK-NEXT:         case Stop: {
// CHECK-NEXT:           brk = 1;
// CHECK-NEXT:           break;
// CHECK-NEXT:         }
// CHECK-NEXT:         case Skip: {
// CHECK-NEXT:           continue;
// CHECK:            if (brk) {
// CHECK-NEXT:         break;
// CHECK-NEXT:       }
// CHECK-NEXT:       o[i] = (o[i] + q);
// CHECK-NOT: range() step
