"""Gemma-specific layout the generic loop does not know: gemma-3n and Gemma 4 (their text models).

Two hooks per family, registered in :data:`scorer.architecture.assemble.FAMILY_HOOKS`:

* ``per_layer(r, n, kinds)`` runs before the layer loop and returns the per-layer attention
  overrides the attention reader applies (``ctx.extra["per_layer"]``, see
  :func:`scorer.architecture.kinds.attention._overrides`): ``kv_shared`` for the last
  ``num_kv_shared_layers`` layers, and for Gemma 4 the global layers' own ``head_dim`` / KV heads
  and ``k_eq_v``;
* ``finish(r, layers, d)`` runs after it and returns ``(layers, model_extra_params)``: the
  modules outside the mixer/FFN specs (``LayerSpec.extra_params``, ``ModelArch.extra_params``),
  and for Gemma 4 the FFN of each layer (double-wide MLPs, the MoE block beside the dense MLP).

Parameter layouts (transformers 5.x ``modeling_gemma3n.py`` / ``modeling_gemma4.py``):

* ``Gemma3nTextDecoderLayer``: attention with ``q_norm``/``k_norm`` (``v_norm`` has no weight;
  KV-shared layers have no ``k_proj``/``v_proj``/``k_norm``), gated MLP of the layer's own
  ``intermediate_size[i]``, four norms; ``Gemma3nTextAltUp`` (``correct_output_scale`` h,
  ``correction_coefs`` n x n, ``prediction_coefs`` n x n², ``modality_router`` h x n, ``router_norm``
  h; n = ``altup_num_inputs``); ``Gemma3nTextLaurelBlock`` (h x rank, rank x h, a norm);
  ``per_layer_input_gate`` (h x p), ``per_layer_projection`` (p x h), ``post_per_layer_input_norm``.
  ``Gemma3nTextModel`` adds ``embed_tokens_per_layer`` (``vocab_size_per_layer_input`` x L·p),
  ``per_layer_model_projection`` (h x L·p), ``per_layer_projection_norm`` (p) and n - 1
  ``altup_projections`` and ``altup_unembed_projections`` (h x h each). Activation sparsity
  (``activation_sparsity_pattern``) has no parameters.
* ``Gemma4TextDecoderLayer``: attention as above, with the layer's ``per_layer_config`` head size
  and KV heads; ``attention_k_eq_v`` drops ``v_proj`` on full-attention layers; the dense MLP is
  ``intermediate_size`` wide, twice that on KV-shared layers when ``use_double_wide_mlp``; with
  ``enable_moe_block`` every layer also has ``Gemma4TextRouter`` (``proj`` h x E, ``scale`` h,
  ``per_expert_scale`` E), ``Gemma4TextExperts`` (E x (2·moe_intermediate x h + h x moe_intermediate))
  and three more norms — the dense MLP runs beside the experts on every token, so it is the MoE's
  always-active shared MLP here; per-layer inputs as in gemma-3n when ``hidden_size_per_layer_input``
  is non-zero (``Gemma4TextModel`` has no AltUp).
"""

from __future__ import annotations

from typing import Any

from ...errors import ConfigError
from ..reader import Reader, check_int
from ..specs import AttentionSpec, DenseMLP, LayerSpec, MoEMLP
from .ffn import activation

#: per-layer attributes of a transformers ``per_layer_config`` this package applies -> override name
PER_LAYER_ATTRIBUTES = {"head_dim": "head_dim", "num_key_value_heads": "num_kv_heads"}


def _count(r: Reader, key: str, default: int = 0) -> int:
    """A non-negative integer key (0 allowed: "none")."""
    val = r.get(key)
    if val is None:
        return default
    return check_int(val, key, r.where, minimum=0)


