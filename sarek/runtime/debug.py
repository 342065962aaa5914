"""The runtime side of debug mode and print: run a launch with the hidden debug buffer, then report it.

`launch_plan(module, kernel, debug)` gives the module's debug variant (sarek-check-bounds and the print
lowering applied to a copy, compiled once per module) or None for a plain launch; `LaunchPlan.finish` turns
the buffer (layout: sarek.passes.debug_buffer) into a located `sarek.LaunchError`.
"""

from __future__ import annotations

import os
import sys
import weakref
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from sarek.passes.debug_buffer import (BLOCK, CHECK_ID, CHECKS_ATTR, EXTENT, FAILURES, FLAG, FORMATS_ATTR,
                                       INDEX_HI, INDEX_LO, PRINT_BASE, PRINT_DROPPED, PRINT_USED, THREAD, table)


from sarek.runtime.args import env_debug as env_debug  # noqa: E402 - its home: a module warm launches import


def has_prints(module: ModuleOp) -> bool:
    from sarek.dialect.sarek import PrintOp

    return any(isinstance(op, PrintOp) for op in module.walk())


@dataclass
class LaunchPlan:
    """The module a launch runs (the original with the debug buffer parameter) and how to read the buffer."""

    module: ModuleOp
    kernel: str
    prints: bool

    def buffer(self) -> np.ndarray[Any, np.dtype[np.int32]]:
        """A zeroed debug buffer: the header, then $SAREK_PRINT_BUFFER words (read at each launch) of print
        area when the kernel prints."""
        return np.zeros(PRINT_BASE + (print_words() if self.prints else 0), np.int32)

    def snapshot(self, params: Any, args: Any) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] | None:
        """Copies of the arrays the launch may write, so that a launch whose print area overflows can run again
        with room for every record; None when the kernel does not print or a written argument is not a numpy
        array (a Vector or device memory: that launch keeps whichever records fitted)."""
        if not self.prints:
            return None
        out: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = []
        for p, a in zip(params, args):
            if p.kind == "vec" and p.written:
                if not isinstance(a, np.ndarray):
                    return None
                arr = cast("np.ndarray[Any, Any]", a)
                out.append((arr, arr.copy()))
        return out

    def rerun_buffer(self, buf: np.ndarray[Any, Any],
                     snap: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] | None) -> np.ndarray[Any, Any] | None:
        """After a launch whose print area overflowed: the written arguments restored from `snap` and a buffer
        with room for every record (the cursor counted them all), for the same launch again; else None. The
        records then kept are the first by block, thread and program order on every device (`print_text`)."""
        need = int(buf[PRINT_USED])
        if snap is None or not buf[PRINT_DROPPED] or not 0 < need <= MAX_PRINT_WORDS:
            return None
        for a, saved in snap:
            a[...] = saved
        return np.zeros(PRINT_BASE + need, np.int32)

    def finish(self, buf: np.ndarray[Any, Any], device: Any, capacity: int | None = None) -> None:
        """After the launch: print the kernel's print records (and the dropped-lines note, even with no print
        area at all), then raise its first failed check. `capacity`: the print area the user asked for, when
        `buf` is a rerun's larger one (the records are cut to it in order)."""
        if self.prints:
            text = print_text(self.module, buf, capacity)
            if text:
                sys.stdout.write(text)
                sys.stdout.flush()
        if buf[FLAG]:
            raise check_error(self.module, self.kernel, buf, device)


_PLANS: weakref.WeakKeyDictionary[ModuleOp, dict[tuple[str, bool], LaunchPlan | None]] = weakref.WeakKeyDictionary()

#: print buffer capacity in i32 words ($SAREK_PRINT_BUFFER overrides, from 0 to MAX_PRINT_WORDS)
PRINT_WORDS = 1 << 16
MAX_PRINT_WORDS = 1 << 28  # 1 GiB: record offsets stay far from the i32 the kernels count them in


