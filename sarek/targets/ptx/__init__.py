"""The `ptx` target: the `sarek_ptx` dialect, its printer and, in `target`, the xDSL Target class (a target
driver: it runs the pass pipeline)."""