def kv_shared_layers(r: Reader, n: int) -> set[int]:
    """The last ``num_kv_shared_layers`` layers reuse an earlier layer's keys and values
    (``kv_sharing_modes`` of ``Gemma3nTextConfig`` / ``Gemma4TextConfig``: mode ``reuse``)."""
    shared = _count(r, "num_kv_shared_layers")
    if shared > n:
        raise ConfigError(f"{r.where}: num_kv_shared_layers = {shared} exceeds the {n} layers")
    return set(range(n - shared, n))


def gemma3n_per_layer(r: Reader, n: int, kinds: list[str]) -> dict[int, dict[str, Any]]:
    return {i: {"kv_shared": True} for i in kv_shared_layers(r, n)}


def per_layer_config(r: Reader, n: int) -> dict[int, dict[str, Any]] | None:
    """Per-layer head size and KV heads from transformers' heterogeneous config (``per_layer_config``).

    With the config class: ``cfg.per_layer_config[i]`` (the class derived it, e.g. Gemma 4 from
    ``global_head_dim`` and ``num_global_key_value_heads``). Without it: the raw ``per_layer_config``
    mapping (layer index -> attribute overrides). None when an override names an attribute this
    package does not apply (the key then stays unmodelled).
    """
    cfg = r.cfg
    out: dict[int, dict[str, Any]] = {}
    if cfg is not None and getattr(cfg, "is_heterogeneous", False):
        attrs = set(getattr(cfg, "per_layer_attributes", None) or ())
        if not attrs <= set(PER_LAYER_ATTRIBUTES):
            return None
        view = cfg.per_layer_config
        for i in range(n):
            layer_cfg = view[i]
            out[i] = {PER_LAYER_ATTRIBUTES[a]: check_int(getattr(layer_cfg, a), f"per_layer_config[{i}].{a}",
                                                         r.where) for a in attrs}
        return out
    raw = r.raw.get("per_layer_config")
    if cfg is None and isinstance(raw, dict):
        for key, over in raw.items():
            try:
                i = int(key)
            except (TypeError, ValueError):
                raise ConfigError(f"{r.where}: per_layer_config key {key!r} is not a layer index") from None
            if not 0 <= i < n or not isinstance(over, dict):
                raise ConfigError(f"{r.where}: per_layer_config[{key!r}] must be an object for a layer below {n}")
            if not set(over) <= set(PER_LAYER_ATTRIBUTES):
                return None
            out[i] = {PER_LAYER_ATTRIBUTES[a]: check_int(v, f"per_layer_config[{key}].{a}", r.where)
                      for a, v in over.items()}
        return out
    return {}


def gemma4_per_layer(r: Reader, n: int, kinds: list[str]) -> dict[int, dict[str, Any]]:
    """Gemma 4: the global layers' head size / KV heads, K=V on full layers, KV-shared layers."""
    over = per_layer_config(r, n)
    if over is not None:
        # the config class turned these into per_layer_config (an explicit per_layer_config wins over them)
        r.mark("per_layer_config", "global_head_dim", "num_global_key_value_heads")
        if r.cfg is None and not r.raw.get("per_layer_config"):
            # Gemma4TextConfig.__post_init__ without the class: full layers get global_head_dim (default 512)
            # and, when attention_k_eq_v, num_global_key_value_heads
            g_head = r.raw_get("global_head_dim", 512)
            g_kv = r.raw_get("num_global_key_value_heads") if r.get("attention_k_eq_v", True) else None
            for i, t in enumerate(kinds):
                if t == "full_attention":
                    over[i] = {"head_dim": check_int(g_head, "global_head_dim", r.where)}
                    if g_kv is not None:
                        over[i]["num_kv_heads"] = check_int(g_kv, "num_global_key_value_heads", r.where)
    else:
        over = {}
    if r.get("attention_k_eq_v"):
        for i, t in enumerate(kinds):
            if t != "sliding_attention":  # Gemma4TextAttention.use_alternative_attention
                over.setdefault(i, {})["k_eq_v"] = True
    for i in kv_shared_layers(r, n):
        over.setdefault(i, {})["kv_shared"] = True
    return over


