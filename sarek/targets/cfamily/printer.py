"""The one printer of the `sarek_c` dialect, shared by CUDA, HIP, OpenCL C and Metal.

It holds no language knowledge: every spelling was chosen by the lowering (sarek/lowering/cfamily/ with
the tables of sarek/targets/cfamily/languages.py). Expression ops print where they are used; statement ops
print in order with two spaces of indentation per level.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from sarek.diagnostics import SarekError
from sarek.targets.cfamily import dialect as c

_EXPR_OPS = (c.LitOp, c.BinaryOp, c.UnaryOp, c.CallOp, c.CastOp, c.IndexOp, c.MemberOp, c.SelectOp,
             c.RecordLitOp, c.TemplateOp)


def _join_decl(ctype: str, name: str) -> str:
    """`float x`, `float* x`, `constant int &n`."""
    return f"{ctype}{'' if ctype.endswith('&') else ' '}{name}"


class CPrinter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = 0
        self.names: dict[SSAValue, str] = {}

    # -------------------------------------------------------------------------------------- entry

    def print_module(self, module: ModuleOp) -> str:
        for op in module.ops:
            self.top(op)
        return "\n".join(self.lines).rstrip() + "\n"

    def line(self, text: str) -> None:
        self.lines.append("  " * self.indent + text if text else "")

    # -------------------------------------------------------------------------------------- top level

    def top(self, op: Operation) -> None:
        if isinstance(op, c.VerbatimOp):
            self.lines.extend(op.text.data.split("\n"))
        elif isinstance(op, c.StructOp):
            self.line("typedef struct {")
            self.members(op.body.block)
            self.line(f"}} {op.member_name.data};")
            self.line("")
        elif isinstance(op, c.EnumOp):
            items = ", ".join(f"{n.data} = {v.value.data}" for n, v in zip(op.names, op.values))
            self.line(f"enum {{ {items} }};")
        elif isinstance(op, c.FuncOp):
            self.func(op)
        else:
            raise SarekError(f"sarek_c printer: unexpected top-level op {op.name}", op)

    def members(self, block: Block) -> None:
        self.indent += 1
        for m in block.ops:
            if isinstance(m, c.FieldOp):
                self.line(_join_decl(m.ctype.data, m.field_name.data) + ";")
            elif isinstance(m, c.UnionOp | c.NestedStructOp):
                self.line("union {" if isinstance(m, c.UnionOp) else "struct {")
                self.members(m.body.block)
                self.line(f"}} {m.member_name.data};")
            else:
                raise SarekError(f"sarek_c printer: unexpected struct member {m.name}", m)
        self.indent -= 1

    def func(self, op: c.FuncOp) -> None:
        params: list[str] = []
        for a, t, n, s in zip(op.body.block.args, op.param_types, op.param_names, op.param_suffixes):
            self.names[a] = n.data
            params.append(_join_decl(t.data, n.data) + s.data)
        head = f"{op.prefix.data} {op.ret.data}" if op.prefix.data else op.ret.data
        self.line(f"{head} {op.func_name.data}({', '.join(params)}) {{")
        self.stmts(op.body.block)
        self.line("}")
        self.line("")

    # -------------------------------------------------------------------------------------- statements

    def stmts(self, block: Block) -> None:
        self.indent += 1
        for op in block.ops:
            self.stmt(op)
        self.indent -= 1

    def stmt(self, op: Operation) -> None:
        if isinstance(op, (*_EXPR_OPS, c.YieldOp)):
            return
        if isinstance(op, c.DeclOp):
            self.names[op.result] = op.var_name.data
            ctype = op.result.type.text
            init = f" = {self.expr(op.init)}" if op.init is not None else ""
            self.line(_join_decl(ctype, op.var_name.data) + init + ";")
        elif isinstance(op, c.ArrayDeclOp):
            self.names[op.result] = op.var_name.data
            init = f" = {op.init.data}" if op.init.data else ""
            self.line(f"{_join_decl(op.ctype.data, op.var_name.data)}[{self.expr(op.size)}]{init};")
        elif isinstance(op, c.AssignOp):
            self.line(f"{self.expr(op.place)} = {self.expr(op.value)};")
        elif isinstance(op, c.EvalOp):
            self.line(f"{self.expr(op.expr)};")
        elif isinstance(op, c.IfOp):
            self.line(f"if ({self.cond(op.cond)}) {{")
            self.stmts(op.then_region.block)
            if op.else_region.blocks:
                self.line("} else {")
                self.stmts(op.else_region.block)
            self.line("}")
        elif isinstance(op, c.ForOp):
            i = op.var_name.data
            self.names[op.body.block.args[0]] = i
            if op.dyn_step is not None:  # Python's range: the sign decides, a zero step runs no iteration
                st, hi = self.paren(op.dyn_step), self.paren(op.hi)
                test, inc = f"({st} > 0 && {i} < {hi}) || ({st} < 0 && {i} > {hi})", f"{i} += {st}"
            else:
                step = op.step.value.data if op.step is not None else 1
                cmp = "<" if step > 0 else ">"
                test = f"{i} {cmp} {self.expr(op.hi)}"
                inc = {1: f"{i}++", -1: f"{i}--"}.get(step, f"{i} += {step}" if step > 0 else f"{i} -= {-step}")
            self.line(f"for ({_join_decl(op.ctype.data, i)} = {self.expr(op.lo)}; {test}; {inc}) {{")
            self.stmts(op.body.block)
            self.line("}")
        elif isinstance(op, c.WhileOp):
            cond_block = op.cond_region.block
            y = cond_block.last_op
            assert isinstance(y, c.YieldOp)
            if all(isinstance(o, (*_EXPR_OPS, c.YieldOp)) for o in cond_block.ops):
                self.line(f"while ({self.cond(y.value)}) {{")
            else:
                self.line("for (;;) {")
                self.stmts(cond_block)
                self.line(f"  if (!{self.paren(y.value)}) break;")
            self.stmts(op.body.block)
            self.line("}")
        elif isinstance(op, c.SwitchOp):
            self.line(f"switch ({self.expr(op.scrutinee)}) {{")
            for label, region in zip(op.labels, op.cases):
                self.line(f"  case {label.data}: {{" if label.data else "  default: {")
                self.indent += 1
                self.stmts(region.block)
                self.line("  break;")
                self.indent -= 1
                self.line("  }")
            self.line("}")
        elif isinstance(op, c.BreakOp):
            self.line("break;")
        elif isinstance(op, c.ContinueOp):
            self.line("continue;")
        elif isinstance(op, c.ReturnOp):
            self.line(f"return {self.expr(op.value)};" if op.value is not None else "return;")
        elif isinstance(op, c.BlockOp):
            self.line("{")
            self.stmts(op.body.block)
            self.line("}")
        elif isinstance(op, c.PragmaOp):
            self.lines.append(f"#pragma {op.text.data}")
        elif isinstance(op, c.VerbatimOp):
            for ln in op.text.data.split("\n"):
                self.line(ln)
        else:
            raise SarekError(f"sarek_c printer: unexpected statement {op.name}", op)

    # -------------------------------------------------------------------------------------- expressions

    def cond(self, v: SSAValue) -> str:
        """A condition without the doubled parentheses of `if ((a < b))`."""
        s = self.expr(v)
        return s[1:-1] if isinstance(v.owner, c.BinaryOp) else s

    def paren(self, v: SSAValue) -> str:
        s = self.expr(v)
        return s if isinstance(v.owner, c.BinaryOp | c.UnaryOp | c.SelectOp) or s.isidentifier() else f"({s})"

    def expr(self, v: SSAValue) -> str:
        if v in self.names:
            return self.names[v]
        op = v.owner
        if isinstance(v, BlockArgument) or not isinstance(op, Operation):
            raise SarekError("sarek_c printer: unnamed block argument")
        render = _EXPRESSIONS.get(type(op))
        if render is not None:
            return render(self, op)
        raise SarekError(f"sarek_c printer: {op.name} is not an expression", op)

    def postfix(self, v: SSAValue) -> str:
        """An operand of `[]` or `.`: casts and compound literals get parentheses."""
        s = self.expr(v)
        return f"({s})" if isinstance(v.owner, c.CastOp | c.RecordLitOp | c.TemplateOp) and not s.isidentifier() else s


def _unary(p: CPrinter, op: c.UnaryOp) -> str:
    inner = p.expr(op.operand)
    if inner[:1] in "-+":  # a signed literal: `-(-7.0f)`, never the decrement `--7.0f`
        inner = f"({inner})"
    return f"({op.op.data}{inner})"


def _record_lit(p: CPrinter, op: c.RecordLitOp) -> str:
    vals = [p.expr(x) for x in op.values]
    if op.fields.data:
        vals = [f".{f.data} = {x}" for f, x in zip(op.fields, vals)]
        return f"({op.result.type.text}){{{', '.join(vals)}}}"
    # positional (CUDA/HIP, C++): aggregate initialisation `T{a, b}`; NVRTC rejects C99 `(T){a, b}`
    return f"{op.result.type.text}{{{', '.join(vals)}}}"


def _expressions() -> dict[type[Operation], Callable[[CPrinter, Any], str]]:
    """The text of each expression op, by class (each renders its operands through `CPrinter.expr`)."""
    return {
        c.LitOp: lambda p, op: op.text.data,
        c.BinaryOp: lambda p, op: f"({p.expr(op.lhs)} {op.op.data} {p.expr(op.rhs)})",
        c.UnaryOp: _unary,
        c.CallOp: lambda p, op: f"{op.callee.data}({', '.join(p.expr(a) for a in op.args)})",
        c.CastOp: lambda p, op: f"({op.result.type.text}){p.expr(op.operand)}",
        c.IndexOp: lambda p, op: f"{p.postfix(op.base)}[{p.expr(op.index)}]",
        c.MemberOp: lambda p, op: f"{p.postfix(op.base)}.{op.field.data}",
        c.SelectOp: lambda p, op: f"({p.expr(op.cond)} ? {p.expr(op.a)} : {p.expr(op.b)})",
        c.RecordLitOp: _record_lit,
        c.TemplateOp: lambda p, op: op.template.data.format(*(p.expr(a) for a in op.args)),
    }


_EXPRESSIONS = _expressions()


def print_c(module: ModuleOp) -> str:
    return CPrinter().print_module(module)
