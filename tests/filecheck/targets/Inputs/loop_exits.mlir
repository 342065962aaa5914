// Issue 15's control flow: a grid-stride loop (run-time step), break / continue in while and for, a break
// inside a match (through sarek-hoist-match-breaks), a helper returning from inside a loop, a kernel's early
// return and an assert (removed by sarek-strip-asserts in release pipelines).
builtin.module {
  sarek.variant @op {Stop, Skip, Add(f32)}
  sarek.helper @find(%v : !sarek.vec<f32> "v", %n : i32 "n", %x : f32 "x") -> i32 {
    %z = sarek.constant 0 : i32
    sarek.for "j" %j = %z to %n step 1 : i32 {
      %e = sarek.array_read %v[%j] : !sarek.vec<f32>
      %hit = sarek.binop eq %e, %x : f32
      sarek.if %hit {
        sarek.return %j : i32
      }
    }
    %m1 = sarek.constant -1 : i32
    sarek.return %m1 : i32
  }
  sarek.kernel @loops(%v : !sarek.vec<f32> "v", %o : !sarek.vec<i32> "o", %ops : !sarek.vec<!sarek.variant<@op>> "ops", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %gs = sarek.intrinsic "global_size"() : () -> i32
    %out = sarek.binop ge %g, %n : i32
    sarek.if %out {
      sarek.return
    }
    %z = sarek.constant 0 : i32
    %ne = sarek.binop ne %gs, %z : i32
    sarek.assert %ne, "range() step must not be zero"
    sarek.for "i" %i = %g to %n step %gs : i32 {
      %k0 = sarek.constant 0 : i32
      %k = sarek.let_mut "k" %k0 : i32
      sarek.while {
        %kv = sarek.load %k : !sarek.ref<i32>
        %lt = sarek.binop lt %kv, %n : i32
        sarek.yield %lt : i1
      } do {
        %kv2 = sarek.load %k : !sarek.ref<i32>
        %one = sarek.constant 1 : i32
        %k1 = sarek.binop add %kv2, %one : i32
        sarek.store %k, %k1 : !sarek.ref<i32>
        %e = sarek.array_read %v[%kv2] : !sarek.vec<f32>
        %zf = sarek.constant 0.0 : f32
        %neg = sarek.binop lt %e, %zf : f32
        sarek.if %neg {
          sarek.continue
        }
        %big = sarek.binop gt %e, %zf : f32
        sarek.if %big {
          sarek.break
        }
      }
      %c = sarek.array_read %ops[%i] : !sarek.vec<!sarek.variant<@op>>
      %three = sarek.constant 3 : i32
      sarek.for "q" %q = %z to %three step 1 : i32 {
        sarek.match %c : !sarek.variant<@op> {
          case "Stop" {
            sarek.break
          }
          case "Skip" {
            sarek.continue
          }
          default {
          }
        }
        %po = sarek.elem_ref %o[%i] : !sarek.vec<i32>
        %ov = sarek.load %po : !sarek.ref<i32>
        %o1 = sarek.binop add %ov, %q : i32
        sarek.store %po, %o1 : !sarek.ref<i32>
      }
      %x = sarek.constant 1.5 : f32
      %f = sarek.call @find(%v, %n, %x) : (!sarek.vec<f32>, i32, f32) -> i32
      %kf = sarek.load %k : !sarek.ref<i32>
      %r = sarek.binop add %f, %kf : i32
      %pi = sarek.elem_ref %o[%i] : !sarek.vec<i32>
      sarek.store %pi, %r : !sarek.ref<i32>
    }
  }
}
