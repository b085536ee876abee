"""Feed-forward kinds: dense (gated or not), MoE with shared experts, latent MoE."""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import DenseMLP, MoEMLP


def activation(r: Reader) -> str:
    for key in ("hidden_act", "activation_function", "hidden_activation", "mlp_hidden_act", "activation",
                "dense_act_fn"):
        val = r.get(key)
        if isinstance(val, str):
            return val
    return "silu"


def mlp_width(r: Reader, flags: dict[str, Any], intermediate: int) -> int:
    """The width the family's MLP really instantiates from the configured ``intermediate``.

    ``lfm2``: transformers ``Lfm2MLP`` takes 2/3 of it when ``block_auto_adjust_ff_dim``, scales by
    ``block_ffn_dim_multiplier`` and rounds up to ``block_multiple_of``; ``half``: the authors' QWenMLP builds
    w1 and w2 of ``intermediate_size // 2`` each (Qwen first generation).
    """
    rule = flags.get("mlp_width_rule")
    if rule == "half":  # the config gives the two gated matrices' width together (QWenMLP: intermediate_size // 2)
        return intermediate // 2
    if rule == "lfm2" and r.get("block_auto_adjust_ff_dim"):
        width = int(2 * intermediate / 3)
        mult = r.get("block_ffn_dim_multiplier")
        if mult is not None:
            step = r.int("block_multiple_of", default=256)
            width = int(mult * width)
            width = step * ((width + step - 1) // step)
        return width
    return intermediate


#: activations whose MLPs are up / down without a gate in every transformers family that names them under
#: hidden_act / activation_function (GPT-2, GPT-J, GPT-NeoX, Falcon, OPT, BLOOM, MPT, BERT, Phi: gelu, gelu_new, relu;
#: Nemotron, Persimmon, Arcee: relu2; Apertus: xielu; CLIP-style: quick_gelu); SiLU / SwiGLU / GeGLU MLPs are gated
NON_GATED_ACTIVATIONS = frozenset({"gelu", "gelu_new", "gelu_fast", "gelu_python", "gelu_accurate", "quick_gelu",
                                   "relu", "relu2", "relu_squared", "squared_relu", "xielu", "leaky_relu"})


def mlp_gated(r: Reader, flags: dict[str, Any]) -> bool:
    """Whether the family's MLP has a gate projection. Family flag ``mlp_gated``: True / False; ``"t5"`` reads
    ``feed_forward_proj`` ("gated-gelu"); ``"by_activation"`` (a layout guessed from keys: a model type without a
    reader) reads ``feed_forward_proj`` where the config has one, else is gated unless the activation is one of
    :data:`NON_GATED_ACTIVATIONS`."""
    gated = flags["mlp_gated"]
    if gated == "t5":
        return str(r.get("feed_forward_proj") or "relu").startswith("gated")
    if gated == "by_activation":
        proj = r.get("feed_forward_proj")  # T5-style configs name the gating themselves ("gated-gelu")
        if isinstance(proj, str):
            return proj.startswith("gated")
        return activation(r).strip().lower() not in NON_GATED_ACTIVATIONS
    return gated is True


def dense_mlp(r: Reader, flags: dict[str, Any], intermediate: int) -> DenseMLP:
    gated = mlp_gated(r, flags)
    return DenseMLP(intermediate=mlp_width(r, flags, intermediate), gated=bool(gated), bias=r.flag(flags["mlp_bias"]),
                    activation=activation(r))


def moe_mlp(r: Reader, flags: dict[str, Any], hidden: int, num_experts: int, dense_intermediate: int) -> MoEMLP:
    """Routed experts (+ shared experts, router); a ``moe_latent_size`` puts the experts in a latent
    space with a down projection before and an up projection after (NemotronH ``NemotronHMoE``).

    Family flags: ``shared_expert_bias`` (a key or constant: the shared MLP's linears have biases, e.g.
    DeepSeek-V2's ``mlp_bias``), ``shared_expert_rule`` (``"one_expert"``: one shared MLP of the expert width,
    DeepSeek-V4)."""
    raw_k = r.get("top_k")
    if isinstance(raw_k, (list, tuple)) and raw_k:
        # a per-layer routing width (HunYuanMoEV1Gate: moe_topk[layer_idx]): one value for every layer is that value
        ks = {check_int(v, f"{r.key_name('top_k')}[{i}]", r.where) for i, v in enumerate(raw_k)}
        if len(ks) != 1:
            raise ConfigError(f"{r.where}: {r.key_name('top_k')} varies by layer ({sorted(ks)}): per-layer routing "
                              "widths that differ are not supported")
        top_k = ks.pop()
    else:
        top_k = r.int("top_k", required=False)
    if top_k is None:  # no routing width given (DeepseekV2Config's default None): every expert counted active
        top_k = num_experts
    if top_k > num_experts:
        raise ConfigError(f"{r.where}: {r.key_name('top_k')} = {top_k} exceeds the {num_experts} experts")
    raw_ei = r.get("expert_intermediate")
    if flags.get("expert_groups") and isinstance(raw_ei, (list, tuple)) and raw_ei:
        # flag expert_groups: a list of expert widths is one group of num_experts experts per modality, each with
        # its own router (Ernie 4.5 VL text / vision experts); counted as experts of the summed width (the
        # groups' parameters, active at top_k / num_experts like the oracle), the shared experts of the first width
        widths = [check_int(v, f"{r.key_name('expert_intermediate')}[{i}]", r.where) for i, v in enumerate(raw_ei)]
        expert_i, group_i = sum(widths), widths[0]
    else:
        expert_i = r.int("expert_intermediate", required=False) or r.int("intermediate_size")
        group_i = expert_i
    shared = None
    shared_i = r.int("shared_intermediate", required=False, minimum=0)
    n_shared = r.int("num_shared_experts", required=False, minimum=0)
    gated = mlp_gated(r, flags)
    act = activation(r)
    shared_bias = r.flag(flags.get("shared_expert_bias", False))
    if flags.get("shared_expert_rule") == "one_expert":
        # DeepSeek-V4: one DeepseekV4MLP of moe_intermediate_size whatever n_shared_experts says
        shared = DenseMLP(intermediate=expert_i, gated=gated, bias=shared_bias, activation=act)
    elif shared_i:
        shared = DenseMLP(intermediate=shared_i, gated=gated, bias=shared_bias, activation=act)
    elif n_shared:
        shared = DenseMLP(intermediate=n_shared * group_i, gated=gated, bias=shared_bias, activation=act)
    elif flags.get("shared_experts_as_intermediate"):
        shared = DenseMLP(intermediate=r.int("intermediate_size"), gated=gated, activation=act)
    latent = r.int("moe_latent_size", required=False)
    return MoEMLP(num_experts=num_experts, top_k=top_k, expert_intermediate=expert_i, gated=gated,
                  expert_bias=bool(flags["expert_bias"]), router_bias=bool(flags["router_bias"]), shared=shared,
                  shared_gate=bool(flags["shared_expert_gate"]) and shared is not None, activation=act,
                  latent_size=latent, latent_bias=bool(latent) and r.flag(flags["mlp_bias"]))
