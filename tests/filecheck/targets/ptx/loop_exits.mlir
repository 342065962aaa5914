// RUN: sarek-opt %S/../Inputs/loop_exits.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// PTX of loop_exits.mlir: a kernel's early return is `ret`; a run-time step tests its sign at the loop head
// ((s > 0 && i < hi) || (s < 0 && i > hi)); `continue` branches to the loop's next-iteration label (a for's
// increment, a while's head), `break` to its end, from inside a match too; a helper's return inside a loop
// branches to the end of its inlined call; no trace of the assert.

// CHECK-NOT:  setp.ne.s32 %p{{[0-9]+}}, %s{{[0-9]+}}, 0;
// CHECK:        @!%p1 bra $L_endif_2;
// CHECK-NEXT:   ret;
// CHECK-NEXT: $L_endif_2:
// CHECK:      $L_for_3:
// CHECK-NEXT:   setp.gt.s32 %p2, %[[S:s[0-9]+]], 0;
// CHECK-NEXT:   setp.lt.s32 %p3, %[[I:s[0-9]+]], %[[N:s[0-9]+]];
// CHECK-NEXT:   and.pred %p4, %p2, %p3;
// CHECK-NEXT:   setp.lt.s32 %p5, %[[S]], 0;
// CHECK-NEXT:   setp.gt.s32 %p6, %[[I]], %[[N]];
// CHECK-NEXT:   and.pred %p7, %p5, %p6;
// CHECK-NEXT:   or.pred %p8, %p4, %p7;
// CHECK-NEXT:   @!%p8 bra $L_endfor_5;
// CHECK:      $L_while_6:
// CHECK:        @!%p10 bra $L_endif_9;
// CHECK-NEXT:   bra $L_while_6;
// CHECK:        @!%p11 bra $L_endif_11;
// CHECK-NEXT:   bra $L_endwhile_7;
// CHECK:        bra $L_while_6;
// CHECK-NEXT: $L_endwhile_7:
// CHECK:      $L_for_12:
// CHECK:        @%p13 bra $L_case_16;
// CHECK-NEXT:   bra $L_endfor_14;
// CHECK:        @%p14 bra $L_case_17;
// CHECK-NEXT:   bra $L_fornext_13;
// CHECK:      $L_fornext_13:
// CHECK-NEXT:   add.s32
// CHECK-NEXT:   bra $L_for_12;
// CHECK-NEXT: $L_endfor_14:
// CHECK:        @!%p16 bra $L_endif_24;
// CHECK:        bra $L_ret_find_19;
// CHECK:      $L_fornext_4:
// CHECK-NEXT:   add.s32 %[[I]], %[[I]], %[[S]];
// CHECK-NEXT:   bra $L_for_3;
// CHECK-NEXT: $L_endfor_5:
// CHECK-NEXT:   ret;
