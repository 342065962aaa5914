"""The `wgsl` target: the `sarek_wgsl` dialect and, in `target`, its xDSL Target class (a target driver)."""