def print_words() -> int:
    """$SAREK_PRINT_BUFFER as a number of words, checked: a LaunchError saying what is allowed otherwise."""
    from sarek.runtime.errors import LaunchError

    text = os.environ.get("SAREK_PRINT_BUFFER", "").strip()
    if not text:
        return PRINT_WORDS
    try:
        words = int(text)
    except ValueError:
        words = -1
    if not 0 <= words <= MAX_PRINT_WORDS:
        raise LaunchError(f"SAREK_PRINT_BUFFER={text!r} is not a print buffer size: give a number of 32-bit words "
                          f"from 0 to {MAX_PRINT_WORDS} (default {PRINT_WORDS}), or unset it")
    return words


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
        from sarek.passes.lower_print import lower_prints

        variant = module.clone()
        lower_prints(variant)
        if checks:
            check_bounds(variant)
        plan = LaunchPlan(variant, kernel, prints)
    per[key] = plan
    return plan


def check_error(module: ModuleOp, kernel: str, buf: np.ndarray[Any, Any], device: Any) -> Exception:
    """The `sarek.LaunchError` of the failure recorded in `buf`, located at the check's source position."""
    from sarek.diagnostics import caret_text
    from sarek.runtime.errors import LaunchError

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


def _value(t: str, words: list[int]) -> str:
    """One printed value of type `t` from its words (sarek.passes.lower_print's encoding), as Python prints it."""
    w = [x & 0xFFFFFFFF for x in words]
    if t == "i1":
        return str(bool(w[0]))
    if t in ("f32", "f16", "bf16"):
        x = np.array([w[0]], np.uint32).view(np.float32)[0]
        return str(np.float16(x)) if t == "f16" else str(x)
    if t == "f64":
        return str(np.array([w[0] | (w[1] << 32)], np.uint64).view(np.float64)[0])
    bits = w[0] | (w[1] << 32) if len(w) == 2 else w[0]
    width = 64 if len(w) == 2 else 32
    if not t.startswith("ui") and bits >> (width - 1):
        bits -= 1 << width
    if t.startswith("ui") or t == "i8" or t == "i16":
        narrow = int("".join(c for c in t if c.isdigit()))
        bits &= (1 << narrow) - 1 if t.startswith("ui") else -1
    return str(bits)


def _nwords(t: str) -> int:
    return 2 if t in ("i64", "ui64", "f64") else 1


def print_text(module: ModuleOp, buf: np.ndarray[Any, Any], capacity: int | None = None) -> str:
    """The text of a launch's print records: by block, then thread, then program order; a last line says how
    many records did not fit. With `capacity` (words), only the records that fit it in that order are kept,
    the same on every device."""
    formats = table(module, FORMATS_ATTR)
    area = [int(x) for x in buf[PRINT_BASE:]]
    used = int(buf[PRINT_USED])
    end = len(area) if used < 0 else min(used, len(area))
    recs: list[tuple[int, int, int, str, int]] = []
    off = 0
    while off + 4 <= end:
        size, fid, blk, thr = area[off:off + 4]
        if size < 4 or off + size > end or not 0 <= fid < len(formats):
            break
        row = formats[fid]
        vals: list[str] = []
        k = off + 4
        for t in row[2:]:
            n = _nwords(t)
            vals.append(_value(t, area[k:k + n]))
            k += n
        recs.append((blk, thr, off, row[1].format(*vals), size))
        off += size
    recs.sort()
    dropped = int(buf[PRINT_DROPPED])
    if capacity is not None:
        total, kept = 0, 0
        while kept < len(recs) and total + recs[kept][4] <= capacity:
            total += recs[kept][4]
            kept += 1
        dropped += len(recs) - kept
        recs = recs[:kept]
    text = "".join(r[3] for r in recs)
    if dropped:
        shown = len(area) if capacity is None else capacity
        text += (f"[sarek: {dropped} more lines dropped: the print buffer ({shown} words) is full; "
                 "SAREK_PRINT_BUFFER=WORDS makes it larger]\n")
    return text
