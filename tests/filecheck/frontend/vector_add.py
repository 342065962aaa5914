# RUN: sarek ir %s:vector_add | filecheck %s
# RUN: sarek ir %s:vector_add --generic | filecheck %s --check-prefix=GENERIC
# RUN: sarek ir %s:vector_add --locations | filecheck %s --check-prefix=LOC

from sarek import Vec, f32, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def vector_add(a: Vec[f32], b: Vec[f32], c: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        c[i] = a[i] + b[i]

# CHECK:      sarek.kernel @vector_add(%a: !sarek.vec<f32> "a", %b: !sarek.vec<f32> "b", %c: !sarek.vec<f32> "c", %n: i32 "n") {
# CHECK-NEXT:   %[[G:.*]] = sarek.intrinsic "global_thread_id"() : () -> i32
# CHECK-NEXT:   %i = sarek.let "i" %[[G]] : i32
# CHECK-NEXT:   %[[C:.*]] = sarek.binop lt %i, %n : i32
# CHECK-NEXT:   sarek.if %[[C]] {
# CHECK-NEXT:     %[[X:.*]] = sarek.array_read %a[%i] : !sarek.vec<f32>
# CHECK-NEXT:     %[[Y:.*]] = sarek.array_read %b[%i] : !sarek.vec<f32>
# CHECK-NEXT:     %[[S:.*]] = sarek.binop add %[[X]], %[[Y]] : f32
# CHECK-NEXT:     %[[P:.*]] = sarek.elem_ref %c[%i] : !sarek.vec<f32>
# CHECK-NEXT:     sarek.store %[[P]], %[[S]] : !sarek.ref<f32>
# CHECK-NEXT:   }
# CHECK-NEXT: }

# GENERIC: "sarek.kernel"()
# GENERIC: "sarek.intrinsic"() <{callee = "global_thread_id"}>

# every op carries its Python source position
# LOC: sarek.intrinsic "global_thread_id"() : () -> i32 loc("{{.*}}vector_add.py":11:9)
# LOC: sarek.let "i" %{{.*}} : i32 loc("{{.*}}vector_add.py":11:5)
# LOC: sarek.binop lt %i, %n : i32 loc("{{.*}}vector_add.py":12:8)
# LOC: sarek.binop add %{{.*}}, %{{.*}} : f32 loc("{{.*}}vector_add.py":13:16)
