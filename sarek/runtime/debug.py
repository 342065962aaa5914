"""The runtime side of debug mode and print: run a launch with the hidden debug buffer, then report it.

`launch_plan(module, kernel, debug)` gives the module's debug variant (sarek-check-bounds and the print
lowering applied to a copy, compiled once per module) or None for a plain launch; `LaunchPlan.finish` turns
the buffer (layout: sarek.passes.debug_buffer) into a located `sarek.LaunchError`.
"""

from __future__ import annotations

import os
import weakref
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from sarek.passes.debug_buffer import (BLOCK, CHECK_ID, CHECKS_ATTR, EXTENT, FAILURES, FLAG, INDEX_HI, INDEX_LO,
                                       PRINT_BASE, THREAD, table)


def env_debug() -> bool:
    return os.environ.get("SAREK_DEBUG", "").strip().lower() not in ("", "0", "false", "no", "off")


def has_prints(module: ModuleOp) -> bool:
    return any(op.name == "sarek.print" for op in module.walk())


@dataclass
class LaunchPlan:
    """The module a launch runs (the original with the debug buffer parameter) and how to read the buffer."""

    module: ModuleOp
    kernel: str
    words: int

    def buffer(self) -> np.ndarray[Any, np.dtype[np.int32]]:
        return np.zeros(self.words, np.int32)

    def finish(self, buf: np.ndarray[Any, Any], device: Any) -> None:
        """After the launch: print the kernel's print records, then raise its first failed check."""
        if buf[FLAG]:
            raise check_error(self.module, self.kernel, buf, device)


_PLANS: weakref.WeakKeyDictionary[ModuleOp, dict[tuple[str, bool], LaunchPlan | None]] = weakref.WeakKeyDictionary()

#: print buffer capacity in i32 words ($SAREK_PRINT_BUFFER overrides)
PRINT_WORDS = 1 << 16


def launch_plan(module: ModuleOp, kernel: str, debug: bool | None) -> LaunchPlan | None:
    """None for a plain launch (no debug mode, no print); else the debug variant, compiled once per module."""
    checks = env_debug() if debug is None else bool(debug)
    per = _PLANS.setdefault(module, {})
    key = (kernel, checks)
    if key in per:
        return per[key]
    plan: LaunchPlan | None = None
    prints = has_prints(module)
    if checks or prints:
        from sarek.passes.check_bounds import check_bounds

        variant = module.clone()
        if checks:
            check_bounds(variant)
        words = PRINT_BASE + (int(os.environ.get("SAREK_PRINT_BUFFER", PRINT_WORDS)) if prints else 0)
        plan = LaunchPlan(variant, kernel, words)
    per[key] = plan
    return plan


def check_error(module: ModuleOp, kernel: str, buf: np.ndarray[Any, Any], device: Any) -> Exception:
    """The `sarek.LaunchError` of the failure recorded in `buf`, located at the check's source position."""
    from sarek.frontend.errors import caret_text
    from sarek.runtime.core import LaunchError

    rows = table(module, CHECKS_ATTR)
    cid = int(buf[CHECK_ID])
    loc, kind, detail = rows[cid] if 0 <= cid < len(rows) else ("<unknown>", "check", "a check failed")
    block = tuple(int(x) for x in buf[BLOCK:BLOCK + 3])
    thread = tuple(int(x) for x in buf[THREAD:THREAD + 3])
    index = (int(buf[INDEX_HI]) << 32) | (int(buf[INDEX_LO]) & 0xFFFFFFFF)
    extent = int(buf[EXTENT])
    if kind == "bounds":
        what = f"out-of-bounds {detail}: index {index} is outside 0..{extent - 1} (extent {extent})"
    elif kind == "assert":
        what = f"assertion failed: {detail}"
    else:
        what = detail
    more = int(buf[FAILURES]) - 1
    others = f"; {more} more failed check(s) in this launch" if more > 0 else ""
    text = (f"{loc}: error: {what}, in thread {thread} of block {block} (kernel {kernel}, debug launch on "
            f"{device}{others})")
    parts = loc.rsplit(":", 2)
    if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
        text += caret_text(parts[0], int(parts[1]), int(parts[2]))
    e = LaunchError(what)
    e.args = (text,)
    e.location = loc
    e.__dict__.update(thread=thread, block=block, index=index, extent=extent, check=kind)
    return e
