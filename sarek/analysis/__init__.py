"""Pure queries over sarek IR, shared by passes, lowerings, the interpreter, the runtime and the front end.

- `features`: `kernel_uses(feature, module)`, the (target, feature) capability table, `check_target`,
  the shared `%native` refusal and `native_text`.
- `layout`: the aligned C layout of records and variants (`layout_of`), numpy dtypes (`numpy_dtype`).
- `types` / `type_order`: `referenced_type_names`, the dependency order of type declarations.
- `payload`: where a constructor's payloads live per target layout (`payload_fields`).
- `names`: `mangle_name`, the one place `Module.point` becomes `Module_point`.
- `reserved`: each target language's reserved identifiers and the shader escapers.
- `binders`: binder names of a module and in-place renaming.
- `convergence`: collective operations under thread-divergent control flow.
"""
