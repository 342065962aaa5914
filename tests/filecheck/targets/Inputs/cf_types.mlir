// type declarations in dependency order (a variant whose payload is a record declared after it), a record
// in a record, bool fields, records and variants as kernel parameters, a warp barrier
builtin.module {
  sarek.variant @item {Point(!sarek.record<@pos>), Pair(i32, f32), Nothing}
  sarek.record @pos {x : f32, y : f32, live : i1}
  sarek.record @seg {a : !sarek.record<@pos>, b : !sarek.record<@pos>}
  sarek.kernel @types(%segs : !sarek.vec<!sarek.record<@seg>> "segs", %items : !sarek.vec<!sarek.variant<@item>> "items", %origin : !sarek.record<@pos> "origin", %dflt : !sarek.variant<@item> "dflt") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %s = sarek.array_read %segs[%i] : !sarek.vec<!sarek.record<@seg>>
    %a = sarek.field %s "a" : !sarek.record<@pos>
    %live = sarek.field %a "live" : i1
    %it = sarek.if_expr %live -> !sarek.variant<@item> {
      %p = sarek.make_variant @item "Point"(%a)
      sarek.yield %p : !sarek.variant<@item>
    } else {
      sarek.yield %dflt : !sarek.variant<@item>
    }
    %pi = sarek.elem_ref %items[%i] : !sarek.vec<!sarek.variant<@item>>
    sarek.store %pi, %it : !sarek.ref<!sarek.variant<@item>>
    sarek.warp_barrier
    %ps = sarek.elem_ref %segs[%i] : !sarek.vec<!sarek.record<@seg>>
    %pb = sarek.field_ref %ps "b" : !sarek.ref<!sarek.record<@pos>>
    sarek.store %pb, %origin : !sarek.ref<!sarek.record<@pos>>
    %px = sarek.field_ref %pb "x" : !sarek.ref<f32>
    %ox = sarek.field %origin "x" : f32
    %one = sarek.constant 1.0 : f32
    %nx = sarek.binop add %ox, %one : f32
    sarek.store %px, %nx : !sarek.ref<f32>
  }
}
