"""`sarek_c`: the C-family target dialect (CUDA, HIP, OpenCL C, Metal) — a small C syntax tree.

Everything language-specific is already decided when these ops exist: every type is the C type text
(`!sarek_c.val<"float">`), every builtin, qualifier and parameter declaration is spelled out, and every
temporary is an explicit `sarek_c.decl`. The printer (sarek/targets/cfamily/printer.py) only prints.

Expressions are SSA values: an expression op is printed where it is used; statement ops are printed in
order. Names: the result of `sarek_c.decl`/`sarek_c.array_decl` and the block arguments of `sarek_c.func`
(named by `param_names`) and `sarek_c.for` (named by `name`) print as their name.

The lowering gives every value its own `sarek_c.decl` temporary; `sarek-c-form-expressions`
(sarek/passes/c_form_expressions.py) then folds the single-use (or trivial) ones into the expression that
uses them. The discardable attributes it reads:
    sarek_c.temp = "x"         on a decl: a temporary the lowering made for a value named `x`; foldable
    sarek_c.value              on an if/switch: it computes the value of the temporary its arms assign last;
                               it becomes a `sarek_c.select` (chain) once everything in its arms folded
    sarek_c.binder             on a decl in a `sarek_c.value` switch case: a match binder (its payload read)
    sarek_c.effects = "read"   on a call/expr: it reads memory ("write": writes, synchronises or exchanges
                               values between lanes); without it a call or expr is pure

Custom syntax (round-trips; tests/filecheck/targets/cfamily_dialect/roundtrip.mlir has every op):
    sarek_c.func "__kernel" "void" @vector_add(%a : "__global float* restrict" "a", %n : "int" "n") { ... }
    %7 = sarek_c.expr "(int)get_global_id(0)" : "int"        %8 = sarek_c.decl "tid" %7 : "int"
    %9 = sarek_c.binary "<" %8, %n : "int"                    sarek_c.if %9 { ... } else { ... }
    sarek_c.for %i : "int" "i" = %lo to %hi step 1 { ... }    sarek_c.while { ... sarek_c.yield %c } do { ... }
C text is a string literal; a result's type prints as its C type text; operands print without types.

This module is the aggregator: it re-exports every type and op and builds the `SarekC` dialect. The definitions
live in modules by concern; a new op goes in the module of its concern:
* `sarek.targets.cfamily.syntax`: the type `ValType`, the discardable attribute names, custom-syntax helpers;
* `sarek.targets.cfamily.declarations`: file-level declarations (verbatim, struct/union/field, enum, func);
* `sarek.targets.cfamily.statements`: statements (decl, array_decl, assign, eval, if, for, while, switch, jumps,
  block, pragma);
* `sarek.targets.cfamily.expressions`: expressions (lit, binary, unary, call, cast, index, member, select,
  record_lit, expr).
"""

from __future__ import annotations

from xdsl.ir import Dialect

from sarek.targets.cfamily.declarations import *  # noqa: F403
from sarek.targets.cfamily.expressions import *  # noqa: F403
from sarek.targets.cfamily.statements import *  # noqa: F403
from sarek.targets.cfamily.syntax import *  # noqa: F403


SarekC = Dialect(
    "sarek_c",
    [VerbatimOp, StructOp, FieldOp, UnionOp, NestedStructOp, EnumOp, FuncOp, DeclOp, ArrayDeclOp, AssignOp,
     EvalOp, IfOp, ForOp, WhileOp, YieldOp, SwitchOp, ReturnOp, BreakOp, ContinueOp, BlockOp, PragmaOp, LitOp,
     BinaryOp, UnaryOp,
     CallOp, CastOp, IndexOp, MemberOp, SelectOp, RecordLitOp, TemplateOp],
    [ValType],
)
