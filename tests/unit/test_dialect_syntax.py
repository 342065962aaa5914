"""Properties of the custom syntax of the sarek and target dialects over whole files: print -> parse -> print is
a fixed point from the first print (SSA names included), and f16/f32 constants print as their shortest
decimal at their own width. The lit tests in tests/filecheck/dialect pin the exact text of each op."""

from __future__ import annotations

import random
import re
import struct
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import FloatAttr, Float16Type, Float32Type, ModuleOp, f16, f32

from sarek.dialect import sarek as s
from sarek.tools.ir import parse_module, print_module

ROOT = Path(__file__).parents[2]
FILES = sorted(
    [*ROOT.glob("tests/filecheck/dialect/*.mlir"), *ROOT.glob("tests/filecheck/targets/Inputs/*.mlir"),
     *ROOT.glob("tests/filecheck/targets/cfamily_dialect/*.mlir"), *ROOT.glob("examples/*.mlir")])


def _modules() -> list[tuple[str, ModuleOp]]:
    """Every chunk of the files that parses and verifies (the invalid_* files hold many that do not)."""
    out: list[tuple[str, ModuleOp]] = []
    for path in FILES:
        for i, chunk in enumerate(path.read_text().split("// -----")):
            try:
                m = parse_module(chunk)
                m.verify()
            except Exception:
                continue
            out.append((f"{path.relative_to(ROOT)}#{i}", m))
    return out


def _drop_hints(m: ModuleOp) -> None:
    """Forget every SSA name, as IR built without names (or read from generic text with numbered names) has."""
    for op in m.walk():
        for r in op.results:
            r.name_hint = None
        for reg in op.regions:
            for b in reg.blocks:
                for a in b.args:
                    a.name_hint = None


def test_print_parse_print_is_a_fixed_point():
    mods = _modules()
    assert len(mods) > 60, "too few chunks parsed: the test would prove little"
    for where, m in mods:
        for named in (True, False):
            if not named:
                _drop_hints(m)
            text = print_module(m)
            assert print_module(parse_module(text)) == text, (where, "named" if named else "numbered")
            generic = print_module(m, generic=True)
            assert print_module(parse_module(generic)) == text, (where, "from generic")


def test_parsed_binders_keep_their_textual_names():
    """`%0 = sarek.let "c" ...` stays `%0` (the name property is not the SSA name); `%x` stays `%x`."""
    text = ('sarek.kernel @k(%0 : f32 "x", %1 : i32 "n") {\n'
            '  %2 = sarek.let "c" %0 : f32\n'
            '  %3 = sarek.let_mut "m" %0 : f32\n'
            '  %4 = sarek.alloc_array "s"[%1] : !sarek.array<f32, shared>\n'
            '  %y = sarek.let "z" %2 : f32\n'
            '}\n')
    out = print_module(parse_module(text))
    for line in ['%2 = sarek.let "c" %0 : f32', '%3 = sarek.let_mut "m" %0 : f32',
                 '%4 = sarek.alloc_array "s"[%1]', '%y = sarek.let "z" %2 : f32']:
        assert line in out
    # built in Python, a binder is still named after its name property
    k = s.KernelOp("k", [("x", f32)])
    k.body.block.add_op(s.LetOp("c", k.body.block.args[0]))
    assert '%c = sarek.let "c" %x : f32' in print_module(ModuleOp([k]))


def _printed_constants(values: list[float], t: Float16Type | Float32Type) -> list[str]:
    k = s.KernelOp("k", [])
    for v in values:
        k.body.block.add_op(s.ConstantOp(FloatAttr(v, t)))
    text = print_module(ModuleOp([k]))
    return re.findall(r"sarek\.constant (\S+) : f(?:16|32)", text)


def _digits(text: str) -> str:
    """The significant digits of a decimal literal."""
    return text.lstrip("-").split("e")[0].replace(".", "").strip("0") or "0"


@pytest.mark.parametrize("t, fmt, np_type, bits", [(f32, "<f", np.float32, 32), (f16, "<e", np.float16, 16)])
def test_f16_f32_constants_print_shortest_at_their_width(t: Float16Type | Float32Type, fmt: str, np_type: type, bits: int):
    rng = random.Random(1234)
    values: list[float] = []
    while len(values) < 4000:
        x = struct.unpack(fmt, rng.getrandbits(bits).to_bytes(bits // 8, "little"))[0]
        if np.isfinite(x):
            values.append(x)
    values += [0.1, 1e20, 65504.0, 0.015625, -0.0, 2.0 ** -24]
    values = [v for v in values if bits == 32 or abs(v) <= 65504.0]
    texts = _printed_constants(values, t)
    assert len(texts) == len(values)
    for v, text in zip(values, texts):
        assert "." in text.split("e")[0], text  # MLIR float literals need a '.'
        back = struct.unpack(fmt, struct.pack(fmt, float(text)))[0]
        assert struct.pack(fmt, back) == struct.pack(fmt, v), (v, text)
        shortest = np.format_float_scientific(np_type(v), unique=True, trim="-")
        assert len(_digits(text)) == len(_digits(shortest)), (v, text, shortest)


def test_no_f32_constant_prints_with_f64_digits():
    """0.1 : f32 is stored as the f64 0.10000000149011612; it prints as 0.1."""
    assert _printed_constants([0.1, 1e20, 3.4028234663852886e38], f32) == ["0.1", "1.0e+20", "3.4028235e+38"]
