// helpers calling helpers: out[i] = norm(scale(p[i], k)) + clamp01(...) through three levels, and a unit helper
builtin.module {
  sarek.record @vec2 {x : f32, y : f32}
  sarek.helper @sq(%v : f32 "v") -> f32 {
    %r = sarek.binop mul %v, %v : f32
    sarek.return %r : f32
  }
  sarek.helper @norm(%p : !sarek.record<@vec2> "p") -> f32 {
    %x = sarek.field %p "x" : f32
    %y = sarek.field %p "y" : f32
    %xx = sarek.call @sq(%x) : (f32) -> f32
    %yy = sarek.call @sq(%y) : (f32) -> f32
    %s = sarek.binop add %xx, %yy : f32
    %r = sarek.intrinsic "sqrt"(%s) : (f32) -> f32
    sarek.return %r : f32
  }
  sarek.helper @scale(%p : !sarek.record<@vec2> "p", %k : f32 "k") -> !sarek.record<@vec2> {
    %x = sarek.field %p "x" : f32
    %y = sarek.field %p "y" : f32
    %kx = sarek.binop mul %x, %k : f32
    %ky = sarek.binop mul %y, %k : f32
    %r = sarek.make_record @vec2(%kx, %ky)
    sarek.return %r : !sarek.record<@vec2>
  }
  sarek.helper @clamp_len(%p : !sarek.record<@vec2> "p", %k : f32 "k", %cap : f32 "cap") -> f32 {
    %q = sarek.call @scale(%p, %k) : (!sarek.record<@vec2>, f32) -> !sarek.record<@vec2>
    %n = sarek.call @norm(%q) : (!sarek.record<@vec2>) -> f32
    %big = sarek.binop gt %n, %cap : f32
    sarek.if %big {
      sarek.return %cap : f32
    }
    sarek.return %n : f32
  }
  sarek.helper @put(%dst : !sarek.vec<f32> "dst", %i : i32 "i", %v : f32 "v") -> !sarek.unit {
    %len = sarek.array_len %dst : !sarek.vec<f32>
    %ok = sarek.binop lt %i, %len : i32
    sarek.if %ok {
      %p = sarek.elem_ref %dst[%i] : !sarek.vec<f32>
      sarek.store %p, %v : !sarek.ref<f32>
    }
    sarek.return
  }
  sarek.kernel @lengths(%pts : !sarek.vec<!sarek.record<@vec2>> "pts", %out : !sarek.vec<f32> "out", %k : f32 "k") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %n = sarek.array_len %pts : !sarek.vec<!sarek.record<@vec2>>
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %p = sarek.array_read %pts[%i] : !sarek.vec<!sarek.record<@vec2>>
      %cap = sarek.constant 10.0 : f32
      %l = sarek.call @clamp_len(%p, %k, %cap) : (!sarek.record<@vec2>, f32, f32) -> f32
      sarek.call @put(%out, %i, %l) : (!sarek.vec<f32>, i32, f32) -> ()
    }
  }
}
