"""Write the reference task manifests and their stage models (one layer per stage, real sizes).

    python tools/gen_task_models.py [OUT_DIR]   (default: the package's examples/manifests)

Sizes are the public configurations in shared/docs/BRIEF.md. Each stage model is one
layer's GEMMs (or temporal convolutions) in f32 with its weights as arguments, the form
a torch export of the layer takes; the manifest's quantisation scheme sets what the
target computes in. Attention's score/value products are not in the stage models (the
tuner does not search attention yet); their share is stated in docs/TASK.md.
"""

from __future__ import annotations

import sys
from pathlib import Path

DEFAULT_OUT = Path(__file__).resolve().parent.parent / "python" / "iree_dsa_tuner" / "examples" / "manifests"


def gemm_layer(name: str, gemms: list[tuple[str, int, int, int]]) -> str:
    """A function computing each (label, M, N, K) GEMM from its own activation and weight."""
    args, body, results, types = [], [], [], []
    for i, (label, m, n, k) in enumerate(gemms):
        args += [f"%x{i}: tensor<{m}x{k}xf32>", f"%w{i}: tensor<{k}x{n}xf32>"]
        body += [
            f"  %e{i} = tensor.empty() : tensor<{m}x{n}xf32>",
            f"  %f{i} = linalg.fill ins(%zero : f32) outs(%e{i} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>",
            f"  // {label}",
            f"  %r{i} = linalg.matmul ins(%x{i}, %w{i} : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) "
            f"outs(%f{i} : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>",
        ]
        results.append(f"%r{i}")
        types.append(f"tensor<{m}x{n}xf32>")
    return (f"func.func @{name}({', '.join(args)}) -> ({', '.join(types)}) {{\n"
            "  %zero = arith.constant 0.0 : f32\n" + "\n".join(body) + "\n"
            f"  return {', '.join(results)} : {', '.join(types)}\n}}\n")


def transformer_layer(tokens: int, hidden: int, mlp: int, q_width: int, kv_width: int) -> list[tuple]:
    return [("q projection", tokens, q_width, hidden), ("k+v projection", tokens, 2 * kv_width, hidden),
            ("o projection", tokens, hidden, q_width), ("mlp gate", tokens, mlp, hidden),
            ("mlp up", tokens, mlp, hidden), ("mlp down", tokens, hidden, mlp)]


def vit_layer(tokens: int, hidden: int, mlp: int) -> list[tuple]:
    return [("qkv projection", tokens, 3 * hidden, hidden), ("o projection", tokens, hidden, hidden),
            ("mlp fc1", tokens, mlp, hidden), ("mlp fc2", tokens, hidden, mlp)]


def manifest(model_id: str, task: dict, quant: dict, stages: list[dict]) -> str:
    lines = ['schema = "iree-dsa-manifest/1"', "[model]", f'id = "{model_id}"', 'version = "2026.11"', "[task]"]
    lines += [f"{k} = {str(v).lower() if isinstance(v, bool) else v}" for k, v in task.items()]
    lines += ["[quant]"] + [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in quant.items()]
    for s in stages:
        lines.append("[[stage]]")
        lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v}" for k, v in s.items()]
    return "\n".join(lines) + "\n"


