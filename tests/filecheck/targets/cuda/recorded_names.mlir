// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=cuda},sarek-c-form-expressions' -t cuda | filecheck %s

// The C lowering decides no names: it prints those sarek-legalize-names recorded (here written by hand).
builtin.module {
  sarek.record @pt {x : f32} attributes {sarek.name = "my_pt", sarek.field_names = ["my_x"]}
  sarek.variant @opt {Some(i32), None} attributes {sarek.name = "my_opt", sarek.ctor_ids = ["S", "N"], sarek.tag_names = ["TAG_S", "TAG_N"], sarek.make_names = ["mk_S", "mk_N"]}
  sarek.kernel @k(%p : !sarek.vec<!sarek.record<@pt>> "p", %o : !sarek.vec<!sarek.variant<@opt>> "o") attributes {sarek.entry_name = "my_entry"} {
    %i = sarek.constant 0 : i32
    %r = sarek.array_read %p[%i] : !sarek.vec<!sarek.record<@pt>>
    %x = sarek.field %r "x" : f32
    %n = sarek.cast %x : f32 to i32
    %v = sarek.make_variant @opt "Some"(%n)
    %e = sarek.elem_ref %o[%i] : !sarek.vec<!sarek.variant<@opt>>
    sarek.store %e, %v : !sarek.ref<!sarek.variant<@opt>>
  }
}
// CHECK:      typedef struct {
// CHECK-NEXT:   float my_x;
// CHECK-NEXT: } my_pt;
// CHECK:      enum { TAG_S = 0, TAG_N = 1 };
// CHECK:          int S_v;
// CHECK:      } my_opt;
// CHECK:      inline my_opt mk_S(int v) {
// CHECK:        r.data.S_v = v;
// CHECK:      inline my_opt mk_N() {
// CHECK:      extern "C" __global__ void my_entry(my_pt* __restrict__ p,
// CHECK-NEXT:   o[0] = mk_S(__float2int_rz(p[0].my_x));
