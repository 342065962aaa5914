"""The optimisation passes (sarek-canonicalize, -cse, -licm, -unroll, -strength-reduce) change no result: random
fuzzer kernels (sarek.testing.gen) and the corpus give the interpreter's bits before and after each pass and
after the whole OPT list; and each pass does what it says on small kernels."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sarek.frontend.corpus import all_cases
from sarek.interp import run
from sarek.passes.pipeline import OPT, pipeline_passes
from sarek.registry import make_context, make_pass, parse_module, print_module
from sarek.testing import fuzz
from sarek.testing.gen import generate

SINGLE = ["sarek-canonicalize", "sarek-cse", "sarek-licm", "sarek-unroll", "sarek-strength-reduce"]
SEEDS = range(24)


def optimised(module: Any, passes: list[str]) -> Any:
    m = module.clone()
    ctx = make_context()
    for p in passes:
        make_pass(p).apply(ctx, m)
    m.verify()
    return m


def same(a: Any, b: Any) -> bool:
    """Bit-identical outputs (NaNs included)."""
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.tobytes() == b.tobytes()
    return bool(a == b)


@pytest.mark.parametrize("seed", SEEDS)
def test_fuzz_kernels_keep_their_results(seed: int, tmp_path: Path):
    prog = generate(seed)
    path = tmp_path / f"fz{seed}.py"
    path.write_text(prog.source)
    kernel, case = fuzz.load_kernel(path)
    want = fuzz.run_module_interp(kernel.module, kernel.name, kernel, case)
    for passes in [[p] for p in SINGLE] + [[n for n, _ in OPT]]:
        got = fuzz.run_module_interp(optimised(kernel.module, passes), kernel.name, kernel, case)
        assert got == want, (seed, passes)


def _corpus() -> list[Any]:
    return [c for _, c in all_cases() if c.launch is None]


@pytest.mark.parametrize("case", _corpus(), ids=lambda c: c.name)
def test_corpus_keeps_its_results(case: Any):
    """Every corpus kernel through the whole OPT list: the interpreter's outputs bit for bit."""
    k = case.kernel
    n = case.n
    g, b = (tuple(d) + (1,) * (3 - len(d)) if isinstance(d, tuple) else d for d in case.dims(n))
    args = case.make_args(n)
    before, after = copy.deepcopy(list(args)), copy.deepcopy(list(args))
    run(k.module, k.name, before, g, b)
    run(optimised(k.module, [n for n, _ in OPT]), k.name, after, g, b)
    for x, y in zip(before, after):
        assert same(x, y), case.name


def opt(text: str, passes: str) -> str:
    m = parse_module(text)
    return print_module(optimised(m, passes.split(",")))


KERNEL = '''builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %x = sarek.binop add %g, %z : i32
    %y = sarek.binop mul %x, %one : i32
    %acc = sarek.let_mut "acc" %z : i32
    sarek.for "i" %i = %z to %n step 1 : i32 {
      %nn = sarek.binop mul %n, %n : i32
      %p = sarek.binop mul %i, %nn : i32
      %v = sarek.load %acc : !sarek.ref<i32>
      %s = sarek.binop add %v, %p : i32
      sarek.store %acc, %s : !sarek.ref<i32>
    }
    %r = sarek.load %acc : !sarek.ref<i32>
    %e = sarek.elem_ref %a[%y] : !sarek.vec<i32>
    sarek.store %e, %r : !sarek.ref<i32>
  }
}'''


def test_each_pass_does_its_job():
    c = opt(KERNEL, "sarek-canonicalize")
    assert "binop add %g" not in c and "sarek.elem_ref %a[%g]" in c
    licm = opt(KERNEL, "sarek-licm")
    assert licm.index("binop mul %n, %n") < licm.index("sarek.for")
    sr = opt(KERNEL, "sarek-licm,sarek-strength-reduce")
    assert 'sarek.let_mut "i_x"' in sr and "binop mul %i" not in sr


def test_pipeline_opt_off_drops_the_passes():
    on = [p.name for p in pipeline_passes("cuda")]
    off = [p.name for p in pipeline_passes("cuda", opt="off")]
    assert "sarek-licm" in on and not {n for n, _ in OPT} & set(off)
    assert off == [n for n in on if n not in {m for m, _ in OPT}]


@pytest.mark.parametrize("t", ["f32", "f64"])
def test_float_folds_beside_a_zero_divisor(t: str):
    # fold_binop once built a dict of all four results, so folding `x + 0.0` divided by zero (the H200 fuzz
    # campaign's ZeroDivisionError seeds); x / 0.0 is left to the device (IEEE inf/nan), the rest folds.
    src = f"""
sarek.kernel @k(%o: !sarek.vec<{t}> "o") {{
  %a = sarek.constant 3.0 : {t}
  %z = sarek.constant 0.0 : {t}
  %s = sarek.binop add %a, %z : {t}
  %m = sarek.binop mul %a, %z : {t}
  %d = sarek.binop div %a, %z : {t}
  %i = sarek.constant 0 : i32
  %p = sarek.elem_ref %o[%i] : !sarek.vec<{t}>
  sarek.store %p, %s : !sarek.ref<{t}>
  %j = sarek.constant 1 : i32
  %q = sarek.elem_ref %o[%j] : !sarek.vec<{t}>
  sarek.store %q, %m : !sarek.ref<{t}>
  %l = sarek.constant 2 : i32
  %r = sarek.elem_ref %o[%l] : !sarek.vec<{t}>
  sarek.store %r, %d : !sarek.ref<{t}>
}}"""
    module = parse_module(src)
    text = print_module(optimised(module, ["sarek-canonicalize"]))
    assert "binop add" not in text and "binop mul" not in text and "binop div" in text


def test_canonicalize_dispatch_matches_xdsls_applier():
    """sarek-canonicalize's TypeDispatchApplier tries only the patterns typed for an op: on the lit cases and the
    .mlir examples it rewrites exactly what xDSL's GreedyRewritePatternApplier over every pattern does."""
    from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker

    from sarek.passes.canonicalize import PATTERNS, canonicalize

    root = Path(__file__).parents[2]
    texts = [c for c in (root / "tests/filecheck/passes/canonicalize.mlir").read_text().split("// -----")]
    texts += [p.read_text() for p in sorted((root / "examples").glob("*.mlir"))]
    for text in texts:
        ours, ref = parse_module(text), parse_module(text)
        canonicalize(ours)
        PatternRewriteWalker(GreedyRewritePatternApplier([p() for p in PATTERNS]), apply_recursively=True,
                             walk_reverse=True).rewrite_module(ref)
        assert print_module(ours) == print_module(ref)


def test_canonicalize_patterns_dispatch_on_their_op_type():
    """Every pattern but EraseDead is typed (op_type_rewrite_pattern): the dispatch reads that type, so a pattern
    losing it would quietly be tried on every op again."""
    from xdsl.ir import Operation

    from sarek.passes.canonicalize import PATTERNS, EraseDead, _matched_type  # pyright: ignore[reportPrivateUsage]

    assert {p for p in PATTERNS if _matched_type(p) is Operation} == {EraseDead}
