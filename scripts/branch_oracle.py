"""Meta-device counts of the swept configs with the branches of family knowledge the sweep's variants leave untouched.

tests/data/meta_oracle_sweep.json builds every model type at its defaults and two resized shapes, but those shapes
keep the defaults of switches such as PaddleOCR-VL's use_bias or Qwen3-MoE's mlp_only_layers. This script takes each
swept variant (default, resize_a, resize_b) of the types whose readers depend on such a switch, sets it, and counts
the model on the meta device; plus the sweep of model types newer than the sweep's transformers
(``scripts/meta_oracle.py --sweep --only param2moe minicpm5_moe ergo kolibri1_1 -o SWEEP_NEW``, transformers
5.25.0) with Ergo's and Kolibri 1.1's own switches set, and with keys their classes never read (biases, head_dim,
num_local_experts, decoder_sparse_step, first_k_dense_replace) set to values that would change another family. It writes
the configs as the config class saves them, with their totals, for tests/test_branch_oracle.py:

    python scripts/meta_oracle.py --sweep --only param2moe minicpm5_moe ergo kolibri1_1 -o /tmp/sweep_new.json
    python scripts/branch_oracle.py /tmp/sweep_new.json tests/data/meta_oracle_branches.json

and, for tests/data/meta_oracle_flips.json (the switch flips below, built as the class the config names):

    python scripts/branch_oracle.py - tests/data/meta_oracle_flips.json --flips-only

Needs torch and transformers (the versions are written into the output).
"""
import json, sys, copy, warnings
warnings.filterwarnings('ignore')
from pathlib import Path
S = json.load(open(Path(__file__).resolve().parent.parent / 'tests' / 'data' / 'meta_oracle_sweep.json'))
out = []
def add(name, cfg):
    out.append({"name": name, "config": cfg})
for v in S['variants']:
    mt = v['config'].get('model_type') or v['model_type']; var = v['variant']
    c = copy.deepcopy(v['config'])
    if mt == 'paddleocr_vl':
        c['text_config']['use_bias'] = True; add(f'paddle_bias_{var}', c)
    elif mt == 'deepseek_ocr2':
        c['text_config']['mlp_bias'] = True; add(f'ocr2_mlpbias_{var}', c)
    elif mt == 'qwen3_5_moe_text':
        c['mlp_only_layers'] = list(range(c.get('num_hidden_layers', 40))); add(f'q35moe_mlponly_{var}', c)
    elif mt == 'nemotron_h':
        n = c.get('num_hidden_layers', 52); pat = ''.join('M*-'[i % 3] for i in range(n))
        c['hybrid_override_pattern'] = pat; c.pop('layers_block_type', None); add(f'nemh_dense_{var}', c)
    elif mt == 'falcon':
        for mq in (True, False):
            d = copy.deepcopy(c); d['new_decoder_architecture'] = False; d['multi_query'] = mq
            d['num_kv_heads'] = d['num_attention_heads']; add(f'falcon_old_mq{int(mq)}_{var}', d)
    elif mt in ('qwen3_moe', 'qwen2_moe'):
        c['mlp_only_layers'] = list(range(c.get('num_hidden_layers', 48))); add(f'{mt}_dense_{var}', c)
    elif mt in ('deepseek_v3', 'glm4_moe'):
        c['first_k_dense_replace'] = c.get('num_hidden_layers', 61); c.pop('mlp_layer_types', None); add(f'{mt}_dense_{var}', c)
