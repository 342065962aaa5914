"""Issue 21's fuzz findings, each a test that failed on the old code (reproducers in fuzz_regressions/)."""

from __future__ import annotations

import os
import re
import signal
import sys
from pathlib import Path

import numpy as np
import pytest

import sarek
from sarek.frontend.errors import CompileError
from sarek.validate import cuda, hip, metal, opencl

sys.path.insert(0, str(Path(__file__).parent / "fuzz_regressions"))
import fe_kernels as K  # noqa: E402

CPU_DEVICES = ["interp", "interp-ref", "opencl:0", "vulkan-glsl:0"]


def _launch(k, args, devices, threads: int = 4):
    outs = []
    for d in devices:
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        k.launch(*copies, grid=1, block=threads, device=d)
        outs.append(copies)
    return outs


def test_negating_a_negative_literal_is_not_a_decrement():
    """`-f32(-7)` printed `(--7.0f)` in CUDA, HIP, OpenCL and Metal: a pre-decrement, a compile error."""
    for target, chk in (("cuda", cuda.check), ("hip", hip.check), ("opencl", opencl.check), ("metal", metal.check)):
        src = K.neg_literal.source(target)
        assert "--" not in src.replace("// ", "")
        chk(src)
    out = np.zeros(4, np.float32)
    oi = np.zeros(4, np.int64)
    for d in ("interp", "opencl:0"):
        K.neg_literal.launch(out, oi, 4, grid=1, block=4, device=d)
        assert np.all(out == 14.5) and np.all(oi == 7), d


def test_bool_literal_cast_is_a_number():
    for (o,) in _launch(K.bool_cast, [np.zeros(4, np.int32)], CPU_DEVICES):
        assert list(o) == [2] * 4


def test_cast_of_constant_bitwise_and_zero_shift_folds():
    for (o,) in _launch(K.bitwise_const_cast, [np.zeros(4, np.float32)], CPU_DEVICES):
        assert list(o) == [1.0 + 20.0 + 700.0 + 5000.0] * 4


def test_chained_comparison_literals_take_the_operand_type_and_wide_literals_are_i64():
    a = np.array([0, 1, 5, 4000000000], np.int64)
    for _, o in _launch(K.chained_literals, [a, np.zeros(4, np.int32)], ["interp", "interp-ref", "opencl:0"]):
        assert list(o) == [110, 111, 111, 11]


def test_assigning_a_helper_parameter_rebinds_a_local_copy():
    # issue 33: a parameter is a local initialised with the argument (it was refused as read-only)
    for (o,) in _launch(K.assigns_param, [np.zeros(4, np.int32)], CPU_DEVICES):
        assert list(o) == [1, 2, 3, 4]


def test_float_literal_overflowing_f32_is_located():
    with pytest.raises(CompileError, match=r"fe_kernels.py:\d+:\d+: error: float literal 1e\+39 does not fit in f32"):
        K.big_f32.compile()
    K.big_f64_ok.compile()


