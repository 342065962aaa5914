"""`UNSET`: a launch's `block` not given (an explicit `block=None` is refused like any other non-block value).

A leaf module: the front end's `Kernel.launch` and the runtime share the marker, and `import sarek` loads no
runtime (sarek.runtime.args re-exports it)."""

from __future__ import annotations

from typing import Any


class _Unset:
    def __repr__(self) -> str:
        return "<not given>"


UNSET: Any = _Unset()
