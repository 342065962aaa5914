"""`xdsl.universe` entry point: plain `xdsl-opt` knows the sarek dialects, passes and targets (sarek.registry)."""

from xdsl.universe import Universe

from sarek.registry import get_all_dialects, get_all_passes, get_all_targets


def _targets_not_in_xdsl() -> dict[str, object]:
    """xDSL's own universe already defines some target names (e.g. `wgsl`); a duplicate name is an error in
    the multiverse, so those are left out here (sarek-opt registers every sarek target itself)."""
    from xdsl.targets import get_all_targets as xdsl_targets

    taken = set(xdsl_targets())
    return {n: f for n, f in get_all_targets().items() if n not in taken}


SAREK_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=_targets_not_in_xdsl(),  # pyright: ignore[reportArgumentType]
)
