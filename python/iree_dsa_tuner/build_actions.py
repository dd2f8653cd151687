"""An action for IREE's own build system (`iree.build`): compile a model with a tuning spec.

    from iree.build import entrypoint, iree_build_main
    from iree_dsa_tuner.build_actions import tuned_compile

    @entrypoint(description="pi0 action expert, tuned for this CPU")
    def expert():
        return tuned_compile(name="expert", source="models/expert.mlir", target="host")

    if __name__ == "__main__":
        iree_build_main()

`tuned_compile` tunes the model (`iree_dsa_tuner.tune`, results recorded in the tuning
database so a rebuild measures nothing again) or, given `spec=`, takes a stored spec (e.g.
one from the spec library, transform_specs/...), and compiles the model with
`--iree-codegen-tuning-spec-path`. The spec goes to the build tree's gen/ namespace, the
module to bin/. A run in which nothing beat IREE's default compiles without a spec.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from iree.build.executor import BuildAction, BuildContext, BuildFile, FileNamespace

from .compiler import compile_to_vmfb, tuning_spec_flags


class TunedCompileAction(BuildAction):
    def __init__(self, *, source, spec_file: BuildFile, output_file: BuildFile, target: str, spec: Path | None,
                 options, db, **kwargs):
        super().__init__(**kwargs)
        self.source, self.spec_file, self.output_file = source, spec_file, output_file
        self.target, self.spec, self.options, self.db = target, spec, options, db
        output_file.deps.add(self)
        spec_file.deps.add(self)
        if isinstance(source, BuildFile):
            self.deps.add(source)

    def _source_path(self) -> Path:
        return self.source.get_fs_path() if isinstance(self.source, BuildFile) else Path(self.source)

    def _invoke(self):
        from .model_tuning import tune_model
        from .targets import get_target

        target = get_target(self.target)
        model = self._source_path()
        spec_path = self.spec_file.get_fs_path()
        route_flags: tuple[str, ...] = ()
        if self.spec is not None:
            shutil.copyfile(self.spec, spec_path)
            text = spec_path.read_text()
        else:
            # Dispatch by dispatch: a build step compiles once, it does not time whole-model presets.
            tuning = tune_model(model, target, self.options, db=self.db, whole_model=False)
            text, route_flags = tuning.spec_text, tuning.extra_flags
            spec_path.write_text(text or "// iree-dsa-tune: nothing beat IREE's default; no spec applied\n")
        # A spec made under a compile route matches only the dispatches the route makes.
        flags = (*route_flags, *tuning_spec_flags(spec_path)) if text else ()
        compile_to_vmfb(model, self.output_file.get_fs_path(), extra_flags=flags, target_flags=target.compile_flags)


def tuned_compile(*, name: str, source, target: str = "host", spec: str | Path | None = None, options=None,
                  db: str | Path | None = "iree-dsa-tuning.sqlite") -> BuildFile:
    """Tune `source` for `target` (or take `spec`) and compile it; returns the module's BuildFile.

    `source` is a path on disk or a BuildFile another action produces; `options` a
    `TuneOptions` (default: the tuner's); `db` where measurements are kept (relative paths
    are under the build tree's gen/ directory; None: measure afresh every build).
    """
    from .search.options import TuneOptions

    context = BuildContext.current()
    spec_file = context.allocate_file(f"{name}.spec.mlir", namespace=FileNamespace.GEN)
    output_file = context.allocate_file(f"{name}.vmfb", namespace=FileNamespace.BIN)
    db_path = None
    if db is not None:
        db_path = Path(db) if Path(db).is_absolute() else context.executor.get_root(FileNamespace.GEN) / Path(db).name
    TunedCompileAction(source=source, spec_file=spec_file, output_file=output_file, target=target,
                       spec=Path(spec) if spec is not None else None, options=options or TuneOptions(), db=db_path,
                       desc=f"Tuning and compiling {name} for {target}", executor=context.executor)
    return output_file
