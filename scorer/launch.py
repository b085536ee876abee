"""The engine command that realizes a prediction: ``vllm serve`` or ``python -m sglang.launch_server``.

The flags are the ones the prediction assumed — parallel sizes (attention DP and expert parallelism included),
quantization and KV-cache dtype, the context (``max-model-len`` / ``context-length``), the batch
(``max-num-seqs`` / ``max-running-requests``), vLLM's ``max-num-batched-tokens`` and the memory share — spelled
as each engine's CLI spells them for the version in ``data/engine_flags.json`` (read from the engine's wheel by
``scripts/engine_flags.py``). Only flags in that table are emitted. TensorRT-LLM gets no command: its flags
could not be read from its source here.
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from pydantic import BaseModel, Field

from .resources import load_json

#: weight precisions an engine quantizes a BF16 checkpoint to at load time: ``--quantization fp8`` on an
#: unquantized checkpoint (vLLM 0.33.0 vllm/model_executor/layers/quantization/fp8.py and SGLang 0.5.23
#: sglang/srt/layers/quantization/fp8.py: ``Fp8Config(is_checkpoint_fp8_serialized=False)``, dynamic FP8); other
#: formats need a checkpoint already quantized to them
ONLINE = {"fp8": "fp8"}
#: model names put in a command as they are (Hub repo ids, plain paths); anything else becomes a placeholder
SAFE_MODEL = re.compile(r"(?:/|~/|(?:\.\.?/)+)?[A-Za-z0-9][A-Za-z0-9._/~+-]{0,300}")
PLACEHOLDER = "MODEL_REPO_OR_FOLDER"
#: --kv-cache-dtype values per KV dtype: vLLM 0.33.0 vllm/config/cache.py CacheDType (auto, float16, bfloat16, fp8,
#: fp8_e4m3, ..., nvfp4, nvfp4_ds_mla; no float32); SGLang 0.5.23 sglang/srt/arg_groups/fields/model.py
#: kv_cache_dtype choices (auto, fp8_e5m2, fp8_e4m3, mxfp8, bf16, bfloat16, nvfp4, fp4_mx_block16; no float16, no
#: float32). A KV dtype absent here has no flag in that engine; :func:`kv_flag` adds where the engine refuses a
#: flag it has (NVFP4 on a model or GPU its kernels do not take)
KV_FLAG = {"vllm": {"fp8": "fp8", "bf16": "bfloat16", "fp16": "float16", "nvfp4": "nvfp4"},
           "sglang": {"fp8": "fp8_e4m3", "bf16": "bfloat16", "nvfp4": "nvfp4"}}
KV_ENGINE_VERSION = {"vllm": "0.33.0", "sglang": "0.5.23"}
#: the context length SGLang 0.5.23 derives for a config that names none of its keys (sglang/srt/utils/
#: hf_transformers/common.py get_context_length: ``return 2048``)
SGLANG_DEFAULT_CONTEXT = 2048
#: the keys SGLang 0.5.23 derives the context length from, first present wins (utils/hf_transformers/common.py
#: CONTEXT_LENGTH_KEYS); read from the raw config, whether or not deploysheet's reader takes the key for the family
SGLANG_CONTEXT_KEYS = ("max_sequence_length", "seq_length", "max_seq_len", "model_max_length",
                       "max_position_embeddings")


def sglang_derived_context(config: dict | None, fallback: int | None) -> int:
    """The context length SGLang 0.5.23 derives for a config (utils/hf_transformers/common.py get_context_length:
    the first of :data:`SGLANG_CONTEXT_KEYS` in the text config, times the rope scaling factor unless the rope
    dict names original_max_position_embeddings or is llama3; none: 2048). The smaller of the value with and
    without the factor is returned (transformers may rewrite the rope dict): a longer --context-length then gets
    SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1, which is harmless where it was not needed. Without the raw
    config: ``fallback`` (the normalized max_positions), else 2048."""
    text = config if isinstance(config, dict) else {}
    sub = text.get("text_config")
    if isinstance(sub, dict):
        text = sub
    for key in SGLANG_CONTEXT_KEYS:
        val = text.get(key)
        if val is None:
            continue
        if isinstance(val, bool) or not isinstance(val, (int, float)):
            return 0  # SGLang cannot use it: ask for the override rather than guess
        rope = text.get("rope_scaling")
        factor = 1
        if isinstance(rope, dict) and rope and "original_max_position_embeddings" not in rope \
                and rope.get("rope_type") != "llama3":
            f = rope.get("factor", 1)
            factor = f if isinstance(f, (int, float)) and not isinstance(f, bool) else 1
        return int(min(val, factor * val))
    if config is None and fallback is not None:
        return fallback
    return SGLANG_DEFAULT_CONTEXT


def _cc(gpu) -> tuple[int, int]:
    try:
        major, _, minor = str(gpu.compute_capability or "0").partition(".")
        return int(major), int(minor or 0)
    except ValueError:
        return 0, 0


def kv_flag(framework: str, kv_dtype: str, arch, gpu) -> tuple[str | None, str | None]:
    """The ``--kv-cache-dtype`` value that caches KV at ``kv_dtype`` (``bf16``, ``fp16``, ``fp8``, ``fp32``,
    ``nvfp4``) for ``arch`` on ``gpu`` under ``framework``, and None; or None and the one-line reason the engine
    has no such flag or refuses it. Only vLLM and SGLang are checked (TensorRT-LLM's KvCacheConfig was not read:
    ``(None, None)``). The caller asks only for a dtype other than the model's own (``auto`` covers that).

    vLLM 0.33.0: config/vllm.py ``validate_nvfp4_kv_cache_with_mla`` refuses ``nvfp4`` with MLA, whose
    ``nvfp4_ds_mla`` layout only the sparse MLA backends read and only on SM100
    (v1/attention/backends/mla/flashmla_sparse.py); for other attention only the FlashInfer backend reads NVFP4
    (v1/attention/backends/flashinfer.py ``supports_kv_cache_dtype``: SM100 through TRT-LLM attention, SM80/90/120
    through FA2, where ``supports_combination`` refuses head size 64 and attention sinks).
    SGLang 0.5.23 arg_groups/kv_cache_hook.py ``handle_kv4_compatibility``: ``nvfp4`` needs CUDA SM100 or SM120.
    """
    if framework not in KV_FLAG:
        return None, None
    ver = f"{ {'vllm': 'vLLM', 'sglang': 'SGLang'}[framework]} {KV_ENGINE_VERSION[framework]}"
    flag = KV_FLAG[framework].get(kv_dtype)
    if flag is None:
        return None, f"{ver} has no --kv-cache-dtype value for a KV cache in {kv_dtype}"
    if kv_dtype != "nvfp4":
        return flag, None
    cuda = getattr(gpu, "vendor", "nvidia") == "nvidia"
    major, _ = _cc(gpu)
    mixers = [lay.mixer for lay in arch.layers if lay.mixer is not None]
    mla = [m for m in mixers if m.kind in ("mla", "compressed_attention")]
    cc = gpu.compute_capability or "none"
    if framework == "sglang":
        if not cuda:
            return None, (f"{ver} refuses an NVFP4 KV cache on {gpu.id}: 'KV4 is not tested on non-CUDA platforms' "
                          "(arg_groups/kv_cache_hook.py)")
        if major not in (10, 12):
            return None, (f"{ver} refuses an NVFP4 KV cache on {gpu.id} (compute capability {cc}): it needs "
                          "Blackwell SM100 or SM120 (arg_groups/kv_cache_hook.py)")
        return flag, None
    if not cuda:
        return None, (f"{ver} reads an NVFP4 KV cache only in its FlashInfer backend, which {gpu.id} "
                      f"({gpu.vendor.upper()}) does not run")
    if mla:
        sparse = all(getattr(m, "indexer", None) is not None or m.kind == "compressed_attention" for m in mla)
        if not sparse:
            return None, (f"{ver} refuses an NVFP4 KV cache with MLA (config/vllm.py validate_nvfp4_kv_cache_with_mla); "
                          "its nvfp4_ds_mla layout is for sparse MLA backends only")
        if major != 10:
            return None, (f"{ver} reads the nvfp4_ds_mla KV cache only on SM100 (flashmla_sparse.py); {gpu.id} has "
                          f"compute capability {cc}")
        return "nvfp4_ds_mla", None
    if major == 10:
        return flag, None
    if major not in (8, 9, 12):
        return None, (f"{ver}'s FlashInfer backend reads an NVFP4 KV cache on SM80/90/100/120 only; {gpu.id} has "
                      f"compute capability {cc}")
    attn = [m for m in mixers if m.kind == "attention" and not getattr(m, "kv_shared", False)]
    if any(m.head_dim == 64 for m in attn):
        return None, (f"{ver} refuses an NVFP4 KV cache at head size 64 on compute capability {cc} ('fa2 prefill "
                      "misreads an NVFP4 KV cache at head_size 64', flashinfer.py)")
    if any(getattr(m, "sinks", False) for m in attn):
        return None, (f"{ver} refuses an NVFP4 KV cache with attention sinks on compute capability {cc} ('the sink "
                      "prefill wrapper cannot read an NVFP4 KV cache', flashinfer.py)")
    return flag, None


def framework_gpu_problem(framework: str, gpu) -> str | None:
    """The one-line reason ``framework`` does not run on ``gpu`` at all, or None: TensorRT-LLM is NVIDIA-only."""
    if framework == "trtllm" and getattr(gpu, "vendor", "nvidia") != "nvidia":
        return f"TensorRT-LLM runs on NVIDIA GPUs only; {gpu.id} is {gpu.vendor.upper()}"
    return None


def kv_launch_problem(framework: str, kv_dtype: str, auto_kv: str, arch, gpu, lever: str = "--kv-dtype"
                      ) -> str | None:
    """The one-line reason ``framework`` cannot run ``arch`` on ``gpu`` with its KV cache at ``kv_dtype``, or None.

    ``auto_kv`` is what the engine's ``auto`` caches (:func:`scorer.kvcache.default_kv_dtype`). A dtype other than
    it needs a ``--kv-cache-dtype`` flag (:func:`kv_flag`); ``auto`` itself is checked too where it is NVFP4 (a
    checkpoint's own NVFP4 KV): the engine takes it and refuses what :func:`kv_flag` refuses. The reason ends with the
    KV dtypes it does launch and ``lever``, the setting that picks one (validate: the row's kv_precision)."""
    if kv_dtype != auto_kv or kv_dtype == "nvfp4":
        why = kv_flag(framework, kv_dtype, arch, gpu)[1]
        if why:
            if kv_dtype == auto_kv:
                why += " (the checkpoint's own NVFP4 KV cache, which the engine's auto takes)"
            return f"{why}; it launches KV at {', '.join(kv_runs_instead(framework, arch, gpu, auto_kv))} ({lever})"
    return None


def kv_read_notes(framework: str, kv_dtype: str, gpu) -> list[str]:
    """Caveats on how ``framework`` reads a ``kv_dtype`` cache on ``gpu`` (predict's notes, the sheet's
    assumptions): an NVFP4 cache below compute capability 10.0 is not read on FP4 tensor cores."""
    if kv_dtype != "nvfp4" or float(gpu.compute_capability or 0) >= 10.0:
        return []
    if framework == "vllm":
        return [f"vLLM reads an NVFP4 KV cache on compute capability {gpu.compute_capability} through its FA2 "
                "path, dequantizing it (vllm 0.33.0 v1/attention/backends/flashinfer.py), not on FP4 tensor "
                "cores: attention is modelled at the cache's bytes"]
    return [f"an NVFP4 KV cache needs Blackwell FP4 tensor cores (compute capability 10.0); {gpu.id} has "
            f"{gpu.compute_capability or 'none'}"]


def kv_runs_instead(framework: str, arch, gpu, model_dtype: str) -> list[str]:
    """KV dtypes that ``framework`` launches for ``arch`` on ``gpu``: the engine's ``auto`` dtype first where it
    launches (an NVFP4 ``auto`` is checked as any other NVFP4)."""
    out = [model_dtype] if model_dtype != "nvfp4" or kv_flag(framework, "nvfp4", arch, gpu)[1] is None else []
    for d in ("fp8", "bf16", "fp16", "nvfp4"):
        if d not in out and kv_flag(framework, d, arch, gpu)[0] is not None:
            out.append(d)
    return out


class LaunchCommand(BaseModel):
    engine: str
    version: str | None = Field(description="the engine version whose CLI the flags come from")
    argv: list[str] = Field(default_factory=list, description="the command, one argument per item (empty: none)")
    text: str = Field("", description="the command as one shell line")
    notes: list[str] = Field(default_factory=list, description="what the command needs beyond itself")


def engine_flags(engine: str) -> set[str]:
    """Flags ``engine``'s CLI accepts (data/engine_flags.json); empty when its source could not be read."""
    return set((load_json("engine_flags.json")["engines"].get(engine) or {}).get("flags") or [])


def served_name(prov) -> str:
    """What the engine is pointed at for a :class:`~scorer.sources.Provenance`: the Hub repo id, the local folder
    (the one holding ``config.json`` when a file was given; relative, absolute or ``~/``), or ``MODEL_REPO_OR_FOLDER``
    for a bundled example (written from public facts: no weights to serve), for a config file under another name
    (no engine can load it) and for any name unsafe on a shell line or in Markdown."""
    if getattr(prov, "adapter_base", None):  # a PEFT adapter: the engine serves its base model, the adapter on top
        name = prov.adapter_base
        if prov.kind == "local" and not Path(name).is_absolute() and not name.startswith((".", "~")) \
                and not prov.repo_id and Path(name).exists():
            name = "./" + name
    elif prov.repo_id:
        name = prov.repo_id
    elif prov.kind == "example":
        return PLACEHOLDER
    elif prov.kind == "local":
        if not (prov.path and Path(prov.path).name == "config.json"):
            return PLACEHOLDER
        name = str(Path(prov.path).parent)
        if name == ".":
            return name
        if not Path(name).is_absolute() and not name.startswith((".", "~")):
            name = "./" + name  # relative: never read as a Hub repo id ("org/model")
    else:
        name = prov.source
    return name if SAFE_MODEL.fullmatch(name or "") else PLACEHOLDER


#: flags of the engine's API server, outside its engine arguments (data/engine_flags.json reads those): vLLM 0.33.0
#: --lora-modules name=path (vllm/entrypoints/common/cli_args.py FrontendArgs.lora_modules, LoRAParserAction)
FRONTEND_FLAGS = {"vllm": ("--lora-modules",)}


def _adapter_flags(fw: str, prov, table: dict, notes: list[str]) -> list[tuple[str, str | None]]:
    """The flags that load a PEFT adapter source (``prov.adapter_base`` set) on top of its base model, or notes."""
    if not getattr(prov, "adapter_base", None):
        return []
    adapter = prov.repo_id or (str(Path(prov.path).parent) if prov.path else prov.source)
    if fw != "vllm":
        notes.append(f"the source is a LoRA adapter of {prov.adapter_base}: load it with {fw}'s own LoRA flags "
                     "(not modelled here), or serve it merged into the base weights")
        return []
    if prov.adapter_refused:
        notes.append(f"vllm {table.get('version')} refuses the adapter ({prov.adapter_refused}): this command serves "
                     "the base model alone; merge the adapter into the base weights to serve it")
        return []
    if not SAFE_MODEL.fullmatch(adapter or ""):
        notes.append("the adapter's name is unsafe on a shell line: add --lora-modules adapter=<its path> yourself")
        return [("--enable-lora", None)]
    from .adapters import max_lora_rank
    need = max_lora_rank(prov.adapter_rank)
    out: list[tuple[str, str | None]] = [("--enable-lora", None)]
    if need is not None:
        out.append(("--max-lora-rank", str(need)))
    out.append(("--lora-modules", f"adapter={adapter}"))
    notes.append("requests name the adapter as model \"adapter\" (--lora-modules name=path); the base model serves "
                 "under its own name")
    return out


def launch_command(cm, p, prov, config: dict | None = None) -> LaunchCommand:
    """The command for prediction ``p`` (a :class:`~scorer.regimes.Prediction`) made by cost model ``cm`` for the
    model of provenance ``prov`` (:func:`served_name`); the checkpoint's own quantization format comes from
    ``cm.arch``; ``config``, the raw config.json where the caller has it, gives SGLang's derived context length
    (:func:`sglang_derived_context`). Raises nothing: what cannot be expressed goes to ``notes``.
    """
    fw = cm.framework
    model = served_name(prov)
    table = load_json("engine_flags.json")["engines"].get(fw) or {}
    if not table.get("flags"):
        return LaunchCommand(engine=fw, version=table.get("version"),
                             notes=[f"{fw}: its CLI flags could not be read from its source here "
                                    f"({table.get('note', 'no flag table')}); no command is emitted"])
    lay, prec, notes = cm.layout, cm.precision.id, []
    flags: list[tuple[str, str | None]] = []
    from .engine_models import engine_support
    impl = engine_support(cm.arch, fw)
    if impl is not None and impl.status not in ("native", "unknown"):
        notes.append(impl.summary)
    if cm.arch.needs_remote_code:  # vLLM / SGLang refuse an unknown model_type's config without it
        flags.append(("--trust-remote-code", None))
        notes.append("--trust-remote-code runs the repository's own Python (its auto_map): review it first")
    from .quant import checkpoint_blocker, checkpoint_method_rules, engine_tp_size
    blocker = checkpoint_blocker(cm.arch, fw, engine_tp_size(fw, lay.tp, lay.dp))
    if blocker:
        notes.append(f"{blocker}: this command fails on the checkpoint as stored; point it at another export of the "
                     "model (16-bit, or a format the engine loads)")
    method = (cm.arch.quantization.method or "").lower() if cm.arch.quantization is not None else ""
    if method and method in checkpoint_method_rules(fw).get("deprecated", []) and \
            "--allow-deprecated-quantization" in table.get("flags", []):
        flags.append(("--allow-deprecated-quantization", None))
        notes.append(f"--allow-deprecated-quantization: {fw} {table.get('version')} deprecates quant_method "
                     f"{method!r} and refuses it without the flag (rule Q10)")
    ckpt = cm.arch.quantization.format if cm.arch.quantization is not None else None
    if prec not in ("bf16", "fp16") and ckpt != prec:
        if prec in ONLINE and ckpt is not None:  # the engine reads the checkpoint's own method and refuses the flag
            notes.append(f"the checkpoint is already quantized ({ckpt}, quant_method "
                         f"{(cm.arch.quantization.method or '')[:40]!r}): the engine refuses --quantization "
                         f"{ONLINE[prec]} on it (the config's method and the flag differ); {prec} needs the 16-bit "
                         "model or a checkpoint exported to it")
        elif prec in ONLINE:
            flags.append(("--quantization", ONLINE[prec]))
        else:
            notes.append(f"{prec} weights need a checkpoint quantized to {prec} (the engine reads its format from "
                         "the checkpoint's quantization config; it does not quantize to it at load time)")
    from .kvcache import model_dtype, served_dtype
    if prec in ("bf16", "fp16"):
        if served_dtype(fw, cm.arch.dtype, cm.arch.model_type)[0] != prec:  # --dtype auto would run the other one
            flags.append(("--dtype", {"bf16": "bfloat16", "fp16": "float16"}[prec]))
    kv = None  # a flag only for a KV dtype other than what --kv-cache-dtype auto caches
    from .kvcache import default_kv_dtype
    runs_in = default_kv_dtype(fw, prec, model_dtype(fw, cm.arch, prec), cm.arch, cm.gpu)[0]  # what auto caches
    special = kv_flag(fw, cm.kv_dtype, cm.arch, cm.gpu)[0]
    # auto resolves a checkpoint's NVFP4 KV to the plain "nvfp4", which vLLM refuses with MLA (config/vllm.py
    # validate_nvfp4_kv_cache_with_mla, after engine/arg_utils.py resolve_kv_cache_dtype_string): a layout of its own
    # (nvfp4_ds_mla) is named even where it is what auto would take
    if cm.kv_dtype != runs_in or special not in (None, KV_FLAG.get(fw, {}).get(cm.kv_dtype)):
        kv = special
        if kv is None:
            notes.append(f"KV cache {cm.kv_dtype}: {fw} {table.get('version')} has no --kv-cache-dtype for it; the "
                         f"command leaves auto, which caches KV in {runs_in}, not what was "
                         "predicted")
    ctx = p.isl + p.osl
    if fw == "vllm":
        argv = ["vllm", "serve", model]
        flags += [("--tensor-parallel-size", str(lay.tp))]
        if lay.pp > 1:
            flags.append(("--pipeline-parallel-size", str(lay.pp)))
        if lay.dp > 1:
            flags.append(("--data-parallel-size", str(lay.dp)))
        if lay.ep > 1:
            flags.append(("--enable-expert-parallel", None))
            if lay.ep != lay.tp * lay.dp:
                notes.append(f"vLLM's --enable-expert-parallel spreads the experts over all TP x DP = "
                             f"{lay.tp * lay.dp} GPUs (vLLM 0.33.0 fused_moe/config.py: ep_size = TP x DP); EP "
                             f"{lay.ep} has no flag, so this command runs EP {lay.tp * lay.dp}, not the layout "
                             "predicted")
        if kv:
            flags.append(("--kv-cache-dtype", kv))
        # --max-num-seqs caps each DP rank's engine core (vLLM runs one per rank): the running batch over the ranks
        per_rank = -(-max(1, p.concurrency - p.queued) // max(1, lay.dp))
        flags += [("--max-model-len", str(ctx)), ("--max-num-seqs", str(per_rank)),
                  ("--max-num-batched-tokens", str(cm.engine_kv.in_flight_tokens // (2 if lay.pp <= 1 else lay.pp))),
                  ("--gpu-memory-utilization", f"{cm.p['gpu_mem_util']:g}")]
        if cm.speculative is not None:
            spec = {"method": "mtp" if cm.speculative.method == "mtp" else "eagle3",
                    "num_speculative_tokens": cm.speculative.tokens}
            if cm.speculative.method == "eagle3":
                spec["model"] = "<EAGLE-3 draft head>"
                notes.append("eagle3: set \"model\" in --speculative-config to the draft head's repo")
            flags.append(("--speculative-config", json.dumps(spec, separators=(",", ":"))))
        if p.nodes > 1:
            flags += [("--nnodes", str(p.nodes)), ("--node-rank", "0"), ("--master-addr", "<node-0 address>")]
            notes.append(f"the layout spans {p.nodes} nodes: run the same command on every node with --node-rank "
                         f"0..{p.nodes - 1} (vLLM {table['version']} multi-node flags)")
    else:  # sglang
        argv = ["python", "-m", "sglang.launch_server", "--model-path", model]
        flags += [("--tp-size", str(lay.tp * lay.dp))]  # SGLang's tp_size counts every GPU of the attention-DP group
        if lay.dp > 1:
            flags.append(("--attn-dp-size", str(lay.dp)))
        if lay.ep > 1:
            flags.append(("--ep-size", str(lay.ep)))
        if lay.pp > 1:
            flags.append(("--pp-size", str(lay.pp)))
        if kv:
            flags.append(("--kv-cache-dtype", kv))
        # --max-running-requests is the total: SGLang divides it over the attention-DP workers
        # (kv_cache_configurator.resolve_max_num_reqs: max_running_requests // attn_dp_size per worker)
        # rounded up to a multiple of DP: each worker takes the flag // DP (30 over 4 workers would run 28)
        running = -(-max(1, p.concurrency - p.queued) // max(1, lay.dp)) * max(1, lay.dp)
        flags += [("--context-length", str(ctx)), ("--max-running-requests", str(running)),
                  ("--mem-fraction-static", f"{cm.mem_fraction():g}")]
        if cm.sglang_attention_free():
            # no attention layer: the token pool is --max-total-tokens, else the context length, one sequence
            # (model_executor/pool_configurator.py:246-250, 641-645)
            # each attention-DP worker sizes its own pool at this flag and runs max_running_requests // dp
            # (kv_cache_configurator.py _apply_token_constraints, resolve_max_num_reqs)
            tokens = max(1, running // max(1, lay.dp)) * ctx
            flags.append(("--max-total-tokens", str(tokens)))
            notes.append(f"--max-total-tokens {tokens}: with no attention layer SGLang {table['version']} "
                         "sizes its token pool at this flag, else at --context-length, which runs one request at a "
                         "time (model_executor/pool_configurator.py _zero_kv_max_tokens)")
        derived = sglang_derived_context(config, cm.arch.max_positions)
        if ctx > derived:
            # configs/model_config.py _derive_context_length: a --context-length above the derived one (the config's
            # max_sequence_length / seq_length / max_seq_len / model_max_length / max_position_embeddings, else
            # 2048: utils/hf_transformers/common.py get_context_length) raises unless this variable is set
            argv[:0] = ["env", "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1"]
            notes.append(f"SGLang {table['version']} derives a context length of {derived:,} from the config "
                         f"(utils/hf_transformers/common.py get_context_length) and refuses --context-length {ctx} "
                         "unless "
                         "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 (configs/model_config.py _derive_context_length)")
        if cm.speculative is not None:
            algo = "NEXTN" if cm.speculative.method == "mtp" else "EAGLE3"
            # --speculative-eagle-topk 1: a chain of k drafts, as predicted. With --speculative-num-steps set SGLang
            # leaves topk unset (arg_groups/speculative_hook.py _handle_eagle_family picks steps, topk and draft
            # tokens together only when steps is unset) and then compares None > 1 (a TypeError at startup)
            flags += [("--speculative-algorithm", algo), ("--speculative-num-steps", str(cm.speculative.tokens)),
                      ("--speculative-eagle-topk", "1"),
                      ("--speculative-num-draft-tokens", str(cm.speculative.tokens + 1))]
            if algo == "EAGLE3":
                flags.append(("--speculative-draft-model-path", "<EAGLE-3 draft head>"))
            rule = load_json("engine_models.json").get("sglang", {}).get("pp_speculative") or {}
            if lay.pp > 1 and rule.get("env"):
                # check_pipeline_parallel_compat: PP with speculation outside a PD prefill node needs this variable
                var = f"{rule['env']}=1"
                if argv[0] == "env":
                    argv.insert(1, var)
                else:
                    argv[:0] = ["env", var]
                notes.append(f"{rule['env']}=1: SGLang {table['version']} runs PP with speculative decoding outside "
                             "a disaggregated prefill node only with it (arg_groups/validation_hook.py "
                             "check_pipeline_parallel_compat)")
        if p.nodes > 1:
            flags += [("--nnodes", str(p.nodes)), ("--node-rank", "0"), ("--dist-init-addr", "<node-0 address>:5000")]
            notes.append(f"the layout spans {p.nodes} nodes: run the same command on every node with --node-rank "
                         f"0..{p.nodes - 1}")
    adapter = _adapter_flags(fw, prov, table, notes)
    flags += adapter
    accepted = set(table["flags"])
    for name, value in flags:
        if name not in accepted and name not in FRONTEND_FLAGS.get(fw, ()):  # never emit what the CLI would reject
            notes.append(f"{name} is not a {fw} {table['version']} flag: left out")
            continue
        argv.append(name)
        if value is not None:
            argv.append(value)
    return LaunchCommand(engine=fw, version=table.get("version"), argv=argv, text=shlex.join(argv), notes=notes)
