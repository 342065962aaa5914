"""sarek-opt: the pass driver (xdsl-opt conventions) restricted to builtin, sarek and the target dialects."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from xdsl.dialects.builtin import Builtin
from xdsl.xdsl_opt_main import xDSLOptMain


class SarekOptMain(xDSLOptMain):
    def __init__(self, args: Sequence[str] | None = None):
        import sys

        argv = sys.argv[1:] if args is None else args
        wants_help = any(a in ("-h", "--help") for a in argv)
        super().__init__(description=_description() if wants_help else "Sarek kernel compiler driver", args=args)

    def register_all_dialects(self) -> None:
        from sarek.universe import get_all_dialects

        self.ctx.register_dialect("builtin", lambda: Builtin)
        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        from sarek.passes import get_all_passes

        for name, factory in get_all_passes().items():
            self.register_pass(name, factory)

    def register_all_targets(self) -> None:
        from sarek.targets import get_all_targets

        super().register_all_targets()
        keep = {"mlir"}
        for n in list(self.available_targets):
            if n not in keep:
                del self.available_targets[n]
        for name, factory in get_all_targets().items():
            self.available_targets[name] = factory

    def register_all_arguments(self, arg_parser: argparse.ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        arg_parser.formatter_class = argparse.RawDescriptionHelpFormatter


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc and doc.strip() else "(undocumented)"


def _description() -> str:
    """--help lists every sarek pass and target with its docstring's first line."""
    from sarek.passes import get_all_passes
    from sarek.targets import get_all_targets

    lines = ["Sarek kernel compiler driver (xdsl-opt conventions).", "", "passes (-p):"]
    for name, f in sorted(get_all_passes().items()):
        lines.append(f"  {name:32} {_first_line(f().__doc__)}")
    lines += ["", "targets (-t):", f"  {'mlir':32} the IR as MLIR text (default)"]
    for name, f in sorted(get_all_targets().items()):
        lines.append(f"  {name:32} {_first_line(f().__doc__)}")
    return "\n".join(lines)


def main() -> None:
    """Run the driver; user errors (bad IR, bad pipeline, refused kernels) end with a message, no traceback."""
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
    except (ValueError, OverflowError) as e:  # unknown passes, bad options, literals xDSL cannot represent
        print(f"error: {e}", file=sys.stderr)
        sys.exit(1)
    except OSError as e:  # an input or output file that cannot be opened
        print(f"error: {e.strerror}: {e.filename}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
