"""sarek-opt: the pass driver (xdsl-opt conventions) restricted to builtin, sarek and the target dialects."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from io import BytesIO
from typing import IO, Any, cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.xdsl_opt_main import xDSLOptMain


class SarekOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        import sys

        argv = sys.argv[1:] if args is None else args
        wants_help = any(a in ("-h", "--help") for a in argv)
        super().__init__(description=_description() if wants_help else "Sarek kernel compiler driver", args=args)
        if self.args.input_file == "-":  # mlir-opt's spelling of stdin
            self.args.input_file = None
        if self.args.output_file == "-":
            self.args.output_file = None

    def setup_pipeline(self) -> None:
        """xdsl-opt's pipeline; with --print-between-passes, `sarek-pipeline{target=T}` runs as its passes so
        the IR is printed after each of them (the compiler's decisions, stage by stage)."""
        super().setup_pipeline()
        if not self.args.print_between_passes:
            return
        from xdsl.passes import ModulePass, PassPipeline

        from sarek.diagnostics import SarekError
        from sarek.passes.pipeline import PipelinePass

        passes: list[ModulePass] = []
        for p in self.pipeline.passes:
            try:
                passes += p.passes() if isinstance(p, PipelinePass) else [p]
            except SarekError:  # an unknown target: reported when the pass runs, as without the option
                passes.append(p)
        self.pipeline = PassPipeline(tuple(passes), self.pipeline.callback)

    def register_all_frontends(self) -> None:
        super().register_all_frontends()
        parse = self.available_frontends["mlir"]

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            data = io.read()
            if not any(line.strip() and not line.strip().startswith(b"//") for line in data.splitlines()):
                from xdsl.utils.exceptions import DiagnosticException

                what = "an empty chunk (between `// -----` lines)" if self.args.split_input_file else "empty input"
                raise DiagnosticException(f"{self.get_input_name()}: error: {what}: expected a builtin.module "
                                          "or operations")
            return parse(BytesIO(data))

        self.available_frontends["mlir"] = parse_mlir

    def register_all_dialects(self) -> None:
        from sarek.plugins import plugin_dialects
        from sarek.registry import register_dialects

        register_dialects(self.ctx)
        for name, factory in plugin_dialects().items():  # installed xdsl.universe plugins (sarek.plugins)
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        """sarek's passes, then those of installed `xdsl.universe` plugins whose names sarek does not use (a
        plugin's duplicate name is left out, never an error: sarek.plugins)."""
        from sarek.plugins import all_passes

        for name, factory in all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        """`mlir` and sarek's targets only: no other universe's target can shadow one of sarek's (xDSL's own
        `wgsl` prints nothing for sarek IR), and no plugin's duplicate target name can break the driver."""
        from xdsl.targets import get_all_targets as xdsl_targets

        from sarek.registry import get_all_targets

        self.available_targets.clear()
        self.available_targets["mlir"] = xdsl_targets()["mlir"]
        for name, factory in get_all_targets().items():
            self.available_targets[name] = factory

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in arg_parser._actions:  # pyright: ignore[reportPrivateUsage]
            if action.dest == "input_file":
                action.help = "path to input file (none or '-': stdin)"
            elif action.dest == "output_file":
                action.help = "path to output file ('-': stdout)"


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc and doc.strip() else "(undocumented)"


def _description() -> str:
    """--help lists every sarek pass and target with its docstring's first line."""
    from sarek.registry import get_all_passes
    from sarek.registry import get_all_targets

    lines = ["Sarek kernel compiler driver (xdsl-opt conventions).", "", "passes (-p):"]
    for name, f in sorted(get_all_passes().items()):
        lines.append(f"  {name:32} {_first_line(f().__doc__)}")
    from sarek.plugins import broken, plugin_passes, shadowed

    extra = plugin_passes()
    if extra:
        lines += ["", "plugin passes (-p; installed xdsl.universe plugins):"]
        for name, f in sorted(extra.items()):
            lines.append(f"  {name:32} {_first_line(f().__doc__)}")
    lines += ["", "targets (-t):", f"  {'mlir':32} the IR as MLIR text (default)"]
    for name, f in sorted(get_all_targets().items()):
        lines.append(f"  {name:32} {_first_line(f().__doc__)}")
    left = shadowed() + [f"plugin {b} (not loaded)" for b in broken()]
    if left:
        lines += ["", "left out:"] + [f"  {x}" for x in left]
    return "\n".join(lines)


def _option_error_text(argv: Sequence[str], e: Exception) -> str:
    """xDSL's option errors name neither the pass nor the option ("Incompatible types: given (), expected
    <class 'str'>"): find the pass or target spec (-p / -t) and the option that fail and say so."""
    import dataclasses
    from typing import get_type_hints

    from xdsl.utils.arg_spec import ArgSpec, parse_pipeline, parse_spec

    from sarek.registry import get_all_passes
    from sarek.registry import get_all_targets

    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("-p", "--passes", default="")
    ap.add_argument("-t", "--target", default="mlir")
    known, _ = ap.parse_known_args(list(argv))
    try:
        specs: list[tuple[str, ArgSpec, Callable[[], Any] | None]] = [
            ("pass", sp, get_all_passes().get(sp.name)) for sp in parse_pipeline(str(known.passes))]
        specs.append(("target", parse_spec(str(known.target)), get_all_targets().get(parse_spec(str(known.target)).name)))
    except Exception:  # the spec does not even parse: xDSL's message is the one to show
        return str(e)
    for what, sp, factory in specs:
        if factory is None or not sp.parameters:
            continue
        cls = factory()
        try:
            cls.from_spec(sp)
            continue
        except ValueError:
            pass
        hints = get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}
        for k, v in sp.normalize_parameter_names().parameters.items():
            if k not in fields:
                continue
            try:
                cls.from_spec(ArgSpec(sp.name, {k: v}))
            except ValueError:
                t = hints.get(k)
                want = {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(
                    cast(type, t), str(t).replace("<class '", "").replace("'>", ""))
                got = ",".join(str(x) for x in v) if v else "no value"
                hint = f' (quote it: {k}="...")' if t is str else ""
                return f"{what} {sp.name}: option '{k}' got {got}, expected {want}{hint}"
        return f"{what} {sp.name}: {e}"
    return str(e)


#: Python frames and stack bytes the driver's thread may use: xDSL's parser, verifier and printer recurse per
#: nesting level (about 7 frames a `sarek.if`), so 140 nested ifs overflowed the default limit (issue 21)
RECURSION_LIMIT = 60000
STACK_BYTES = 512 << 20


def main() -> None:
    """Run the driver in a thread with a deep stack (`RECURSION_LIMIT`); exit with its status."""
    import sys
    import threading

    status: list[int] = []

    def body() -> None:
        try:
            _main()
            status.append(0)
        except SystemExit as e:
            status.append(e.code if isinstance(e.code, int) else 0 if e.code is None else 1)
            if isinstance(e.code, str):
                print(e.code, file=sys.stderr)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), RECURSION_LIMIT))
    old = threading.stack_size(STACK_BYTES)
    try:
        t = threading.Thread(target=body, name="sarek-opt")
        t.start()
        t.join()
    finally:
        threading.stack_size(old)
    sys.exit(status[0] if status else 1)