def models() -> dict[str, tuple[str, dict[str, str]]]:
    """manifest name -> (manifest text, {stage file: MLIR})."""
    out = {}
    # pi0: SigLIP So400m/14 vision (256 tokens at 224 px), the Gemma-2B prefix (256 image + 48 text
    # tokens; 8 heads x 256, 1 KV head), the 300M action expert (width 1024, MLP 4096) on 50 action
    # tokens for each of 10 flow-matching steps.
    stages = {
        "pi0_vision.mlir": gemm_layer("siglip_layer", vit_layer(256, 1152, 4304)),
        "pi0_prefix.mlir": gemm_layer("gemma_layer", transformer_layer(304, 2048, 16384, 2048, 256)),
        "pi0_expert.mlir": gemm_layer("expert_layer", transformer_layer(50, 1024, 4096, 2048, 256)),
    }
    out["pi0"] = (manifest("pi0", dict(chunk_size=50, n_action_steps=50, flow_steps=10, control_rate_hz=50,
                                      latency_budget_ms=100, rtc=True), dict(scheme="w4a8", block=64), [
        dict(name="vision", mlir="stages/pi0_vision.mlir", repeat=27, per="chunk"),
        dict(name="prefix", mlir="stages/pi0_prefix.mlir", repeat=18, per="chunk"),
        dict(name="action_expert", mlir="stages/pi0_expert.mlir", repeat=18, per="flow_step"),
    ]), stages)
    # OpenVLA: DINOv2 ViT-L/14 + SigLIP So400m vision (256 tokens), the Llama-2 7B prefill of the
    # prompt (256 visual + 20 text tokens), then a decode of 7 action tokens (M = 1).
    stages = {
        "openvla_dino.mlir": gemm_layer("dinov2_layer", vit_layer(256, 1024, 4096)),
        "openvla_siglip.mlir": gemm_layer("siglip_layer", vit_layer(256, 1152, 4304)),
        "openvla_prefill.mlir": gemm_layer("llama_prefill_layer", transformer_layer(276, 4096, 11008, 4096, 4096)),
        "openvla_decode.mlir": gemm_layer("llama_decode_layer", transformer_layer(1, 4096, 11008, 4096, 4096)),
    }
    out["openvla"] = (manifest("openvla", dict(chunk_size=1, n_action_steps=1, flow_steps=1, control_rate_hz=10,
                                              latency_budget_ms=100, rtc=False), dict(scheme="w4a8", block=64), [
        dict(name="dino", mlir="stages/openvla_dino.mlir", repeat=24, per="chunk"),
        dict(name="siglip", mlir="stages/openvla_siglip.mlir", repeat=27, per="chunk"),
        dict(name="prefill", mlir="stages/openvla_prefill.mlir", repeat=32, per="chunk"),
        dict(name="decode", mlir="stages/openvla_decode.mlir", repeat=32, per="token", tokens=7),
    ]), stages)
    # GR00T-N1-style: a SigLIP-class vision tower, a 12-layer 2048-wide language backbone over 300
    # tokens, then a 16-layer DiT action head (width 1536, MLP 6144) on 16 actions for 4 flow steps.
    stages = {
        "gr00t_vision.mlir": gemm_layer("vision_layer", vit_layer(256, 1152, 4304)),
        "gr00t_backbone.mlir": gemm_layer("backbone_layer", transformer_layer(300, 2048, 8192, 2048, 512)),
        "gr00t_dit.mlir": gemm_layer("dit_layer", transformer_layer(16, 1536, 6144, 1536, 1536)),
    }
    out["gr00t_dit"] = (manifest("gr00t_dit", dict(chunk_size=16, n_action_steps=16, flow_steps=4, control_rate_hz=30,
                                                  latency_budget_ms=100, rtc=True), dict(scheme="bf16"), [
        dict(name="vision", mlir="stages/gr00t_vision.mlir", repeat=27, per="chunk"),
        dict(name="backbone", mlir="stages/gr00t_backbone.mlir", repeat=12, per="chunk"),
        dict(name="dit", mlir="stages/gr00t_dit.mlir", repeat=16, per="flow_step"),
    ]), stages)
    # Diffusion Policy: a 1-D temporal conv U-Net (kernel 5, channels 256/512/1024) over a
    # 16-step horizon, two convolutions per block, 16 DDIM denoising steps. Each convolution is
    # written as its implicit GEMM (T x Cout x 5*Cin, im2col): IREE 3.13 drops a spec's config on
    # a batch-1 convolution (it re-adds the unit dimension while configuring), and the DSA runs
    # convolutions as implicit GEMMs anyway.
    convs = [(16, 256, 256), (8, 256, 512), (8, 512, 512), (4, 512, 1024), (4, 1024, 1024), (8, 1024, 512),
             (16, 512, 256)]
    stages = {
        "dp_unet.mlir": gemm_layer("unet_block", [(f"temporal conv k5 {cin}->{cout} @T={t}", t, cout, 5 * cin)
                                                  for t, cin, cout in convs]),
    }
    out["diffusion_policy"] = (manifest("diffusion_policy", dict(chunk_size=16, n_action_steps=8, flow_steps=16,
                                                                control_rate_hz=10, latency_budget_ms=100, rtc=True),
                                        dict(scheme="bf16"), [
        dict(name="unet", mlir="stages/dp_unet.mlir", repeat=2, per="flow_step"),
    ]), stages)
    return out


def write(out_dir: Path) -> list[Path]:
    (out_dir / "stages").mkdir(parents=True, exist_ok=True)
    written = []
    for name, (text, stages) in models().items():
        for file, mlir in stages.items():
            (out_dir / "stages" / file).write_text(mlir)
        path = out_dir / f"{name}.toml"
        path.write_text(text)
        written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_OUT):
        print(p)
