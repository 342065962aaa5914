// RUN: sarek-opt %s -p 'sarek-rename-shadowing-locals{target=cuda}' --verify-diagnostics | filecheck %s

builtin.module {
}
// CHECK: error: sarek-rename-shadowing-locals: target must be glsl or wgsl, not 'cuda'
