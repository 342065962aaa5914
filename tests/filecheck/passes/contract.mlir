// RUN: sarek-opt %s -p 'sarek-contract{fma=on}' | filecheck %s --check-prefix=ON
// RUN: sarek-opt %s -p 'sarek-contract{fma=off}' | filecheck %s --check-prefix=OFF
// RUN: sarek-opt %s -p sarek-contract | filecheck %s --check-prefix=OFF
// RUN: sarek-opt %s -p 'sarek-contract{fma=maybe}' --verify-diagnostics | filecheck %s --check-prefix=BAD

// fma=on drops `.rn` from f32/f64 add, sub and mul only (ptxas may then fuse them); integer arithmetic,
// `div.rn` and conversions keep their modifiers. fma=off (the default) leaves the module as it is.
builtin.module {
  sarek_ptx.entry attributes {sym_name = "k", param_names = [], param_types = [], param_aligns = []} {
    sarek_ptx.mul {mods = ["rn", "f32"], args = [#sarek_ptx.reg<f32, 3>, #sarek_ptx.reg<f32, 1>, #sarek_ptx.reg<f32, 2>]}
    sarek_ptx.add {mods = ["rn", "f32"], args = [#sarek_ptx.reg<f32, 4>, #sarek_ptx.reg<f32, 3>, #sarek_ptx.reg<f32, 2>]}
    sarek_ptx.sub {mods = ["rn", "f64"], args = [#sarek_ptx.reg<f64, 1>, #sarek_ptx.reg<f64, 2>, #sarek_ptx.reg<f64, 3>]}
    sarek_ptx.div {mods = ["rn", "f32"], args = [#sarek_ptx.reg<f32, 5>, #sarek_ptx.reg<f32, 3>, #sarek_ptx.reg<f32, 2>]}
    sarek_ptx.add {mods = ["s64"], args = [#sarek_ptx.reg<u64, 4>, #sarek_ptx.reg<u64, 1>, #sarek_ptx.reg<u64, 3>]}
    sarek_ptx.mul {mods = ["wide", "s32"], args = [#sarek_ptx.reg<u64, 3>, #sarek_ptx.reg<s32, 7>, 4 : i64]}
  }
}

// ON:      sarek_ptx.mul {mods = ["f32"]
// ON-NEXT: sarek_ptx.add {mods = ["f32"]
// ON-NEXT: sarek_ptx.sub {mods = ["f64"]
// ON-NEXT: sarek_ptx.div {mods = ["rn", "f32"]
// ON-NEXT: sarek_ptx.add {mods = ["s64"]
// ON-NEXT: sarek_ptx.mul {mods = ["wide", "s32"]

// OFF:      sarek_ptx.mul {mods = ["rn", "f32"]
// OFF-NEXT: sarek_ptx.add {mods = ["rn", "f32"]
// OFF-NEXT: sarek_ptx.sub {mods = ["rn", "f64"]
// OFF-NEXT: sarek_ptx.div {mods = ["rn", "f32"]

// BAD: error: sarek-contract: fma must be on or off, not 'maybe'
