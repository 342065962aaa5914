// records and variants passed by value (GLSL push constants, WGSL uniform Params with @align(16))
builtin.module {
  sarek.record @pt {x : f32, y : f32}
  sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
  sarek.kernel @by_value(%v : !sarek.vec<!sarek.record<@pt>> "v", %d : !sarek.record<@pt> "d", %sh : !sarek.variant<@shape> "sh", %s : f32 "s", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %e = sarek.array_read %v[%g] : !sarek.vec<!sarek.record<@pt>>
      %ex = sarek.field %e "x" : f32
      %dx = sarek.field %d "x" : f32
      %ey = sarek.field %e "y" : f32
      %dy = sarek.field %d "y" : f32
      %x = sarek.binop add %ex, %dx : f32
      %y0 = sarek.binop add %ey, %dy : f32
      %area = sarek.match_expr %sh : !sarek.variant<@shape> -> f32 {
        case "Circle"(%r: f32 "r") {
          %rr = sarek.binop mul %r, %r : f32
          sarek.yield %rr : f32
        }
        case "Rect"(%w: f32 "w", %h: f32 "h") {
          %a = sarek.binop mul %w, %h : f32
          sarek.yield %a : f32
        }
        default {
          %z = sarek.constant 0.0 : f32
          sarek.yield %z : f32
        }
      }
      %y1 = sarek.binop mul %y0, %s : f32
      %y = sarek.binop add %y1, %area : f32
      %r = sarek.make_record @pt(%x, %y)
      %p = sarek.elem_ref %v[%g] : !sarek.vec<!sarek.record<@pt>>
      sarek.store %p, %r : !sarek.ref<!sarek.record<@pt>>
    }
  }
}
