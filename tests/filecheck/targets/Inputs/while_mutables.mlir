// steps[i] = number of Collatz steps of x[i] (x >= 1), with a mutable value, a mutable counter and a while loop
builtin.module {
  sarek.kernel @collatz(%x : !sarek.vec<i32> "x", %steps : !sarek.vec<i32> "steps", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %x0 = sarek.array_read %x[%i] : !sarek.vec<i32>
      %v = sarek.let_mut "v" %x0 : i32
      %zero = sarek.constant 0 : i32
      %count = sarek.let_mut "count" %zero : i32
      %one = sarek.constant 1 : i32
      %two = sarek.constant 2 : i32
      %three = sarek.constant 3 : i32
      sarek.while {
        %cur = sarek.load %v : !sarek.ref<i32>
        %go = sarek.binop gt %cur, %one : i32
        sarek.yield %go : i1
      } do {
        %cur = sarek.load %v : !sarek.ref<i32>
        %r = sarek.binop rem %cur, %two : i32
        %even = sarek.binop eq %r, %zero : i32
        %nv = sarek.if_expr %even -> i32 {
          %h = sarek.binop div %cur, %two : i32
          sarek.yield %h : i32
        } else {
          %t = sarek.binop mul %cur, %three : i32
          %t1 = sarek.binop add %t, %one : i32
          sarek.yield %t1 : i32
        }
        sarek.store %v, %nv : !sarek.ref<i32>
        %c = sarek.load %count : !sarek.ref<i32>
        %c1 = sarek.binop add %c, %one : i32
        sarek.store %count, %c1 : !sarek.ref<i32>
      }
      %res = sarek.load %count : !sarek.ref<i32>
      %p = sarek.elem_ref %steps[%i] : !sarek.vec<i32>
      sarek.store %p, %res : !sarek.ref<i32>
    }
  }
}
