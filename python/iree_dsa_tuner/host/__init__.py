"""The host CPU target, as the DSA is a plugin: everything the tuner knows only for the host.

- `target.py`: `HostTarget` (llvm-cpu on this machine's CPU, described from it; host.toml) and
  `provide_targets`, the `iree_dsa_tuner.targets` entry point; `fma_probe.py` times the CPU's FMA
  ports once;
- `recipe/`: tuning a model as a whole (`HostTarget.tune_whole_model` -> `recipe.tune_recipe`):
  flag presets (`flag_presets.py`) and a spec, each confirmed by timing every entry function
  (`whole_model.py`);
- `routes/`: the compile routes that compete as presets (batch-1 conv, long-K split, unbatch,
  batch-fold convolution, Winograd), one module each with the same `plan` / `presets` functions.

The tuner reaches it only through `targets.Target` (and the registry's entry point); nothing here
is imported by the generic units below it.
"""
