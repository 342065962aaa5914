"""Bad input from every surface is a located `sarek.SarekError` (or works), faults are survived, no text is
injected (bug hunt, issue 27): each test reproduces a reported script and fails without its fix."""

import importlib.util
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import sarek
from sarek import Array, Vec, f32, i32, kernel, record, variant
from sarek.gpu import atomic_add, global_thread_id, local_array, shared
from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

HERE = Path(__file__).resolve()


def _devices() -> list[str]:
    names = [d.name for d in sarek.devices()]
    return [n for n in names if n.split(":")[0] in ("interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl")]


def _load(tmp_path: Path, name: str, text: str):
    """A module written to a file (the front end reads kernels from their source file)."""
    p = tmp_path / f"{name}.py"
    p.write_text(textwrap.dedent(text))
    spec = importlib.util.spec_from_file_location(name, p)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


@kernel
def hunt_fill(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        a[i] = 1.0


# ---------------------------------------------------------------------------------------------------------------
# Broken foreign producers: their own RuntimeError / ValueError / BufferError / TypeError leaked out of launch.


class _RaisingInterface:
    @property
    def __array_interface__(self):
        raise RuntimeError("producer broke")


class _NotACapsule:
    def __dlpack__(self, **_):
        return 5

    def __dlpack_device__(self):
        return (2, 0)  # CUDA: read through from_capsule


class _RaisingDlpack:
    def __dlpack__(self, **_):
        raise BufferError("cannot export")

    def __dlpack_device__(self):
        return (1, 0)


class _BadTypestr:
    def __init__(self):
        self.keep = np.zeros(4, np.float32)
        self.__array_interface__ = {"shape": (4,), "typestr": "<f7", "data": (self.keep.ctypes.data, False),
                                    "version": 3}


@pytest.mark.parametrize("make, words", [
    (_RaisingInterface, "array interface failed: RuntimeError: producer broke"),
    (_NotACapsule, "its __dlpack__() returned int, not an unconsumed 'dltensor' capsule"),
    (_RaisingDlpack, "its __dlpack__ failed: BufferError: cannot export"),
    (_BadTypestr, "data type '<f7' not understood"),
])
def test_broken_foreign_producer_is_a_launch_error(make, words):
    with pytest.raises(sarek.LaunchError) as e:
        hunt_fill.launch(make(), 4, grid=1, block=4, device="interp")
    assert "argument 'a' (#1)" in str(e.value) and words in str(e.value)


def test_bytes_output_names_its_items_not_a_0d_array():
    with pytest.raises(sarek.LaunchError) as e:
        hunt_fill.launch(b"\0" * 16, 4, grid=1, block=4, device="interp")
    assert "an array of uint8 with shape (16,)" in str(e.value) and "0-dimensional" not in str(e.value)


def test_class_that_gains_array_interface_later_is_accepted():
    class Late:
        pass

    with pytest.raises(sarek.LaunchError):
        hunt_fill.launch(Late(), 4, grid=1, block=4, device="interp")
    out = np.zeros(4, np.float32)
    Late.__array_interface__ = property(lambda self: out.__array_interface__)
    hunt_fill.launch(Late(), 4, grid=1, block=4, device="interp")
    assert out.tolist() == [1.0] * 4


# ---------------------------------------------------------------------------------------------------------------
# Declarations at import: plain TypeErrors without a location.


@pytest.mark.parametrize("rank", [5, 0])
def test_array_rank_out_of_range_is_located(rank):
    with pytest.raises(sarek.CompileError) as e:
        Array[f32, rank]
    assert e.value.file == str(HERE) and f"got {rank}" in str(e.value) and "Array[f32, rank]" in str(e.value)
    assert isinstance(e.value, TypeError)  # still what callers caught before


def test_typevar_with_a_non_type_is_located_and_int_means_i32():
    with pytest.raises(sarek.CompileError) as e:
        sarek.TypeVar("T", "x")
    assert e.value.file == str(HERE) and "'x' is not a sarek type" in str(e.value)
    assert sarek.TypeVar("T", int).constraints == (i32,)


# ---------------------------------------------------------------------------------------------------------------
# k.source options: AttributeError for an int block, the dataclass's TypeError for unknown options.


def test_source_block_int_and_tuple_on_shaders():
    assert "@workgroup_size(4, 1, 1)" in hunt_fill.source("wgsl", block=4)
    assert "local_size_x = 8, local_size_y = 2" in hunt_fill.source("glsl", block=(8, 2))


@pytest.mark.parametrize("target, options, words", [
    ("cuda", {"block": (4, 1, 1)}, "target 'cuda' has no option 'block' (its options: fp, opt"),
    ("opencl", {"frob": 1}, "target 'opencl' has no option 'frob'"),
    ("wgsl", {"block": 4.5}, "option block=4.5 is not valid"),
    ("ptx", {"opt": 1}, "option opt=1 is not valid (expected a string)"),
    ("wgsl", {"block": (0, 1)}, "bad block shape '(0, 1)'"),
    ("wgsl", {"block": 99999999999}, "a Vulkan/WebGPU workgroup holds at most 1024"),
])
def test_bad_source_options_are_compile_errors(target, options, words):
    with pytest.raises(sarek.CompileError) as e:
        hunt_fill.source(target, **options)
    assert words in str(e.value)


# ---------------------------------------------------------------------------------------------------------------
# SAREK_PRINT_BUFFER: raw tracebacks for text or huge values, an out-of-bounds error for a negative one, and
# 0 dropped every line without the note.


@kernel
def hunt_prints(n: i32):
    i = global_thread_id
    if i < n:
        print("first", i)
        print("second", i)


@pytest.mark.parametrize("value", ["abc", "99999999999", "-5"])
def test_bad_print_buffer_size_is_a_launch_error(monkeypatch, value):
    monkeypatch.setenv("SAREK_PRINT_BUFFER", value)
    for d in ("interp", "interp-ref"):
        with pytest.raises(sarek.LaunchError) as e:
            hunt_prints.launch(4, grid=1, block=4, device=d)
        assert f"SAREK_PRINT_BUFFER={value!r} is not a print buffer size" in str(e.value)


def test_print_buffer_zero_still_says_lines_were_dropped(monkeypatch, capfd):
    monkeypatch.setenv("SAREK_PRINT_BUFFER", "0")
    for d in _devices():
        hunt_prints.launch(4, grid=1, block=4, device=d)
        out = capfd.readouterr().out
        assert out == ("[sarek: 8 more lines dropped: the print buffer (0 words) is full; SAREK_PRINT_BUFFER=WORDS "
                       "makes it larger]\n"), d


@kernel
def hunt_print_accumulate(acc: Vec[f32], count: Vec[i32], n: i32):
    i = global_thread_id
    if i < n:
        print("first", i)
        acc[i] += 1.0
        atomic_add(count, 0, 1)
        print("second", i)


def test_full_print_buffer_keeps_the_same_lines_everywhere(monkeypatch, capfd):
    """Every device kept a different subset (interp no "second" line at all): an overflowing launch runs again
    with room for every record, its written arrays restored first, and keeps the first records by block,
    thread and program order; the outputs are those of one launch."""
    monkeypatch.setenv("SAREK_PRINT_BUFFER", "22")  # 4 records of 5 words (header 4, one value)
    want = "first 0\nsecond 0\nfirst 1\nsecond 1\n[sarek: 12 more lines dropped: the print buffer (22 words) is full; " \
           "SAREK_PRINT_BUFFER=WORDS makes it larger]\n"
    for d in _devices():
        acc, count = np.full(8, 2.0, np.float32), np.zeros(1, np.int32)
        hunt_print_accumulate.launch(acc, count, 8, grid=2, block=4, device=d)
        assert capfd.readouterr().out == want, d
        assert acc.tolist() == [3.0] * 8 and count.tolist() == [8], d


# ---------------------------------------------------------------------------------------------------------------
# sarek.dask: numpy's ValueError from a negative Out shape, int()'s from a threads= function returning text.


@kernel
def hunt_copy(a: Vec[f32], b: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        b[i] = a[i]


def test_dask_bad_shapes_are_launch_errors():
    da = pytest.importorskip("dask.array")
    import sarek.dask as sd

    x = da.ones(16, chunks=8, dtype=np.float32)
    with pytest.raises(sarek.LaunchError, match=r"output #1's Out shape is \(-5,\); expected a non-negative int"):
        sd.map_blocks(hunt_copy, x, sd.size, out=sd.Out((-5,))).compute(scheduler="sync")
    with pytest.raises(sarek.LaunchError, match=r"threads= is 'x' for a chunk of shape \(8,\)"):
        sd.map_blocks(hunt_copy, x, sd.size, out=sd.like(0), threads=lambda s: "x").compute(scheduler="sync")


# ---------------------------------------------------------------------------------------------------------------
# Internal errors for user programs.


@kernel
def hunt_atomic_local(a: Vec[i32]):
    t = local_array(i32, 4)
    t[0] = 0
    atomic_add(t, 0, 1)
    a[0] = t[0]


def test_atomic_on_local_array_is_located():
    with pytest.raises(sarek.CompileError) as e:
        hunt_atomic_local.ir()
    assert "atomic_add() on a local_array" in str(e.value) and "internal" not in str(e.value)
    assert "atomic_add(t, 0, 1)" in str(e.value)


@variant
class HuntTagged:
    tag: f32  # the interpreter's payload struct was named after the constructor, clashing with `tag`
    Pair: (f32, f32)
    Nil: ()


@kernel
def hunt_tag_ctor(xs: Vec[HuntTagged], out: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        match xs[i]:
            case HuntTagged.tag(r):
                out[i] = r
            case HuntTagged.Pair(p, q):
                out[i] = p + q
            case _:
                out[i] = -1.0


def test_constructor_named_tag_runs_everywhere():
    xs = HuntTagged.pack([HuntTagged.tag(2.5), HuntTagged.Pair(1.0, 2.0), HuntTagged.Nil(), HuntTagged.tag(-4.0)])
    for d in _devices():
        out = np.zeros(4, np.float32)
        hunt_tag_ctor.launch(xs, out, 4, grid=1, block=4, device=d)
        assert out.tolist() == [2.5, 3.0, -1.0, -4.0], d


# ---------------------------------------------------------------------------------------------------------------
# Accepted, then failing late: limits the compiler knows.


def test_forty_vectors_refused_for_shaders_at_compile_time(tmp_path):
    names = ", ".join(f"v{i}: Vec[f32]" for i in range(40))
    m = _load(tmp_path, "hunt_many", f"from sarek import Vec, f32\n\ndef many({names}):\n    v0[0] = v39[0]\n")
    k = kernel(m.many)
    for t in ("wgsl", "glsl"):
        with pytest.raises(sarek.CompileError) as e:
            k.source(t)
        assert e.value.line == 3 and "40 vector parameters" in str(e.value) and "'v32'" in str(e.value)
    cuda.check(k.source("cuda"))  # C targets pass pointers: no such limit
    # on a device: its own limit (lavapipe's 32), a located LaunchError naming it (tests/unit/test_device_limits.py)
    with pytest.raises(sarek.LaunchError, match=r"hunt_many.py:3:1: error: kernel 'many' has 40 vector parameters; "
                                                r"vulkan:0 binds at most 32 storage buffers"):
        k.launch(*[np.zeros(1, np.float32) for _ in range(40)], grid=1, block=1, device="vulkan:0")


@kernel
def hunt_big_shared(a: Vec[f32]):
    s = shared(f32, 1 << 20)
    s[0] = 1.0
    a[0] = s[0]


@pytest.mark.parametrize("target", ["wgsl", "glsl", "cuda", "ptx"])
def test_four_mib_shared_array_refused(target):
    with pytest.raises(sarek.CompileError) as e:
        hunt_big_shared.source(target)
    assert "declares 4194304 bytes of shared arrays" in str(e.value) and "shared(f32, 1 << 20)" in str(e.value)


@kernel
def hunt_negative_index(a: Vec[f32]):
    a[-1] = 1.0


def test_constant_negative_index_is_located():
    with pytest.raises(sarek.CompileError) as e:
        hunt_negative_index.ir()
    assert "index -1 is negative" in str(e.value) and "a[len(a) - 1]" in str(e.value)
    assert e.value.line == hunt_negative_index.fn.__code__.co_firstlineno + 2


# ---------------------------------------------------------------------------------------------------------------
# Wrong line: reported at the `for` / the first shared() instead of the assignment.


@kernel
def hunt_assign_index(a: Vec[f32]):
    for i in range(4):
        a[i] = 1.0
        i = 3


@kernel
def hunt_reassign_shared(a: Vec[f32]):
    s = shared(f32, 4)
    s[0] = 1.0
    a[0] = s[0]
    s = shared(f32, 8)


def test_assignments_are_located_at_the_assignment():
    with pytest.raises(sarek.CompileError) as e:
        hunt_assign_index.ir()
    assert e.value.line == hunt_assign_index.fn.__code__.co_firstlineno + 4 and "i = 3" in str(e.value)
    with pytest.raises(sarek.CompileError) as e:
        hunt_reassign_shared.ir()
    first = hunt_reassign_shared.fn.__code__.co_firstlineno
    assert e.value.line == first + 5 and f"declared at line {first + 2}" in str(e.value)


# ---------------------------------------------------------------------------------------------------------------
# Names that made invalid source.


@record
class nullptr:  # noqa: N801 - the name under test
    x: f32


@kernel
def hunt_nullptr(a: Vec[nullptr]):
    a[0] = nullptr(x=1.0)


def test_record_named_nullptr_compiles_for_cuda_and_hip():
    cuda.check(hunt_nullptr.source("cuda"))
    hip.check(hunt_nullptr.source("hip"))


def test_two_thousand_character_parameter_validates(tmp_path):
    long = "x" * 2000
    m = _load(tmp_path, "hunt_long", f"from sarek import Vec, f32\n\ndef longp({long}: Vec[f32]):\n    {long}[0] = 1.0\n")
    k = kernel(m.longp)
    glsl.check(k.source("glsl"))
    wgsl.check(k.source("wgsl"))
    opencl.check(k.source("opencl"))


NASTY = ["bad\nfn bad() {}", "x */ int y; /*", "end\\", "sep\u2028fn q() {}", "#define x 1", "\u03c0", "main",
         "nullptr", "y" * 1100, "_", "__init", "gl_x", "sarek_x"]


def _nasty_module(names: list[str]) -> str:
    """One kernel whose own name, parameters, record and field are the `names` (MLIR string escapes)."""
    def q(s: str) -> str:
        return '"' + "".join(f"\\{ord(c):02X}" if c < " " or c in '"\\' else c for c in s) + '"'

    k, p, r, f = (names * 4)[:4]
    return f"""builtin.module {{
  sarek.record @{q(r)} {{{q(f)} : i32}}
  sarek.kernel @{q(k)}(%a : !sarek.vec<!sarek.record<@{q(r)}>> {q(p)}, %n : i32 {q(p + "n")}) {{
    %z = sarek.constant 0 : i32
    %e = sarek.elem_ref %a[%z] : !sarek.vec<!sarek.record<@{q(r)}>>
    %fr = sarek.field_ref %e {q(f)} : !sarek.ref<i32>
    sarek.store %fr, %n : !sarek.ref<i32>
  }}
}}
"""


@pytest.mark.parametrize("start", [0, 4, 8])
def test_identifier_fuzz_never_injects_and_validates(start, tmp_path):
    """Hostile names in every role (kernel, parameter, record, field) through sarek-opt: each target's tool
    accepts the source, and no name's tail appears as code."""
    from sarek.registry import emit_source, parse_module

    names = (NASTY[start:] + NASTY)[:4]
    mod = parse_module(_nasty_module(names))
    checks = {"glsl": glsl.check, "wgsl": wgsl.check, "opencl": opencl.check, "cuda": cuda.check, "hip": hip.check,
              "metal": metal.check, "ptx": ptx.check}
    for t, chk in checks.items():
        src = emit_source(mod, t)
        chk(src)
        assert not any(line.lstrip().startswith(("fn bad", "fn q", "int y")) for line in src.splitlines()), t


# ---------------------------------------------------------------------------------------------------------------
# Faults: a signal handler's exception mid-launch was "internal interpreter error"; one landing during the
# Vulkan set-up left the devices unavailable for the process; Ctrl-C on pocl waited for the kernel.


class HuntTimeout(Exception):
    pass


def _on_alarm(*_):
    raise HuntTimeout("too slow")


@kernel
def hunt_slow(a: Vec[f32], n: i32, reps: i32):
    i = global_thread_id
    if i < n:
        acc = 0.0
        for j in range(reps):
            acc = acc + 1.0
        a[i] = acc


# the opencl kernel must outlast the 0.3 s timer plus the 0.2 s probe on any machine: 6e7 additions took 0.48 s on
# an idle CI core (the probe then found the queue idle); 3e8 take ~2.4 s there
@pytest.mark.parametrize("dev, reps", [("interp", 10**7), ("interp-ref", 10**7), ("opencl:0", 3 * 10**8)])
def test_timeout_during_launch_is_the_users_exception(dev, reps, monkeypatch):
    out = np.zeros(16, np.float32)
    hunt_slow.launch(out, 16, 1, grid=1, block=16, device=dev)  # compiled before the timer starts
    d = sarek.get_device(dev)
    if dev.startswith("opencl"):  # the timer starts as the launch is waited for: it lands while the kernel runs
        real = d.synchronize_stream

        def wait(handle):
            signal.setitimer(signal.ITIMER_REAL, 0.3)
            real(handle)

        monkeypatch.setattr(d, "synchronize_stream", wait)
    old = signal.signal(signal.SIGALRM, _on_alarm)
    try:
        if not dev.startswith("opencl"):
            signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(HuntTimeout) as e:
            hunt_slow.launch(out, 16, reps, grid=1, block=16, device=dev)
        busy = True
        if dev.startswith("opencl"):  # seen while the kernel runs, not when it ends: the queue is still busy
            import pyopencl as cl

            marker = cl.enqueue_marker(d.queue)
            d.queue.flush()
            time.sleep(0.2)  # a marker on an idle queue completes at once
            busy = marker.command_execution_status != cl.command_execution_status.COMPLETE
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert busy
    assert any(f"it interrupted a launch of kernel hunt_slow on {dev}" in n for n in e.value.__notes__)
    monkeypatch.undo()
    hunt_slow.launch(out, 16, 3, grid=1, block=16, device=dev)  # the device stays usable
    assert out.tolist() == [3.0] * 16


def test_interrupted_device_setup_is_not_cached(monkeypatch):
    import sarek.runtime as rt
    from sarek.runtime import vulkan

    real = vulkan.vulkan_adapters
    calls = []

    def interrupted():
        calls.append(1)
        if len(calls) == 1:
            _on_alarm()  # as a SIGALRM handler raising while the adapters are enumerated
        return real()

    monkeypatch.setattr(vulkan, "vulkan_adapters", interrupted)
    monkeypatch.setattr(rt, "_devices", None)
    monkeypatch.setattr(rt, "_BY_KIND", {})
    monkeypatch.setattr(rt, "unavailable", {})
    with pytest.raises(HuntTimeout) as e:
        rt.get_device("vulkan:0")
    assert any("it interrupted the set-up of the vulkan devices" in n for n in e.value.__notes__)
    assert rt.get_device("vulkan:0").name == "vulkan:0"


def test_sarek_opt_block_too_large_is_one_error_line(tmp_path):
    p = tmp_path / "k.mlir"
    p.write_text('builtin.module {\n  sarek.kernel @k(%a : !sarek.vec<f32> "a") {\n  }\n}\n')
    r = subprocess.run([sys.executable, "-m", "sarek.tools.sarek_opt", str(p), "-t", "wgsl", "-p",
                        "sarek-pipeline{target=wgsl block=99999999999,1,1}"], capture_output=True, text=True)
    assert r.returncode != 0 and "Traceback" not in r.stderr + r.stdout
