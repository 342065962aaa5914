"""The fast executor (placeholder until the vectorized version lands)."""
from __future__ import annotations

from typing import Any


def unsupported_reason(module: Any, kernel: str) -> str | None:
    return "not implemented yet"


def run(*a: Any, **k: Any) -> None:
    raise NotImplementedError
