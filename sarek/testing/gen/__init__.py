"""Random well-defined sarek kernels (Csmith-style) as Python source, for the differential fuzzer.

`generate(seed)` returns a `Program`: the text of a Python module holding a `@kernel` (named `fz<seed>`), the
`@device` helpers, `@record` and `@variant` types it uses, and a `CASE` dict (grid, block, n, output sizes, the
float tolerance scale). The text is the reproducer: `sarek.testing.fuzz` imports it from a file.

The builder `Gen` is a chain of classes by concern: `features.GenBase` (constants, the feature streams, the
state) <- `ints.IntExprs` <- `floats.FloatExprs` (and conditions, helper calls) <- `stmts.Statements` <-
`corners.Corners` (issue 34's shapes: arrays read before written, register tiling, bool casts, out-of-range
float->int, INT_MIN by -1, and the second kernel of a two-stream launch) <- `decls.Gen` (helpers, the kernel,
the module).

Well-definedness, by construction (no run-time checks are needed):
- integers: every expression carries a static interval; an operation whose interval could leave the type is
  given reduced operands (`x % 1009`) instead, so nothing overflows; divisors are provably non-zero (`(e | 1)`,
  `(abs(e) % 13 + 1)`), shift counts are constants or masked below the width, left shifts apply to
  non-negative values only; every integer local stays within +-STORE (assignments reduce with `% 32749`).
- floats: a value is *exact* when built from quarter-integers by + - * min max abs floor within 2^20 (no
  rounding: every device must give the same bits); only exact values are compared, cast to int, floored, or
  used with float `%` and `//` (a discontinuous operation on a rounded value could flip). `%` is C's fmod,
  exact everywhere; `//` is trunc of a quotient, and a device's `/` may be 2.5 ulp off (NVIDIA's OpenCL and
  Vulkan), so the numerator is (floor(a) + f) * d: the quotient is k + f, f in {1/4, 1/2, 3/4}, far from a
  discontinuity (the `interp-div` device, runs.DivisionErrorDevice, checks it); an inexact f32 is never
  widened to f64 (its f32 rounding is beyond f64's tolerance). Inexact values come
  from `/` by `abs(y) + 1.0` and math intrinsics on safe domains (sqrt of abs, log of abs + 1, exp of a
  clamped value, asin of a clamped value); they are clamped to +-1000 so the tolerance can be absolute.
- control: loops run a bounded number of times (constant bounds; a run-time `range` step is `abs(e) % 3 + 1`
  or its negation); `break` and `continue` sit under a condition in a loop body (`continue` only in `for`
  loops: a `while` loop's counter increment is its last statement), `return` under a condition in a kernel
  (the thread's outputs keep their zeros).
- memory: inputs are read at `(e % n + n) % n`; each thread writes only its own output slots; shared memory is
  written at the thread's own index, read after a top-level barrier; atomics are commutative (add, min, max,
  and, or, xor), each op on its own accumulator slots (`ATOMIC_OPS`), so the final value is order-independent,
  their results unused; warp shuffles use xor masks below 4 (a 4-lane group exists in every device's warp);
  private arrays are filled before they are read, except by feature "zeroinit"/"tiling", whose reads of a slot
  never written rely on the documented zero start (corners.py lists each corner shape's documented result).
"""

from __future__ import annotations

from sarek.testing.gen.decls import Gen, generate
from sarek.testing.gen.features import (A2_ROWS, A3_SHAPE, ACC_INIT, ACCF_SLOTS, ATOMIC_OPS, BIG_BLOCKS,
                                        COOP_BYTES, COOP_FEATURES, COOP16_ELEMS, COOP16_FEATURES, COOP16_RANGE, COOPWG_ELEMS, COOPWG_FEATURES,
                                        COOPWG_KS, COOPWG_NS, CORNER_FEATURES, VEC_FEATURES, VECX_FEATURES, VIEW_FEATURES, EXACT_FLOAT, F2I_VALUES, FB_MAX, FCLAMP, INT_TYPES,
                                        INTMIN_PERIOD, FEATURE_P, FEATURES, I32_MAX, I64_MAX, LATER_FEATURES, LATEST_FEATURES,
                                        LIMIT, NARROW_RANGE, NARROW_TYPES, NPTAB_FEATURES, PY33_FEATURES, RED, STORE,
                                        UACC_INIT, UATOMIC_OPS, UNARY_SAFE, FE, IE, Helper,
                                        Program, Var)

__all__ = ["A2_ROWS", "A3_SHAPE", "ACC_INIT", "ACCF_SLOTS", "ATOMIC_OPS", "BIG_BLOCKS", "COOP_BYTES",
           "COOP_FEATURES", "COOP16_ELEMS", "COOP16_FEATURES", "COOP16_RANGE", "COOPWG_ELEMS",
           "COOPWG_FEATURES", "COOPWG_KS", "COOPWG_NS", "CORNER_FEATURES", "VEC_FEATURES", "VECX_FEATURES", "VIEW_FEATURES",
           "EXACT_FLOAT", "F2I_VALUES", "FB_MAX", "FCLAMP", "INT_TYPES", "INTMIN_PERIOD",
           "FEATURE_P", "FEATURES", "FE", "Gen", "Helper", "I32_MAX", "I64_MAX", "IE", "LATER_FEATURES",
           "LATEST_FEATURES", "LIMIT", "NARROW_RANGE", "NARROW_TYPES", "NPTAB_FEATURES", "PY33_FEATURES", "UACC_INIT", "UATOMIC_OPS", "Program", "RED", "STORE", "UNARY_SAFE", "Var",
           "generate"]
