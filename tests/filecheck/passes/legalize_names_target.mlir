// RUN: sarek-opt %s -p 'sarek-legalize-names{target=ptx}' --verify-diagnostics | filecheck %s

builtin.module {
}
// CHECK: error: sarek-legalize-names: no name rules for target 'ptx' (known: cuda, hip, opencl, metal, glsl, wgsl)