def _per_layer_inputs(r: Reader, n: int, hidden: int) -> tuple[int, dict[str, int], dict[str, int]]:
    """Per-layer input embeddings (PLE): p, each layer's extra params, the model-level params."""
    p = _count(r, "hidden_size_per_layer_input")
    if not p:
        r.mark("vocab_size_per_layer_input")  # no per-layer inputs: the table is not built
        return 0, {}, {}
    vp = r.int("vocab_size_per_layer_input")
    layer = {"mlp": 2 * hidden * p}  # per_layer_input_gate (h -> p), per_layer_projection (p -> h)
    model = {"embedding": vp * n * p,  # embed_tokens_per_layer
             "mlp": hidden * n * p,  # per_layer_model_projection
             "norms": p}  # per_layer_projection_norm
    return p, layer, model


def _add(into: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    out = dict(into)
    for k, v in more.items():
        if v:
            out[k] = out.get(k, 0) + v
    return out


def gemma3n_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]
                   ) -> tuple[list[LayerSpec], dict[str, int]]:
    h, n = d["hidden"], len(layers)
    # activation sparsity (a top-k of the gate activations) and AltUp's clipping/scaling switches: no parameters
    r.mark("activation_sparsity_pattern", "altup_active_idx", "altup_coef_clip", "altup_correct_scale")
    a = r.int("altup_num_inputs")
    rank = r.int("laurel_rank")
    p, ple_layer, ple_model = _per_layer_inputs(r, n, h)
    per_layer = _add(ple_layer, {
        "mlp": 2 * h * rank,  # laurel linear_left, linear_right
        "router": h + a * a + a * a * a + h * a,  # altup correct_output_scale, coefs, modality_router
    })
    extra_norms = 2 + (1 if p else 0)  # post_laurel_norm, altup router_norm, post_per_layer_input_norm
    out = [lay.model_copy(update={"extra_params": _add(lay.extra_params, per_layer),
                                  "num_norms": lay.num_norms + extra_norms}) for lay in layers]
    model = _add(ple_model, {"mlp": 2 * (a - 1) * h * h})  # altup_projections, altup_unembed_projections
    return out, model


def gemma4_finish(r: Reader, layers: list[LayerSpec], d: dict[str, Any]
                  ) -> tuple[list[LayerSpec], dict[str, int]]:
    h, n = d["hidden"], len(layers)
    p, ple_layer, ple_model = _per_layer_inputs(r, n, h)
    width = r.int("intermediate_size")
    double = bool(r.get("use_double_wide_mlp"))
    moe = bool(r.get("enable_moe_block"))
    act = activation(r)
    if moe:
        e = r.int("num_experts")
        k = r.int("top_k_experts")
        if k > e:
            raise ConfigError(f"{r.where}: top_k_experts = {k} exceeds the {e} experts")
        mi = r.int("expert_intermediate")  # moe_intermediate_size
    else:
        r.mark("num_experts", "top_k_experts", "moe_intermediate_size")  # no MoE block: not built
    out = []
    for lay in layers:
        shared = isinstance(lay.mixer, AttentionSpec) and lay.mixer.kv_shared
        dense = DenseMLP(intermediate=width * (2 if double and shared else 1), gated=True, activation=act)
        extra, norms = dict(ple_layer), lay.num_norms + (1 if p else 0)
        ffn: Any = dense
        if moe:
            ffn = MoEMLP(num_experts=e, top_k=k, expert_intermediate=mi, gated=True, shared=dense, activation=act)
            extra = _add(extra, {"router": h + e})  # Gemma4TextRouter.scale, per_expert_scale
            norms += 3  # post_feedforward_layernorm_1/_2, pre_feedforward_layernorm_2
        out.append(lay.model_copy(update={"ffn": ffn, "extra_params": _add(lay.extra_params, extra),
                                          "num_norms": norms}))
    return out, ple_model
