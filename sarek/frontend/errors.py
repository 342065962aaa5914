"""`sarek.CompileError`: a front-end diagnostic located in the Python source, with the line and a caret."""

from __future__ import annotations

import linecache

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr
from xdsl.ir import Operation

from sarek.diagnostics import SarekError


def caret_text(file: str, line: int, col: int) -> str:
    """The source line and a caret under column `col` (1-based), or '' when the file is unreadable."""
    text = linecache.getline(file, line).rstrip("\n")
    if not text:
        return ""
    pad = "".join(c if c == "\t" else " " for c in text[: max(col - 1, 0)])
    return f"\n    {text}\n    {pad}^"


class CompileError(SarekError):
    """A kernel that cannot compile: `file.py:LINE:COL: error: message`, the source line and a caret.

    `.file`, `.line`, `.col` locate it; `.message` is the bare message. A `SarekError` (and so a
    DiagnosticException), so tools that print diagnostics print it unchanged.
    """

    __module__ = "sarek"  # tracebacks print `sarek.CompileError`

    def __init__(self, message: str, file: str | None = None, line: int | None = None, col: int | None = None,
                 backend: str | None = None):
        self.message = message
        self.op = None
        self.backend = backend
        self.file, self.line, self.col = file, line, col
        self.location = f"{file}:{line}:{col}" if file is not None and line is not None else None
        head = f"{self.location}: " if self.location else ""
        tag = f"{backend}: " if backend else ""
        snippet = caret_text(file, line, col or 1) if file is not None and line is not None else ""
        Exception.__init__(self, f"{head}error: {tag}{message}{snippet}")

    @classmethod
    def from_sarek_error(cls, e: SarekError) -> CompileError:
        """Re-raise a located SarekError (from a pass or a target) with the Python source line and caret."""
        if isinstance(e, CompileError):
            return e
        loc = _loc_of(e.op)
        if loc is None:
            return cls(e.message, backend=e.backend)
        return cls(e.message, loc.filename.data, loc.line.data, loc.column.data, e.backend)


def _loc_of(op: Operation | None) -> FileLineColLoc | None:
    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            return op.location
        op = op.parent_op()
    return None


def make_loc(file: str, line: int, col: int) -> FileLineColLoc:
    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


class DeclarationError(CompileError, TypeError):
    """A bad `@record`/`@variant` definition, located at the class or the member; also a TypeError, which such
    definitions raised before they were located."""


def user_frame() -> tuple[str | None, int | None]:
    """(file, line) of the innermost caller outside the sarek package."""
    import os
    import sys

    pkg = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    f = sys._getframe(1)  # pyright: ignore[reportPrivateUsage]
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(pkg + os.sep):
        f = f.f_back
    return (f.f_code.co_filename, f.f_lineno) if f is not None else (None, None)


def user_location() -> tuple[str | None, int | None, int | None]:
    """(file, line, column of its first character) of the innermost caller outside the sarek package."""
    file, line = user_frame()
    col = None
    if file is not None and line is not None:
        text = linecache.getline(file, line)
        col = len(text) - len(text.lstrip()) + 1
    return file, line, col


def at_user_line(message: str) -> DeclarationError:
    """A declaration-time mistake (`Array[f32, 5]`, a bad `sarek.TypeVar`) located at the user's line that made
    it, caret at its first character; still a TypeError for callers that caught the unlocated one."""
    return DeclarationError(message, *user_location())

