// Record, field, constructor and kernel names a C language reserves (`float4` is a CUDA vector type, `half` an
// OpenCL one, `int`/`default` keywords, `NULL` a macro, `main` the program entry, `kernel` an OpenCL keyword),
// and a local named like a constructor (it would hide a bare enumerator inside the switch).
builtin.module {
  sarek.record @float4 {int : f32, NULL : i32, x : f32}
  sarek.record @half {half : f32}
  sarek.variant @opt {default(f32), Some(!sarek.record<@half>), Nothing}
  sarek.kernel @main(%v : !sarek.vec<!sarek.record<@float4>> "v", %w : !sarek.vec<!sarek.variant<@opt>> "w", %out : !sarek.vec<f32> "out") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %e = sarek.array_read %v[%i] : !sarek.vec<!sarek.record<@float4>>
    %a = sarek.field %e "int" : f32
    %d = sarek.elem_ref %v[%i] : !sarek.vec<!sarek.record<@float4>>
    %dn = sarek.field_ref %d "x" : !sarek.ref<f32>
    sarek.store %dn, %a : !sarek.ref<f32>
    %r = sarek.make_record @float4(%a, %i, %a)
    sarek.store %d, %r : !sarek.ref<!sarek.record<@float4>>
    %two = sarek.constant 2.0 : f32
    %some = sarek.let "Some" %two : f32
    %o = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    %s = sarek.array_read %w[%i] : !sarek.vec<!sarek.variant<@opt>>
    sarek.match %s : !sarek.variant<@opt> {
      case "default"(%f: f32 "f") {
        sarek.store %o, %f : !sarek.ref<f32>
      }
      case "Some"(%h: !sarek.record<@half> "h") {
        %hh = sarek.field %h "half" : f32
        sarek.store %o, %hh : !sarek.ref<f32>
      }
      default {
        sarek.store %o, %some : !sarek.ref<f32>
      }
    }
  }
}
