"""The dynamic shared-memory window of a CUDA or PTX kernel whose shared arrays exceed the static limit.

A kernel may declare at most 48 KiB of static shared memory (`__shared__` arrays, `.shared` variables); more
needs dynamic shared memory: one `extern __shared__` / `.extern .shared` array sized at launch, after the
function's maximum dynamic size was raised (cuFuncSetAttribute). When a kernel's shared arrays add up to more
than `STATIC_LIMIT`, the CUDA and PTX lowerings place every one of them in that window at the offsets computed
here (in declaration order, each `ALIGN`-byte aligned) and write a marker naming the kernel and the window's
size (`MARKER`), which the CUDA and PTX runtimes read from the source to size the launch. The gate bounds the
total at the descriptor's `dynamic_shared_limit` (Hopper's 227 KiB); a device with less refuses at launch.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the runtimes read markers on a warm launch, which imports no IR (tests/unit/test_warm_start.py)
    from xdsl.dialects.builtin import ModuleOp

    from sarek.dialect.sarek import AllocArrayOp, KernelOp

STATIC_LIMIT = 48 * 1024
ALIGN = 128
WINDOW = "sarek_dynamic_shared"
MARKER = "sarek-dynamic-shared {kernel}: {nbytes} bytes"
_MARKER_RE = re.compile(r"sarek-dynamic-shared (\S+): (\d+) bytes")


@dataclass(frozen=True)
class Window:
    """Each shared array's byte offset in the window and the window's size."""

    offsets: dict[AllocArrayOp, int]
    nbytes: int


def dynamic_window(module: ModuleOp, kernel: KernelOp) -> Window | None:
    """The window of `kernel`'s shared arrays when they exceed the static limit, else None (static arrays)."""
    from sarek.analysis.features import constant_size
    from sarek.analysis.layout import layout_of, round_up
    from sarek.dialect.sarek import AllocArrayOp, MemSpace

    offsets: dict[AllocArrayOp, int] = {}
    total = plain = 0
    for op in kernel.walk():
        if isinstance(op, AllocArrayOp) and op.array_type.memspace == MemSpace.SHARED \
                and (n := constant_size(op)) is not None:
            size = n * layout_of(module, op.array_type.element_type).size
            offsets[op] = total
            total = round_up(total + size, ALIGN)
            plain += size
    return Window(offsets, total) if plain > STATIC_LIMIT else None


def window_of(op: AllocArrayOp) -> Window | None:
    """The window holding shared array `op`, or None when its kernel's arrays are static."""
    from xdsl.dialects.builtin import ModuleOp

    from sarek.dialect.sarek import KernelOp

    k = op.parent_op()
    while k is not None and not isinstance(k, KernelOp):
        k = k.parent_op()
    m = k.parent_op() if k is not None else None
    return dynamic_window(m, k) if isinstance(k, KernelOp) and isinstance(m, ModuleOp) else None


def marker(kernel: KernelOp, window: Window) -> str:
    return MARKER.format(kernel=kernel.sym_name.data, nbytes=window.nbytes)


def marked_bytes(source: str, kernel: str) -> int:
    """The dynamic shared memory the generated `source` says `kernel` takes (0: none)."""
    return next((int(m.group(2)) for m in _MARKER_RE.finditer(source) if m.group(1) == kernel), 0)
