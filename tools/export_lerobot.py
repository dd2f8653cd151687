"""Export lerobot robot policies with iree-turbine: MLIR (torch dialect) + .irpa parameters + PyTorch's answer.

Runs in a SEPARATE environment that holds torch and lerobot (lerobot 0.6.1 needs Python >= 3.12); the
repo's tests and CI never run it. The environment used (see lit_tests/inputs/lerobot/README.md):

    /root/.pyenv/versions/3.12.1/bin/python -m venv /work/venv-lerobot
    /work/venv-lerobot/bin/pip install "torch>=2.7,<2.12" "torchvision>=0.22,<0.27"
    /work/venv-lerobot/bin/pip install lerobot==0.6.1 "transformers>=5.4,<5.6" iree-turbine==3.9.0 \
        iree-base-compiler==3.13.0 iree-base-runtime==3.13.0

    HF_HUB_OFFLINE=1 /work/venv-lerobot/bin/python tools/export_lerobot.py --out /work/lerobot-out [--only NAME ...]

Every policy is random-initialised (fixed seed) from lerobot's default config; nothing is loaded from a
model hub (no pretrained weights: ACT's and Diffusion Policy's `pretrained_backbone_weights` are set to
None, pi0's PaliGemma and Gemma expert are built layer by layer from the config lerobot builds for them).

For each model NAME it writes into --out:
    NAME.mlir   torch-dialect MLIR as iree-turbine exports it, entry function `main`, every weight a
                `util.global` of `#flow.parameter.named<"model"::"...">` (externalized: the MLIR has no weights)
    NAME.irpa   the parameters (scope "model": run with `--parameters=model=NAME.irpa`)
    NAME.npz    inputs (in0, in1, ...) and PyTorch's outputs (out0, ...) from the fixed seed
    NAME.in<i>.npy / NAME.out<i>.npy   the same arrays one per file (`iree-run-module --input=@NAME.in0.npy`)
    NAME.json   what was exported (policy, config, shapes), PyTorch's eager time (1 thread, median of
                --runs after --warmup), output statistics, versions, and the iree-run-module inputs.

Models (--list prints them):
    act                  ACT, the whole policy's action-chunk prediction (ACT.forward at inference: VAE
                         latent = 0), one camera of --act-image HxW (default 240x320, half of Aloha's 480x640)
    diffusion_encoder    Diffusion Policy's ResNet-18 observation encoder (DiffusionRgbEncoder: backbone,
                         spatial softmax, linear), on n_obs_steps=2 frames of a 3x96x96 camera (PushT's)
    diffusion_unet       Diffusion Policy's 1-D conditional UNet, ONE denoising step, default down_dims
                         (512, 1024, 2048), horizon 64, action 2, global condition of 2 obs steps
    pi0_expert_layer     pi0: one action-expert layer (gemma_300m: width 1024, MLP 4096, 8 heads, 1 KV head,
                         head_dim 256) at a denoising step: 51 suffix tokens (state + 50 actions) attending
                         to an 816-token prefix KV cache (3 cameras x 256 + 48 language tokens) + themselves
    pi0_prefix_layer     pi0: one PaliGemma language layer (gemma_2b: width 2048, MLP 16384) over the 816-token
                         prefix, returning the hidden states and the layer's K/V cache entries
    pi0_vision_layer     pi0: one SigLIP vision-tower layer (So400m: width 1152, MLP 4304, 16 heads) over
                         the 256 patches of a 224x224 camera
    pi05_expert_layer    pi0.5: one action-expert layer (gemma_300m, adaptive RMSNorm conditioned on the
                         flow-matching time, gated residuals) at a denoising step: 50 action tokens attending
                         to a 968-token prefix KV cache (3 cameras x 256 + the 200-token prompt, which holds
                         the discretized state) + themselves. pi0.5's prefix and vision layers are pi0's
                         (gemma_2b, SigLIP So400m): not exported again.

SmolVLA is not exported: lerobot's SmolVLMWithExpertModel reads the VLM's config and processor with
`AutoConfig.from_pretrained("HuggingFaceTB/SmolVLM2-500M-Video-Instruct")` (a model-hub download) even
with load_vlm_weights=False, and the expert's shape is derived from that config.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # nothing from the hub, ever
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

SEED = 20261201
SCOPE = "model"
MODELS = ("act", "diffusion_encoder", "diffusion_unet", "pi0_expert_layer", "pi0_prefix_layer",
          "pi0_vision_layer", "pi05_expert_layer")  # append only: a model's seed is SEED + its index


def _features(spec: dict[str, tuple[str, tuple[int, ...]]]):
    from lerobot.configs.types import FeatureType, PolicyFeature

    return {name: PolicyFeature(type=FeatureType[kind], shape=shape) for name, (kind, shape) in spec.items()}


def _randn(gen: torch.Generator, *shape: int) -> torch.Tensor:
    return torch.randn(*shape, generator=gen, dtype=torch.float32)


# ---- the models: each returns (module, inputs, description) ------------------------------------------


class ActForward(nn.Module):
    """ACTPolicy.predict_action_chunk without the batch dict: (state, image) -> (1, chunk, action)."""

    def __init__(self, policy):
        super().__init__()
        self.policy = policy

    def forward(self, state: torch.Tensor, image: torch.Tensor) -> torch.Tensor:
        from lerobot.utils.constants import OBS_IMAGES, OBS_STATE

        return self.policy.model({OBS_STATE: state, OBS_IMAGES: [image]})[0]


def build_act(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    from lerobot.policies.act.configuration_act import ACTConfig
    from lerobot.policies.act.modeling_act import ACTPolicy

    h, w = args.act_image
    config = ACTConfig(
        input_features=_features({"observation.state": ("STATE", (14,)),
                                  "observation.images.top": ("VISUAL", (3, h, w))}),
        output_features=_features({"action": ("ACTION", (14,))}),
        pretrained_backbone_weights=None,  # the default names torchvision's ImageNet download
        device="cpu",
    )
    policy = ACTPolicy(config).eval()
    inputs = [_randn(gen, 1, 14), torch.rand(1, 3, h, w, generator=gen)]
    desc = {"policy": "act", "part": "ACT.forward at inference (whole policy, VAE latent = 0)",
            "config": {"class": "ACTConfig", "defaults_changed": {
                "pretrained_backbone_weights": None,
                "input_features": {"observation.state": [14], "observation.images.top": [3, h, w]},
                "output_features": {"action": [14]}},
                "vision_backbone": config.vision_backbone, "dim_model": config.dim_model,
                "n_encoder_layers": config.n_encoder_layers, "n_decoder_layers": config.n_decoder_layers,
                "dim_feedforward": config.dim_feedforward, "chunk_size": config.chunk_size},
            "inputs": ["observation.state (normalised)", f"observation.images.top 1x3x{h}x{w} in [0, 1]"],
            "outputs": ["action chunk (1, 100, 14), normalised"]}
    return ActForward(policy), inputs, desc


def _diffusion_config():
    from lerobot.policies.diffusion.configuration_diffusion import DiffusionConfig

    return DiffusionConfig(
        input_features=_features({"observation.state": ("STATE", (2,)),
                                  "observation.image": ("VISUAL", (3, 96, 96))}),
        output_features=_features({"action": ("ACTION", (2,))}),
        pretrained_backbone_weights=None,
        device="cpu",
    )


_DIFFUSION_CHANGED = {"pretrained_backbone_weights": None,
                      "input_features": {"observation.state": [2], "observation.image": [3, 96, 96]},
                      "output_features": {"action": [2]}}


def build_diffusion_encoder(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    from lerobot.policies.diffusion.modeling_diffusion import DiffusionRgbEncoder

    config = _diffusion_config()
    encoder = DiffusionRgbEncoder(config).eval()
    n = config.n_obs_steps  # (batch 1) x (n_obs_steps) frames go through the encoder together
    inputs = [torch.rand(n, 3, 96, 96, generator=gen)]
    desc = {"policy": "diffusion", "part": "DiffusionRgbEncoder (ResNet-18 + spatial softmax + linear)",
            "config": {"class": "DiffusionConfig", "defaults_changed": _DIFFUSION_CHANGED,
                       "vision_backbone": config.vision_backbone, "crop_shape": config.crop_shape,
                       "use_group_norm": config.use_group_norm, "n_obs_steps": n,
                       "spatial_softmax_num_keypoints": config.spatial_softmax_num_keypoints},
            "inputs": [f"{n} frames (batch 1 x n_obs_steps) of observation.image 3x96x96 in [0, 1]"],
            "outputs": [f"image features ({n}, {encoder.feature_dim})"]}
    return encoder, inputs, desc


def build_diffusion_unet(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    from lerobot.policies.diffusion.modeling_diffusion import DiffusionConditionalUnet1d

    config = _diffusion_config()
    # DiffusionModel's global condition: (state + one 64-d feature per camera) per observation step.
    feature_dim = config.spatial_softmax_num_keypoints * 2
    global_cond_dim = (2 + feature_dim) * config.n_obs_steps
    unet = DiffusionConditionalUnet1d(config, global_cond_dim=global_cond_dim).eval()
    inputs = [_randn(gen, 1, config.horizon, 2), torch.tensor([57], dtype=torch.int64),
              _randn(gen, 1, global_cond_dim)]
    desc = {"policy": "diffusion", "part": "DiffusionConditionalUnet1d, one denoising step",
            "config": {"class": "DiffusionConfig", "defaults_changed": _DIFFUSION_CHANGED,
                       "down_dims": list(config.down_dims), "kernel_size": config.kernel_size,
                       "n_groups": config.n_groups, "diffusion_step_embed_dim": config.diffusion_step_embed_dim,
                       "horizon": config.horizon, "global_cond_dim": global_cond_dim},
            "inputs": [f"noisy action sample (1, {config.horizon}, 2)", "timestep (1,) int64 = 57",
                       f"global condition (1, {global_cond_dim})"],
            "outputs": [f"predicted noise (1, {config.horizon}, 2)"]}
    return unet, inputs, desc


# pi0: the configs PaliGemmaWithExpertModel.__init__ builds (lerobot 0.6.1, pi0/modeling_pi0.py), at the
# real widths; only the layers are instantiated (the whole model is ~3.5 B parameters).
PI0_CAMERAS = 3
PI0_IMAGE_TOKENS = 256  # 224x224 / 14x14 patches
PI0_LANG_VALID = 20  # of tokenizer_max_length (48) prompt tokens, the rest padding


def _pi0_hf_configs():
    from transformers.models.auto import CONFIG_MAPPING

    from lerobot.policies.pi0.configuration_pi0 import PI0Config
    from lerobot.policies.pi0.modeling_pi0 import get_gemma_config

    pi0 = PI0Config(device="cpu")
    vlm = get_gemma_config(pi0.paligemma_variant)
    expert = get_gemma_config(pi0.action_expert_variant)
    vlm_hf = CONFIG_MAPPING["paligemma"]()
    vlm_hf._vocab_size = 257152  # noqa: SLF001
    vlm_hf.image_token_index = 257152
    t = vlm_hf.text_config
    t.hidden_size, t.intermediate_size = vlm.width, vlm.mlp_dim
    t.num_attention_heads, t.head_dim = vlm.num_heads, vlm.head_dim
    t.num_hidden_layers, t.num_key_value_heads = vlm.depth, vlm.num_kv_heads
    t.hidden_activation, t.dtype, t.vocab_size = "gelu_pytorch_tanh", "float32", 257152
    t.use_adarms, t.adarms_cond_dim = False, None  # pi0: use_adarms=[False, False]
    v = vlm_hf.vision_config
    v.image_size, v.intermediate_size = pi0.image_resolution[0], 4304
    v.projection_dim, v.projector_hidden_act, v.dtype = 2048, "gelu_fast", "float32"
    expert_hf = CONFIG_MAPPING["gemma"](
        head_dim=expert.head_dim, hidden_size=expert.width, intermediate_size=expert.mlp_dim,
        num_attention_heads=expert.num_heads, num_hidden_layers=expert.depth,
        num_key_value_heads=expert.num_kv_heads, vocab_size=257152, hidden_activation="gelu_pytorch_tanh",
        dtype="float32", use_adarms=False, adarms_cond_dim=None)
    # lerobot sets eager attention on both language models before the prefix pass and each denoising
    # step (sample_actions, denoise_step); the vision tower keeps transformers' default (sdpa).
    t._attn_implementation = "eager"  # noqa: SLF001
    expert_hf._attn_implementation = "eager"  # noqa: SLF001
    v._attn_implementation = "sdpa"  # noqa: SLF001
    return pi0, vlm_hf, expert_hf


def _pi0_prefix_masks():
    """prefix_pad_masks / att masks as PI0Pytorch.embed_prefix makes them: 3 cameras, a padded prompt."""
    n_lang = 48
    pad = torch.tensor([True] * (PI0_CAMERAS * PI0_IMAGE_TOKENS) + [True] * PI0_LANG_VALID
                       + [False] * (n_lang - PI0_LANG_VALID))[None, :]
    att = torch.zeros_like(pad, dtype=torch.float32)  # embed_prefix: att_masks 0 for images and language
    return pad, att


class _PrefixKV:
    """Stands in for the DynamicCache lerobot's denoise_step passes (a clone of the prefix pass's cache):
    `update` appends this step's keys/values to the prefix's, exactly as DynamicCache.update does."""

    def __init__(self, keys: torch.Tensor | None = None, values: torch.Tensor | None = None):
        self.keys, self.values = keys, values
        self.new: tuple[torch.Tensor, torch.Tensor] | None = None

    def update(self, key_states, value_states, layer_idx, cache_kwargs=None):
        self.new = (key_states, value_states)
        if self.keys is None:
            return key_states, value_states
        return torch.cat([self.keys, key_states], dim=-2), torch.cat([self.values, value_states], dim=-2)


class GemmaLayerStep(nn.Module):
    """One lerobot PiGemma decoder layer with its rotary embedding, as PiGemmaModel.forward runs it."""

    def __init__(self, config, with_prefix_cache: bool, adarms: bool = False):
        super().__init__()
        from transformers.models.gemma.modeling_gemma import GemmaRotaryEmbedding

        from lerobot.policies.pi_gemma import _get_pi_gemma_decoder_layer_base

        self.layer = _get_pi_gemma_decoder_layer_base()(config, 0)
        self.rotary_emb = GemmaRotaryEmbedding(config)
        self.with_prefix_cache = with_prefix_cache
        self.adarms = adarms  # pi0.5's expert: the last input is the time conditioning (adarms_cond)

    def forward(self, hidden, attention_mask, position_ids, prefix_keys=None, prefix_values=None, adarms_cond=None):
        cache = _PrefixKV(prefix_keys, prefix_values)
        position_embeddings = self.rotary_emb(hidden, position_ids)
        extra = {"adarms_cond": adarms_cond} if self.adarms else {}
        out = self.layer(hidden, attention_mask=attention_mask, position_ids=position_ids,
                         past_key_values=cache, position_embeddings=position_embeddings, **extra)
        if self.with_prefix_cache:
            return out
        return out, cache.new[0], cache.new[1]  # the prefix pass keeps its K/V for the denoising steps


def _denoise_step_masks(prefix_pad: torch.Tensor, suffix_att: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """PI0Pytorch.denoise_step (and PI05's), verbatim: the 2-D mask, the 4-D additive one, the positions."""
    from lerobot.policies.common.vla_utils import make_att_2d_masks, prepare_attention_masks_4d

    n_suffix = suffix_att.shape[1]
    suffix_pad = torch.ones(1, n_suffix, dtype=torch.bool)
    prefix_len = prefix_pad.shape[1]
    prefix_pad_2d = prefix_pad[:, None, :].expand(1, n_suffix, prefix_len)
    full_2d = torch.cat([prefix_pad_2d, make_att_2d_masks(suffix_pad, suffix_att)], dim=2)
    position_ids = torch.sum(prefix_pad, dim=-1)[:, None] + torch.cumsum(suffix_pad, dim=1) - 1
    return prepare_attention_masks_4d(full_2d), position_ids


def build_pi0_expert_layer(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    pi0, vlm_hf, expert_hf = _pi0_hf_configs()
    module = GemmaLayerStep(expert_hf, with_prefix_cache=True).eval()
    prefix_pad, _ = _pi0_prefix_masks()
    # PI0Pytorch.embed_suffix: a state token (att 1), then chunk_size action tokens (att 1, 0, 0, ...).
    n_suffix = 1 + pi0.chunk_size
    suffix_att = torch.tensor([1.0, 1.0] + [0.0] * (pi0.chunk_size - 1))[None, :]
    mask_4d, position_ids = _denoise_step_masks(prefix_pad, suffix_att)
    prefix_len = prefix_pad.shape[1]
    kv = (1, expert_hf.num_key_value_heads, prefix_len, expert_hf.head_dim)
    inputs = [_randn(gen, 1, n_suffix, expert_hf.hidden_size), mask_4d, position_ids,
              _randn(gen, *kv), _randn(gen, *kv)]
    desc = {"policy": "pi0", "part": "one action-expert layer (PiGemma decoder layer) at a denoising step",
            "config": {"class": "PI0Config", "defaults_changed": {}, "action_expert_variant":
                       pi0.action_expert_variant, "width": expert_hf.hidden_size,
                       "mlp_dim": expert_hf.intermediate_size, "num_heads": expert_hf.num_attention_heads,
                       "num_kv_heads": expert_hf.num_key_value_heads, "head_dim": expert_hf.head_dim,
                       "attn_implementation": "eager", "dtype": pi0.dtype, "chunk_size": pi0.chunk_size,
                       "prefix_tokens": prefix_len,
                       "prefix": f"{PI0_CAMERAS} cameras x {PI0_IMAGE_TOKENS} + 48 language "
                                 f"({PI0_LANG_VALID} valid)"},
            "inputs": [f"suffix embeddings (1, {n_suffix}, {expert_hf.hidden_size})",
                       f"additive mask (1, 1, {n_suffix}, {prefix_len + n_suffix})",
                       f"position ids (1, {n_suffix}) int64",
                       f"prefix keys {kv} (after RoPE)", f"prefix values {kv}"],
            "outputs": [f"suffix hidden states (1, {n_suffix}, {expert_hf.hidden_size})"]}
    return module, inputs, desc


# pi0.5 (lerobot 0.6.1, pi05/): the expert conditions its RMSNorms on the flow-matching time (adaRMS,
# use_adarms=[False, True]) and its suffix is the action chunk alone; the state is discretized into
# the prompt, which is longer (tokenizer_max_length 200).
PI05_LANG_VALID = 64  # of the 200 prompt tokens: the task text and the state, the rest padding


def build_pi05_expert_layer(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    from transformers.models.auto import CONFIG_MAPPING

    from lerobot.policies.pi05.configuration_pi05 import PI05Config
    from lerobot.policies.pi05.modeling_pi05 import get_gemma_config

    pi05 = PI05Config(device="cpu")
    expert = get_gemma_config(pi05.action_expert_variant)
    expert_hf = CONFIG_MAPPING["gemma"](
        head_dim=expert.head_dim, hidden_size=expert.width, intermediate_size=expert.mlp_dim,
        num_attention_heads=expert.num_heads, num_hidden_layers=expert.depth,
        num_key_value_heads=expert.num_kv_heads, vocab_size=257152, hidden_activation="gelu_pytorch_tanh",
        dtype="float32", use_adarms=True, adarms_cond_dim=expert.width)
    expert_hf._attn_implementation = "eager"  # noqa: SLF001  (PI05Pytorch.denoise_step sets it)
    module = GemmaLayerStep(expert_hf, with_prefix_cache=True, adarms=True).eval()
    n_lang = pi05.tokenizer_max_length
    prefix_pad = torch.tensor([True] * (PI0_CAMERAS * PI0_IMAGE_TOKENS) + [True] * PI05_LANG_VALID
                              + [False] * (n_lang - PI05_LANG_VALID))[None, :]
    # PI05Pytorch.embed_suffix: chunk_size action tokens (att 1, 0, 0, ...), no state token.
    n_suffix = pi05.chunk_size
    suffix_att = torch.tensor([1.0] + [0.0] * (n_suffix - 1))[None, :]
    mask_4d, position_ids = _denoise_step_masks(prefix_pad, suffix_att)
    prefix_len = prefix_pad.shape[1]
    kv = (1, expert_hf.num_key_value_heads, prefix_len, expert_hf.head_dim)
    inputs = [_randn(gen, 1, n_suffix, expert_hf.hidden_size), mask_4d, position_ids,
              _randn(gen, *kv), _randn(gen, *kv), _randn(gen, 1, expert_hf.hidden_size)]
    desc = {"policy": "pi05", "part": "one action-expert layer (PiGemma decoder layer with adaRMS) at a denoising step",
            "config": {"class": "PI05Config", "defaults_changed": {}, "action_expert_variant":
                       pi05.action_expert_variant, "width": expert_hf.hidden_size,
                       "mlp_dim": expert_hf.intermediate_size, "num_heads": expert_hf.num_attention_heads,
                       "num_kv_heads": expert_hf.num_key_value_heads, "head_dim": expert_hf.head_dim,
                       "use_adarms": True, "adarms_cond_dim": expert.width,
                       "attn_implementation": "eager", "dtype": pi05.dtype, "chunk_size": pi05.chunk_size,
                       "prefix_tokens": prefix_len,
                       "prefix": f"{PI0_CAMERAS} cameras x {PI0_IMAGE_TOKENS} + {n_lang} prompt tokens "
                                 f"({PI05_LANG_VALID} valid)"},
            "inputs": [f"suffix embeddings (1, {n_suffix}, {expert_hf.hidden_size})",
                       f"additive mask (1, 1, {n_suffix}, {prefix_len + n_suffix})",
                       f"position ids (1, {n_suffix}) int64",
                       f"prefix keys {kv} (after RoPE)", f"prefix values {kv}",
                       f"time conditioning (1, {expert_hf.hidden_size}) (adarms_cond: the time MLP's output)"],
            "outputs": [f"suffix hidden states (1, {n_suffix}, {expert_hf.hidden_size})"]}
    return module, inputs, desc


def build_pi0_prefix_layer(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    from lerobot.policies.common.vla_utils import make_att_2d_masks, prepare_attention_masks_4d

    pi0, vlm_hf, _ = _pi0_hf_configs()
    t = vlm_hf.text_config
    module = GemmaLayerStep(t, with_prefix_cache=False).eval()
    prefix_pad, prefix_att = _pi0_prefix_masks()
    # PI0Pytorch.sample_actions, verbatim.
    mask_4d = prepare_attention_masks_4d(make_att_2d_masks(prefix_pad, prefix_att))
    position_ids = torch.cumsum(prefix_pad, dim=1) - 1
    n = prefix_pad.shape[1]
    inputs = [_randn(gen, 1, n, t.hidden_size), mask_4d, position_ids]
    kv = (1, t.num_key_value_heads, n, t.head_dim)
    desc = {"policy": "pi0", "part": "one PaliGemma language layer (PiGemma decoder layer), the prefix pass",
            "config": {"class": "PI0Config", "defaults_changed": {}, "paligemma_variant": pi0.paligemma_variant,
                       "width": t.hidden_size, "mlp_dim": t.intermediate_size,
                       "num_heads": t.num_attention_heads, "num_kv_heads": t.num_key_value_heads,
                       "head_dim": t.head_dim, "attn_implementation": "eager", "dtype": pi0.dtype,
                       "prefix_tokens": n},
            "inputs": [f"prefix embeddings (1, {n}, {t.hidden_size})", f"additive mask (1, 1, {n}, {n})",
                       f"position ids (1, {n}) int64"],
            "outputs": [f"hidden states (1, {n}, {t.hidden_size})", f"keys {kv} (after RoPE)",
                        f"values {kv}"]}
    return module, inputs, desc


class SiglipLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        from transformers.models.siglip.modeling_siglip import SiglipEncoderLayer

        self.layer = SiglipEncoderLayer(config)

    def forward(self, hidden):
        return self.layer(hidden, attention_mask=None)


def build_pi0_vision_layer(gen: torch.Generator, args) -> tuple[nn.Module, list[torch.Tensor], dict]:
    pi0, vlm_hf, _ = _pi0_hf_configs()
    v = vlm_hf.vision_config
    module = SiglipLayer(v).eval()
    n = (v.image_size // v.patch_size) ** 2
    inputs = [_randn(gen, 1, n, v.hidden_size)]
    desc = {"policy": "pi0", "part": "one SigLIP vision-tower layer (SiglipEncoderLayer)",
            "config": {"class": "PI0Config", "defaults_changed": {}, "image_resolution": list(pi0.image_resolution),
                       "width": v.hidden_size, "mlp_dim": v.intermediate_size,
                       "num_heads": v.num_attention_heads, "patch_size": v.patch_size,
                       "attn_implementation": "sdpa"},
            "inputs": [f"patch embeddings (1, {n}, {v.hidden_size})"],
            "outputs": [f"hidden states (1, {n}, {v.hidden_size})"]}
    return module, inputs, desc


BUILDERS = {
    "act": build_act,
    "diffusion_encoder": build_diffusion_encoder,
    "diffusion_unet": build_diffusion_unet,
    "pi0_expert_layer": build_pi0_expert_layer,
    "pi0_prefix_layer": build_pi0_prefix_layer,
    "pi0_vision_layer": build_pi0_vision_layer,
    "pi05_expert_layer": build_pi05_expert_layer,
}


# ---- export, reference, timing ---------------------------------------------------------------------------


def _as_tuple(out) -> tuple[torch.Tensor, ...]:
    return tuple(out) if isinstance(out, (tuple, list)) else (out,)


def _stats(a: np.ndarray) -> dict:
    f = a.astype(np.float64)
    return {"shape": list(a.shape), "dtype": str(a.dtype), "mean": float(f.mean()), "std": float(f.std()),
            "min": float(f.min()), "max": float(f.max()), "abs_max": float(np.abs(f).max()),
            "first": [float(x) for x in f.reshape(-1)[:8]]}


def _iree_type(a: np.ndarray) -> str:
    names = {"float32": "f32", "int64": "i64", "int32": "i32", "bool": "i1"}
    return "x".join(str(d) for d in a.shape) + "x" + names[str(a.dtype)]


def eager_ms(module: nn.Module, inputs: list[torch.Tensor], warmup: int, runs: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (process) milliseconds of each timed call. On a shared machine the CPU time is
    the one a neighbour's load inflates least (one compute thread: CPU time ~ the time it ran)."""
    wall, cpu = [], []
    with torch.no_grad():
        for i in range(warmup + runs):
            t0, c0 = time.perf_counter(), time.process_time()
            module(*inputs)
            dt, dc = (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3
            if i >= warmup:
                wall.append(dt)
                cpu.append(dc)
    return wall, cpu


def _timing(times: list[float], cpu: list[float], warmup: int) -> dict:
    return {"threads": torch.get_num_threads(), "warmup": warmup, "runs": len(times),
            "median_ms": statistics.median(times), "min_ms": min(times), "cpu_median_ms": statistics.median(cpu),
            "times_ms": [round(t, 3) for t in times], "cpu_times_ms": [round(t, 3) for t in cpu]}


def _call_ms(fn, inputs: list[torch.Tensor]) -> tuple[float, float]:
    t0, c0 = time.perf_counter(), time.process_time()
    fn(*inputs)
    return (time.perf_counter() - t0) * 1e3, (time.process_time() - c0) * 1e3


def _max_rel_err(got, want) -> float:
    errs = []
    for g, w in zip(_as_tuple(got), _as_tuple(want), strict=True):
        scale = float(w.abs().max()) or 1.0
        errs.append(float((g.double() - w.double()).abs().max()) / scale)
    return max(errs)


# torch.compile's variants (inductor on the CPU): the default, and with inductor's freezing (weights folded
# as constants, convolution and linear weights prepacked for oneDNN), the setting PyTorch's CPU inference
# tutorials pair with it.
COMPILE_MODES = {"default": {}, "freezing": {"freezing": True}}


def time_one(name: str, args) -> dict:
    """PyTorch eager on the seeded model; with --compile MODE..., torch.compile (inductor, CPU) of the same
    module in each mode too, every call interleaved with eager's one by one (a neighbour's load hits all
    alike). A mode's first call compiles it (compile_s, not timed); its output is checked against eager's
    (max_rel_err: the largest error over the output's largest magnitude)."""
    seed = SEED + MODELS.index(name)
    torch.manual_seed(seed)
    module, inputs, _ = BUILDERS[name](torch.Generator().manual_seed(seed), args)
    module.eval()
    info = {"name": name, "cpu_capability": torch.backends.cpu.get_cpu_capability()}
    if not args.compile:
        times, cpu = eager_ms(module, inputs, args.warmup, args.runs)
        return {**info, **_timing(times, cpu, args.warmup)}
    fns, extra = {"eager": module}, {}
    with torch.no_grad():
        want = module(*inputs)
        for mode in args.compile:
            import torch._inductor.config as inductor_config

            # Set globally: torch.compile(options=...) did not give freezing's prepacked build (torch 2.11).
            for key, value in COMPILE_MODES[mode].items():
                setattr(inductor_config, key, value)
            fns[mode] = torch.compile(module)
            t0 = time.perf_counter()
            got = fns[mode](*inputs)
            extra[mode] = {"compile_s": round(time.perf_counter() - t0, 2), "max_rel_err": _max_rel_err(got, want),
                           "backend": "inductor", "options": COMPILE_MODES[mode]}
        runs = {mode: ([], []) for mode in fns}
        for i in range(args.warmup + args.runs):
            for mode, fn in fns.items():
                wall, cpu = _call_ms(fn, inputs)
                if i >= args.warmup:
                    runs[mode][0].append(wall)
                    runs[mode][1].append(cpu)
    return {**info, **_timing(*runs["eager"], args.warmup),
            "compile": {mode: {**_timing(*runs[mode], args.warmup), **extra[mode]} for mode in args.compile}}


def export_one(name: str, out_dir: Path, args) -> dict:
    import iree.turbine.aot as aot

    import lerobot

    seed = SEED + MODELS.index(name)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    t0 = time.time()
    module, inputs, desc = BUILDERS[name](gen, args)
    module.eval()
    n_params = sum(p.numel() for p in module.parameters())
    with torch.no_grad():
        outputs = [o.detach().clone() for o in _as_tuple(module(*inputs))]
    print(f"[{name}] built in {time.time() - t0:.1f} s: {n_params / 1e6:.2f} M parameters; outputs "
          + ", ".join(str(tuple(o.shape)) for o in outputs), flush=True)

    # PyTorch eager time: one thread, as the IREE side is timed.
    times, cpu = eager_ms(module, inputs, args.warmup, args.runs)
    print(f"[{name}] PyTorch eager, 1 thread: median {statistics.median(times):.2f} ms (CPU time "
          f"{statistics.median(cpu):.2f} ms) over {len(times)} runs", flush=True)

    # iree-turbine: weights as parameters of scope "model", then export, then the .irpa.
    t0 = time.time()
    aot.externalize_module_parameters(module, external_scope=SCOPE)
    exported = aot.export(module, args=tuple(inputs), strict_export=not args.non_strict)
    mlir_path = out_dir / f"{name}.mlir"
    mlir_path.write_text(str(exported.mlir_module))
    irpa_path = out_dir / f"{name}.irpa"
    aot.save_module_parameters(str(irpa_path), module)
    print(f"[{name}] exported in {time.time() - t0:.1f} s: {mlir_path} ({mlir_path.stat().st_size / 1e3:.1f} kB), "
          f"{irpa_path} ({irpa_path.stat().st_size / 1e6:.1f} MB)", flush=True)

    arrays = {}
    for i, x in enumerate(inputs):
        arrays[f"in{i}"] = x.numpy()
    for i, y in enumerate(outputs):
        arrays[f"out{i}"] = y.numpy()
    np.savez_compressed(out_dir / f"{name}.npz", **arrays)
    for key, a in arrays.items():
        np.save(out_dir / f"{name}.{key}.npy", a)
    npz_bytes = (out_dir / f"{name}.npz").stat().st_size

    record = {
        "name": name,
        **desc,
        "seed": seed,
        "function": "main",
        "mlir": mlir_path.name,
        "irpa": irpa_path.name,
        "parameter_scope": SCOPE,
        "parameters": n_params,
        "irpa_bytes": irpa_path.stat().st_size,
        "mlir_bytes": mlir_path.stat().st_size,
        "npz": f"{name}.npz",
        "npz_bytes": npz_bytes,
        "iree_inputs": [{"file": f"{name}.in{i}.npy", "type": _iree_type(x.numpy())} for i, x in enumerate(inputs)],
        "iree_outputs": [{"file": f"{name}.out{i}.npy", "type": _iree_type(y.numpy())} for i, y in enumerate(outputs)],
        "output_stats": [_stats(y.numpy()) for y in outputs],
        "pytorch_eager": _timing(times, cpu, args.warmup),
        "versions": {"lerobot": lerobot.__version__, "torch": torch.__version__,
                     "iree_turbine": _version("iree-turbine"), "transformers": _version("transformers"),
                     "torchvision": _version("torchvision"), "python": platform.python_version()},
        "command": "HF_HUB_OFFLINE=1 python tools/export_lerobot.py " + " ".join(sys.argv[1:]),
    }
    (out_dir / f"{name}.json").write_text(json.dumps(record, indent=2) + "\n")
    return record


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "-"


def _hw(text: str) -> tuple[int, int]:
    h, _, w = text.lower().partition("x")
    return int(h), int(w)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("/work/lerobot-out"))
    ap.add_argument("--only", nargs="*", choices=MODELS, help="these models only (default: all)")
    ap.add_argument("--list", action="store_true", help="print the model names and exit")
    ap.add_argument("--act-image", type=_hw, default=(240, 320), metavar="HxW",
                    help="ACT's camera size (default 240x320; Aloha's cameras are 480x640)")
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--runs", type=int, default=15, help="timed PyTorch eager runs (median reported)")
    ap.add_argument("--non-strict", action="store_true", help="torch.export strict=False")
    ap.add_argument("--time-only", action="store_true",
                    help="build the models (same seeds) and time PyTorch eager only: one JSON line per model on "
                         "stdout, nothing written (bench/lerobot_vs_pytorch.py --torch-python runs this between "
                         "IREE's rounds)")
    ap.add_argument("--compile", nargs=1, choices=sorted(COMPILE_MODES), metavar="MODE",
                    help="with --time-only: time torch.compile (inductor) too, in MODE (default: inductor's defaults; "
                         "freezing: inductor's freezing on), its calls interleaved with eager's (one MODE a process: "
                         "inductor's settings are global)")
    ap.add_argument("--threads", type=int, default=1,
                    help="torch.set_num_threads (default 1; exports always time one thread)")
    args = ap.parse_args(argv)
    if args.list:
        print("\n".join(MODELS))
        return 0
    if args.threads != 1 and not args.time_only:
        ap.error("--threads is for --time-only (an export records PyTorch's time at one thread)")
    if args.compile and not args.time_only:
        ap.error("--compile is for --time-only")
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    if args.time_only:
        for name in args.only or MODELS:
            print(json.dumps(time_one(name, args)), flush=True)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    failed = []
    for name in args.only or MODELS:
        try:
            export_one(name, args.out, args)
        except Exception as e:  # report, and go on with the next model
            import traceback

            traceback.print_exc()
            failed.append(f"{name}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
    for line in failed:
        print("FAILED " + line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
