"""$IREE_DSA_HOST_ISA: this machine read and compiled for as a narrower x86-64 level (core/host_isa.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from iree_dsa_tuner.core import host_isa
from iree_dsa_tuner.core.fingerprint import host_isa_flags
from iree_dsa_tuner.errors import InputError

ZEN4_FLAGS = {"sse2", "avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "movbe", "avx512f", "avx512bw", "avx512_vnni",
              "avx512_bf16", "avx_vnni", "amx_tile", "aes"}


def test_without_a_cap_every_flag_stays_and_iree_compiles_for_host(monkeypatch):
    monkeypatch.delenv(host_isa.HOST_ISA_ENV, raising=False)
    assert host_isa.capped_flags(ZEN4_FLAGS) == ZEN4_FLAGS
    assert host_isa.host_target_cpu() == "host" and host_isa.cap_note() == ""
    assert host_isa.is_this_cpu("host") and not host_isa.is_this_cpu("x86-64-v3")


def test_the_avx2_cap_drops_every_wider_extension_and_names_the_x86_64_v3_level(monkeypatch):
    monkeypatch.setenv(host_isa.HOST_ISA_ENV, "AVX2")
    capped = host_isa.capped_flags(ZEN4_FLAGS)
    assert capped == {"sse2", "avx", "avx2", "fma", "f16c", "bmi1", "bmi2", "movbe", "aes"}
    assert host_isa.host_target_cpu() == "x86-64-v3"
    assert host_isa.is_this_cpu("x86-64-v3") and host_isa.is_this_cpu("host")
    assert "capped at avx2" in host_isa.cap_note()


def test_a_cap_this_cpu_cannot_run_or_an_unknown_level_is_one_line(monkeypatch):
    monkeypatch.setenv(host_isa.HOST_ISA_ENV, "avx2")
    with pytest.raises(InputError, match=r"cannot run x86-64-v3 code \(it lacks avx2, fma"):
        host_isa.capped_flags({"sse2", "avx", "f16c", "bmi1", "bmi2", "movbe"})
    monkeypatch.setenv(host_isa.HOST_ISA_ENV, "sse4")
    with pytest.raises(InputError, match="expected one of avx2"):
        host_isa.host_isa_cap()


def test_a_recipe_of_a_capped_host_still_says_when_it_meets_another_machine():
    from iree_dsa_tuner.recipe import Recipe

    tuned = {"cpu": "AMD EPYC", "vector_isa": "avx2"}
    recipe = Recipe("m.mlir", "0" * 64, "x86-64-v3", tuned_on=tuned)
    assert recipe.machine_note(cpu="AMD EPYC", vector_isa="avx2") == ""
    assert "(avx2), this machine is 'AMD EPYC' (avx512f)" in recipe.machine_note(cpu="AMD EPYC", vector_isa="avx512f")
    assert Recipe("m.mlir", "0" * 64, "haswell", tuned_on=tuned).machine_note(cpu="x") == ""  # a pinned CPU


def test_a_fake_cpuinfo_file_is_never_capped(tmp_path, monkeypatch):
    """Only this machine's readings are capped: a cpuinfo file read for another CPU is what it says."""
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("model name\t: Other\nflags\t\t: sse2 avx512f\n")
    monkeypatch.setenv(host_isa.HOST_ISA_ENV, "avx2")
    assert host_isa_flags(cpuinfo) == "avx512f sse2"


def _capped(code: str, value: str = "avx2") -> subprocess.CompletedProcess:
    env = {**os.environ, host_isa.HOST_ISA_ENV: value}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)


def _cpu_runs_avx2() -> bool:
    try:
        return {"avx2", "fma"} <= set(host_isa_flags().split())  # capped or not, AVX2 and FMA stay
    except InputError:  # the suite itself runs under a cap this CPU cannot run
        return False


needs_avx2 = pytest.mark.skipif(not _cpu_runs_avx2(), reason="the AVX2 cap needs a CPU that runs AVX2 code")


@needs_avx2
def test_under_the_cap_the_host_target_reads_avx2_and_its_code_runs(tmp_path):
    """A whole process under the cap: the host's description, the flags every host build takes, the
    ISA a recipe records, and real iree-compile code at 32-byte vectors that runs here."""
    model = tmp_path / "mm.mlir"
    model.write_text(
        "func.func @mm(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>) -> tensor<8x8xf32> {\n"
        "  %z = arith.constant 0.0 : f32\n  %e = tensor.empty() : tensor<8x8xf32>\n"
        "  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>\n"
        "  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x8xf32>) outs(%f : tensor<8x8xf32>)"
        " -> tensor<8x8xf32>\n  return %r : tensor<8x8xf32>\n}\n")
    code = f"""
import json, numpy as np
from iree_dsa_tuner.targets import get_target
from iree_dsa_tuner.core.fingerprint import host_vector_isa
from iree_dsa_tuner.flags import HOST_FLAGS
from iree_dsa_tuner.compiler import compile_to_vmfb
import iree.runtime as rt
t = get_target("host"); d = t.describe()
compile_to_vmfb({str(model)!r}, {str(tmp_path / "mm.vmfb")!r}, target_flags=t.compile_flags)
vmfb = {str(tmp_path / "mm.vmfb")!r}
config = rt.Config("local-sync")
ctx = rt.SystemContext(config=config)
ctx.add_vm_module(rt.VmModule.copy_buffer(config.vm_instance, open(vmfb, "rb").read()))
a = np.arange(128, dtype=np.float32).reshape(8, 16) / 7; b = np.ones((16, 8), np.float32)
out = np.asarray(ctx.modules.module.mm(a, b))
print(json.dumps({{"flags": list(t.compile_flags), "host_flags": list(HOST_FLAGS), "bytes": d.cpu.vector_register_bytes,
                  "registers": d.cpu.vector_registers, "isa": host_vector_isa(), "source": d.source,
                  "right": bool(np.allclose(out, a @ b, rtol=1e-5))}}))
"""
    done = _capped(code)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert "--iree-llvmcpu-target-cpu=x86-64-v3" in seen["flags"] and "--iree-llvmcpu-target-cpu=x86-64-v3" in seen["host_flags"]
    assert (seen["bytes"], seen["registers"], seen["isa"]) == (32, 16, "avx2")
    assert "capped at avx2" in seen["source"] and seen["right"]


def test_a_bad_cap_is_one_line_from_the_cli():
    env = {**os.environ, host_isa.HOST_ISA_ENV: "sse4"}
    done = subprocess.run([sys.executable, "-m", "iree_dsa_tuner.cli", "targets"], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip() == ("iree-dsa-tune: error: $IREE_DSA_HOST_ISA='sse4': expected one of avx2 "
                                   "(or unset it to use this CPU's widest ISA)")