for v in ([] if sys.argv[1] == '-' else json.load(open(sys.argv[1]))['variants']):
    add(f"{v['model_type']}_{v['variant']}", v['config'])
    c, var = v['config'], v['variant']
    if v['model_type'] == 'ergo':  # the class's own layout rules, and the published configs' window key
        d = copy.deepcopy(c); d.pop('layer_types'); d.pop('mlp_layer_types')
        d['num_dense_blocks'] = 3; d['global_attention_every_n_layers'] = 2; add(f'ergo_dense3_every2_{var}', d)
        d = copy.deepcopy(c); d.pop('layer_types'); d['local_attention_window'] = d.pop('sliding_window') * 2
        add(f'ergo_local_window_{var}', d)
        # keys no Ergo class reads: ErgoAttention's head_dim is hidden // heads, no biases, num_experts its count
        d = copy.deepcopy(c); d.update(attention_bias=True, mlp_bias=True, num_local_experts=2,
                                       head_dim=2 * c['hidden_size'] // c['num_attention_heads'])
        add(f'ergo_ignored_keys_{var}', d)
    if v['model_type'] == 'kolibri1_1':  # no KV sharing; no dense layers; every indexed layer an indexer
        idx = [i for i, t in enumerate(c['layer_types']) if t == 'indexed_attention']
        d = copy.deepcopy(c); d['kv_source_layers'] = list(range(len(c['layer_types']))); add(f'kolibri_noshare_{var}', d)
        d = copy.deepcopy(c); d['mlp_only_layers'] = []; add(f'kolibri_alldense0_{var}', d)
        d = copy.deepcopy(c); d['index_layers'] = idx; d['mlp_only_layers'] = list(range(0, len(c['layer_types']), 3))
        add(f'kolibri_allindex_{var}', d)
        # keys no Kolibri class reads: only mlp_only_layers makes a layer dense, no biases
        d = copy.deepcopy(c); d.update(decoder_sparse_step=2, first_k_dense_replace=3, attention_bias=True,
                                       mlp_bias=True)
        add(f'kolibri_ignored_keys_{var}', d)
# The switches every family reads or ignores (the newcomer trial of 2026-12-05 found classes that never tie lm_head
# and o_proj / shared-expert biases that the families' knowledge got wrong): each swept type's resize_a variant with
# tie_word_embeddings flipped, and with every bias switch on (keys the class ignores must change nothing), in the
# top-level config and its text_config. ``--flips-only`` keeps just these.
MOE_FLIPS = {'first_k_dense_replace': lambda v: v + 1, 'decoder_sparse_step': lambda v: 2 if v == 1 else 1,
             'mlp_only_layers': lambda v: sorted(set(v) | {0, 1}), 'n_shared_experts': lambda v: v + 1,
             'num_shared_experts': lambda v: v + 1, 'moe_intermediate_size': lambda v: 2 * v,
             'shared_expert_intermediate_size': lambda v: 2 * v, 'n_routed_experts': lambda v: 2 * v,
             'num_experts': lambda v: 2 * v, 'num_local_experts': lambda v: 2 * v}
QK_KEYS = ('use_qk_norm', 'qk_norm', 'use_qk_layernorm', 'qk_layernorm', 'use_qk_l2norm')
BIAS_KEYS = ('attention_bias', 'mlp_bias', 'use_bias', 'bias', 'qkv_bias', 'o_bias', 'use_qkv_bias')
def _set(cfg, key, value):
    cfg[key] = value
    if isinstance(cfg.get('text_config'), dict):
        cfg['text_config'][key] = value
flips = []
for v in S['variants']:
    if v['variant'] != 'resize_a':
        continue
    mt = v['config'].get('model_type') or v['model_type']
    c = copy.deepcopy(v['config'])
    tc = c.get('text_config') if isinstance(c.get('text_config'), dict) else c
    tie = tc.get('tie_word_embeddings', c.get('tie_word_embeddings'))
    d = copy.deepcopy(c); _set(d, 'tie_word_embeddings', not bool(tie)); flips.append({"name": f"flip_tie_{mt}", "config": d})
    present = [k for k in BIAS_KEYS if k in c or k in (c.get('text_config') or {})]
    if present:  # the switches the config class declares (an undeclared key would read as unmodelled)
        d = copy.deepcopy(c)
        for k in present:
            _set(d, k, True)
        flips.append({"name": f"flip_bias_{mt}", "config": d})
    # explicit head_dim (a class that reads it: twice the saved value; one that derives its own must ignore it) and
    # the q/k-norm switches flipped
    if isinstance(c.get('head_dim'), int) or isinstance((c.get('text_config') or {}).get('head_dim'), int):
        d = copy.deepcopy(c); t = d['text_config'] if isinstance(d.get('text_config'), dict) and 'head_dim' in d['text_config'] else d
        t['head_dim'] = 2 * t['head_dim']; flips.append({"name": f"flip_headdim_{mt}", "config": d})
    qk = [k for k in QK_KEYS if isinstance(c.get(k), bool) or isinstance((c.get('text_config') or {}).get(k), bool)]
    if qk:
        d = copy.deepcopy(c)
        for k in qk:
            t = d['text_config'] if isinstance((d.get('text_config') or {}).get(k), bool) else d
            t[k] = not t[k]
        flips.append({"name": f"flip_qknorm_{mt}", "config": d})
    # MoE structure keys, one at a time: a class that reads the key must follow it, one that ignores it must too
    for k, f in MOE_FLIPS.items():
        t = c['text_config'] if isinstance((c.get('text_config') or {}).get(k), (int, list)) else c
        val = t.get(k)
        if isinstance(val, bool) or not isinstance(val, (int, list)) or (isinstance(val, list) and k != 'mlp_only_layers'):
            continue
        d = copy.deepcopy(c)
        (d['text_config'] if t is not c else d)[k] = f(val)
        flips.append({"name": f"flip_{k}_{mt}", "config": d})
out = flips if '--flips-only' in sys.argv else out + flips
import torch, tempfile
from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForImageTextToText, AutoModel
res = []
for e in out:
    d = tempfile.mkdtemp(); json.dump(e['config'], open(d + '/config.json', 'w'))
    try:
        c = AutoConfig.from_pretrained(d)
        m = None
        import transformers
        named = [getattr(transformers, a, None) for a in (e['config'].get('architectures') or [])[:1]]
        # the flips build the class the config names (as the sweep does: MllamaForConditionalGeneration, not the
        # causal-LM mapping's MllamaForCausalLM); the other variants the first auto class that builds
        chain = [n for n in named if n is not None] if e['name'].startswith('flip_') else []
        with torch.device('meta'):
            for cls in (*chain, AutoModelForCausalLM, AutoModelForImageTextToText, AutoModel):
                try:
                    m = cls._from_config(c) if cls in chain else cls.from_config(c); break
                except Exception as ex:
                    err = ex
        if m is None: raise err
        saved = tempfile.mkdtemp(); c.save_pretrained(saved)
        cfg_saved = json.load(open(saved + '/config.json'))
        vis = sum(p.numel() for n, p in m.named_parameters() if any(t in n for t in ('visual', 'vision', 'sam_model', 'projector', 'view_seperator', 'image_newline', 'qwen2_model', 'mlp_AR')))
        row = {"name": e['name'], "config": cfg_saved, "total": sum(p.numel() for p in m.parameters()), "nontext": vis}
        if e['name'].startswith('flip_'):
            try:
                row["oracle_tied"] = m.get_output_embeddings().weight is m.get_input_embeddings().weight
            except Exception:
                row["oracle_tied"] = None
        if e['name'].startswith(('ergo_', 'kolibri_')):
            row["input_config"] = e['config']  # as written, before the class derived its lists: the raw-key rules
        res.append(row)
    except Exception as ex:
        res.append({"name": e['name'], "error": str(ex)[:120]})
import transformers
json.dump({'command': 'python scripts/branch_oracle.py ' + ' '.join(a if a in ('-', '--flips-only') or a.startswith('tests/')
                                                            else 'SWEEP_NEW' for a in sys.argv[1:]),
           'versions': {'transformers': transformers.__version__, 'torch': torch.__version__}, 'variants': res},
          open(sys.argv[2], 'w'), indent=0)
print(len(res), 'built')
