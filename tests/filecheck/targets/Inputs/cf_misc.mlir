// odds and ends of the C-family lowering: casts, i64, bools, for steps, local arrays, pragma, block, fences,
// native text, if/match expressions that need statements, a helper that reads builtins
builtin.module {
  sarek.variant @opt {None, Some(i64)}
  sarek.helper @gid() -> i32 {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    sarek.return %g : i32
  }
  sarek.kernel @misc(%out : !sarek.vec<i64> "out", %f : !sarek.vec<f32> "f", %flag : i1 "flag") {
    %i = sarek.call @gid() : () -> i32
    %c8 = sarek.constant 8 : i32
    %tmp = sarek.alloc_array "tmp"[%c8] : !sarek.array<i64, local>
    %zero = sarek.constant 0 : i32
    %big = sarek.constant 5000000000 : i64
    sarek.pragma ["unroll"] {
      sarek.for "k" %k = %c8 to %zero step -2 : i32 {
        %k64 = sarek.cast %k : i32 to i64
        %v = sarek.binop add %k64, %big : i64
        %one = sarek.constant 1 : i32
        %km1 = sarek.binop sub %k, %one : i32
        %p = sarek.elem_ref %tmp[%km1] : !sarek.array<i64, local>
        sarek.store %p, %v : !sarek.ref<i64>
      }
    }
    %t0 = sarek.array_read %tmp[%zero] : !sarek.array<i64, local>
    %some = sarek.make_variant @opt "Some"(%t0)
    %none = sarek.make_variant @opt "None"()
    %o = sarek.if_expr %flag -> !sarek.variant<@opt> {
      sarek.yield %some : !sarek.variant<@opt>
    } else {
      sarek.yield %none : !sarek.variant<@opt>
    }
    %r = sarek.match_expr %o : !sarek.variant<@opt> -> i64 {
      case "Some"(%x : i64 "x") {
        %xl = sarek.let "xl" %x : i64
        %two = sarek.constant 2 : i64
        %d = sarek.binop mul %xl, %two : i64
        sarek.yield %d : i64
      }
      default {
        %m = sarek.constant -1 : i64
        sarek.yield %m : i64
      }
    }
    sarek.block {
      %pl = sarek.elem_ref %out[%i] : !sarek.vec<i64>
      sarek.store %pl, %r : !sarek.ref<i64>
    }
    sarek.mem_fence
    %fi = sarek.array_read %f[%i] : !sarek.vec<f32>
    %ii = sarek.cast %fi : f32 to i32
    %b = sarek.cast %ii : i32 to i1
    %nb = sarek.unop not %b : i1
    %neg = sarek.unop neg %fi : f32
    %sel = sarek.if_expr %nb -> f32 {
      sarek.yield %neg : f32
    } else {
      %one = sarek.constant 1.5e-3 : f32
      sarek.yield %one : f32
    }
    %pf = sarek.elem_ref %f[%i] : !sarek.vec<f32>
    sarek.store %pf, %sel : !sarek.ref<f32>
    sarek.native {cuda = "/* cuda native */", hip = "/* hip native */", opencl = "/* opencl native */", metal = "/* metal native */"}
  }
}
