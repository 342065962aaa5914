"""The naming stage (sarek.analysis.namer, sarek-legalize-names): the naming bugs of issue 21, each checked by
the target's real tool (and a device where one is here); each failed before its fix."""

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from sarek import Vec, device, f32, i32, kernel, record, variant
from sarek.analysis import namer
from sarek.gpu import global_thread_id
from sarek.validate import cuda
from tests.unit.test_hunt_language import TARGETS, _devices, _validate_all

# A local or parameter named `_0`: xDSL keeps an SSA name hint without its `_<digits>` suffix, so the hint
# became empty and cloning the module raised ValueError on every target.


@kernel
def name_underscore_zero(o: Vec[i32], _0: i32):
    i = global_thread_id
    _1 = i + _0
    if i < 4:
        o[i] = _1


def test_underscore_digit_names_compile_and_run():
    _validate_all(name_underscore_zero)
    for d in _devices():
        o = np.zeros(4, np.int32)
        name_underscore_zero.launch(o, 10, grid=1, block=4, device=d)
        assert list(o) == [10, 11, 12, 13], d


# OpenCL C: `true` and `false` are macros (stdbool) and `CLK_*` the fence flags; locals so named were kept.


@kernel
def name_opencl_macros(o: Vec[i32], n: i32):
    i = global_thread_id
    true = i + 1
    false = i + 2
    CLK_LOCAL_MEM_FENCE = 3  # noqa: N806
    M_PI = 4  # noqa: N806
    if i < n:
        o[i] = true + false + CLK_LOCAL_MEM_FENCE + M_PI


def test_opencl_macro_names_are_renamed():
    src = name_opencl_macros.source("opencl")
    for bad in ("int true =", "int false =", "int CLK_LOCAL_MEM_FENCE =", "int M_PI ="):
        assert bad not in src
    _validate_all(name_opencl_macros)
    for d in _devices():
        o = np.zeros(4, np.int32)
        name_opencl_macros.launch(o, 4, grid=1, block=4, device=d)
        assert list(o) == [10, 12, 14, 16], d


# CUDA/HIP: a record `float` became `float_t`, math.h's typedef; kernels named like libc/POSIX typedefs and
# functions (`uint`, `ulong`, `select`) were invalid.


@record
class float:  # noqa: N801, A001
    x: f32


@record
class register:  # noqa: N801
    y: i32


@kernel
def uint(rs: Vec[float], qs: Vec[register], o: Vec[f32]):
    i = global_thread_id
    if i < 4:
        o[i] = rs[i].x + f32(qs[i].y)


@kernel
def ulong(o: Vec[i32]):
    i = global_thread_id
    if i < 4:
        o[i] = i


@kernel
def select(o: Vec[i32]):
    i = global_thread_id
    if i < 4:
        o[i] = 2 * i


def test_c_typedef_and_libc_names():
    src = uint.source("cuda")
    assert "float_t" not in src.replace("float_t_", "") and "register_t" not in src.replace("register_t_", "")
    for k in (uint, ulong, select):
        _validate_all(k)
        assert f"{namer.entry_name(k.name, 'cuda')}(" in k.source("cuda")
    assert namer.entry_name("select", "cuda") == "sarek_select"
    rs = np.zeros(4, float.dtype)
    rs["x"] = [1, 2, 3, 4]
    qs = np.zeros(4, register.dtype)
    qs["y"] = [10, 20, 30, 40]
    for d in _devices():
        o = np.zeros(4, np.float32)
        uint.launch(rs, qs, o, grid=1, block=4, device=d)
        assert list(o) == [11, 22, 33, 44], d


# Length limits: glslang refuses identifiers over 1024 characters; pocl aborted the process (SIGABRT) building a
# kernel whose name has 255 or more characters. Names over a language's limit are shortened stably.

_LONG = "v" * 1100


def _long_kernel_file(tmp: Path) -> Path:
    p = tmp / "long_names.py"
    p.write_text(textwrap.dedent(f"""\
        from sarek import Vec, i32, kernel
        from sarek.gpu import global_thread_id

        @kernel
        def {"k" * 300}(o: Vec[i32], n: i32):
            i = global_thread_id
            {_LONG} = i + 1
            if i < n:
                o[i] = {_LONG}
        """))
    return p


def test_long_names_are_shortened(tmp_path: Path):
    p = _long_kernel_file(tmp_path)
    run = textwrap.dedent(f"""\
        import sys, numpy as np
        sys.path.insert(0, {str(tmp_path)!r})
        import long_names
        k = getattr(long_names, {"k" * 300!r})
        from tests.unit.test_hunt_language import TARGETS, _devices
        for t, chk in TARGETS.items():
            chk(k.source(t))
        for d in _devices():
            o = np.zeros(4, np.int32)
            k.launch(o, 4, grid=1, block=4, device=d)
            assert list(o) == [1, 2, 3, 4], d
        print("ok")
        """)
    assert p.exists()
    r = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True, timeout=600,
                       cwd=Path(__file__).resolve().parents[2])
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-2000:]


def test_shortening_is_stable_and_distinct():
    a, b = "x" * 2000, "x" * 1999 + "y"
    assert namer.shorten(a, 100) == namer.shorten(a, 100) and len(namer.shorten(a, 100)) == 100
    assert namer.shorten(a, 100) != namer.shorten(b, 100)
    for t, limit in namer.LENGTH_LIMIT.items():
        assert len(namer.entry_name("k" * 5000, t)) <= limit
    assert len(namer.entry_name("k" * 300, "opencl")) < 255


