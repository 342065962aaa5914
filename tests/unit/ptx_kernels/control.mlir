// loops (negative step, while), nested if/else, if_expr, mutable record locals, helpers with early return
builtin.module {
  sarek.record @acc {s : f32, c : i32}
  sarek.helper @clampi(%v : i32 "v", %hi : i32 "hi") -> i32 {
    %gt = sarek.binop gt %v, %hi : i32
    sarek.if %gt {
      sarek.return %hi : i32
    }
    %z = sarek.constant 0 : i32
    %neg = sarek.binop lt %v, %z : i32
    sarek.if %neg {
      sarek.return %z : i32
    }
    sarek.return %v : i32
  }
  sarek.helper @bump(%a : !sarek.record<@acc> "a", %x : f32 "x") -> !sarek.record<@acc> {
    %s = sarek.field %a "s" : f32
    %c = sarek.field %a "c" : i32
    %s2 = sarek.binop add %s, %x : f32
    %one = sarek.constant 1 : i32
    %c2 = sarek.binop add %c, %one : i32
    %r = sarek.make_record @acc(%s2, %c2)
    sarek.return %r : !sarek.record<@acc>
  }
  sarek.kernel @control(%a : !sarek.vec<f32> "a", %o : !sarek.vec<f32> "o", %oi : !sarek.vec<i32> "oi", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %z = sarek.constant 0.0 : f32
      %zi = sarek.constant 0 : i32
      %init = sarek.make_record @acc(%z, %zi)
      %st = sarek.let_mut "st" %init : !sarek.record<@acc>
      %c10 = sarek.constant 10 : i32
      %m1 = sarek.constant -1 : i32
      sarek.for "k" %k = %c10 to %m1 step -3 : i32 {
        %j0 = sarek.binop add %g, %k : i32
        %j = sarek.call @clampi(%j0, %n) : (i32, i32) -> i32
        %one = sarek.constant 1 : i32
        %nm1 = sarek.binop sub %n, %one : i32
        %jj = sarek.intrinsic "min"(%j, %nm1) : (i32, i32) -> i32
        %x = sarek.array_read %a[%jj] : !sarek.vec<f32>
        %cur = sarek.load %st : !sarek.ref<!sarek.record<@acc>>
        %pos = sarek.binop gt %x, %z : f32
        sarek.if %pos {
          %nx = sarek.call @bump(%cur, %x) : (!sarek.record<@acc>, f32) -> !sarek.record<@acc>
          sarek.store %st, %nx : !sarek.ref<!sarek.record<@acc>>
        } else {
          %cf = sarek.field_ref %st "c" : !sarek.ref<i32>
          %cv = sarek.load %cf : !sarek.ref<i32>
          %c100 = sarek.constant 100 : i32
          %cn = sarek.binop add %cv, %c100 : i32
          sarek.store %cf, %cn : !sarek.ref<i32>
        }
      }
      %w = sarek.let_mut "w" %g : i32
      %cnt = sarek.let_mut "cnt" %zi : i32
      sarek.while {
        %wv = sarek.load %w : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %c = sarek.binop gt %wv, %one : i32
        %cv0 = sarek.load %cnt : !sarek.ref<i32>
        %lim = sarek.constant 300 : i32
        %more = sarek.binop lt %cv0, %lim : i32
        %both = sarek.binop and %c, %more : i1
        sarek.yield %both : i1
      } do {
        %wv = sarek.load %w : !sarek.ref<i32>
        %two = sarek.constant 2 : i32
        %rm = sarek.binop rem %wv, %two : i32
        %ev = sarek.binop eq %rm, %zi : i32
        %nw = sarek.if_expr %ev -> i32 {
          %h = sarek.binop div %wv, %two : i32
          sarek.yield %h : i32
        } else {
          %three = sarek.constant 3 : i32
          %t = sarek.binop mul %wv, %three : i32
          %one = sarek.constant 1 : i32
          %t1 = sarek.binop add %t, %one : i32
          sarek.yield %t1 : i32
        }
        sarek.store %w, %nw : !sarek.ref<i32>
        %cv = sarek.load %cnt : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %cn = sarek.binop add %cv, %one : i32
        sarek.store %cnt, %cn : !sarek.ref<i32>
      }
      %fin = sarek.load %st : !sarek.ref<!sarek.record<@acc>>
      %fs = sarek.field %fin "s" : f32
      %fc = sarek.field %fin "c" : i32
      %po = sarek.elem_ref %o[%g] : !sarek.vec<f32>
      sarek.store %po, %fs : !sarek.ref<f32>
      %cc = sarek.load %cnt : !sarek.ref<i32>
      %tot = sarek.binop add %fc, %cc : i32
      %pi = sarek.elem_ref %oi[%g] : !sarek.vec<i32>
      sarek.store %pi, %tot : !sarek.ref<i32>
    }
  }
}
