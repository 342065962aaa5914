// An installed xdsl.universe plugin's pass (examples/plugin) runs from sarek-opt, alone and inside sarek-pipeline
// at an insertion point; its name is listed by --help.
// RUN: sarek-opt %s -p 'example-replace-constant{old=41 new=7}' | filecheck %s --check-prefix=PASS
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda after-opt="example-replace-constant"}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-pipeline{target=glsl before-lowering="example-replace-constant{new=5}"}' -t glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-pipeline{target=cuda before-opt="no-such-pass"}' -t cuda --verify-diagnostics | filecheck %s --check-prefix=UNKNOWN
// RUN: sarek-opt --help | filecheck %s --check-prefix=HELP
// RUN: not xdsl-opt %s -p 'sarek-pipeline{target=wgsl}' -t wgsl 2>&1 | filecheck %s --check-prefix=SHADOW
// RUN: xdsl-opt %s -p 'sarek-pipeline{target=wgsl}' -t sarek-wgsl | filecheck %s --check-prefix=WGSL

builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %c = sarek.constant 41 : i32
    %e = sarek.elem_ref %a[%i] : !sarek.vec<i32>
    sarek.store %e, %c : !sarek.ref<i32>
  }
}
// PASS:      sarek.constant 7 : i32
// PASS-NOT:  sarek.constant 41
// CUDA:      a[{{.*}}] = 42;
// GLSL:      a[{{.*}}] = 5;
// UNKNOWN:   error: sarek-pipeline{before-opt}: unknown pass 'no-such-pass'
// HELP:      plugin passes (-p; installed xdsl.universe plugins):
// HELP-NEXT:   example-replace-constant
// SHADOW:    error: xdsl-opt's target 'wgsl' is xDSL's own, which prints nothing for sarek IR: use `-t sarek-wgsl`
// WGSL:      a[i32(sarek_gid.x)] = 41i;
