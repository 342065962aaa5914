// variant tags are declaration indices: C8 and C10 collide under the seed's hash mod 256 (both 223) and must
// still select their own arms; an unwritten shared slot decodes to the first nullary constructor (None)
builtin.module {
  sarek.variant @col {C8(i32), C10(i32), Other}
  sarek.variant @opt {Some(f32), None}
  sarek.kernel @variants(%cs : !sarek.vec<!sarek.variant<@col>> "cs", %o : !sarek.vec<i32> "o", %back : !sarek.vec<!sarek.variant<@opt>> "back") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c = sarek.array_read %cs[%t] : !sarek.vec<!sarek.variant<@col>>
    %r = sarek.match_expr %c : !sarek.variant<@col> -> i32 {
      case "C8"(%a: i32 "a") {
        %k = sarek.constant 800 : i32
        %v = sarek.binop add %k, %a : i32
        sarek.yield %v : i32
      }
      case "C10"(%b: i32 "b") {
        %k = sarek.constant 1000 : i32
        %v = sarek.binop add %k, %b : i32
        sarek.yield %v : i32
      }
      default {
        %k = sarek.constant -1 : i32
        sarek.yield %k : i32
      }
    }
    %c2 = sarek.constant 2 : i32
    %sh = sarek.alloc_array "sh"[%c2] : !sarek.array<!sarek.variant<@opt>, shared>
    %c0 = sarek.constant 0 : i32
    %first = sarek.binop eq %t, %c0 : i32
    sarek.if %first {
      %h = sarek.constant 1.5 : f32
      %sv = sarek.make_variant @opt "Some"(%h)
      %p = sarek.elem_ref %sh[%c0] : !sarek.array<!sarek.variant<@opt>, shared>
      sarek.store %p, %sv : !sarek.ref<!sarek.variant<@opt>>
    }
    sarek.barrier
    %c1 = sarek.constant 1 : i32
    %slot = sarek.binop rem %t, %c2 : i32
    %u = sarek.array_read %sh[%slot] : !sarek.array<!sarek.variant<@opt>, shared>
    %isnone = sarek.match_expr %u : !sarek.variant<@opt> -> i32 {
      case "None" {
        sarek.yield %c1 : i32
      }
      case "Some"(%x: f32 "x") {
        %xi = sarek.cast %x : f32 to i32
        %k = sarek.constant 10 : i32
        %v = sarek.binop add %xi, %k : i32
        sarek.yield %v : i32
      }
    }
    %base = sarek.binop mul %t, %c2 : i32
    %p0 = sarek.elem_ref %o[%base] : !sarek.vec<i32>
    sarek.store %p0, %r : !sarek.ref<i32>
    %b1 = sarek.binop add %base, %c1 : i32
    %p1 = sarek.elem_ref %o[%b1] : !sarek.vec<i32>
    sarek.store %p1, %isnone : !sarek.ref<i32>
    %pb = sarek.elem_ref %back[%t] : !sarek.vec<!sarek.variant<@opt>>
    sarek.store %pb, %u : !sarek.ref<!sarek.variant<@opt>>
  }
}
