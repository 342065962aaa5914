"""Structured-source target dialects shared by the shader backends (GLSL and WGSL).

A lowered shader is a tree of statement/declaration ops whose operands are already-rendered source text:
the lowering (sarek/lowering/shader/) makes every decision — spellings, names, temporaries, layouts,
bindings — and the printer only lays the text out (indentation, punctuation of the language). Each language
gets its own dialect (`sarek_glsl`, `sarek_wgsl`) with the same op shapes, built by `make_shader_ops`.

Ops (custom syntax `<dialect>.<op> "text" {region} ...`):
  shader @k {abi = "<json>"} { ... }   one compute shader for kernel @k (abi: bindings/params for the runtime)
  directive "text"                     `#version`, `#extension`, `enable`, `#define` lines
  comment "text"                       a `// text` line
  global "text"                        a module-scope declaration (buffer, uniform, shared array, constant)
  struct "name" ["field", ...]         a struct declaration, fields already spelled for the language
  func "signature" { body }            a function (helpers, constructors, the entry point)
  stmt "text"                          a statement (`;` added by the printer)
  if "cond" { then } { else }          the else region may be empty
  for "header" { body }                header between the parentheses, as the language wants it
  while "cond" { body }
  loop { body }                        an infinite loop (left with `break`/`return`)
  switch "expr" { case ... }           cases: `case "label" { body }` (label `default` for the default case)
  case "label" { body }
  block { body }                       an explicit scope
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolNameConstraint
from xdsl.ir import Block, Dialect, Operation, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, prop_def, region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from sarek.analysis.namer import comment_text
from sarek.dialect.syntax import parse_attrs, print_attrs


def _print_regions(printer: Printer, op: Operation) -> None:
    for r in op.regions:
        printer.print_string(" ")
        printer.print_region(r, print_entry_block_args=False, print_empty_block=False)


def _parse_region(parser: Parser) -> Region:
    r = parser.parse_region()
    if not r.blocks:
        r.add_block(Block())
    return r


class ShaderOpBase(IRDLOperation):
    """Common custom syntax: optional text, then the regions."""

    def print(self, printer: Printer) -> None:
        text = getattr(self, "text", None)
        if isinstance(text, StringAttr):
            printer.print_string(" ")
            printer.print_string_literal(text.data)
        _print_regions(printer, self)
        print_attrs(printer, self)


def _str_prop(op: Operation, name: str) -> str:
    """A string property of the generated ops (their classes are built at run time, see make_shader_ops)."""
    return cast(StringAttr, op.properties[name]).data


def _verify_comment(self: IRDLOperation) -> None:
    """A comment is one line: a line break in its text would end it and print the rest as code."""
    text = _str_prop(self, "text")
    if comment_text(text) != text:
        raise VerifyException(f"comment text {text!r} must be printable ASCII on one line (no line breaks or "
                              "backslashes: the rest would be printed as code); spell it with "
                              "sarek.analysis.namer.comment_text")


def make_shader_ops(prefix: str) -> dict[str, type[IRDLOperation]]:
    """The op classes of dialect `prefix` (e.g. "sarek_glsl")."""
    ops: dict[str, type[IRDLOperation]] = {}

    def text_op(opname: str, nregions: int, doc: str) -> type[IRDLOperation]:
        ns: dict[str, object] = {
            "__doc__": doc,
            "name": f"{prefix}.{opname}",
            "text": prop_def(StringAttr),
        }
        for i in range(nregions):
            ns[f"r{i}"] = region_def("single_block")
        if nregions:
            ns["traits"] = traits_def(NoTerminator())

        def __init__(self: IRDLOperation, text: str, *regions: Region) -> None:
            regs = list(regions) + [Region(Block()) for _ in range(nregions - len(regions))]
            IRDLOperation.__init__(self, properties={"text": StringAttr(text)}, regions=regs)

        @classmethod
        def parse(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
            text = parser.parse_str_literal()
            regs = [_parse_region(parser) for _ in range(nregions)]
            op = cast(Callable[..., IRDLOperation], cls)(text, *regs)
            return parse_attrs(parser, op)

        ns["__init__"] = __init__
        ns["parse"] = parse
        if opname == "comment":
            ns["verify_"] = _verify_comment
        cls = type(f"{prefix.title().replace('_', '')}{opname.title()}Op", (ShaderOpBase,), ns)
        return irdl_op_definition(cls)

    for opname, n, doc in [
        ("directive", 0, "A `#version`/`#extension`/`enable`/`#define` line."),
        ("comment", 0, "A `// text` comment line."),
        ("global", 0, "A module-scope declaration line."),
        ("func", 1, "A function: signature text and body."),
        ("stmt", 0, "A statement; the printer adds the terminator."),
        ("if", 2, "`if (cond) { then } else { else }` (empty else omitted)."),
        ("for", 1, "`for (header) { body }`."),
        ("while", 1, "`while (cond) { body }`."),
        ("switch", 1, "`switch (expr) { cases }`."),
        ("case", 1, "One case of a switch; label `default` for the default case."),
    ]:
        ops[opname] = text_op(opname, n, doc)

    def region_op(opname: str, doc: str) -> type[IRDLOperation]:
        def __init__(self: IRDLOperation, body: Region | None = None) -> None:
            IRDLOperation.__init__(self, regions=[body or Region(Block())])

        @classmethod
        def parse(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
            op = cast(Callable[..., IRDLOperation], cls)(_parse_region(parser))
            return parse_attrs(parser, op)

        ns: dict[str, object] = {"__doc__": doc, "name": f"{prefix}.{opname}", "body": region_def("single_block"),
                                 "traits": traits_def(NoTerminator()), "__init__": __init__, "parse": parse}
        cls = type(f"{prefix.title().replace('_', '')}{opname.title()}Op", (ShaderOpBase,), ns)
        return irdl_op_definition(cls)

    ops["loop"] = region_op("loop", "An infinite loop, left with break or return.")
    ops["block"] = region_op("block", "An explicit scope.")

    # struct "name" ["f1", "f2"]
    def s_init(self: IRDLOperation, name: str, fields: Sequence[str]) -> None:
        IRDLOperation.__init__(self, properties={"text": StringAttr(name),
                                                 "fields": ArrayAttr([StringAttr(f) for f in fields])})

    def s_print(self: IRDLOperation, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_string_literal(_str_prop(self, "text"))
        printer.print_string(" ")
        printer.print_attribute(self.properties["fields"])
        print_attrs(printer, self)

    @classmethod
    def s_parse(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        name = parser.parse_str_literal()
        fields = parser.parse_attribute()
        assert isinstance(fields, ArrayAttr)
        op = cast(Callable[..., IRDLOperation], cls)(name, [f.data for f in cast(ArrayAttr[StringAttr], fields).data])
        return parse_attrs(parser, op)

    ops["struct"] = irdl_op_definition(type(f"{prefix.title().replace('_', '')}StructOp", (IRDLOperation,), {
        "__doc__": "A struct declaration; fields already spelled for the language.",
        "name": f"{prefix}.struct", "text": prop_def(StringAttr), "fields": prop_def(ArrayAttr[StringAttr]),
        "__init__": s_init, "print": s_print, "parse": s_parse}))

    # shader @name {abi = "..."} { ... }
    def sh_init(self: IRDLOperation, name: str, abi: str, body: Region | None = None) -> None:
        IRDLOperation.__init__(self, properties={"sym_name": StringAttr(name), "abi": StringAttr(abi)},
                               regions=[body or Region(Block())])

    def sh_print(self: IRDLOperation, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(_str_prop(self, "sym_name"))
        printer.print_string(" abi ")
        printer.print_string_literal(_str_prop(self, "abi"))
        _print_regions(printer, self)
        print_attrs(printer, self)

    @classmethod
    def sh_parse(cls: type[IRDLOperation], parser: Parser) -> IRDLOperation:
        name = parser.parse_symbol_name().data
        parser.parse_keyword("abi")
        abi = parser.parse_str_literal()
        op = cast(Callable[..., IRDLOperation], cls)(name, abi, _parse_region(parser))
        return parse_attrs(parser, op)

    ops["shader"] = irdl_op_definition(type(f"{prefix.title().replace('_', '')}ShaderOp", (IRDLOperation,), {
        "__doc__": "One compute shader (one kernel); `abi` is the JSON description the runtime binds by.",
        "name": f"{prefix}.shader", "sym_name": prop_def(SymbolNameConstraint()), "abi": prop_def(StringAttr),
        "body": region_def("single_block"), "traits": traits_def(SymbolOpInterface(), NoTerminator()),
        "__init__": sh_init, "print": sh_print, "parse": sh_parse}))
    return ops


def make_dialect(prefix: str, ops: dict[str, type[IRDLOperation]]) -> Dialect:
    return Dialect(prefix, list(ops.values()), [])


# ------------------------------------------------------------------------------------------------ printing


class SourcePrinter:
    """Lays out a lowered shader module. Subclasses give the language's punctuation."""

    indent_unit = "  "

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 0

    def out(self, s: str) -> None:
        self.lines.append(self.indent_unit * self.depth + s if s else "")

    def kind(self, op: Operation) -> str:
        return op.name.split(".", 1)[1]

    def text(self, op: Operation) -> str:
        return _str_prop(op, "text")

    # language hooks
    #: what ends a struct member, and the struct (GLSL `;` and `};`, WGSL `,` and `}`)
    FIELD_END = ";"
    STRUCT_END = "};"

    def struct_lines(self, name: str, fields: list[str]) -> list[str]:
        return [f"struct {name} {{", *(f"  {f}{self.FIELD_END}" for f in fields), self.STRUCT_END]

    def switch_head(self, expr: str) -> str:
        return f"switch ({expr})"

    def case_head(self, label: str) -> str:
        return "default:" if label == "default" else f"case {label}:"

    def print_module(self, ops: Sequence[Operation]) -> str:
        shaders = [o for o in ops if self.kind(o) == "shader"]
        for i, sh in enumerate(shaders):
            if len(shaders) > 1:
                if i:
                    self.out("")
                self.out(f"// ----- shader for kernel {comment_text(_str_prop(sh, 'sym_name'))}")
            for o in sh.regions[0].block.ops:
                self.top(o)
        return "\n".join(self.lines) + "\n"

    def top(self, op: Operation) -> None:
        k = self.kind(op)
        if k in ("directive", "global"):
            self.out(self.text(op))
        elif k == "comment":
            self.out("// " + self.text(op))
        elif k == "struct":
            for ln in self.struct_lines(self.text(op), [f.data for f in cast(ArrayAttr[StringAttr], op.properties["fields"]).data]):
                self.out(ln)
        elif k == "func":
            self.out(self.text(op) + " {")
            self.body(op.regions[0])
            self.out("}")
        else:
            raise ValueError(f"unexpected op {op.name} at shader scope")

    def body(self, region: Region) -> None:
        self.depth += 1
        for o in region.block.ops:
            self.stmt(o)
        self.depth -= 1

    def stmt(self, op: Operation) -> None:
        k = self.kind(op)
        if k == "stmt":
            self.out(self.text(op) + ";")
        elif k == "comment":
            self.out("// " + self.text(op))
        elif k == "directive":
            self.lines.append(self.text(op))
        elif k == "if":
            self.out(f"if ({self.text(op)}) {{")
            self.body(op.regions[0])
            els = op.regions[1]
            if els.blocks and els.block.ops:
                self.out("} else {")
                self.body(els)
            self.out("}")
        elif k == "for":
            self.out(f"for ({self.text(op)}) {{")
            self.body(op.regions[0])
            self.out("}")
        elif k == "while":
            self.out(f"while ({self.text(op)}) {{")
            self.body(op.regions[0])
            self.out("}")
        elif k == "loop":
            self.out(self.loop_head() + " {")
            self.body(op.regions[0])
            self.out("}")
        elif k == "block":
            self.out("{")
            self.body(op.regions[0])
            self.out("}")
        elif k == "switch":
            self.out(self.switch_head(self.text(op)) + " {")
            self.body(op.regions[0])
            self.out("}")
        elif k == "case":
            self.out(self.case_head(self.text(op)) + " {")
            self.body(op.regions[0])
            self.out("}")
        else:
            raise ValueError(f"unexpected op {op.name} in a function body")

    def loop_head(self) -> str:
        return "for (;;)"
