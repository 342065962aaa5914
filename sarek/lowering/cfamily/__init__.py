"""sarek-lower-cfamily{target=cuda|hip|opencl|metal}: the sarek dialect -> the `sarek_c` target dialect.

Every decision the C-family source needs is made here, with the language's spelling table
(sarek/targets/cfamily/languages.py): types and qualifiers, builtin spellings, kernel parameters (a vector
becomes `T* v, int sarek_v_length`; Metal adds buffer slots and its entry builtins), records as typedef
structs, variants as a tag enum + struct with a union + one `make_<T>_<C>` constructor per case (C payload
layout, sarek.analysis.payload), helpers in dependency order, shared arrays hoisted to the kernel's top,
barriers, fences, atomics, math, warp operations, f16 as a storage type (f32 arithmetic, round-to-nearest-even
narrowing through `sarek_f32_barrier`) and per-target `sarek.native` text.

One op per value: every value gets its own `sarek_c.decl` temporary (`sarek_c.temp`, named `sarek_<hint>`)
and every value-if/match an if/switch assigning one (`sarek_c.value`); calls and builtin templates that read
or write memory say so (`sarek_c.effects`, from sarek.analysis.effects). Which temporaries fold into the
expression that uses them is decided after, by `sarek-c-form-expressions`. Binders keep their (legalized)
names.


Modules, each one layer of `CLowering` (a chain of classes, later layers call earlier ones). Each op has one
entry: `@values(Op)` (expressions.py) builds an expression op's value, `@lowers(Op)` (statements.py, and the
later layers for their ops) lowers a statement; `expr` and `lower_op` look the op's exact type up:
  state.py        `CBase`: language, names, C types, values, literals, temporaries
  expressions.py  `CExpressions`: operators, casts, intrinsics, math, atomics, calls, payloads
  statements.py   `CStatements`: statements, control flow, arrays, match, value-if/match
  coopmat.py      `CCoopmat`: cooperative matrices (CUDA nvcuda::wmma, HIP MFMA, Metal simdgroup_matrix)
  module.py       `CLowering`: helper order, records, variants, functions; `entry_name`
  __init__.py     the pass
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.diagnostics import SarekError
from sarek.lowering.cfamily.module import CLowering
from sarek.lowering.cfamily.module import entry_name as entry_name
from sarek.targets.cfamily.languages import LANGUAGES


@dataclass(frozen=True)
class LowerCFamilyPass(ModulePass):
    """Lower the sarek dialect to the sarek_c target dialect (CUDA, HIP, OpenCL C or Metal spellings).

    Options: `target` (cuda, hip, opencl, metal). Expects the passes of `sarek-pipeline{target=...}` to have
    run before (feature gate, type order, payload substitution, legal names, warp lowering); every value gets
    a temporary, folded into expressions by `sarek-c-form-expressions` after.
    """

    name = "sarek-lower-cfamily"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lang = LANGUAGES.get(self.target)
        if lang is None:
            raise SarekError(f"sarek-lower-cfamily: unknown target '{self.target}' (known: {', '.join(LANGUAGES)})")
        tops = CLowering(lang, op).run()
        for o in list(op.body.block.ops):
            o.detach()
            o.erase(safe_erase=False)
        for t in tops:
            op.body.block.add_op(t)
