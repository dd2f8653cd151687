# lit configuration for iree-dsa-tuner. No lit.site.cfg: everything is found
# from the running Python, so both of these work from a checkout:
#   lit -v lit_tests
#   cmake -S . -B build && cmake --build build --target check-dsa
# Needs the package installed (pip install -e '.[test]'): IREE's wheel
# provides iree-compile / iree-opt, the `filecheck` package provides FileCheck.

import atexit
import os
import shutil
import sys
import tempfile

import lit.formats

config.name = "iree-dsa-tuner"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py", ".test"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
# Keep lit's Output/ dirs out of the source tree when a build dir is given
# (CMake passes DSA_LIT_BUILD_DIR); otherwise lit writes next to the tests.
_build_dir = lit_config.params.get("build_dir") or os.environ.get("DSA_LIT_BUILD_DIR")
if _build_dir:
    config.test_exec_root = os.path.join(os.path.abspath(_build_dir), "lit_tests")
# Model files used by the tests, and helpers, are not tests themselves.
config.excludes = ["inputs", "lit.cfg.py", "tools", "Output"]

# A hung test (IREE 3.13's iree-compile can deadlock, rarely, while loading a
# tuning spec on its thread pool) should fail in minutes, not eat CI's budget.
# lit can only enforce this with psutil installed.
try:
    import psutil  # noqa: F401

    config.maxIndividualTestTime = int(lit_config.params.get("timeout", 300))
except ImportError:
    pass

# Pass through what the tools need; nothing machine-specific is baked in.
for var in ("HOME", "PATH", "TMPDIR", "VIRTUAL_ENV", "PYTHONPATH", "IREE_COMPILER_DYLIB"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
# The tuner's model cache (`iree-dsa-tune` compiles each model once per flags): the one
# $IREE_DSA_CACHE_DIR names when it is set (CI shares one with pytest across the run),
# else a directory of this lit run, removed when lit exits; never ~/.cache.
_cache_dir = os.environ.get("IREE_DSA_CACHE_DIR")
if not _cache_dir:
    _cache_dir = tempfile.mkdtemp(prefix="iree-dsa-lit-cache-")
    atexit.register(shutil.rmtree, _cache_dir, ignore_errors=True)
config.environment["IREE_DSA_CACHE_DIR"] = _cache_dir
# Deterministic, undecorated output from Python tools.
config.environment["PYTHONHASHSEED"] = "0"
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
config.environment["NO_COLOR"] = "1"


def _find_iree_tool(name):
    """The IREE wheel's tool of the running Python first, then PATH."""
    try:
        from iree.compiler.tools.binaries import find_tool

        path = find_tool(name)
        if path:
            return path
    except Exception:  # wheel not importable, or tool missing in it
        pass
    path = shutil.which(name)
    if not path:
        lit_config.fatal(f"cannot find {name}: install iree-base-compiler (pip install -e '.[test]')")
    return path


def _find_runtime_tool(name):
    """iree-base-runtime's console script beside the running Python first, then PATH."""
    path = shutil.which(name, path=os.path.dirname(sys.executable)) or shutil.which(name)
    if not path:
        lit_config.fatal(f"cannot find {name}: install iree-base-runtime (pip install -e '.[test]')")
    return path


def _find_filecheck():
    """The pip `filecheck` package's command, next to this Python or on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), "filecheck")
    if os.path.exists(here):
        return here
    path = shutil.which("filecheck")
    if not path:
        lit_config.fatal("cannot find filecheck: pip install filecheck (the test extra)")
    return path


def _examples_dir():
    """The example models shipped inside the installed package."""
    try:
        import iree_dsa_tuner
    except ImportError:
        lit_config.fatal("cannot import iree_dsa_tuner: pip install -e '.[test]'")
    return os.path.join(os.path.dirname(os.path.abspath(iree_dsa_tuner.__file__)), "examples")


def _quote(path):
    return '"' + path + '"' if " " in path else path


python = _quote(sys.executable)
iree_compile = _quote(_find_iree_tool("iree-compile"))
iree_opt = _quote(_find_iree_tool("iree-opt"))
filecheck = _quote(_find_filecheck())
# %host-flags: llvm-cpu on a fixed x86-64 part, not this machine's CPU. IREE's default
# configs and its vector-size limit follow the CPU (AVX-512 one day, AVX2 the next), so
# golden text about defaults is only reviewable against a pinned part; haswell (AVX2)
# runs on every x86-64 machine here.
host_flags = " ".join([
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=haswell",
    # IREE 3.13 can deadlock loading a tuning spec's transform library on its
    # thread pool (seen twice in this suite, in tuning_spec/dsa_knobs_survive.test);
    # the tuner compiles single-threaded for the same reason (compiler.py).
    "--mlir-disable-threading",
])

# Longest names first where one is a prefix of another (%iree-compile is not
# a prefix of anything here, but keep the rule in mind when adding more).
config.substitutions.append(("%iree-compile", iree_compile))
config.substitutions.append(("%iree-opt", iree_opt))
config.substitutions.append(("%iree-benchmark-module", _quote(_find_runtime_tool("iree-benchmark-module"))))
config.substitutions.append(("%host-flags", host_flags))
config.substitutions.append(("%dsa-tune", f"{python} -m iree_dsa_tuner.cli"))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))
_tools = os.path.join(config.test_source_root, "tools")
config.substitutions.append(("%jsonl", f"{python} {os.path.join(_tools, 'jsonl.py')}"))
config.substitutions.append(("%expect-exit", f"{python} {os.path.join(_tools, 'expect_exit.py')}"))
config.substitutions.append(("%examples", _examples_dir()))
config.substitutions.append(("%PYTHON", python))
# FileCheck (LLVM's spelling) and filecheck both run the pip package.
config.substitutions.append(("FileCheck", filecheck))

lit_config.note(f"iree-compile: {iree_compile}")
lit_config.note(f"FileCheck: {filecheck}")