# Non-ASCII names: `def π(...)` was `.entry _(` in PTX (and `∂` too); they map to distinct valid names.


@kernel
def π(o: Vec[i32]):  # noqa: PLC2401
    i = global_thread_id
    if i < 4:
        o[i] = i + 1


def test_non_ascii_entry_names_are_distinct():
    e = namer.entry_name("π", "ptx")
    assert e.isidentifier() and e.isascii() and e != "_" and e != namer.entry_name("∂", "ptx")
    assert f".entry {e}(" in π.source("ptx")
    _validate_all(π)


@variant
class NameShape:
    π: f32
    Ω: i32


@kernel
def name_ctor_unicode(fs: Vec[NameShape], o: Vec[f32]):
    i = global_thread_id
    if i < 2:
        match fs[i]:
            case NameShape.π(r):
                o[i] = r
            case NameShape.Ω(k):
                o[i] = f32(k)


def test_non_ascii_constructors_are_distinct():
    _validate_all(name_ctor_unicode)  # WGSL/GLSL made both `__v` (reserved, and twice)
    fs = NameShape.pack([NameShape.π(1.5), NameShape.Ω(3)])
    for d in _devices():
        o = np.zeros(2, np.float32)
        name_ctor_unicode.launch(fs, o, grid=1, block=2, device=d)
        assert list(o) == [1.5, 3.0], d


# A function holding `sarek.native` skipped renaming altogether (`int int = 3;`); now only the names its text
# mentions keep theirs.


def test_native_function_still_renames_other_names():
    from sarek.targets import emit_source
    from sarek.tools.ir import parse_module

    m = parse_module("""builtin.module {
      sarek.kernel @k(%o : !sarek.vec<i32> "o", %n : i32 "n") {
        %a = sarek.let "int" %n : i32
        %b = sarek.let_mut "acc" %a : i32
        sarek.native {cuda = "acc = acc + 1;"}
        %r = sarek.load %b : !sarek.ref<i32>
        %z = sarek.constant 0 : i32
        %p = sarek.elem_ref %o[%z] : !sarek.vec<i32>
        sarek.store %p, %r : !sarek.ref<i32>
      }
    }""")
    src = emit_source(m, "cuda")
    assert "int int =" not in src and "acc = acc + 1;" in src
    cuda.check(src)


@pytest.mark.parametrize("target", list(namer.LENGTH_LIMIT))
def test_every_target_reserves_the_generated_prefix(target):
    if target != "ptx":
        assert namer.Namer(target).bad("sarek_t")
    assert namer.entry_name("main", target) in ("sarek_main", "main")


# sarek's own prefix: a local `sarek_irem` collided with GLSL's `%` polyfill ("can't use function syntax on
# variable") and a helper `sarek_t` with a temporary; user names with the prefix are renamed on every target.


@device
def sarek_t(x: i32) -> i32:
    return x % 3


@kernel
def name_generated_prefix(o: Vec[i32], n: i32):
    i = global_thread_id
    sarek_irem = i % 5
    sarek_t0 = sarek_t(i)
    if i < n:
        o[i] = sarek_irem * 10 + sarek_t0


def test_user_names_never_take_the_generated_prefix():
    _validate_all(name_generated_prefix)
    for d in _devices():
        o = np.zeros(8, np.int32)
        name_generated_prefix.launch(o, 8, grid=1, block=8, device=d)
        assert list(o) == [(i % 5) * 10 + i % 3 for i in range(8)], d


def _linear_temporary(hint: str | None, taken: set[str]) -> str:
    """The first-free linear probe `namer.temporary` must agree with (its definition before the counter)."""
    base = "sarek_" + (hint if hint and hint.isidentifier() and not hint.isdigit() else "t")
    name, k = base, 0
    while name in taken:
        k += 1
        name = f"{base}_{k}"
    taken.add(name)
    return name


def test_temporary_names_match_the_linear_probe():
    """The per-base counter gives exactly the names of the linear probe, with names taken in between (user
    names `sarek_t_3`, other hints) and hints that are not identifiers."""
    import random

    r = random.Random(7)
    fast, slow = namer.TakenNames({"sarek_t_2", "x"}), {"sarek_t_2", "x"}
    for i in range(400):
        if r.random() < 0.2:
            extra = f"sarek_{r.choice(['t', 'acc'])}_{r.randint(0, 30)}"
            fast.add(extra)
            slow.add(extra)
        hint = r.choice([None, "acc", "3", "a b", "t"])
        assert namer.temporary(hint, fast) == _linear_temporary(hint, slow), i
    assert fast == slow


def test_namer_fresh_matches_the_linear_probe():
    """`Namer.fresh` with its suffix counter: bare names come back once freed of a clash, suffixes never repeat,
    and reserved names (`half_1`.. on OpenCL) are skipped as before."""
    n = namer.Namer("opencl", {"x_2"})
    got = [n.fresh("x"), n.fresh("x", bare=False), n.fresh("x"), n.fresh("y", bare=False), n.fresh("y"),
           n.fresh("half"), n.fresh("half")]
    assert got == ["x", "x_1", "x_3", "y_1", "y", "v_half", "v_half_1"]
