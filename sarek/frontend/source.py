"""A kernel's Python source: its AST, the mapping back to file positions and its environment.

The function's source is parsed (never executed); `Source.error` makes the located `CompileError` every
refusal of the front end carries."""

from __future__ import annotations

import ast
import inspect
import weakref
from typing import Any

from sarek.frontend.errors import CompileError


class Source:
    """A function's AST with the mapping back to file positions. `text` (from `sarek.kernel(fn, source=...)`)
    is the source when Python cannot show it (`python -c`, `exec`); it is put in `linecache` for carets."""

    def __init__(self, fn: Any, text: str | None = None):
        fn = inspect.unwrap(fn)
        self.fn = fn
        self.file = fn.__code__.co_filename
        if text is not None:
            self._from_text(fn, text)
            return
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise CompileError(f"cannot read the source of '{fn.__qualname__}' ({e}): Python keeps no source for "
                               "code run by `python -c` or `exec`; define the kernel in a file, pass its text "
                               "with `sarek.kernel(fn, source=text)`, or put the text in `linecache` under the "
                               "name given to `compile`", self.file, fn.__code__.co_firstlineno, 1) from None
        text = "".join(lines)
        shift = start - 1
        if lines and lines[0][:1] in (" ", "\t"):
            text = "if 1:\n" + text
            shift -= 1
        self.shift = shift
        tree = ast.parse(text)
        node: ast.AST = tree.body[0]
        if isinstance(node, ast.If):
            node = node.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise CompileError(f"'{fn.__qualname__}' is not a plain function definition", self.file, start, 1)
        self.fdef = node

    def _from_text(self, fn: Any, text: str) -> None:
        """The `def` of `fn` inside `text` (its own source, or the whole text given to `exec`): the one at the
        code's first line, else the only one of that name. Lines count from the start of `text`."""
        import linecache
        import os
        import textwrap

        if not os.path.isfile(self.file) and linecache.getline(self.file, 1) == "":
            if self.file == "<string>":  # every `python -c` and `exec` of a string: a name of its own
                self.file = f"<source of {fn.__qualname__}>"
            linecache.cache[self.file] = (len(text), None, text.splitlines(True), self.file)
        where = (self.file, 1, 1)
        try:
            tree = ast.parse(textwrap.dedent(text))
        except SyntaxError as e:
            raise CompileError(f"the source given for '{fn.__qualname__}' does not parse: {e.msg}", self.file,
                               e.lineno or 1, e.offset or 1) from None
        defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fn.__name__]
        first = fn.__code__.co_firstlineno
        at = [d for d in defs if min([d.lineno, *(x.lineno for x in d.decorator_list)]) == first]
        if not at and len(defs) == 1:
            at = defs
        if not at:
            raise CompileError(f"the source given for '{fn.__qualname__}' has {len(defs) or 'no'} definition(s) "
                               f"of '{fn.__name__}'" + (" and none starts at its line" if defs else ""), *where)
        self.shift = 0
        self.fdef = at[0]

    def pos(self, node: ast.AST) -> tuple[int, int]:
        return getattr(node, "lineno", 1) + self.shift, getattr(node, "col_offset", 0) + 1

    def error(self, node: ast.AST, message: str) -> CompileError:
        line, col = self.pos(node)
        return CompileError(message, self.file, line, col)


_SOURCES: weakref.WeakKeyDictionary[Any, Source] = weakref.WeakKeyDictionary()


def source_of(fn: Any, text: str | None = None) -> Source:
    """`Source(fn)`, read and parsed once per function object (a device function's signature and body are
    lowered separately; the lowering never mutates the AST); `text` replaces what inspect would read."""
    key = inspect.unwrap(fn)
    src = _SOURCES.get(key)
    if src is None or text is not None:
        src = _SOURCES[key] = Source(key, text)
        if text is not None:
            GIVEN.add(key)
    return src


#: functions whose source text was given (`source=`): not what their file says (no warm-start record)
GIVEN: weakref.WeakSet[Any] = weakref.WeakSet()


def resolve_env(fn: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(closure variables, globals) of a function."""
    fn = inspect.unwrap(fn)
    closure: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            closure[name] = cell.cell_contents
        except ValueError:
            pass
    return closure, fn.__globals__
