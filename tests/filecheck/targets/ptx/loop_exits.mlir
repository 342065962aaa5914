// RUN: sarek-opt %S/../Inputs/loop_exits.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s
// PTX of loop_exits.mlir: a kernel's early return is `ret`; a run-time step tests its sign at the loop head
// ((s > 0 && i < hi) || (s < 0 && i > hi)); `continue` branches to the loop's next-iteration label (a for's
// increment, made only when a continue needs it; a while's head), `break` to its end, from inside a match
// too; a helper's return inside a loop branches to the end of its inlined call; no trace of the assert.

// CHECK-NOT:  setp.ne.s32 %p{{[0-9]+}}, %s{{[0-9]+}}, 0;
// CHECK:        @!%p1 bra $[[ENDIF:L_endif_[0-9]+]];
// CHECK-NEXT:   ret;
// CHECK-NEXT: $[[ENDIF]]:
// CHECK:      $[[FOR:L_for_[0-9]+]]:
// CHECK-NEXT:   setp.gt.s32 %p2, %[[S:s[0-9]+]], 0;
// CHECK-NEXT:   setp.lt.s32 %p3, %[[I:s[0-9]+]], %[[N:s[0-9]+]];
// CHECK-NEXT:   and.pred %p4, %p2, %p3;
// CHECK-NEXT:   setp.lt.s32 %p5, %[[S]], 0;
// CHECK-NEXT:   setp.gt.s32 %p6, %[[I]], %[[N]];
// CHECK-NEXT:   and.pred %p7, %p5, %p6;
// CHECK-NEXT:   or.pred %p8, %p4, %p7;
// CHECK-NEXT:   @!%p8 bra $[[ENDFOR:L_endfor_[0-9]+]];
// CHECK:      $[[WHILE:L_while_[0-9]+]]:
// CHECK:        @!%p9 bra $[[ENDWHILE:L_endwhile_[0-9]+]];
// CHECK:        @!%p10 bra $L_endif_{{[0-9]+}};
// CHECK-NEXT:   bra $[[WHILE]];
// CHECK:        @!%p11 bra $L_endif_{{[0-9]+}};
// CHECK-NEXT:   bra $[[ENDWHILE]];
// CHECK:        bra $[[WHILE]];
// CHECK-NEXT: $[[ENDWHILE]]:
// CHECK:      $[[FORQ:L_for_[0-9]+]]:
// CHECK-NEXT:   setp.ge.s32 %p12,
// CHECK-NEXT:   @%p12 bra $[[ENDQ:L_endfor_[0-9]+]];
// CHECK:        @%p13 bra $L_case_{{[0-9]+}};
// CHECK-NEXT:   bra $[[ENDQ]];
// CHECK:        @%p14 bra $L_case_{{[0-9]+}};
// CHECK-NEXT:   bra $[[NEXTQ:L_fornext_[0-9]+]];
// CHECK:      $[[NEXTQ]]:
// CHECK-NEXT:   add.s32
// CHECK-NEXT:   bra $[[FORQ]];
// CHECK-NEXT: $[[ENDQ]]:
// CHECK:        @!%p16 bra $L_endif_{{[0-9]+}};
// CHECK:        bra $[[RET:L_ret_find_[0-9]+]];
// CHECK:      $[[RET]]:
// CHECK:        add.s32 %[[I]], %[[I]], %[[S]];
// CHECK-NEXT:   bra $[[FOR]];
// CHECK-NEXT: $[[ENDFOR]]:
// CHECK-NEXT:   ret;
