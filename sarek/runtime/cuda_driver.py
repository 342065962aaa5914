"""`cuda.bindings.driver`, imported once: a leaf module, so that sarek.runtime.interop (DLPack pointers) and the
CUDA/PTX devices share it without importing each other."""

from __future__ import annotations

import importlib
from typing import Any

_DRIVER: list[Any] = []


def driver() -> Any:
    """`cuda.bindings.driver` (a Cython module without type stubs), imported once."""
    if not _DRIVER:
        _DRIVER.append(importlib.import_module("cuda.bindings.driver"))
    return _DRIVER[0]
