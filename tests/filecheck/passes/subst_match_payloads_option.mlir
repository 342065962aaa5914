// RUN: sarek-opt %s -p 'sarek-subst-match-payloads{layout=msl}' --verify-diagnostics | filecheck %s

builtin.module {
}
// CHECK: error: sarek-subst-match-payloads: layout must be c, glsl or wgsl, not 'msl'
