"""User-facing errors: one exception type with the operation's location and an optional backend tag.

`SarekError` is a `DiagnosticException`, so `sarek-opt --verify-diagnostics` prints it and lit can check
it; the front end turns it into `sarek.CompileError` with the Python source line and a caret.
"""

from __future__ import annotations

from typing import Any

from xdsl.dialects.builtin import FileLineColLoc, UnknownLoc
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


def location_text(op: Operation | None) -> str | None:
    """`file:line:col` for an op built by the front end (or parsed with `loc(...)`), else None."""
    while op is not None:
        loc = op.location
        if isinstance(loc, FileLineColLoc):
            return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}"
        if not isinstance(loc, UnknownLoc):
            return None
        op = op.parent_op()
    return None


class SarekError(DiagnosticException):
    """A located diagnostic: `[file:line:col: ]error: [backend: ]message`, with the op kept for callers."""

    def __init__(self, message: str, op: Operation | None = None, backend: str | None = None):
        self.message = message
        self.op = op
        self.backend = backend
        self.location = location_text(op)
        head = f"{self.location}: " if self.location else ""
        tag = f"{backend}: " if backend else ""
        super().__init__(f"{head}error: {tag}{message}")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickles with its text, message and location but not the op (another process, e.g. a Dask worker's
        client, gets the same error without the IR around it)."""
        state = {k: v for k, v in self.__dict__.items() if k != "op"}
        return (_rebuild, (type(self), self.args), state)


def _rebuild(cls: type[SarekError], args: tuple[Any, ...]) -> SarekError:
    e = cls.__new__(cls)
    Exception.__init__(e, *args)
    e.op = None
    return e


def error(message: str, op: Operation | None = None, backend: str | None = None) -> SarekError:
    """Build (not raise) a SarekError; callers write `raise error(...)`."""
    return SarekError(message, op, backend)
