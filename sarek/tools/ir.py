"""Parse and print sarek IR text with a context that knows exactly the sarek dialects."""

from __future__ import annotations

from io import StringIO

from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer


def make_context() -> Context:
    """builtin + sarek + the target dialects, all registered lazily."""
    from sarek.universe import get_all_dialects

    ctx = Context()
    ctx.register_dialect("builtin", lambda: Builtin)
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def parse_module(text: str, name: str = "<text>", ctx: Context | None = None) -> ModuleOp:
    return Parser(ctx or make_context(), text, name).parse_module()


def print_module(m: ModuleOp, generic: bool = False) -> str:
    out = StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(m)
    return out.getvalue()
