"""Check scorer's params.vision (and .total) against transformers models built on torch's meta device.

Run (needs torch: pip install -e ".[oracle]"): PYTHONPATH=. python scripts/vision_oracle.py [family ...] [--json out.json]
For each family: the default config of transformers' config class (with the overrides below where the
default does not build) and one resized variant (vision depth, width/heads, MLP width, text hidden size).
"""
import copy, json, re, sys, warnings, collections
warnings.filterwarnings("ignore")
import logging; logging.disable(logging.WARNING)
import torch, transformers
from transformers.models.auto.configuration_auto import CONFIG_MAPPING
from scorer.architecture import normalize
from scorer.params import count_params

TEXT = ("model.language_model.", "model.text_model.", "language_model.", "lm_head.", "model.lm_head.",
        "model.embed_tokens.", "model.layers.", "model.norm.", "model.rotary_emb.")
AUDIO = ("audio",)

def _gemma4():
    from transformers import Gemma4Config, Gemma4VisionConfig
    return Gemma4Config(vision_config=Gemma4VisionConfig().to_dict())

FAMILIES = {
    # model_type: (class name, extra kwargs for the default config)
    "qwen2_vl": ("Qwen2VLForConditionalGeneration", {}),
    "qwen2_5_vl": ("Qwen2_5_VLForConditionalGeneration", {}),
    "qwen3_vl": ("Qwen3VLForConditionalGeneration", {}),
    "qwen3_vl_moe": ("Qwen3VLMoeForConditionalGeneration", {}),
    "qwen3_5": ("Qwen3_5ForConditionalGeneration", {}),
    "qwen3_5_moe": ("Qwen3_5MoeForConditionalGeneration", {}),
    "gemma3": ("Gemma3ForConditionalGeneration", {}),
    "gemma4": ("Gemma4ForConditionalGeneration", _gemma4),
    "llava": ("LlavaForConditionalGeneration", {}),
    "llava_next": ("LlavaNextForConditionalGeneration", {}),
    "llava_next_video": ("LlavaNextVideoForConditionalGeneration", {}),
    "llava_onevision": ("LlavaOnevisionForConditionalGeneration", {}),
    "vipllava": ("VipLlavaForConditionalGeneration", {}),
    "mistral3": ("Mistral3ForConditionalGeneration", {}),
    "llama4": ("Llama4ForConditionalGeneration", {}),
    "mllama": ("MllamaForConditionalGeneration", {}),
    "idefics3": ("Idefics3ForConditionalGeneration", {}),
    "smolvlm": ("SmolVLMForConditionalGeneration", {}),
    "paligemma": ("PaliGemmaForConditionalGeneration", {}),
    "internvl": ("InternVLForConditionalGeneration", {}),
    "kimi_k25": ("Kimi_K25ForConditionalGeneration", {}),
    "glm4v": ("Glm4vForConditionalGeneration", {}),
    "glm4v_moe": ("Glm4vMoeForConditionalGeneration", {}),
    "ernie4_5_vl_moe": ("Ernie4_5_VLMoeForConditionalGeneration", {}),
    "aya_vision": ("AyaVisionForConditionalGeneration",
                   {"vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152, "intermediate_size": 4304,
                                      "num_hidden_layers": 27, "num_attention_heads": 16, "image_size": 364,
                                      "patch_size": 14, "vision_use_head": False}}),
    "cohere2_vision": ("Cohere2VisionForConditionalGeneration", {}),
    "lfm2_vl": ("Lfm2VlForConditionalGeneration", {}),
    "minimax_m3_vl": ("MiniMaxM3SparseForConditionalGeneration", {}),
    "step3p7": ("Step3p7ForConditionalGeneration", {}),
    "hunyuan_vl": ("HunYuanVLForConditionalGeneration",
                   {"text_config": {"head_dim": 128, "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}}}),
    "deepseek_vl": ("DeepseekVLForConditionalGeneration", {}),
    "phi4_multimodal": ("Phi4MultimodalForCausalLM", {}),
    "glm46v": ("Glm46VForConditionalGeneration", {}),
    "lighton_ocr": ("LightOnOcrForConditionalGeneration", {}),
    "shieldgemma2": ("Gemma3ForConditionalGeneration", {}),
    "hyperclovax_vision_v2": ("HyperCLOVAXVisionV2ForConditionalGeneration", {}),
    "paddleocr_vl": ("PaddleOCRVLForConditionalGeneration", {}),
    "video_llama_3": ("VideoLlama3ForConditionalGeneration", {}),
    "cosmos3_omni": ("Cosmos3OmniForConditionalGeneration", {}),
}


def build(mt, d):
    kw = {k: v for k, v in d.items() if k not in ("model_type", "transformers_version", "architectures", "auto_map")}
    return CONFIG_MAPPING[mt](**kw)


def default_dict(mt):
    cls, extra = FAMILIES[mt]
    cfg = extra() if callable(extra) else CONFIG_MAPPING[mt](**extra)
    d = json.loads(cfg.to_json_string(use_diff=False))
    d["architectures"] = [cls]
    return d


HEAD_KEYS = ("num_attention_heads", "num_heads", "attention_heads")


def variant_dict(mt, d):
    d = copy.deepcopy(d)
    vc = d["vision_config"]
    for k in ("num_hidden_layers", "depth"):
        if k in vc:
            vc[k] = 3
    if "num_global_layers" in vc:
        vc["num_global_layers"] = 2
        vc["intermediate_layers_indices"] = [0, 2]
    if "deepstack_visual_indexes" in vc:
        vc["deepstack_visual_indexes"] = [0, 2]
    if "fullatt_block_indexes" in vc:
        vc["fullatt_block_indexes"] = [1]
    wkey = "embed_dim" if "embed_dim" in vc else "hidden_size"
    vc[wkey] = 640
    for k in HEAD_KEYS:
        if k in vc:
            vc[k] = 10
    if vc.get("num_key_value_heads"):
        vc["num_key_value_heads"] = 10
    if "head_dim" in vc:
        vc["head_dim"] = 64
    if "intermediate_size" in vc:
        vc["intermediate_size"] = 1536
    if "mlp_ratio" in vc:
        vc["mlp_ratio"] = 3
    tc = d.get("text_config") if isinstance(d.get("text_config"), dict) else d
    tc["hidden_size"] = 1024
    if "num_attention_heads" in tc:
        tc["num_attention_heads"] = 16
    if tc.get("num_key_value_heads"):
        tc["num_key_value_heads"] = 4
    if tc.get("head_dim"):
        tc["head_dim"] = 64
    for k in ("out_hidden_size",):
        if k in vc:
            vc[k] = 1024
    if wkey == "embed_dim":
        vc["hidden_size"] = 1024  # qwen2_vl: vision_config.hidden_size is the merger's output width
    for fn in VARIANT_TWEAKS.get(mt, ()):
        fn(d)
    return d


def _float_ratio(d):
    if "mlp_ratio" in d["vision_config"]:
        d["vision_config"]["mlp_ratio"] = float(d["vision_config"]["mlp_ratio"])


def _ernie_text(d):
    # the text rotary sections assume 128-wide heads: keep the head size while resizing the width
    d["text_config"].update(hidden_size=2048, num_attention_heads=16, num_key_value_heads=4)


VARIANT_TWEAKS = {"step3p7": [_float_ratio], "ernie4_5_vl_moe": [_ernie_text]}


def oracle(mt, d):
    cls = getattr(transformers, FAMILIES[mt][0])
    cfg = build(mt, d)
    with torch.device("meta"):
        m = cls._from_config(cfg)
    groups = collections.OrderedDict()
    total = text = audio = 0
    for n, p in m.named_parameters():
        total += p.numel()
        if n.startswith(TEXT):
            text += p.numel()
        elif any(a in n for a in AUDIO):
            audio += p.numel()
        else:
            k = re.sub(r"\.\d+\.", ".N.", n)
            k = ".".join(k.split(".")[:4])
            groups[k] = groups.get(k, 0) + p.numel()
    return {"vision": total - text - audio, "language_model": text, "audio": audio, "groups": groups}


def scorer(d):
    a = normalize(copy.deepcopy(d))
    c = count_params(a)
    return a, c


def tower_only(mt, d):
    """The vision count of the tower reader alone (for families whose text side the scorer cannot read)."""
    from scorer.architecture.kinds.vision import read_tower
    from scorer.params import count_params as _cp
    cfg = build(mt, d)
    tc = cfg.get_text_config(decoder=True)
    try:
        t = read_tower(mt, mt, d["vision_config"], cfg.vision_config, d, cfg, tc.hidden_size, set(), set())
    except Exception as e:
        return f"tower error {e}"
    if t is None:
        return None
    from scorer.params import layer_params
    vnorm = t.hidden_size * (2 if t.norm == "layernorm" else 1)
    return sum(sum(x for k, x in layer_params(l, t.hidden_size, vnorm).items() if k != "routed_active")
               for l in t.layers) + sum(t.extra_params.values())


def check(mt, verbose=False):
    out = {}
    d0 = default_dict(mt)
    for label, d in (("default", d0), ("variant", variant_dict(mt, d0))):
        try:
            o = oracle(mt, d)
        except Exception as e:
            print(f"{mt:18s} {label:8s} ORACLE FAIL {type(e).__name__}: {str(e)[:150]}")
            continue
        try:
            a, c = scorer(d)
        except Exception as e:
            tv = tower_only(mt, d)
            print(f"{mt:18s} {label:8s} SCORER FAIL {type(e).__name__}: {str(e)[:110]}  (oracle vision {o['vision']};"
                  f" tower alone {'OK' if tv == o['vision'] else 'BAD'} {tv})")
            out[label] = {"vision": o["vision"], "language_model": o["language_model"], "scorer_vision": tv,
                          "scorer_total": None, "config": d, "text_error": str(e)[:200]}
            continue
        vok = c.vision == o["vision"]
        tok = c.total == o["language_model"]
        print(f"{mt:18s} {label:8s} vision {'OK ' if vok else 'BAD'} {c.vision} vs {o['vision']}"
              f"   text {'OK ' if tok else 'BAD'} {c.total} vs {o['language_model']}"
              f"   unmodelled={[k for k in a.unmodelled_keys if 'text_config' not in k]}")
        if (not vok or verbose) and a.vision is not None:
            print("     scorer extra:", a.vision.extra_params, "layers", a.vision.num_layers)
            print("     oracle groups:", dict(o["groups"]))
        out[label] = {"vision": o["vision"], "language_model": o["language_model"], "scorer_vision": c.vision,
                      "scorer_total": c.total, "config": d}
    return out


COMMAND = "PYTHONPATH=. python scripts/vision_oracle.py --json tests/data/vision_oracle.json"


def compact(mt, d):
    """The config as a hub config.json stores it: transformers' diff against the class defaults."""
    cfg = build(mt, d)
    out = json.loads(cfg.to_json_string(use_diff=True))
    out["architectures"] = [FAMILIES[mt][0]]
    out.pop("transformers_version", None)
    return out


def dump(res, path):
    import datetime, platform
    fams = {}
    for mt, cases in res.items():
        entry = {"class": FAMILIES[mt][0], "cases": {}}
        for label, c in cases.items():
            cd = compact(mt, c["config"])
            try:
                a, sc = scorer(cd)
                got, total, err = sc.vision, sc.total, None
            except Exception as e:  # the text side is not readable: the tower alone is checked
                got, total, err = tower_only(mt, c["config"]), None, str(e)[:160]
            assert got == c["vision"], (mt, label, got, c["vision"])
            case = {"vision": c["vision"], "language_model": c["language_model"],
                    "text_exact": total == c["language_model"], "config": cd}
            if err:
                case["text_error"] = err
            entry["cases"][label] = case
        fams[mt] = entry
    doc = {"command": COMMAND,
           "about": "meta-device parameter counts of transformers' ForConditionalGeneration classes: vision = every "
                    "parameter outside the language model (model.language_model / model.text_model / lm_head / "
                    "the decoder of phi4_multimodal) and outside audio towers; configs: the class defaults and one "
                    "resized variant (vision depth 3, width 640 / 10 heads, MLP 1536, text hidden 1024), stored "
                    "as transformers' diff against the config class defaults",
           "generated": datetime.date.today().isoformat(),
           "versions": {"transformers": transformers.__version__, "torch": torch.__version__,
                        "python": platform.python_version()},
           "families": fams}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    args = sys.argv[1:]
    out_path = None
    if "--json" in args:
        i = args.index("--json"); out_path = args[i + 1]; del args[i:i + 2]
    verbose = "-v" in args
    args = [a for a in args if a != "-v"]
    res = {}
    for mt in (args or list(FAMILIES)):
        res[mt] = check(mt, verbose)
    if out_path:
        dump(res, out_path)
