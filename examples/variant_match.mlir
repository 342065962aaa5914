// area of each shape (statement match) and its perimeter (expression match)
builtin.module {
  sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
  sarek.kernel @areas(%shapes : !sarek.vec<!sarek.variant<@shape>> "shapes", %area : !sarek.vec<f32> "area", %perim : !sarek.vec<f32> "perim", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %s = sarek.array_read %shapes[%i] : !sarek.vec<!sarek.variant<@shape>>
      %out = sarek.elem_ref %area[%i] : !sarek.vec<f32>
      sarek.match %s : !sarek.variant<@shape> {
        case "Circle"(%r: f32 "r") {
          %pi = sarek.constant 3.14159274 : f32
          %rr = sarek.binop mul %r, %r : f32
          %a = sarek.binop mul %pi, %rr : f32
          sarek.store %out, %a : !sarek.ref<f32>
        }
        case "Rect"(%w: f32 "w", %h: f32 "h") {
          %a = sarek.binop mul %w, %h : f32
          sarek.store %out, %a : !sarek.ref<f32>
        }
        default {
          %z = sarek.constant 0.0 : f32
          sarek.store %out, %z : !sarek.ref<f32>
        }
      }
      %p = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
        case "Circle"(%r: f32 "r") {
          %c = sarek.constant 6.28318548 : f32
          %v = sarek.binop mul %c, %r : f32
          sarek.yield %v : f32
        }
        case "Rect"(%w: f32 "w", %h: f32 "h") {
          %wh = sarek.binop add %w, %h : f32
          %c2 = sarek.constant 2.0 : f32
          %v = sarek.binop mul %c2, %wh : f32
          sarek.yield %v : f32
        }
        case "Empty" {
          %z = sarek.constant 0.0 : f32
          sarek.yield %z : f32
        }
      }
      %po = sarek.elem_ref %perim[%i] : !sarek.vec<f32>
      sarek.store %po, %p : !sarek.ref<f32>
    }
  }
}
