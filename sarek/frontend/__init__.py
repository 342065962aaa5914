"""The Python front end: kernels written in Python compiled (from their AST, never executed) to the sarek
dialect, as /work/shared/FRONTEND.md specifies.

- `api`: `kernel`, `device`, `compile`; Kernel objects (`launch`, `source`, `ir`, `module`); module assembly
  (declarations, helpers callees-first with recursion refused, the kernel), verification, divergence checks.
- `lower`: AST -> IR with type inference and checking; a `FileLineColLoc` on every op.
- `analysis`: Python scoping -> `sarek.let` / `sarek.let_mut` (and where each cell is declared).
- `decls`: `@record` / `@variant`, numpy dtypes (aligned layout), pack/unpack, host variant values.
- `divergence`: the findings of `sarek.analysis.convergence` (barriers and warp operations under
  thread-divergent control flow, thread-divergent statements in a plain superstep) worded for Python.
- `errors`: `CompileError` (`file.py:LINE:COL: error: ...`, the source line and a caret).
- `corpus`: the `Case` convention of examples/*.py.
"""
