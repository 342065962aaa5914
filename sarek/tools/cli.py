"""The `sarek` command.

    sarek ir FILE.py:KERNEL [--generic] [--locations]   the kernel's sarek-dialect IR
    sarek emit FILE.py:KERNEL -t TARGET     its source for a target (cuda hip opencl metal glsl wgsl ptx)
    sarek devices                           devices this machine offers
    sarek demo                              run the demo
    sarek cache clear                       clear the compilation cache

Errors (CompileError and every located sarek error) go to stderr, exit status 1, no traceback.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import Any


def load_kernel(spec: str) -> Any:
    """`FILE.py:NAME` -> the Kernel (a plain function is taken as a kernel)."""
    if ":" not in spec:
        raise SystemExit(f"sarek: expected FILE.py:KERNEL, got '{spec}'")
    path, _, name = spec.rpartition(":")
    if not os.path.isfile(path):
        raise SystemExit(f"sarek: no such file '{path}'")
    path = os.path.abspath(path)
    mod_name = "_sarek_cli_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec_ = importlib.util.spec_from_file_location(mod_name, path)
    if spec_ is None or spec_.loader is None:
        hint = "; sarek-opt reads MLIR" if path.endswith(".mlir") else ""
        raise SystemExit(f"sarek: cannot import '{path}': expected a Python file (FILE.py:KERNEL){hint}")
    mod = importlib.util.module_from_spec(spec_)
    sys.modules[mod_name] = mod
    sys.path.insert(0, os.path.dirname(path))
    try:
        spec_.loader.exec_module(mod)
    except SyntaxError as e:  # the file itself (or a module it imports) does not parse
        raise SystemExit(_syntax_error(e)) from None
    except Exception as e:  # running the file failed: say where, without sarek's own frames
        raise SystemExit(_import_error(path, e)) from None
    obj = getattr(mod, name, None)
    if obj is None:
        raise SystemExit(f"sarek: '{path}' has no kernel '{name}'")
    from sarek.frontend.api import DeviceFunction, Kernel

    if isinstance(obj, DeviceFunction):
        raise SystemExit(f"sarek: '{name}' is a @sarek.device function, not a kernel")
    if not isinstance(obj, Kernel):
        import inspect

        if not inspect.isfunction(obj):
            what = f"the class {obj.__name__}" if isinstance(obj, type) else f"{type(obj).__name__} {_short_repr(obj)}"
            raise SystemExit(f"sarek: '{name}' is not a kernel (a @sarek.kernel or a plain function), it is {what}")
        if getattr(obj, "__module__", None) != mod_name:
            raise SystemExit(f"sarek: '{name}' is not defined in '{path}' (it comes from {obj.__module__})")
        obj = Kernel(obj)
    return obj


def _short_repr(obj: object) -> str:
    r = repr(obj)
    return r if len(r) <= 60 else r[:57] + "..."


def _syntax_error(e: SyntaxError) -> str:
    """`file:line:col: error: message`, the line and a caret (the compiler's diagnostic shape)."""
    line, col = e.lineno or 0, e.offset or 0
    out = f"{e.filename}:{line}:{col}: error: {e.msg}"
    if e.text:
        text = e.text.rstrip("\n")
        out += f"\n    {text}\n    {' ' * max(col - 1, 0)}^"
    return out


def _import_error(path: str, e: BaseException) -> str:
    """Where in the user's file running it failed (the innermost frame in that file) and why."""
    import traceback

    frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == path]
    where = f"{path}:{frames[-1].lineno}: " if frames else f"{path}: "
    out = f"{where}error: running the file failed: {type(e).__name__}: {e}"
    if frames and frames[-1].line:
        out += f"\n    {frames[-1].line}"
    return out


def _runtime_call(path: str, *args: Any) -> Any:
    mod_name, _, fn = path.rpartition(".")
    try:
        mod = importlib.import_module(mod_name)
        f = getattr(mod, fn)
    except (ImportError, AttributeError) as e:
        print(f"sarek: {path}() is not available ({e})", file=sys.stderr)
        raise SystemExit(2) from None
    return f(*args)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="sarek", description="Sarek GPU kernel compiler")
    sub = p.add_subparsers(dest="cmd", required=True)
    ir = sub.add_parser("ir", help="print a kernel's sarek-dialect IR")
    ir.add_argument("kernel", metavar="FILE.py:KERNEL")
    ir.add_argument("--generic", action="store_true", help="generic op syntax")
    ir.add_argument("--locations", action="store_true", help="print each op's source location")
    em = sub.add_parser("emit", help="print a kernel's source for a target")
    em.add_argument("kernel", metavar="FILE.py:KERNEL")
    em.add_argument("-t", "--target", required=True, help="cuda, hip, opencl, metal, glsl, wgsl or ptx")
    em.add_argument("--arch", help="ptx: the .target (sm_90, the default; sm_90a admits warpgroup fragments)")
    sub.add_parser("devices", help="list devices")
    sub.add_parser("demo", help="run the demo")
    cache = sub.add_parser("cache", help="compilation cache")
    cache.add_argument("action", choices=["clear"])
    a = p.parse_args(argv)

    from sarek.diagnostics import SarekError
    from sarek.frontend.errors import CompileError

    try:
        if a.cmd == "ir":
            k = load_kernel(a.kernel)
            if a.locations:
                from io import StringIO

                from xdsl.printer import Printer

                buf = StringIO()
                Printer(stream=buf, print_generic_format=a.generic, print_debuginfo=True).print_op(k.module)
                sys.stdout.write(buf.getvalue())
            else:
                sys.stdout.write(k.ir(generic=a.generic))
            sys.stdout.write("\n")
        elif a.cmd == "emit":
            k = load_kernel(a.kernel)
            text = k.source(a.target, **({"arch": a.arch} if a.arch else {}))
            sys.stdout.write(text if text.endswith("\n") else text + "\n")
        elif a.cmd == "devices":
            for d in _runtime_call("sarek.runtime.devices"):
                print(getattr(d, "name", d))
        elif a.cmd == "demo":
            r = _runtime_call("sarek.runtime.demo.main")
            return int(r or 0)
        elif a.cmd == "cache":
            n = _runtime_call("sarek.runtime.cache.clear")
            where = _runtime_call("sarek.runtime.cache.cache_dir")
            print(f"sarek: cache cleared ({n} file(s) removed from {where})")
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except SarekError as e:
        if not isinstance(e, CompileError):
            e = CompileError.from_sarek_error(e)
        print(str(e), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
