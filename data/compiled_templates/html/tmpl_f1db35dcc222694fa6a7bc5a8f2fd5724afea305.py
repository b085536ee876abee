from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_m = l_0_p = l_0_fit1 = l_0_ck = missing
    try:
        t_1 = environment.filters['bn']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'bn' found.")
    try:
        t_2 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_3 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_4 = environment.filters['hb']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'hb' found.")
    try:
        t_5 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_6 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_7 = environment.filters['mark']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'mark' found.")
    try:
        t_8 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_9 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_10 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_11 = environment.filters['svg']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'svg' found.")
    try:
        t_12 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_13 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_m = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model')
    context.vars['m'] = l_0_m
    context.exported_vars.add('m')
    l_0_p = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'params')
    context.vars['p'] = l_0_p
    context.exported_vars.add('p')
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Deployment sheet — '
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    yield '</title>\n<style>\nbody{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1b1f24}\nh1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}\ntable{border-collapse:collapse;margin:.6rem 0;font-size:13px}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}\nth{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}\n.card{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8rem 1rem}\n.grade{font-size:1.3rem;font-weight:700}.HARD{color:#b42318;font-weight:600}.FALLBACK{color:#b54708}.PERF{color:#175cd3}.INFO{color:#475467}\n.ok{color:#067647}.bad{color:#b42318}.mid{color:#b54708}.change{border-left:4px solid #175cd3;padding:.4rem .8rem;background:#eff8ff}\nsmall{color:#475467}\n</style>\n</head>\n<body>\n<h1>Deployment sheet — '
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' @ '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')[:7]))
    yield '</h1>\n<div class="card">\n<span class="grade">Score '
    yield escape(environment.finalize(t_3('%.1f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'))))
    yield '/100 ('
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    yield ')</span> ·\n'
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' MoE ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' experts, top-'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        yield ')'
    yield ' ·\n'
    yield escape(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' params'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' ('
        yield escape(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
        yield ' active)'
    yield ' ·\n'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        yield 'KV '
        yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token'))))
        yield ' B/token ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ', '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy')))
        yield ' policy)'
    l_0_fit1 = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'smallest_fit')
    context.vars['fit1'] = l_0_fit1
    context.exported_vars.add('fit1')
    if (undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1):
        pass
        yield ' · <b class="verdict">fits '
        yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'tp')))
        yield '× '
        yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'gpu')))
        yield ' at '
        yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'precision')))
        yield '</b>'
    elif (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity') and (not t_6(context.eval_ctx, t_9(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'), 'engine_blocker')))):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' refuses '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' at every TP ≤ 8</b>'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield ' · <b class="verdict">does not fit 8× '
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield '</b>'
    yield '</div>\n'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '<p class="change"><b>Estimated counts:</b> '
        yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
            pass
            yield ' The score is provisional.'
        yield '</p>\n'
        if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
            pass
            yield '<ul>'
            for l_1_g in environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
                _loop_vars = {}
                pass
                yield '<li>guess: '
                yield escape(environment.finalize(l_1_g))
                yield '</li>'
            l_1_g = missing
            yield '</ul>'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        pass
        yield '<p class="change"><b>Change first:</b> '
        yield escape(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'summary')))
        yield ' [rules '
        yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'rules'), ', ')))
        yield ']</p>\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'custom_code'):
        pass
        yield '<p class="change"><b>Custom code:</b> this config has <code>auto_map</code>; transformers needs the repository\'s code to run it (read here as data only).</p>'
    yield '\n<h2>Summary</h2>\n<table>\n<tr><th>parameters</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' total · '
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
    yield ' active per token</td></tr>\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield '<tr><th>vision tower</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' (not in total)</td></tr>'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'):
        pass
        yield '<tr><th>MTP layers</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'))))
        yield ' (not in total'
        if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'):
            pass
            yield '; '
            yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'))))
            yield ' are copies of the embedding/lm_head'
        yield ')</td></tr>'
    l_0_ck = environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'checkpoint')
    context.vars['ck'] = l_0_ck
    context.exported_vars.add('ck')
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '<tr><th>stored in the checkpoint</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'total'))))
        yield ' parameters ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(l_1_k))
            yield ' '
            yield escape(environment.finalize(t_8(l_1_v)))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'packed')):
                pass
                yield ' (packed '
                yield escape(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'packed'), l_1_k), 'bits')))
                yield '-bit)'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_k = l_1_v = missing
        yield ')'
        if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
            pass
            yield ' + '
            yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'elements'))))
            yield ' scale elements'
        yield ' · '
        yield escape(environment.finalize(t_4(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes'))))
        yield ' stored · '
        yield escape(environment.finalize(t_3('%+.2f', environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'delta_pct'))))
        yield "% vs the config's "
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'config_total'))))
        if (environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp') or environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')):
            pass
            yield ' (MTP and vision included)'
        if (not environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'matches')):
            pass
            yield ': differs (rule C1)'
        yield '</td></tr>\n'
    elif t_6(context.eval_ctx, t_10(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')):
        pass
        yield '<tr><th>stored in the checkpoint</th><td>not read: '
        yield escape(environment.finalize(environment.getattr(t_2(environment, t_10(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')), 'text')))
        yield '</td></tr>'
    yield '<tr><th>weights</th><td>'
    l_1_loop = missing
    for l_1_w, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_1_w, 'gib'))))
        yield ' GiB '
        yield escape(environment.finalize(environment.getattr(l_1_w, 'precision')))
        if (environment.getattr(l_1_w, 'source') == 'checkpoint'):
            pass
            yield ' (stored in the checkpoint)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_w = missing
    yield '</td></tr>\n<tr><th>context</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions'))))
    yield ' tokens</td></tr>\n<tr><th>model_type</th><td>'
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'model_type')))
    yield ' (family '
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'family')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class'):
        pass
        yield ', transformers '
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class')))
    else:
        pass
        yield ', raw keys'
    yield ')</td></tr>\n<tr><th>architectures</th><td>'
    yield escape(environment.finalize((t_5(context.eval_ctx, environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'architectures'), ', ') or '–')))
    yield '</td></tr>\n<tr><th>layers</th><td>'
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_layers')))
    yield ': '
    l_1_loop = missing
    for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'layer_kinds'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(l_1_v))
        yield ' '
        yield escape(environment.finalize(l_1_k))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_k = l_1_v = missing
    yield '</td></tr>\n<tr><th>hidden · vocab</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'hidden_size'))))
    yield ' · '
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vocab_size'))))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'tie_word_embeddings'):
        pass
        yield ' (tied embeddings)'
    yield '</td></tr>\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'):
        pass
        yield '<tr><th>attention</th><td>MLA: '
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, q_lora '
        yield escape(environment.finalize((environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'q_lora_rank') or '–')))
        yield ', kv_lora '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'kv_lora_rank')))
        yield ', rope '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_rope_head_dim')))
        yield ', nope '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_nope_head_dim')))
        yield ', v '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'v_head_dim')))
        yield '</td></tr>\n'
    elif environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads'):
        pass
        yield '<tr><th>attention</th><td>'
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, '
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_kv_heads')))
        yield ' KV heads (group '
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'gqa_group')))
        yield '), head_dim '
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'head_dim')))
        yield ' ('
        yield escape(environment.finalize(t_12(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism'))))
        yield ')</td></tr>'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield '<tr><th>MoE</th><td>'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers')))
        yield ' MoE layers · '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' experts × '
        yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'expert_intermediate'))))
        yield ', top-'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'):
            pass
            yield ' · shared '
            yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'))))
        yield '</td></tr>'
    yield '<tr><th>checkpoint</th><td>'
    yield escape(environment.finalize((environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'dtype') or '–')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'):
        pass
        yield ' · quantized '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'format')))
        yield ' ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'method')))
        yield ')'
    yield '</td></tr>\n</table>\n\n<h2>Parameters by component</h2>\n'
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '<table><tr><th>component</th><th>parameters (config)</th><th>stored (checkpoint)</th><th>stored bytes</th><th>active</th></tr>\n'
        def t_14(fiter):
            for (l_1_k, l_1_v) in fiter:
                if (l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_14(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_8(l_1_v)))
            yield '</td><td class="num'
            yield escape(environment.finalize((' bad' if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')) else '')))
            yield '">'
            yield escape(environment.finalize(t_8(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield escape(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_4(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_8(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield '</td></tr>'
        l_1_k = l_1_v = missing
        def t_15(fiter):
            for (l_1_k, l_1_v) in fiter:
                if ((l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)) or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_15([('vision', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')), ('mtp', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp')), ('other', None)]):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield ' (not in total)</td><td class="num">'
            yield escape(environment.finalize(t_8(l_1_v)))
            yield '</td><td class="num'
            yield escape(environment.finalize((' bad' if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')) else '')))
            yield '">'
            yield escape(environment.finalize(t_8(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield escape(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_4(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield '</td><td class="num">–</td></tr>'
        l_1_k = l_1_v = missing
        yield '</table>\n'
        if environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'):
            pass
            yield '<p>Checkpoint: '
            yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'), '; ')))
            yield '.</p>'
        if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') or environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
            pass
            yield '<p>Stored but not parameters: '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
                pass
                yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'))))
                yield ' quantization scale/zero-point tensors ('
                yield escape(environment.finalize(t_4(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'bytes'))))
                yield ')'
            if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') and environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
                pass
                yield ' · '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'):
                pass
                yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'))))
                yield ' buffers ('
                yield escape(environment.finalize(t_4(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'bytes'))))
                yield ')'
            yield '.</p>'
    else:
        pass
        yield '<table><tr><th>component</th><th>parameters</th><th>active</th></tr>\n'
        def t_16(fiter):
            for (l_1_k, l_1_v) in fiter:
                if l_1_v:
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_16(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_8(l_1_v)))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_8(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield '</td></tr>'
        l_1_k = l_1_v = missing
        yield '</table>\n'
    yield '\n<h2>KV cache</h2>\n<table><tr><th>layer kind</th><th>layers</th><th>KV B/token/layer</th><th>window</th><th>state B/seq/layer</th></tr>\n'
    for l_1_k in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'by_kind'):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_k, 'kind')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(environment.getattr(l_1_k, 'layers')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_8(environment.getattr(l_1_k, 'bytes_per_token_per_layer'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_8(environment.getattr(l_1_k, 'window')) if environment.getattr(l_1_k, 'window') else '–')))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_8(environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer')) if environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer') else '–')))
        yield '</td></tr>'
    l_1_k = missing
    yield '</table>\n\n<p>Per sequence: '
    def t_17(fiter):
        for (l_1_c, l_1_b) in fiter:
            if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_1_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))):
                yield (l_1_c, l_1_b)
    l_1_loop = missing
    for (l_1_c, l_1_b), l_1_loop in LoopContext(t_17(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'items'))), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(t_8(l_1_c)))
        yield ' tokens → '
        yield escape(environment.finalize(t_4(l_1_b)))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_c = l_1_b = missing
    yield '. Per GPU per token with TP: '
    def t_18(fiter):
        for (l_1_tp, l_1_b) in fiter:
            if (l_1_tp <= 8):
                yield (l_1_tp, l_1_b)
    l_1_loop = missing
    for (l_1_tp, l_1_b), l_1_loop in LoopContext(t_18(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_gpu_bytes_per_token'), 'items'))), undefined):
        _loop_vars = {}
        pass
        yield 'TP'
        yield escape(environment.finalize(l_1_tp))
        yield ' '
        yield escape(environment.finalize(t_8(l_1_b)))
        yield ' B'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_tp = l_1_b = missing
    yield '.</p>\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield '<p>Concurrent sequences that fit on '
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ' KV, after weights and runtime reserve):</p>\n<table class="capacity"><tr><th>TP</th><th>weights/GPU</th>'
        for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'):
            _loop_vars = {}
            pass
            yield '<th>'
            yield escape(environment.finalize(t_8(l_1_c)))
            yield ' tokens</th>'
        l_1_c = missing
        yield '</tr>\n'
        for l_1_cap in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
            _loop_vars = {}
            pass
            yield '<tr><td class="num">'
            yield escape(environment.finalize(environment.getattr(l_1_cap, 'tp')))
            if environment.getattr(l_1_cap, 'engine_blocker'):
                pass
                yield ' (refused by '
                yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
                yield ')'
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_1_cap, 'weights_per_gpu_gib'))))
            yield ' GiB</td>'
            for (l_2_c, l_2_n) in context.call(environment.getattr(environment.getattr(l_1_cap, 'max_sequences'), 'items'), _loop_vars=_loop_vars):
                _loop_vars = {}
                pass
                yield '<td class="num">'
                yield escape(environment.finalize((t_8(l_2_n) if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_2_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))) else 'beyond context')))
                yield '</td>'
            l_2_c = l_2_n = missing
            yield '</tr>'
        l_1_cap = missing
        yield '</table>\n'
        def t_19(fiter):
            for l_1_cap in fiter:
                if environment.getattr(l_1_cap, 'engine_blocker'):
                    yield l_1_cap
        for l_1_cap in t_19(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity')):
            _loop_vars = {}
            pass
            yield '<p class="note">TP'
            yield escape(environment.finalize(environment.getattr(l_1_cap, 'tp')))
            yield ': '
            yield escape(environment.finalize(environment.getattr(l_1_cap, 'engine_blocker')))
            yield '; the regimes skip it.</p>'
        l_1_cap = missing
    yield '\n<h2>Hardware fit</h2>\n<table><tr><th>GEMM</th><th>count</th><th>K × N</th>'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '<th>TP'
        yield escape(environment.finalize(l_1_tp))
        yield '</th>'
    l_1_tp = missing
    yield '<th>η@8k '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gpu')))
    yield '</th><th>η@128</th></tr>\n'
    def t_20(fiter):
        for l_1_g in fiter:
            if (environment.getattr(l_1_g, 'tp') == 1):
                yield l_1_g
    for l_1_g in t_20(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_g, 'name')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_8(environment.getattr(l_1_g, 'count'))))
        yield '</td><td>'
        yield escape(environment.finalize(t_8(environment.getattr(l_1_g, 'k_full'))))
        yield ' × '
        yield escape(environment.finalize(t_8(environment.getattr(l_1_g, 'n_full'))))
        yield '</td>\n'
        for l_2_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
            _loop_vars = {}
            pass
            yield '<td>'
            def t_21(fiter):
                for l_3_x in fiter:
                    if ((((environment.getattr(l_3_x, 'tp') == l_2_tp) and (environment.getattr(l_3_x, 'name') == environment.getattr(l_1_g, 'name'))) and (environment.getattr(l_3_x, 'k_full') == environment.getattr(l_1_g, 'k_full'))) and (environment.getattr(l_3_x, 'n_full') == environment.getattr(l_1_g, 'n_full'))):
                        yield l_3_x
            for l_3_x in t_21(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
                _loop_vars = {}
                pass
                yield '<span class="'
                yield escape(environment.finalize(('ok' if (environment.getattr(l_3_x, 'status') == 'ok') else ('bad' if (environment.getattr(l_3_x, 'status') == 'misaligned') else 'mid'))))
                yield '">'
                yield escape(environment.finalize(environment.getattr(l_3_x, 'k')))
                yield '×'
                yield escape(environment.finalize(environment.getattr(l_3_x, 'n')))
                yield '</span>'
            l_3_x = missing
            yield '</td>'
        l_2_tp = missing
        yield '<td class="num">'
        yield escape(environment.finalize(t_3('%.2f', environment.getattr(l_1_g, 'efficiency'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_3('%.2f', environment.getattr(l_1_g, 'efficiency_decode'))))
        yield '</td></tr>\n'
    l_1_g = missing
    yield '</table>\n\n<h2>Parallelism</h2>\n<table><tr><th>TP</th><th>heads</th><th>KV heads</th><th>valid</th><th>dense I/TP</th><th>expert I/TP</th><th>notes</th></tr>\n'
    for l_1_r in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'tp'):
        _loop_vars = {}
        pass
        yield '<tr><td class="num">'
        yield escape(environment.finalize(environment.getattr(l_1_r, 'tp')))
        yield '</td><td>'
        yield escape(environment.finalize(t_7(environment.getattr(l_1_r, 'heads_ok'))))
        yield '</td><td>'
        yield escape(environment.finalize(environment.getattr(l_1_r, 'kv_mode')))
        if environment.getattr(l_1_r, 'kv_heads_per_gpu'):
            pass
            yield ' ('
            yield escape(environment.finalize(environment.getattr(l_1_r, 'kv_heads_per_gpu')))
            yield '/GPU)'
        yield '</td><td>'
        yield escape(environment.finalize(t_7(environment.getattr(l_1_r, 'valid'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_8(environment.getattr(l_1_r, 'mlp_shard')) if environment.getattr(l_1_r, 'mlp_shard') else '–')))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_8(environment.getattr(l_1_r, 'expert_shard')) if environment.getattr(l_1_r, 'expert_shard') else '–')))
        yield '</td><td>'
        yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(l_1_r, 'notes'), '; ')))
        yield '</td></tr>'
    l_1_r = missing
    yield '</table>\n<p>'
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'ep'):
        pass
        yield 'EP (experts divide evenly): '
        l_1_loop = missing
        for (l_1_e, l_1_ok), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'ep'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield 'EP'
            yield escape(environment.finalize(l_1_e))
            yield ' '
            yield escape(environment.finalize(t_7(l_1_ok)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_e = l_1_ok = missing
        yield '. '
    yield 'PP (layers divide evenly): '
    l_1_loop = missing
    for (l_1_pp, l_1_ok), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield 'PP'
        yield escape(environment.finalize(l_1_pp))
        yield ' '
        yield escape(environment.finalize(t_7(l_1_ok)))
        if (l_1_pp in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance')):
            pass
            yield ' '
            yield escape(environment.finalize(t_3('%.2f', environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance'), l_1_pp))))
            yield '×'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_pp = l_1_ok = missing
    yield '.</p>\n<p>Vocabulary '
    yield escape(environment.finalize(t_8(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vocab_size'))))
    yield ': vLLM pads to '
    yield escape(environment.finalize(t_8(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_padded'))))
    yield ' ('
    yield escape(environment.finalize(t_3('%.2f', environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_waste_pct'))))
    yield '% padded rows)'
    def t_22(fiter):
        for (l_1_tp, l_1_rows) in fiter:
            if ((l_1_tp > 1) and (l_1_tp <= 8)):
                yield (l_1_tp, l_1_rows)
    l_1_loop = missing
    for (l_1_tp, l_1_rows), l_1_loop in LoopContext(t_22(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'per_tp_rows'), 'items'))), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield ', lm_head rows per rank'
        yield ' TP'
        yield escape(environment.finalize(l_1_tp))
        yield ' '
        yield escape(environment.finalize(t_8(l_1_rows)))
    l_1_loop = l_1_tp = l_1_rows = missing
    yield '.</p>\n<p>Layouts on one 8-GPU node and larger (✔ clean: valid heads, no KV replication, balanced stages, experts divide):</p>\n<table class="layouts"><tr><th>GPUs</th>'
    for l_1_n in [8, 16, 32, 64]:
        _loop_vars = {}
        pass
        yield '<th>'
        yield escape(environment.finalize(l_1_n))
        yield '</th>'
    l_1_n = missing
    yield '</tr>\n<tr><td>layouts</td>'
    l_1_loop = missing
    for l_1_n, l_1_loop in LoopContext([8, 16, 32, 64], undefined):
        _loop_vars = {}
        pass
        yield '<td>'
        def t_23(fiter):
            for l_2_l in fiter:
                if (environment.getattr(l_2_l, 'n_gpus') == l_1_n):
                    yield l_2_l
        l_2_loop = missing
        for l_2_l, l_2_loop in LoopContext(t_23(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'layouts')), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(t_7(environment.getattr(l_2_l, 'clean'))))
            yield ' TP'
            yield escape(environment.finalize(environment.getattr(l_2_l, 'tp')))
            if (environment.getattr(l_2_l, 'pp') > 1):
                pass
                yield '×PP'
                yield escape(environment.finalize(environment.getattr(l_2_l, 'pp')))
            if (environment.getattr(l_2_l, 'ep') > 1):
                pass
                yield ' EP'
                yield escape(environment.finalize(environment.getattr(l_2_l, 'ep')))
            if environment.getattr(l_2_l, 'notes'):
                pass
                yield ' ('
                yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(l_2_l, 'notes'), '; ')))
                yield ')'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '<br>'
        l_2_loop = l_2_l = missing
        yield '</td>'
    l_1_loop = l_1_n = missing
    yield '</tr>\n</table>\n<p><b>Attention kernels</b> ('
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism')))
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'head_dim'):
        pass
        yield ', head_dim '
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'head_dim')))
    yield '): FlashAttention-2 '
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa2')))
    yield ' · FA3 '
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa3')))
    yield ' · FA4 on Blackwell '
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa4_blackwell')))
    yield ' · FlashInfer head_dim '
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'flashinfer_head_dim')))
    yield ', group '
    yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'flashinfer_group')))
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mla_kernel'):
        pass
        yield ' · FlashMLA '
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mla_kernel')))
    yield '.</p>\n\n<h2>Quantization readiness</h2>\n<table><tr><th>format</th><th>engine</th>'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '<th>TP'
        yield escape(environment.finalize(l_1_tp))
        yield '</th>'
    l_1_tp = missing
    yield '<th>needs</th><th>rule</th></tr>\n'
    for l_1_fmt in ['fp8', 'fp8_block', 'nvfp4', 'mxfp4', 'int4', 'int8']:
        _loop_vars = {}
        pass
        for l_2_eng in ['vllm', 'sglang', 'trtllm']:
            l_2_rows = missing
            _loop_vars = {}
            pass
            l_2_rows = t_6(context.eval_ctx, t_10(context, t_10(context, t_10(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), 'format', 'equalto', l_1_fmt), 'engine', 'equalto', l_2_eng), 'tp', 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')))
            _loop_vars['rows'] = l_2_rows
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_fmt))
            yield '</td><td>'
            yield escape(environment.finalize(l_2_eng))
            yield '</td>'
            for l_3_e in (undefined(name='rows') if l_2_rows is missing else l_2_rows):
                _loop_vars = {}
                pass
                yield '<td class="'
                yield escape(environment.finalize(('ok' if (environment.getattr(l_3_e, 'status') == 'ready') else ('bad' if (environment.getattr(l_3_e, 'status') == 'not_ready') else 'mid'))))
                yield '" title="'
                yield escape(environment.finalize((environment.getattr(l_3_e, 'reason') or '')))
                yield '">'
                yield escape(environment.finalize(environment.getattr(l_3_e, 'status')))
                if (environment.getattr(l_3_e, 'ep_status') and (environment.getattr(l_3_e, 'ep_status') != environment.getattr(l_3_e, 'status'))):
                    pass
                    yield ' (EP '
                    yield escape(environment.finalize(environment.getattr(l_3_e, 'ep_status')))
                    yield ')'
                yield '</td>'
            l_3_e = missing
            yield '<td>'
            yield escape(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), 0), 'min_gpu')))
            yield '</td><td>'
            yield escape(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), 0), 'rule')))
            yield '</td></tr>\n'
        l_2_eng = l_2_rows = missing
    l_1_fmt = missing
    yield '</table>\n\n<h2>Serving regimes</h2>\n'
    l_1_loop = missing
    t_24 = 1
    for (l_1_gpu, l_1_results), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'items')), undefined):
        l_1_launches = l_1_fr = missing
        _loop_vars = {}
        pass
        yield '<p><b>'
        yield escape(environment.finalize(l_1_gpu))
        yield '</b>, '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights, '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ' KV</p>\n<table><tr><th>regime</th><th>workload</th><th>layout</th><th>TTFT ms</th><th>TPOT ms</th><th>tok/s/user</th><th>tok/s/GPU</th><th>memory/GPU GiB</th><th>bound</th><th>$/1M out</th></tr>\n'
        for l_2_r in l_1_results:
            l_2_x = missing
            _loop_vars = {}
            pass
            l_2_x = environment.getattr(l_2_r, 'prediction')
            _loop_vars['x'] = l_2_x
            yield '<tr><td>'
            yield escape(environment.finalize(environment.getattr(l_2_r, 'title')))
            yield '</td>'
            if (undefined(name='x') if l_2_x is missing else l_2_x):
                pass
                yield '<td>'
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'concurrency')))
                yield ' × '
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'isl')))
                yield '/'
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'osl')))
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'layout')))
                if (environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes') > 1):
                    pass
                    yield ' ('
                    yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes')))
                    yield ' nodes)'
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'ttft_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.2f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tpot_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tokens_per_s_per_user'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.0f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'output_tokens_per_s_per_gpu'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'memory_per_gpu_gib'))))
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'bound')))
                yield '</td><td class="num">'
                yield escape(environment.finalize((t_3('%.3f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens')) if environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens') else '–')))
                yield '</td>'
            else:
                pass
                yield '<td colspan="9">'
                yield escape(environment.finalize(environment.getattr(l_2_r, 'note')))
                yield '</td>'
            yield '</tr>\n'
        l_2_r = l_2_x = missing
        yield '</table>\n'
        l_1_launches = t_6(context.eval_ctx, t_10(context, l_1_results, 'launch'))
        _loop_vars['launches'] = l_1_launches
        if ((undefined(name='launches') if l_1_launches is missing else l_1_launches) and environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'argv')):
            pass
            yield '<p>Launch commands ('
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'engine')))
            yield ' '
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'version')))
            yield '):</p>\n'
            def t_25(fiter):
                for l_2_r in fiter:
                    if environment.getattr(environment.getattr(l_2_r, 'launch'), 'argv'):
                        yield l_2_r
            for l_2_r in t_25((undefined(name='launches') if l_1_launches is missing else l_1_launches)):
                _loop_vars = {}
                pass
                yield '<p>'
                yield escape(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ':</p><pre><code>'
                yield escape(environment.finalize(environment.getattr(environment.getattr(l_2_r, 'launch'), 'text')))
                yield '</code></pre>'
                for l_3_n in environment.getattr(environment.getattr(l_2_r, 'launch'), 'notes'):
                    _loop_vars = {}
                    pass
                    yield '<p class="note">'
                    yield escape(environment.finalize(l_3_n))
                    yield '</p>'
                l_3_n = missing
            l_2_r = missing
        elif (undefined(name='launches') if l_1_launches is missing else l_1_launches):
            pass
            yield '<p>'
            yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'notes'), '; ')))
            yield '</p>'
        l_1_fr = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'frontier'), 'get'), l_1_gpu, _loop_vars=_loop_vars)
        _loop_vars['fr'] = l_1_fr
        if ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'pareto')):
            pass
            yield '<p>Pareto frontier on '
            yield escape(environment.finalize(l_1_gpu))
            yield ' ('
            yield escape(environment.finalize(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'isl')))
            yield ' in / '
            yield escape(environment.finalize(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'osl')))
            yield ' out)'
            if environment.getattr(l_1_loop, 'first'):
                pass
                yield ': the chart overlays every GPU'
            yield '.</p>\n'
            if environment.getattr(l_1_loop, 'first'):
                pass
                yield escape(environment.finalize(t_11(t_6(context.eval_ctx, context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'frontier'), 'values'), _loop_vars=_loop_vars)))))
            yield '<table><tr><th>layout</th><th>concurrency</th><th>tok/s/user</th><th>tok/s/GPU</th><th>TTFT ms</th><th>TPOT ms</th></tr>\n'
            for l_2_x in environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'pareto'):
                _loop_vars = {}
                pass
                yield '<tr><td>'
                yield escape(environment.finalize(environment.getattr(l_2_x, 'layout')))
                if (environment.getattr(l_2_x, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield escape(environment.finalize(environment.getattr(l_2_x, 'nodes')))
                    yield ' nodes)'
                yield '</td><td class="num">'
                yield escape(environment.finalize(environment.getattr(l_2_x, 'concurrency')))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_2_x, 'tokens_per_s_per_user'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.0f', environment.getattr(l_2_x, 'output_tokens_per_s_per_gpu'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_2_x, 'ttft_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_3('%.2f', environment.getattr(l_2_x, 'tpot_ms'))))
                yield '</td></tr>'
            l_2_x = missing
            yield '</table>'
        elif ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')):
            pass
            yield '<p>Throughput vs interactivity: not computed ('
            yield escape(environment.finalize(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')))
            yield ').</p>'
        t_24 = 0
    l_1_loop = l_1_gpu = l_1_results = l_1_launches = l_1_fr = missing
    if t_24:
        pass
        yield '<p>'
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
        yield ' model: decoder serving regimes do not apply (rule S3).</p>'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'):
        pass
        yield '<p><b>SLA search</b> ('
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'):
            pass
            yield 'TTFT ≤ '
            yield escape(environment.finalize(t_3('%g', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'))))
            yield ' ms'
        else:
            pass
            yield 'any TTFT'
        yield ', '
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'):
            pass
            yield 'ITL ≤ '
            yield escape(environment.finalize(t_3('%g', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'))))
            yield ' ms'
        else:
            pass
            yield 'any ITL'
        yield ', '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'isl')))
        yield ' in / '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'osl')))
        yield ' out): '
        l_1_loop = missing
        for (l_1_g, l_1_x), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'best'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(l_1_g))
            yield ': '
            if l_1_x:
                pass
                yield escape(environment.finalize(environment.getattr(l_1_x, 'layout')))
                if (environment.getattr(l_1_x, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield escape(environment.finalize(environment.getattr(l_1_x, 'nodes')))
                    yield ' nodes)'
                yield ' at '
                yield escape(environment.finalize(environment.getattr(l_1_x, 'concurrency')))
                yield ' concurrent, '
                yield escape(environment.finalize(t_3('%.0f', environment.getattr(l_1_x, 'output_tokens_per_s_per_gpu'))))
                yield ' tok/s/GPU, TTFT '
                yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_1_x, 'ttft_ms'))))
                yield ' ms, TPOT '
                yield escape(environment.finalize(t_3('%.2f', environment.getattr(l_1_x, 'tpot_ms'))))
                yield ' ms'
                if environment.getattr(l_1_x, 'usd_per_1m_output_tokens'):
                    pass
                    yield ', $'
                    yield escape(environment.finalize(t_3('%.3f', environment.getattr(l_1_x, 'usd_per_1m_output_tokens'))))
                    yield '/1M out'
            else:
                pass
                yield 'no layout meets the targets'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_g = l_1_x = missing
        yield '.</p>'
    if (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct') and (not t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'tpot_ms')))):
        pass
        yield '<p>Expected error (leave-one-model-out MdAPE): TTFT ±'
        yield escape(environment.finalize(t_3('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'ttft_ms'))))
        yield '%, TPOT ±'
        yield escape(environment.finalize(t_3('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'tpot_ms'))))
        yield '%, tokens/s/GPU ±'
        yield escape(environment.finalize(t_3('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'output_tokens_per_s_per_gpu'))))
        yield '%.</p>'
    else:
        pass
        yield '<p>Uncalibrated roofline estimates: no validated error bar.</p>'
    yield '\n<h2>Findings</h2>\n<table><tr><th>rule</th><th>severity</th><th>finding</th></tr>\n'
    for l_1_f in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_f, 'rule')))
        yield '</td><td class="'
        yield escape(environment.finalize(environment.getattr(l_1_f, 'severity')))
        yield '">'
        yield escape(environment.finalize(environment.getattr(l_1_f, 'severity')))
        yield '</td><td>'
        yield escape(environment.finalize(environment.getattr(l_1_f, 'message')))
        yield '</td></tr>'
    l_1_f = missing
    yield '</table>\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        pass
        yield '<h2>Recommendations</h2><ul>'
        for l_1_r in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
            _loop_vars = {}
            pass
            yield '<li>'
            yield escape(environment.finalize(environment.getattr(l_1_r, 'summary')))
            yield ' [rules '
            yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(l_1_r, 'rules'), ', ')))
            yield ']</li>'
        l_1_r = missing
        yield '</ul>\n'
    yield '\n<h2>Score '
    yield escape(environment.finalize(t_3('%.1f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'))))
    yield '/100 ('
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    yield ')</h2>\n<table><tr><th>component</th><th>weight</th><th>sub-score</th><th>points</th><th>inputs and deductions</th></tr>\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'components'):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_c, 'name')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_3('%.0f', environment.getattr(l_1_c, 'weight'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_3('%.2f', environment.getattr(l_1_c, 'value'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_3('%.1f', environment.getattr(l_1_c, 'points'))))
        yield '</td><td>'
        yield escape(environment.finalize(t_5(context.eval_ctx, environment.getattr(l_1_c, 'details'), '; ')))
        yield '</td></tr>'
    l_1_c = missing
    yield '</table>\n\n<h2>Assumptions and sources</h2>\n<ul>'
    for l_1_a in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'assumptions'):
        _loop_vars = {}
        pass
        yield '<li>'
        yield escape(environment.finalize(l_1_a))
        yield '</li>'
    l_1_a = missing
    yield '</ul>\n<p><small>'
    l_1_loop = missing
    for l_1_src, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), undefined):
        _loop_vars = {}
        pass
        yield '['
        yield escape(environment.finalize(environment.getattr(l_1_src, 'id')))
        yield '] '
        yield escape(environment.finalize(environment.getattr(l_1_src, 'text')))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield '; '
    l_1_loop = l_1_src = missing
    yield '</small></p>\n<p><small>Generated by deploysheet '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'generator'), 'version')))
    yield ' on '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'generator'), 'date')))
    yield ' from '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'source')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' at commit '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')))
    yield '.</small></p>\n</body>\n</html>'

blocks = {}
debug_info = '2=91&3=94&9=98&22=100&24=106&25=113&26=122&27=133&28=142&30=169&31=178&32=189&33=192&35=196&39=200&40=204&41=209&42=220&43=223&44=263&45=270&46=284&47=286&48=297&49=299&50=313&51=320&52=335&53=348&54=364&58=373&60=376&61=402&63=427&64=432&67=454&73=471&76=487&77=521&78=530&79=538&81=561&84=575&85=585&86=593&87=601&88=623&94=629&96=654&97=689&99=712&100=721&102=756&105=776&106=784&107=787&108=791&109=794&115=824&116=829&118=835&119=842&122=882&123=884&124=891&125=911&126=916&127=918&128=931&130=935&131=958&132=968&133=970&134=1031&138=1044&140=1058&141=1061&144=1072&146=1076&150=1092&151=1101&152=1113'