def test_float_literal_overflowing_f16_is_located(tmp_path: Path):
    p = tmp_path / "f16k.py"
    p.write_text("from sarek import Vec, f16, kernel\n\n\n@kernel\ndef f16k(o: Vec[f16]):\n    o[0] = f16(70000.0)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import f16k
    finally:
        sys.path.remove(str(tmp_path))
    with pytest.raises(CompileError, match=r"f16k.py:6:\d+: error: float literal 70000.0 does not fit in f16"):
        f16k.f16k.compile()


def test_shared_and_local_arrays_need_a_positive_size():
    with pytest.raises(CompileError, match=r"fe_kernels.py:\d+:\d+: error: shared\(\) needs a positive size, got 0"):
        K.shared_zero.compile()
    with pytest.raises(CompileError, match=r"error: local_array\(\) needs a positive size, got -4"):
        K.local_negative.compile()


def test_non_exhaustive_match_in_a_value_helper_is_refused():
    with pytest.raises(CompileError, match=r"fe_kernels.py:\d+:5: error: device function 'partial' returns f32 but "
                                           r"this match does not cover Fzr.B"):
        K.uses_partial.compile()
    K.uses_complete.compile()  # every constructor covered: no catch-all needed


def test_float_floor_division_and_remainder_agree():
    """Float `//` truncates like C's fmod-based `%` (and like integer `//`): (x // y) * y + x % y == x."""
    x = np.array([7.5, -7.5, 7.5, -7.5], np.float32)
    y = np.array([2.0, 2.0, -2.0, -2.0], np.float32)
    for _, _, q, r, back in _launch(K.div_mod_identity, [x, y] + [np.zeros(4, np.float32) for _ in range(3)],
                                    CPU_DEVICES + ["vulkan:0"]):
        assert list(q) == [3.0, -3.0, -3.0, 3.0]
        assert list(r) == [1.5, -1.5, 1.5, -1.5]
        assert np.allclose(back, x)


def test_cache_entry_swapped_for_another_valid_entry_is_a_miss(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from sarek.runtime import cache

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SAREK_CACHE", "1")
    k1, k2 = cache.make_key("a"), cache.make_key("b")
    cache.put("t", k1, b"one")
    cache.put("t", k2, b"two")
    p1 = tmp_path / "t" / k1[:2] / k1
    p2 = tmp_path / "t" / k2[:2] / k2
    p1.write_bytes(p2.read_bytes())  # a valid entry (right checksum) under another key
    assert cache.get("t", k1) is None and not p1.exists()
    assert cache.get("t", k2) == b"two"


def test_cache_fifo_is_a_miss_not_a_hang(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from sarek.runtime import cache

    monkeypatch.setenv("SAREK_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("SAREK_CACHE", "1")
    key = cache.make_key("fifo")
    p = tmp_path / "t" / key[:2] / key
    p.parent.mkdir(parents=True)
    os.mkfifo(p)

    def timeout(*_: object) -> None:
        raise TimeoutError("cache.get blocked on a FIFO")

    old = signal.signal(signal.SIGALRM, timeout)
    signal.alarm(10)
    try:
        assert cache.get("t", key) is None
        assert cache.get_or_build("t", key, lambda: b"built") == b"built"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert cache.get("t", key) == b"built"


def test_missing_hipcc_fails(monkeypatch: pytest.MonkeyPatch):
    from sarek.validate import ValidationError

    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setattr(hip.os.path, "exists", lambda p: False)
    with pytest.raises(ValidationError, match="hipcc not found"):
        hip.check("__global__ void k() {}")


def test_hip_warp_code_compiles_for_wave64_and_wave32():
    from sarek.tools.ir import parse_module
    from sarek.targets import emit_source

    path = Path(__file__).parent / "interp_kernels" / "warp.mlir"
    src = emit_source(parse_module(path.read_text(), str(path)), "hip")
    assert "warpSize" in src or "__lane_id" in src
    assert [w for _, w in hip.ARCHS] == [64, 32]
    hip.check(src)


@pytest.mark.parametrize("case, line, message", [
    ("SELF_RECORD", 8, r"@record Node: 'next' has the type Node itself; a record cannot contain itself"),
    ("MUTUAL_RECORDS", 7, r"@record A: 'b' names an unknown type .*cannot be mutually recursive"),
    ("STR_FIELD", 7, r"@record S: 'name': 'str' is not a sarek type"),
    ("VEC_FIELD", 7, r"@record V: 'xs': 'Vec\[f32\]' cannot be an element type"),
    ("NO_CTORS", 5, r"@variant Nothing declares no constructor"),
    ("VEC_PAYLOAD", 7, r"@variant P: 'Many': 'Vec\[f32\]' cannot be an element type"),
    ("STR_PAYLOAD", 7, r"@variant Q: 'Pair': 'str' is not a sarek type"),
])
def test_bad_declarations_are_located_compile_errors(tmp_path: Path, case: str, line: int, message: str):
    import importlib.util

    import bad_decls

    path = tmp_path / f"{case.lower()}.py"
    path.write_text(getattr(bad_decls, case))
    spec = importlib.util.spec_from_file_location(f"bad_{case.lower()}", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # as an import does: the class's source is found through its module
    with pytest.raises(CompileError, match=rf"{case.lower()}.py:{line}:\d+: error: {message}"):
        spec.loader.exec_module(mod)


def test_hip_popcount_is_int_so_abs_is_not_ambiguous():
    """fuzz seed 8 (real hipcc): `abs(__popc(v))` is ambiguous, HIP's __popc returns unsigned int."""
    src = K.popcount_abs.source("hip")
    assert "(int)__popc(" in src and "(int)__clz(" in src
    hip.check(src)
    o = np.zeros(4, np.int32)
    K.popcount_abs.launch(np.array([7, -1, 0, 255], np.int32), o, grid=1, block=4)
    assert list(o) == [3 + 29, 32 + 0, 0 + 32, 8 + 24]


def _write_kernel(tmp_path: Path, name: str, body: list[str]) -> object:
    import importlib.util

    path = tmp_path / f"{name}.py"
    path.write_text("\n".join(["from sarek import Vec, device, i32, kernel", "from sarek.gpu import global_thread_id",
                               "", "", *body, ""]))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return getattr(mod, name)


def _deep_conditional(depth: int) -> list[str]:
    expr = " ".join(f"{k} if a[i] == {k} else" for k in range(depth)) + " -1"
    return ["@kernel", "def NAME(a: Vec[i32], o: Vec[i32]):", "    i = global_thread_id", f"    o[i] = {expr}"]


def test_deep_conditional_expression_is_refused_with_the_limit(tmp_path: Path):
    """A 200-deep conditional expression compiled, then every launch raised RecursionError (interp too)."""
    from sarek.frontend.lower import MAX_NESTING

    ok = _write_kernel(tmp_path, "deep_ok", [ln.replace("NAME", "deep_ok") for ln in _deep_conditional(MAX_NESTING - 1)])
    a = np.array([0, MAX_NESTING - 2, 99, 5], np.int32)
    for d in ("interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0"):
        o = np.zeros(4, np.int32)
        ok.launch(a, o, grid=1, block=4, device=d)  # type: ignore[attr-defined]
        assert list(o) == [0, MAX_NESTING - 2, -1, 5], d
    bad = _write_kernel(tmp_path, "deep_bad", [ln.replace("NAME", "deep_bad") for ln in _deep_conditional(200)])
    with pytest.raises(CompileError, match=rf"deep_bad.py:8:\d+: error: control flow nests more than {MAX_NESTING} "
                                           rf"levels deep here .* sarek's limit is {MAX_NESTING}"):
        bad.compile()  # type: ignore[attr-defined]


def test_long_helper_chain_is_refused_with_the_limit(tmp_path: Path):
    """200 chained helpers crashed the front end with RecursionError in convergence.py."""
    from sarek.analysis.convergence import MAX_CALL_DEPTH

    def chain(name: str, n: int) -> list[str]:
        body = ["@device", "def h0(x: i32) -> i32:", "    return x + 1", ""]
        for k in range(1, n - 1):
            body += ["@device", f"def h{k}(x: i32) -> i32:", f"    return h{k - 1}(x) + 1", ""]
        return body + ["@kernel", f"def {name}(a: Vec[i32], o: Vec[i32]):", "    i = global_thread_id",
                       f"    o[i] = h{n - 2}(a[i])"]

    ok = _write_kernel(tmp_path, "chain_ok", chain("chain_ok", MAX_CALL_DEPTH))
    o = np.zeros(2, np.int32)
    ok.launch(np.array([0, 5], np.int32), o, grid=1, block=2)  # type: ignore[attr-defined]
    assert list(o) == [MAX_CALL_DEPTH - 1, MAX_CALL_DEPTH + 4]
    bad = _write_kernel(tmp_path, "chain_bad", chain("chain_bad", 200))
    with pytest.raises(CompileError, match=rf"chain_bad.py:\d+:\d+: error: this call chain is more than "
                                           rf"{MAX_CALL_DEPTH} calls deep .*sarek's limit is {MAX_CALL_DEPTH}"):
        bad.compile()  # type: ignore[attr-defined]


def test_hip_i64_min_max_use_the_overloads():
    """fuzz seeds 32 and 36 (real hipcc): HIP has no llmax/llmin."""
    src = K.minmax_i64.source("hip")
    assert "llmax" not in src and "llmin" not in src
    hip.check(src)
    assert "llmax" in K.minmax_i64.source("cuda")  # CUDA keeps its own names


def test_kernels_mixing_atomic_ops_agree_on_every_cpu_device(tmp_path: Path):
    """The H200 campaign's 5 warp+shared+atomics seeds (every compiled device agreed, the interpreter did not):
    the generator let two *different* atomic ops (add and and, or and min ...) hit one `acc` slot, whose final
    value then depends on the schedule (the fast interpreter applies a statement's atomics in lock-step over the
    launch, interp-ref thread after thread, a GPU warp after warp). With the old generator these seeds (the same
    shapes: warp / shared / several ops) disagreed here too, interp-ref and lavapipe included; now each op has
    its own slots (sarek.testing.gen.ATOMIC_OPS)."""
    from sarek.testing import fuzz

    rc = fuzz.main(["--seeds", "100017,100157,100470", "--devices", "interp,interp-ref,opencl:0,vulkan-glsl:0",
                    "--targets", "", "--out", str(tmp_path), "--shrink-seconds", "0", "--corners", "none"])
    summary = (tmp_path / "summary.txt").read_text()  # (the kernels of these seeds without issue 34's corners)
    assert rc == 0 and "no failures" in summary, summary
    assert "all devices agreed on 3 kernels" in summary, summary


def _nested_ifs(n: int) -> str:
    lines = ['sarek.kernel @deep(%c : i1 "c") {', *("sarek.if %c {" for _ in range(n)), "sarek.barrier",
             *("}" for _ in range(n)), "}"]
    return "\n".join(lines) + "\n"


def test_sarek_opt_parses_deeply_nested_ifs(tmp_path: Path):
    """`sarek-opt` raised RecursionError (a traceback) parsing 140 nested `sarek.if`; it now runs with a deep
    stack, and an absurdly deep input is a one-line error."""
    import subprocess

    from sarek.frontend.lower import MAX_NESTING
    from sarek.tools.sarek_opt import RECURSION_LIMIT

    ok = tmp_path / "deep140.mlir"
    ok.write_text(_nested_ifs(140))
    cmd = [sys.executable, "-m", "sarek.tools.sarek_opt"]
    r = subprocess.run([*cmd, str(ok)], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("sarek.if %c") == 140 and "Traceback" not in r.stderr
    bad = tmp_path / "deep12000.mlir"
    bad.write_text(_nested_ifs(12000))
    r = subprocess.run([*cmd, str(bad)], capture_output=True, text=True, cwd=Path(__file__).parents[2])
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert r.stderr.strip() == (f"error: the input nests too deeply for sarek-opt (more than its limit of "
                                f"{RECURSION_LIMIT} Python frames; the front end refuses kernels nested more "
                                f"than {MAX_NESTING} levels deep)")


def test_break_in_a_match_followed_by_dead_code_compiles_everywhere():
    """Fuzz seed 400616 (H200 campaign 400000+): a `break` in a match case whose following statements use each
    other's values made sarek-hoist-match-breaks raise on cuda, opencl and glsl (lit: passes/hoist_match_breaks)."""
    for target, chk in (("cuda", cuda.check), ("hip", hip.check), ("opencl", opencl.check), ("metal", metal.check)):
        chk(K.break_then_dead_code.source(target))
    K.break_then_dead_code.source("glsl")
    K.break_then_dead_code.source("wgsl")
    a = np.array([1, 60, -3, 99], np.int32)
    for _, o in _launch(K.break_then_dead_code, [a, np.zeros(4, np.int32)], [*CPU_DEVICES, "vulkan:0"]):
        assert list(o) == [0, 3, 0, 3]


def test_widened_f32_constant_expressions_keep_f32_rounding_on_glsl():
    """Fuzz seed 202387: glslang folds a widened f32 constant expression in double, so vulkan-glsl stored
    -7/6 in double instead of the f32 quotient widened (sarek-pin-widened-constants)."""
    x = np.full(4, 1.0, np.float32)
    q = np.float32(-7.0) / np.float32(6.0)
    want = [float(q), float(np.float32(np.sqrt(np.float32(2.0))) * np.float32(3.0)), float(np.float32(1.0) / np.float32(3.0))]
    for _, o in _launch(K.widened_f32_constants, [x, np.zeros(12, np.float64)], ["interp", "vulkan-glsl:0", "opencl:0"]):
        assert list(o[:3]) == want


def test_print_takes_narrow_unsigned_and_bf16_values(capsys: pytest.CaptureFixture[str]):
    """The generator's print of a u8 local: the sarek.print verifier refused every scalar but i1/i32/i64/f32/f64
    (an internal error), though sarek-lower-print and the runtime encode and format all of them."""
    from sarek.types import bf16_from_f32

    a = np.array([0, 250], np.uint8)
    b = np.array([-32768, 7], np.int16)
    c = bf16_from_f32(np.array([1.5, -0.25], np.float32))
    for d in ("interp", "interp-ref", "opencl:0", "vulkan:0"):
        K.print_narrow.launch(a, b, c, grid=1, block=2, device=d)
        assert capsys.readouterr().out == "0 -32768 1.5 10\n250 7 -0.25 4\n", d
    for d in ("interp", "opencl:0"):
        K.print_u64.launch(np.array([2**64 - 1], np.uint64), grid=1, block=1, device=d)
        assert capsys.readouterr().out == f"{2**64 - 1}\n", d


PTXAS_SEEDS = ["fz202272.py", "fz202272_full.py", "fz401754.py", "fz401754_full.py"]


@pytest.mark.parametrize("name", PTXAS_SEEDS)
def test_ptxas_abs_reproducers_hand_ptxas_no_integer_abs(name: str):
    """H200 seeds 202272 (cuda, ptx) and 401754 (ptx): ptxas computes `abs(v) % 2` after a shuffle as 200 and
    writes out of bounds; CUDA and PTX now spell integer abs as a select (lit: targets/ptx/int_abs.mlir)."""
    from sarek.testing.fuzz import load_kernel

    kernel, _ = load_kernel(Path(__file__).parent / "fuzz_regressions" / name)
    assert "abs(" not in kernel.source("cuda").replace("fabs", "")
    assert "abs.s" not in kernel.source("ptx")


@pytest.mark.gpu
@pytest.mark.parametrize("name", PTXAS_SEEDS)
def test_ptxas_abs_reproducers_agree_on_the_gpu(name: str, tmp_path: Path):
    from sarek.testing import fuzz

    path = Path(__file__).parent / "fuzz_regressions" / name
    assert fuzz.main(["--replay", str(path), "--devices", "interp,cuda:0,ptx:0", "--targets", "",
                      "--out", str(tmp_path)]) == 0


def test_an_unsigned_cast_takes_a_negative_literal_inside_abs_or_min():
    for (o,) in _launch(K.unsigned_cast_of_negative_literal, [np.zeros(12, np.uint64)], ["interp", "interp-ref",
                                                                                         "opencl:0"]):
        assert list(o[:3]) == [7, 2**32 - 7, 44 + 255]


def test_nvidia_vulkan_abs_reproducer_spells_integer_abs_as_a_select(tmp_path: Path):
    """H200 seed 201559: NVIDIA's Vulkan compiler (both the WGSL and the GLSL path) stored 0 for the one thread
    taking `if 0 <= -abs(x)`; the select spelling was right there (probe_201559.py), so integer abs is the
    `sarek_iabs` select helper on GLSL and WGSL (lit: targets/wgsl/int_abs.py). The shrunk kernel agrees on the
    CPU devices; the gpu-marked test below runs it on NVIDIA Vulkan."""
    from sarek.testing import fuzz

    kernel, _ = fuzz.load_kernel(Path(__file__).parent / "fuzz_regressions" / "fz201559.py")
    for t in ("glsl", "wgsl"):
        assert "sarek_iabs(" in kernel.source(t)
    path = Path(__file__).parent / "fuzz_regressions" / "fz201559.py"
    assert fuzz.main(["--replay", str(path), "--devices", "interp,vulkan:0,vulkan-glsl:0", "--targets", "",
                      "--out", str(tmp_path)]) == 0


@pytest.mark.gpu
def test_nvidia_vulkan_abs_reproducer_agrees_on_the_gpu(tmp_path: Path):
    from sarek.testing import fuzz

    path = Path(__file__).parent / "fuzz_regressions" / "fz201559.py"
    assert fuzz.main(["--replay", str(path), "--devices", "interp,vulkan:0,vulkan-glsl:0,cuda:0", "--targets", "",
                      "--out", str(tmp_path)]) == 0


FLOORDIV_SEEDS = [500005, 600203]  # 600207 drew the shape until the generator gained lgamma/ldexp/frexp draws


@pytest.mark.parametrize("name", ["fz500005.py", "fz500005_full.py", "fz600207.py"])
def test_float_floordiv_reproducers_need_a_correctly_rounded_division(name: str):
    """H200 seeds 500005 (NVIDIA OpenCL, both Vulkan paths) and 600207 (NVIDIA OpenCL, vulkan-glsl): the old
    generator's `x // (abs(y) + 1.0)` of exact x, y whose quotient is an integer (8.25 / 8.25, 8.25 / 2.75): a
    division 1 ulp low, as OpenCL's and Vulkan's 2.5 ulp allow, truncates to the integer below. The interp-div
    device (every float `/` about 2 ulp low) shows the same disagreement on the CPU."""
    from sarek.testing.runs import compare, load_kernel, run_on

    assert np.float32(8.25) / np.float32(8.25) == 1.0 and np.float32(8.25) / np.float32(2.75) == 3.0
    assert np.trunc(np.nextafter(np.float32(1.0), np.float32(0))) == 0.0
    kernel, case = load_kernel(Path(__file__).parent / "fuzz_regressions" / name)
    ref = run_on(kernel, case, "interp")
    diff = compare(ref, run_on(kernel, case, "interp-div"), case, "interp-div")
    assert diff is not None and diff.startswith("of["), diff


def _floordiv_kernel(seed: int, tmp_path: Path) -> Path:
    from sarek.testing.gen import generate

    path = tmp_path / f"fz{seed}.py"
    path.write_text(generate(seed, corners=()).source)  # the kernels of these seeds without issue 34's corners
    return path


@pytest.mark.parametrize("seed", FLOORDIV_SEEDS)
def test_generated_float_floordiv_quotients_stay_off_the_integers(seed: int, tmp_path: Path):
    """The generator's float `//` is `((floor(a) + f) * d) // d` (quotient k + f, f a quarter, a half or three
    quarters): the regenerated kernels of both seeds agree with a division 2 ulp off either way and on the CPU
    devices, and the old shape is gone."""
    from sarek.testing import fuzz
    from sarek.testing.runs import DivisionErrorDevice, compare, load_kernel, run_on

    path = _floordiv_kernel(seed, tmp_path)
    src = path.read_text()
    assert re.search(r"\(\(\(sm\.floor\(.*\) \+ 0\.\d+\) \* .*\) // ", src), src
    assert not re.search(r"\]\) - af\[.*\) // \(abs\(", src)
    kernel, case = load_kernel(path)
    ref = run_on(kernel, case, "interp")
    for up in (False, True):
        assert compare(ref, run_on(kernel, case, DivisionErrorDevice(up)), case, "interp-div") is None, up
    assert fuzz.main(["--replay", str(path), "--devices", "interp,interp-div,interp-ref,opencl:0,vulkan:0,"
                      "vulkan-glsl:0", "--targets", "", "--out", str(tmp_path / "out")]) == 0


def test_float_cast_of_a_bit_operator_keeps_its_literals_integers():
    """`f32(1 << abs(-1))` said "operator '<<' needs integers, got f32" (the cast's type reached the literal 1
    through `abs`; found by the generator's run-time power-of-two divisor)."""
    for (o,) in _launch(K.float_cast_of_shift, [np.zeros(4, np.float32)], CPU_DEVICES, threads=1):
        assert list(o) == [2.0, 8.0, 3.0, 2.0]


def test_an_inexact_f32_is_not_widened_to_f64(tmp_path: Path):
    """Local campaign seed 700150 (interp-div): `f64(x / y)` of f32 x, y keeps the f32 quotient's rounding, which a
    device may compute 2.5 ulp off (NVIDIA OpenCL, Vulkan) while f64 outputs are compared within 1e-9. The old
    kernel disagrees on interp-div; the generator widens exact f32 values only, and the seed's kernel agrees."""
    from sarek.testing import fuzz
    from sarek.testing.runs import compare, load_kernel, run_on

    kernel, case = load_kernel(Path(__file__).parent / "fuzz_regressions" / "fz700150.py")
    ref = run_on(kernel, case, "interp")
    assert str(compare(ref, run_on(kernel, case, "interp-div"), case, "interp-div")).startswith("od[")
    path = _floordiv_kernel(700150, tmp_path)
    assert "f64((-f32(-7) / (abs(g5) + 1.0)))" not in path.read_text()
    assert fuzz.main(["--replay", str(path), "--devices", "interp,interp-div,opencl:0,vulkan-glsl:0", "--targets", "",
                      "--out", str(tmp_path / "out")]) == 0


@pytest.mark.gpu
@pytest.mark.parametrize("seed", FLOORDIV_SEEDS)
def test_generated_float_floordiv_agrees_on_nvidia_opencl_and_vulkan(seed: int, tmp_path: Path):
    from sarek.testing import fuzz

    path = _floordiv_kernel(seed, tmp_path)
    assert fuzz.main(["--replay", str(path), "--devices", "interp,opencl:0,vulkan:0,vulkan-glsl:0,cuda:0,ptx:0",
                      "--targets", "", "--out", str(tmp_path / "out")]) == 0


@pytest.mark.parametrize("name", ["fz800651.py", "fz800651_full.py"])
def test_unsigned_constant_shift_that_wraps_is_folded_for_wgsl(name: str, tmp_path: Path):
    """H200 campaign seed 800651 (the final one of 2026-12-01 night): `u32(2147483648) << 1` reached WGSL as
    `2147483648u << u32(1u)`, a constant expression that overflows, which naga refuses ("<< operation
    overflowed"; lavapipe too). sarek-canonicalize now folds u32/u64 constants modulo 2^n, so the kernel runs
    on vulkan:0 and agrees with every CPU device."""
    from sarek.testing import fuzz

    path = Path(__file__).parent / "fuzz_regressions" / name
    assert fuzz.main(["--replay", str(path), "--devices", "interp,interp-ref,opencl:0,vulkan:0,vulkan-glsl:0",
                      "--targets", "wgsl,glsl", "--out", str(tmp_path / "out")]) == 0


# -- issue 34 (the corner generator's findings) -----------------------------------------------------------------

import zero_start as Z  # noqa: E402


def _launches_read_zero(k, device: str, times: int = 4) -> list[int]:
    """The sum of what each of `times` launches read before writing (0 each time when slots start at zero)."""
    sums = []
    for _ in range(times):
        o = np.zeros(64, np.int32)
        k.launch(o, grid=1, block=64, device=device)
        sums.append(int(np.abs(o).sum()))
    return sums


@pytest.mark.parametrize("device", [*CPU_DEVICES, "vulkan:0"])
def test_local_array_slots_start_at_zero_on_every_launch(device: str):
    assert _launches_read_zero(Z.local_starts_at_zero, device) == [0, 0, 0, 0]


@pytest.mark.parametrize("device", ["interp", "interp-ref"])
def test_shared_slots_start_at_zero_on_the_interpreters(device: str):
    assert _launches_read_zero(Z.shared_starts_at_zero, device) == [0, 0, 0, 0]


_GPU = [pytest.param(d, marks=pytest.mark.gpu) for d in ("cuda:0", "ptx:0")]


@pytest.mark.parametrize("device", ["opencl:0", "vulkan:0", "vulkan-glsl:0", *_GPU])
def test_shared_slots_start_at_zero_on_every_launch(device: str):
    """A launch read the previous one's values on pocl, lavapipe WGSL and GLSL before sarek-zero-shared."""
    assert _launches_read_zero(Z.shared_starts_at_zero, device) == [0, 0, 0, 0]


@pytest.mark.gpu
def test_negative_zero_print_reproducer_agrees_on_nvidia_vulkan_glsl(tmp_path: Path):
    """H200 seed 901311: `print(f64(0.0) * x)` with x < 0 printed `0.0` on vulkan-glsl (the driver folded the
    product without SignedZeroInfNanPreserve); test_signed_zero.py pins the rule on every device."""
    from sarek.testing import fuzz

    path = Path(__file__).parent / "fuzz_regressions" / "fz901311.py"
    assert fuzz.main(["--replay", str(path), "--devices", "interp,cuda:0,vulkan-glsl:0", "--targets", "",
                      "--out", str(tmp_path)]) == 0


@sarek.kernel
def _ballot_plus_int(ai: sarek.Vec[sarek.i32], oi: sarek.Vec[sarek.i32]):
    i = sarek.gpu.global_thread_id
    oi[i] = ai[i] % 1000 + sarek.i32(sarek.gpu.warp_ballot(True) & sarek.u32(1)) + sarek.i32(sarek.gpu.warp_ballot(True))


def test_ballot_result_mixes_with_negative_ints_on_the_reference_interpreter():
    """Fuzz seeds 48, 58, 115 (feature "ballot"): the reference interpreter's ballot was a numpy uint32, so
    `i32(ballot) + negative` raised OverflowError (NEP 50) instead of giving -3 + 1 - 1."""
    ai = np.full(32, -3, np.int32)
    for dev in ("interp", "interp-ref"):
        oi = np.zeros(32, np.int32)
        _ballot_plus_int.launch(ai, oi, grid=1, block=32, device=dev)
        assert (oi == -3).all(), (dev, oi)
