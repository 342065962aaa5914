// f16 storage, i64/f64 vectors, record param by value, shared and local arrays of records, variants built
// on the device, casts
builtin.module {
  sarek.record @pt {x : f32, k : i64}
  sarek.variant @opt {None, Some(f64), Pair(i32, f32)}
  sarek.kernel @storage(%h : !sarek.vec<f16> "h", %ho : !sarek.vec<f16> "ho", %base : !sarek.record<@pt> "base", %pts : !sarek.vec<!sarek.record<@pt>> "pts", %ov : !sarek.vec<!sarek.variant<@opt>> "ov", %flag : i1 "flag", %s : f32 "s", %n : i32 "n") {
    %c256 = sarek.constant 256 : i32
    %tile = sarek.alloc_array "tile"[%c256] : !sarek.array<!sarek.record<@pt>, shared>
    %c4 = sarek.constant 4 : i32
    %loc = sarek.alloc_array "loc"[%c4] : !sarek.array<f32, local>
    %zero_i = sarek.constant 0 : i32
    %c3 = sarek.constant 3 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %inb = sarek.binop lt %g, %n : i32
    %safe = sarek.if_expr %inb -> i32 {
      sarek.yield %g : i32
    } else {
      %z = sarek.constant 0 : i32
      sarek.yield %z : i32
    }
    %p = sarek.array_read %pts[%safe] : !sarek.vec<!sarek.record<@pt>>
    %slot = sarek.elem_ref %tile[%t] : !sarek.array<!sarek.record<@pt>, shared>
    sarek.store %slot, %p : !sarek.ref<!sarek.record<@pt>>
    sarek.barrier
    %one = sarek.constant 1 : i32
    %t1 = sarek.binop add %t, %one : i32
    %c255 = sarek.constant 255 : i32
    %nb = sarek.binop bitand %t1, %c255 : i32
    %q = sarek.array_read %tile[%nb] : !sarek.array<!sarek.record<@pt>, shared>
    sarek.if %inb {
      %hx = sarek.array_read %h[%g] : !sarek.vec<f16>
      %hf = sarek.cast %hx : f16 to f32
      %y = sarek.binop mul %hf, %s : f32
      %y16 = sarek.cast %y : f32 to f16
      %y2 = sarek.binop add %y16, %hx : f16
      %ph = sarek.elem_ref %ho[%g] : !sarek.vec<f16>
      sarek.store %ph, %y2 : !sarek.ref<f16>
      sarek.for "i" %i = %zero_i to %c4 step 1 : i32 {
        %fi = sarek.cast %i : i32 to f32
        %li = sarek.elem_ref %loc[%i] : !sarek.array<f32, local>
        sarek.store %li, %fi : !sarek.ref<f32>
      }
      %l3 = sarek.array_read %loc[%c3] : !sarek.array<f32, local>
      %qx = sarek.field %q "x" : f32
      %bx = sarek.field %base "x" : f32
      %sum = sarek.binop add %qx, %bx : f32
      %sum2 = sarek.binop add %sum, %l3 : f32
      %qk = sarek.field %q "k" : i64
      %bk = sarek.field %base "k" : i64
      %ks = sarek.binop add %qk, %bk : i64
      %np = sarek.make_record @pt(%sum2, %ks)
      %dst = sarek.elem_ref %pts[%g] : !sarek.vec<!sarek.record<@pt>>
      sarek.store %dst, %np : !sarek.ref<!sarek.record<@pt>>
      %c3m = sarek.binop rem %g, %c3 : i32
      %zero = sarek.constant 0 : i32
      %is0 = sarek.binop eq %c3m, %zero : i32
      %is1 = sarek.binop eq %c3m, %one : i32
      %v = sarek.if_expr %is0 -> !sarek.variant<@opt> {
        %none = sarek.make_variant @opt "None"()
        sarek.yield %none : !sarek.variant<@opt>
      } else {
        %v1 = sarek.if_expr %is1 -> !sarek.variant<@opt> {
          %kd = sarek.cast %ks : i64 to f64
          %some = sarek.make_variant @opt "Some"(%kd)
          sarek.yield %some : !sarek.variant<@opt>
        } else {
          %gi = sarek.binop add %g, %one : i32
          %pr = sarek.make_variant @opt "Pair"(%gi, %sum2)
          sarek.yield %pr : !sarek.variant<@opt>
        }
        sarek.yield %v1 : !sarek.variant<@opt>
      }
      %vflag = sarek.if_expr %flag -> !sarek.variant<@opt> {
        sarek.yield %v : !sarek.variant<@opt>
      } else {
        %none = sarek.make_variant @opt "None"()
        sarek.yield %none : !sarek.variant<@opt>
      }
      %dv = sarek.elem_ref %ov[%g] : !sarek.vec<!sarek.variant<@opt>>
      sarek.store %dv, %vflag : !sarek.ref<!sarek.variant<@opt>>
    }
  }
}
