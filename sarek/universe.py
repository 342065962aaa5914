"""`xdsl.universe` entry point: plain `xdsl-opt` knows the sarek dialects, passes and targets (sarek.registry)."""

from collections.abc import Callable

from xdsl.universe import Universe

from sarek.registry import get_all_dialects, get_all_passes, get_all_targets


def _targets_not_in_xdsl() -> dict[str, object]:
    """Every sarek target as `sarek-<name>` (`xdsl-opt -t sarek-wgsl`), and under its own name where xDSL's
    universe does not define it: a duplicate name is an error in the multiverse, and xDSL's own `wgsl` target
    prints nothing for sarek IR (sarek-opt registers every sarek target under its own name)."""
    from xdsl.targets import get_all_targets as xdsl_targets

    taken = set(xdsl_targets())
    ours = get_all_targets()
    return {**{f"sarek-{n}": _alias(n, f) for n, f in ours.items()}, **{n: f for n, f in ours.items() if n not in taken}}


def _alias(name: str, factory: Callable[[], type]) -> Callable[[], type]:
    """The Target class of `name` under the name `sarek-<name>` (xDSL checks a spec's name against the class's)."""
    return lambda: type(factory().__name__, (factory(),), {"name": f"sarek-{name}"})


def shadowed_target_use(argv: list[str]) -> str | None:
    """The refusal for `xdsl-opt -p 'sarek-pipeline{target=T}' -t T` where T is xDSL's own target (it would print
    nothing and exit 0), else None."""
    import argparse

    from xdsl.targets import get_all_targets as xdsl_targets

    ap = argparse.ArgumentParser(add_help=False)
    ap.add_argument("-p", "--passes", default="")
    ap.add_argument("-t", "--target", default="mlir")
    known, _ = ap.parse_known_args(argv)
    name = str(known.target).split("{")[0]
    if name in get_all_targets() and name in xdsl_targets() and "sarek-" in str(known.passes):
        return (f"error: xdsl-opt's target '{name}' is xDSL's own, which prints nothing for sarek IR: use "
                f"`-t sarek-{name}` (or sarek-opt, where `-t {name}` is sarek's)")
    return None


def _refuse_shadowed() -> None:
    """Loaded by xdsl-opt (the multiverse imports this module): refuse a shadowed sarek target loudly."""
    import os
    import sys

    if os.path.basename(sys.argv[0]) == "xdsl-opt":
        msg = shadowed_target_use(sys.argv[1:])
        if msg is not None:
            print(msg, file=sys.stderr)
            raise SystemExit(1)


_refuse_shadowed()


SAREK_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=_targets_not_in_xdsl(),  # pyright: ignore[reportArgumentType]
)
