"""User-facing errors: one exception type with the operation's location and an optional backend tag.

`SarekError` is a `DiagnosticException`, so `sarek-opt --verify-diagnostics` prints it and lit can check
it; the front end turns it into `sarek.CompileError` with the Python source line and a caret. `CompileError`
lives here, at the bottom layer, because the runtime and `sarek.types` raise it too (sarek.frontend.errors
re-exports it).
"""

from __future__ import annotations

import functools
import linecache
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar, cast

from xdsl.utils.exceptions import DiagnosticException  # (no IR: `import sarek` loads no dialect, sarek_imports)

if TYPE_CHECKING:
    from xdsl.dialects.builtin import FileLineColLoc
    from xdsl.ir import Operation


def location_text(op: Operation | None) -> str | None:
    """`file:line:col` for an op built by the front end (or parsed with `loc(...)`), else None."""
    if op is None:  # (a runtime error: no IR to import)
        return None
    from xdsl.dialects.builtin import FileLineColLoc, UnknownLoc

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

    __module__ = "sarek"  # tracebacks print `sarek.SarekError`

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


# ------------------------------------------------------------------------------------------------ tracebacks

@functools.cache
def _internal_dirs() -> tuple[str, ...]:
    """Directories whose frames are sarek's internals in a user error's traceback: sarek and xDSL."""
    import os

    import xdsl

    return tuple(os.path.dirname(os.path.abspath(p)) + os.sep for p in (__file__, xdsl.__file__))


def _is_internal(tb: TracebackType) -> bool:
    import os

    return os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(_internal_dirs())


def _raised_by_sarek(tb: TracebackType | None) -> bool:
    """Whether the innermost frame that is sarek's or the user's (other libraries' frames aside) is sarek's:
    an exception sarek raised, or a library raised when sarek called it."""
    import os
    import sysconfig

    libs = tuple(os.path.abspath(sysconfig.get_path(k)) + os.sep for k in ("stdlib", "purelib", "platlib"))
    last = False
    while tb is not None:
        if _is_internal(tb):
            last = True
        elif not os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(libs):
            last = False
        tb = tb.tb_next
    return last


def raised_by_user(e: BaseException) -> bool:
    """`e` came from the user's code (a signal handler, Ctrl-C), not from sarek's: never an internal error."""
    return isinstance(e, KeyboardInterrupt) or not _raised_by_sarek(e.__traceback__)


def interrupting(e: BaseException, what: str) -> bool:
    """Whether `e`, caught around `what` (a launch), was raised by the user's own code rather than sarek's:
    a signal handler's exception (a SIGALRM timeout) or KeyboardInterrupt landing mid-launch. Such an
    exception is the user's and passes through unchanged, with a note saying what it interrupted."""
    if not raised_by_user(e):
        return False
    note = f"(it interrupted {what}; the device stays usable, the launch's outputs are partial)"
    if note not in getattr(e, "__notes__", ()):
        e.add_note(note)
    return True


def filter_traceback(tb: TracebackType | None) -> TracebackType | None:
    """`tb` without sarek's and xDSL's frames (what a user error shows: the user's own frames)."""
    kept: list[TracebackType] = []
    while tb is not None:
        if not _is_internal(tb):
            kept.append(tb)
        tb = tb.tb_next
    out: TracebackType | None = None
    for t in reversed(kept):
        out = TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


FILTERED_NOTE = "(sarek hid its internal frames; SAREK_TRACEBACK=full shows them)"
BUG_NOTE = ("internal error: this is a bug in sarek, not in your code; please report it with this traceback "
            "and the kernel")


def present_error(e: BaseException) -> None:
    """Shape an exception leaving a public sarek call (JAX's traceback filtering is the model): a user error
    (`SarekError`: CompileError, LaunchError, ...) keeps only the user's frames unless SAREK_TRACEBACK=full; any
    other exception raised inside sarek is a bug, keeps its full traceback and says so. Idempotent."""
    import os

    if isinstance(e, SarekError):
        if os.environ.get("SAREK_TRACEBACK", "").strip().lower() != "full":
            e.with_traceback(filter_traceback(e.__traceback__))  # again at each boundary it leaves
            if FILTERED_NOTE not in getattr(e, "__notes__", ()):
                e.add_note(FILTERED_NOTE)
        return
    if getattr(e, "_sarek_presented", False):
        return
    if _raised_by_sarek(e.__traceback__):
        try:
            e.add_note(BUG_NOTE)
            e._sarek_presented = True  # pyright: ignore[reportAttributeAccessIssue]
        except AttributeError:  # exceptions without a __dict__ (built with __slots__)
            pass


_F = TypeVar("_F", bound=Callable[..., Any])


def user_api(fn: _F) -> _F:
    """Mark a public entry point: exceptions leaving it go through `present_error` (free when none is raised)."""

    @functools.wraps(fn)
    def boundary(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            tb = e.__traceback__
            if tb is not None and tb.tb_next is None:  # the call itself did not bind: the caller's arguments
                import inspect

                sig = inspect.signature(fn)
                sig = sig.replace(parameters=[p.replace(annotation=p.empty) for p in sig.parameters.values()],
                                  return_annotation=sig.empty)
                raise TypeError(f"{e}; the call is {fn.__qualname__}{sig}") from None
            present_error(e)
            raise
        except Exception as e:
            present_error(e)
            raise

    return cast(_F, boundary)


# ------------------------------------------------------------------------------------------------ CompileError


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
    from xdsl.dialects.builtin import FileLineColLoc

    while op is not None:
        if isinstance(op.location, FileLineColLoc):
            return op.location
        op = op.parent_op()
    return None


def make_loc(file: str, line: int, col: int) -> FileLineColLoc:
    from xdsl.dialects.builtin import FileLineColLoc, IntAttr, StringAttr

    return FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))


class DeclarationError(CompileError, TypeError):
    """A bad `@record`/`@variant` definition, located at the class or the member; also a TypeError, which such
    definitions raised before they were located."""


def user_frame() -> tuple[str | None, int | None]:
    """(file, line) of the innermost caller outside the sarek package."""
    import os
    import sys

    pkg = os.path.dirname(os.path.abspath(__file__))  # this module is sarek/diagnostics.py
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
