"""The math library, written once in the sarek dialect (issue 18 item 2).

`routines` builds double-precision helpers (`sarek.helper @sarek_<fn>_f64`) from sarek IR only — arithmetic,
`fma`, `sqrt`, `floor`, comparisons, `if_expr` selects and `sarek.bitcast` — the way tinygrad's
`transcendental.py` and MLIR's Math ExpandOps decompose what a backend lacks. `sarek-expand-math{target=T}`
(sarek/passes/expand_math.py) calls them for the (function, type) pairs that `sarek.analysis.native_math`
says T lacks. Every operation they use is correctly rounded on every target and on the interpreter (whose
`fma` is exact, sarek/interp/arith.py), and `ops.Ops` writes every product that feeds an addition as an
explicit `fma`, so no compiler can contract it differently: the interpreter runs the same routine and gets
the same bits as the device.
"""
