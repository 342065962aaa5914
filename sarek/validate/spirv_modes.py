"""Execution modes added to a SPIR-V module after glslang: float controls GLSL cannot state for every width.

Without `SignedZeroInfNanPreserve` a Vulkan driver may assume no signed zeros, infinities or NaNs: the H200's
folds `0.0 * x` to `+0.0` for negative `x`, so `1.0 / (0.0 * x)` gives `+inf` where every other backend gives
`-inf`. GLSL's `spirv_execution_mode` keeps one literal per mode (glslang 12), so the modes for 32- and 64-bit
floats are added to the binary here, for the widths the driver supports.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable

OP_EXTENSION = 10
OP_MEMORY_MODEL = 14
OP_ENTRY_POINT = 15
OP_EXECUTION_MODE = 16
OP_CAPABILITY = 17
CAP_SIGNED_ZERO_INF_NAN_PRESERVE = 4466
MODE_SIGNED_ZERO_INF_NAN_PRESERVE = 4461
CAP_FLOAT64 = 10
FLOAT_CONTROLS = "SPV_KHR_float_controls"


def _inst(op: int, operands: list[int]) -> list[int]:
    return [((len(operands) + 1) << 16) | op, *operands]


def _string(s: str) -> list[int]:
    raw = s.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def _instructions(words: list[int]) -> list[tuple[int, list[int]]]:
    out: list[tuple[int, list[int]]] = []
    i = 5
    while i < len(words):
        n = words[i] >> 16
        if n == 0 or i + n > len(words):
            raise ValueError(f"malformed SPIR-V: instruction of {n} words at word {i}")
        out.append((words[i] & 0xFFFF, words[i:i + n]))
        i += n
    return out


def preserve_signed_zeros(spirv: bytes, widths: Iterable[int]) -> bytes:
    """`spirv` with `SignedZeroInfNanPreserve` on every entry point for each float width in `widths` that the
    module uses (32 always; 64 when it declares `Float64`); unchanged when there is nothing to add."""
    words = list(struct.unpack(f"<{len(spirv) // 4}I", spirv))
    if len(words) < 5 or words[0] != 0x07230203:
        raise ValueError("not a SPIR-V module (bad magic number)")
    insts = _instructions(words)
    caps = {w[1] for op, w in insts if op == OP_CAPABILITY}
    used: set[int] = {32} | ({64} if CAP_FLOAT64 in caps else set[int]())
    want = sorted(used & set(widths))
    entries = [w[2] for op, w in insts if op == OP_ENTRY_POINT]
    have = {(w[1], w[3]) for op, w in insts if op == OP_EXECUTION_MODE and w[2] == MODE_SIGNED_ZERO_INF_NAN_PRESERVE}
    modes = [_inst(OP_EXECUTION_MODE, [e, MODE_SIGNED_ZERO_INF_NAN_PRESERVE, b]) for e in entries for b in want
             if (e, b) not in have]
    if not modes:
        return spirv
    exts = {bytes(struct.pack(f"<{len(w) - 1}I", *w[1:])).split(b"\0")[0].decode() for op, w in insts
            if op == OP_EXTENSION}
    out = words[:5]
    placed_caps = placed_modes = False
    last_mode = max((i for i, (op, _) in enumerate(insts) if op in (OP_EXECUTION_MODE, OP_ENTRY_POINT)), default=-1)
    for i, (op, w) in enumerate(insts):
        if not placed_caps and op != OP_CAPABILITY:
            if CAP_SIGNED_ZERO_INF_NAN_PRESERVE not in caps:
                out += _inst(OP_CAPABILITY, [CAP_SIGNED_ZERO_INF_NAN_PRESERVE])
            if FLOAT_CONTROLS not in exts:
                out += _inst(OP_EXTENSION, _string(FLOAT_CONTROLS))
            placed_caps = True
        out += w
        if i == last_mode:
            for m in modes:
                out += m
            placed_modes = True
    if not placed_modes:
        raise ValueError("SPIR-V module without an entry point")
    return struct.pack(f"<{len(out)}I", *out)
