// RUN: sarek-opt %s -t 'ptx{opt=off fp=exact}' | filecheck %s

// Structured control flow -> labels and guarded branches: for (half-open, step sign picks the exit test),
// while (condition re-evaluated at the head), match (tag compare chain, default last), inlined helper whose
// return branches to the call's end label, mutable locals as registers (loads copy them).
builtin.module {
  sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
  sarek.helper @pos(%x : f32 "x") -> f32 {
    %z = sarek.constant 0.0 : f32
    %neg = sarek.binop lt %x, %z : f32
    sarek.if %neg {
      sarek.return %z : f32
    }
    sarek.return %x : f32
  }
  sarek.kernel @ctl(%s : !sarek.vec<!sarek.variant<@shape>> "s", %o : !sarek.vec<f32> "o", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %acc0 = sarek.constant 0.0 : f32
    %acc = sarek.let_mut "acc" %acc0 : f32
    %m1 = sarek.constant -1 : i32
    sarek.for "i" %i = %n to %m1 step -2 : i32 {
      %v = sarek.array_read %s[%i] : !sarek.vec<!sarek.variant<@shape>>
      sarek.match %v : !sarek.variant<@shape> {
        case "Circle"(%r : f32 "r") {
          %a = sarek.load %acc : !sarek.ref<f32>
          %p = sarek.call @pos(%r) : (f32) -> f32
          %b = sarek.binop add %a, %p : f32
          sarek.store %acc, %b : !sarek.ref<f32>
        }
        default {
        }
      }
    }
    %k = sarek.let_mut "k" %n : i32
    sarek.while {
      %kv = sarek.load %k : !sarek.ref<i32>
      %c = sarek.binop gt %kv, %z : i32
      sarek.yield %c : i1
    } do {
      %kv = sarek.load %k : !sarek.ref<i32>
      %one = sarek.constant 1 : i32
      %k2 = sarek.binop sub %kv, %one : i32
      sarek.store %k, %k2 : !sarek.ref<i32>
    }
    %res = sarek.load %acc : !sarek.ref<f32>
    %po = sarek.elem_ref %o[%z] : !sarek.vec<f32>
    sarek.store %po, %res : !sarek.ref<f32>
  }
}

// CHECK:      mov.f32 [[ACC:%f[0-9]+]], 0f00000000;
// CHECK:      mov.s32 [[I:%s[0-9]+]], %s{{[0-9]+}};
// CHECK-NEXT: [[FOR:\$L_for_[0-9]+]]:
// CHECK-NEXT: setp.le.s32 [[DONE:%p[0-9]+]], [[I]], -1;
// CHECK-NEXT: @[[DONE]] bra [[ENDFOR:\$L_endfor_[0-9]+]];
// CHECK:      ld.global.nc.s32 [[TAG:%s[0-9]+]],
// CHECK:      setp.ne.s32 [[NOTC:%p[0-9]+]], [[TAG]], 0;
// CHECK-NEXT: @[[NOTC]] bra [[NEXT:\$L_case_[0-9]+]];
// CHECK-NEXT: mov.b32 [[R:%f[0-9]+]], %r{{[0-9]+}};
// CHECK-NEXT: mov.f32 %f{{[0-9]+}}, [[ACC]];
// CHECK:      setp.lt.f32
// CHECK:      bra [[RET:\$L_ret_pos_[0-9]+]];
// CHECK:      bra [[RET]];
// CHECK-NEXT: [[RET]]:
// CHECK:      add.rn.f32
// CHECK-NEXT: mov.f32 [[ACC]], %f{{[0-9]+}};
// CHECK-NEXT: bra [[ENDM:\$L_endmatch_[0-9]+]];
// CHECK-NEXT: [[NEXT]]:
// CHECK:      [[ENDM]]:
// CHECK-NEXT: add.s32 [[I]], [[I]], -2;
// CHECK-NEXT: bra [[FOR]];
// CHECK-NEXT: [[ENDFOR]]:
// CHECK:      [[WHILE:\$L_while_[0-9]+]]:
// CHECK:      setp.gt.s32 [[C:%p[0-9]+]],
// CHECK-NEXT: @![[C]] bra [[ENDW:\$L_endwhile_[0-9]+]];
// CHECK:      sub.s32
// CHECK:      bra [[WHILE]];
// CHECK-NEXT: [[ENDW]]:
