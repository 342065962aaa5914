// Two variants share the constructor name Leaf; @c's a_Leaf shows that a qualified name cannot collide
// with a bare one (it gets a numeric suffix).
builtin.module {
  sarek.variant @a {Leaf, Node(i32)}
  sarek.variant @b {Leaf(f32), Other}
  sarek.variant @c {Only, a_Leaf}
  sarek.kernel @tags(%xs : !sarek.vec<!sarek.variant<@a>> "xs", %ys : !sarek.vec<!sarek.variant<@b>> "ys", %out : !sarek.vec<i32> "out") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %xs[%i] : !sarek.vec<!sarek.variant<@a>>
    %y = sarek.array_read %ys[%i] : !sarek.vec<!sarek.variant<@b>>
    %r = sarek.match_expr %x : !sarek.variant<@a> -> i32 {
      case "Leaf" {
        %one = sarek.constant 1 : i32
        sarek.yield %one : i32
      }
      case "Node"(%k: i32 "k") {
        sarek.yield %k : i32
      }
    }
    %p = sarek.elem_ref %out[%i] : !sarek.vec<i32>
    sarek.match %y : !sarek.variant<@b> {
      case "Leaf"(%f: f32 "f") {
        %fi = sarek.cast %f : f32 to i32
        %t = sarek.binop add %r, %fi : i32
        sarek.store %p, %t : !sarek.ref<i32>
      }
      default {
        sarek.store %p, %r : !sarek.ref<i32>
      }
    }
  }
}
