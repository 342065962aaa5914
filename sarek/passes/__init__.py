"""Registry of sarek passes: name -> lazy factory (a pass module is imported only when used)."""

import importlib
import importlib.util
from collections.abc import Callable

from xdsl.passes import ModulePass

# pass name -> (module, class); one module per pass
PASSES: dict[str, tuple[str, str]] = {
    "sarek-reject-features": ("sarek.passes.reject_features", "RejectFeaturesPass"),
    "sarek-order-type-decls": ("sarek.passes.order_type_decls", "OrderTypeDeclsPass"),
    "sarek-subst-match-payloads": ("sarek.passes.subst_match_payloads", "SubstMatchPayloadsPass"),
    "sarek-legalize-names": ("sarek.passes.legalize_names", "LegalizeNamesPass"),
    "sarek-rename-shadowing-locals": ("sarek.passes.rename_shadowing_locals", "RenameShadowingLocalsPass"),
    "sarek-lower-warp": ("sarek.passes.lower_warp", "LowerWarpPass"),
    "sarek-verify-barriers": ("sarek.passes.verify_barriers", "VerifyBarriersPass"),
    "sarek-fold-grid": ("sarek.passes.fold_grid", "FoldGridPass"),
    "sarek-pipeline": ("sarek.passes.pipeline", "PipelinePass"),
    "sarek-lower-glsl": ("sarek.lowering.glsl", "LowerGlslPass"),
    "sarek-lower-wgsl": ("sarek.lowering.wgsl", "LowerWgslPass"),
    "sarek-lower-cfamily": ("sarek.lowering.cfamily", "LowerCFamilyPass"),
    "sarek-lower-ptx": ("sarek.lowering.ptx", "LowerPtxPass"),
}


def _factory(mod: str, cls: str) -> Callable[[], type[ModulePass]]:
    return lambda: getattr(importlib.import_module(mod), cls)


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Passes whose module exists (lowering passes register here too, under sarek.lowering)."""
    return {n: _factory(m, c) for n, (m, c) in PASSES.items() if importlib.util.find_spec(m) is not None}
