// steps[i] = number of Collatz steps from inp[i] to 1: a while loop over mutables
builtin.module {
  sarek.kernel @collatz(%inp : !sarek.vec<i32> "inp", %steps : !sarek.vec<i32> "steps", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x0 = sarek.array_read %inp[%g] : !sarek.vec<i32>
      %x = sarek.let_mut "x" %x0 : i32
      %z0 = sarek.constant 0 : i32
      %s = sarek.let_mut "s" %z0 : i32
      sarek.while {
        %xv = sarek.load %x : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %c = sarek.binop gt %xv, %one : i32
        sarek.yield %c : i1
      } do {
        %xv = sarek.load %x : !sarek.ref<i32>
        %two = sarek.constant 2 : i32
        %r = sarek.binop rem %xv, %two : i32
        %z = sarek.constant 0 : i32
        %even = sarek.binop eq %r, %z : i32
        %nx = sarek.if_expr %even -> i32 {
          %h = sarek.binop div %xv, %two : i32
          sarek.yield %h : i32
        } else {
          %three = sarek.constant 3 : i32
          %t = sarek.binop mul %xv, %three : i32
          %one = sarek.constant 1 : i32
          %t1 = sarek.binop add %t, %one : i32
          sarek.yield %t1 : i32
        }
        sarek.store %x, %nx : !sarek.ref<i32>
        %sv = sarek.load %s : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %s1 = sarek.binop add %sv, %one : i32
        sarek.store %s, %s1 : !sarek.ref<i32>
      }
      %sv = sarek.load %s : !sarek.ref<i32>
      %p = sarek.elem_ref %steps[%g] : !sarek.vec<i32>
      sarek.store %p, %sv : !sarek.ref<i32>
    }
  }
}