def _main() -> None:
    """The driver; user errors (bad IR, bad pipeline, refused kernels) end with a message, no traceback."""
    import sys

    from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException, ParseError

    try:
        SarekOptMain().run()
    except (DiagnosticException, ParseError, ArgSpecParseError) as e:
        print(f"error: {str(e).rstrip()}" if isinstance(e, DiagnosticException) and not str(e).startswith(
            ("error", "/")) and ": error:" not in str(e) else str(e).rstrip(), file=sys.stderr)
        for note in getattr(e, "__notes__", []):  # the IR with the failing op marked
            print(note.rstrip(), file=sys.stderr)
        sys.exit(1)
    except UnicodeDecodeError as e:  # a binary file given as input
        print(f"error: the input is not UTF-8 text ({e.reason} at byte {e.start})", file=sys.stderr)
        sys.exit(1)
    except (ValueError, OverflowError) as e:  # unknown passes, bad options, literals xDSL cannot represent
        print(f"error: {_option_error_text(sys.argv[1:], e)}", file=sys.stderr)
        sys.exit(1)
    except OSError as e:  # an input or output file that cannot be opened
        print(f"error: {e.strerror}: {e.filename}", file=sys.stderr)
        sys.exit(1)
    except RecursionError:
        from sarek.frontend.lower import MAX_NESTING

        print(f"error: the input nests too deeply for sarek-opt (more than its limit of {RECURSION_LIMIT} Python "
              f"frames; the front end refuses kernels nested more than {MAX_NESTING} levels deep)", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
