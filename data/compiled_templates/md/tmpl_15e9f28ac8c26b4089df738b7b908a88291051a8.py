from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_m = l_0_p = l_0_prim = l_0_fit1 = l_0_ck = l_0_c0 = l_0_tp1 = l_0_diffs = l_0_ee = missing
    try:
        t_1 = environment.filters['align']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'align' found.")
    try:
        t_2 = environment.filters['bn']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'bn' found.")
    try:
        t_3 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
    try:
        t_4 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_5 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_6 = environment.filters['hb']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'hb' found.")
    try:
        t_7 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_8 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_9 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_10 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_11 = environment.filters['mark']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'mark' found.")
    try:
        t_12 = environment.filters['mermaid']
    except KeyError:
        @internalcode
        def t_12(*unused):
            raise TemplateRuntimeError("No filter named 'mermaid' found.")
    try:
        t_13 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_13(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_14 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_14(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_15 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_15(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_16 = environment.filters['status']
    except KeyError:
        @internalcode
        def t_16(*unused):
            raise TemplateRuntimeError("No filter named 'status' found.")
    try:
        t_17 = environment.filters['trusted']
    except KeyError:
        @internalcode
        def t_17(*unused):
            raise TemplateRuntimeError("No filter named 'trusted' found.")
    try:
        t_18 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_18(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_19 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_19(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_m = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model')
    context.vars['m'] = l_0_m
    context.exported_vars.add('m')
    l_0_p = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'params')
    context.vars['p'] = l_0_p
    context.exported_vars.add('p')
    l_0_prim = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'get'), environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu'), [])
    context.vars['prim'] = l_0_prim
    context.exported_vars.add('prim')
    yield '# Deployment sheet — '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' @ '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')[:7]))
    yield '\n\n'
    l_0_fit1 = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'smallest_fit')
    context.vars['fit1'] = l_0_fit1
    context.exported_vars.add('fit1')
    yield '**Score '
    yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'), 1)))
    yield '/100 ('
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    yield ')** · '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' MoE ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' experts, top-'
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        yield ')'
    yield ' · '
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' params'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' ('
        yield str(environment.finalize(t_2(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
        yield ' active)'
    yield ' · weights '
    yield str(environment.finalize(t_3(environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0), 'gib'), 1)))
    yield ' GiB at BF16'
    def t_20(fiter):
        for l_1_w in fiter:
            if ((environment.getattr(l_1_w, 'precision') == environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')) and (environment.getattr(l_1_w, 'precision') != 'bf16')):
                yield l_1_w
    for l_1_w in t_20(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights')):
        _loop_vars = {}
        pass
        yield ', '
        yield str(environment.finalize(t_3(environment.getattr(l_1_w, 'gib'), 1)))
        yield ' GiB at '
        yield str(environment.finalize(environment.getattr(l_1_w, 'precision')))
    l_1_w = missing
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        yield ' · KV '
        yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
        yield ' B/token ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy') == 'window'):
            pass
            yield ', window policy: '
            yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token'))))
            yield ' B/token beyond the windows'
        yield ')'
    if (undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1):
        pass
        yield ' · fits '
        yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'tp')))
        yield '× '
        yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'gpu')))
        yield ' at '
        yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'precision')))
    elif (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity') and (not t_9(context.eval_ctx, t_14(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'), 'engine_blocker')))):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' refuses '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' at every TP ≤ 8'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield ' · does not fit 8× '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
    yield '\n'
    def t_21(fiter):
        for l_1_r in fiter:
            if (environment.getattr(l_1_r, 'prediction') and (environment.getattr(l_1_r, 'id') in ('latency', 'throughput'))):
                yield l_1_r
    l_1_loop = missing
    for l_1_r, l_1_loop in LoopContext(t_21((undefined(name='prim') if l_0_prim is missing else l_0_prim)), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield '· best on '
            yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
            yield ' at '
            yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
            yield ': '
        yield str(environment.finalize(environment.getattr(l_1_r, 'id')))
        yield ' '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'layout')))
        if (environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes') > 1):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes')))
            yield ' nodes)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_r = missing
    yield '\n\n'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '> **Estimated counts:** '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
            pass
            yield ' The score is provisional.'
        yield '\n'
        for l_1_g in environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
            _loop_vars = {}
            pass
            yield '> - guess: '
            yield str(environment.finalize(l_1_g))
            yield '\n'
        l_1_g = missing
        yield '\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        pass
        yield '> **Change first:** '
        yield str(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'summary')))
        yield ' [rules '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'rules'), ', ')))
        yield ']\n\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'custom_code'):
        pass
        yield "> **Custom code:** this config has `auto_map`; transformers needs the repository's code to run it (deploysheet read it as data only).\n\n"
    yield '| | value | source |\n|---|---|---|\n| parameters | '
    yield str(environment.finalize(t_13(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' total · '
    yield str(environment.finalize(t_13(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
    yield ' active per token'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    yield ' | counted from config (transformers layout)'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '; estimated: '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
    yield ' |\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield '| vision tower | '
        yield str(environment.finalize(t_13(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' (not in total) | vision_config |\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'):
        pass
        yield '| MTP layers | '
        yield str(environment.finalize(t_13(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'))))
        yield ' (not in total'
        if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'):
            pass
            yield '; '
            yield str(environment.finalize(t_13(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'))))
            yield " of them are the checkpoint's copies of the embedding/lm_head, shared when served"
        else:
            pass
            yield '; embedding/lm_head shared'
        yield ') | num_nextn_predict_layers |\n'
    l_0_ck = environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'checkpoint')
    context.vars['ck'] = l_0_ck
    context.exported_vars.add('ck')
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '| stored in the checkpoint | '
        yield str(environment.finalize(t_13(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'total'))))
        yield ' parameters ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_k))
            yield ' '
            yield str(environment.finalize(t_13(l_1_v)))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'packed')):
                pass
                yield ' (packed '
                yield str(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'packed'), l_1_k), 'bits')))
                yield '-bit)'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_k = l_1_v = missing
        yield ')'
        if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
            pass
            yield ' + '
            yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'elements'))))
            yield ' scale elements'
        yield ' · '
        yield str(environment.finalize(t_6(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes'))))
        yield ' stored · '
        yield str(environment.finalize(t_5('%+.2f', environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'delta_pct'))))
        yield "% vs the config's "
        yield str(environment.finalize(t_13(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'config_total'))))
        if (environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp') or environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')):
            pass
            yield ' (MTP and vision included)'
        if (not environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'matches')):
            pass
            yield ': differs (rule C1)'
        yield ' | safetensors headers ('
        yield str(environment.finalize(t_8(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files'))))
        yield ' file'
        yield str(environment.finalize(('s' if (t_8(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files')) != 1) else '')))
        yield ') |\n'
    elif t_9(context.eval_ctx, t_15(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')):
        pass
        yield '| stored in the checkpoint | not read: '
        yield str(environment.finalize(environment.getattr(t_4(environment, t_15(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')), 'text')))
        yield ' | safetensors headers |\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'):
        pass
        yield '| Hub safetensors | '
        yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'stored_total'))))
        yield ' stored elements ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_k))
            yield ' '
            yield str(environment.finalize(t_13(l_1_v)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_k = l_1_v = missing
        yield ')'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'comparable'):
            pass
            yield ', '
            yield str(environment.finalize(t_5('%+.2f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'delta_pct'))))
            yield '% vs config'
        yield ': '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'note')))
        yield ' | Hub safetensors metadata |\n'
    yield '| weights | '
    l_1_loop = missing
    for l_1_w, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(t_3(environment.getattr(l_1_w, 'gib'), 1)))
        yield ' GiB '
        yield str(environment.finalize(environment.getattr(l_1_w, 'precision')))
        if (environment.getattr(l_1_w, 'source') == 'checkpoint'):
            pass
            yield ' (stored)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_w = missing
    yield ' | params × bytes (scales included)'
    if t_9(context.eval_ctx, t_15(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 'source', 'equalto', 'checkpoint')):
        pass
        yield '; "stored": the checkpoint\'s bytes, language model'
    yield ' |\n'
    l_0_c0 = environment.getitem(t_9(context.eval_ctx, context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'keys'))), 0)
    context.vars['c0'] = l_0_c0
    context.exported_vars.add('c0')
    yield '| KV cache | '
    yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
    yield ' B/token · '
    yield str(environment.finalize(t_6(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), (undefined(name='c0') if l_0_c0 is missing else l_0_c0)))))
    yield ' per '
    yield str(environment.finalize(t_13((undefined(name='c0') if l_0_c0 is missing else l_0_c0))))
    yield '-token sequence | '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy')))
    yield ' policy, '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
    yield ' |\n| context | '
    yield str(environment.finalize(t_13(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions'))))
    yield ' tokens | max_position_embeddings |\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vision_note'):
        pass
        yield '| vision tower | '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vision_note')))
        yield ' | config.json |\n'
    yield '| checkpoint | '
    yield str(environment.finalize((environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'dtype') or '–')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'):
        pass
        yield ' · quantized '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'format')))
        yield ' ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'method')))
        yield ')'
    yield ' | config.json |\n\n## Architecture\n| | |\n|---|---|\n| model_type | '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'model_type')))
    yield ' (family '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'family')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class'):
        pass
        yield ', transformers '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class')))
    else:
        pass
        yield ', raw keys'
    yield ') |\n| architectures | '
    yield str(environment.finalize((t_7(context.eval_ctx, environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'architectures'), ', ') or '–')))
    yield ' |\n| layers | '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_layers')))
    yield ': '
    l_1_loop = missing
    for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'layer_kinds'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_v))
        yield ' '
        yield str(environment.finalize(l_1_k))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_k = l_1_v = missing
    yield ' |\n| hidden · vocab | '
    yield str(environment.finalize(t_13(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'hidden_size'))))
    yield ' · '
    yield str(environment.finalize(t_13(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vocab_size'))))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'tie_word_embeddings'):
        pass
        yield ' (tied embeddings)'
    yield ' |\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'):
        pass
        yield '| attention | MLA: '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, q_lora '
        yield str(environment.finalize((environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'q_lora_rank') or '–')))
        yield ', kv_lora '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'kv_lora_rank')))
        yield ', rope '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_rope_head_dim')))
        yield ', nope '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_nope_head_dim')))
        yield ', v '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'v_head_dim')))
        yield ' |\n'
    elif environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads'):
        pass
        yield '| attention | '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_kv_heads')))
        yield ' KV heads (group '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'gqa_group')))
        yield '), head_dim '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'head_dim')))
        yield ' ('
        yield str(environment.finalize(t_18(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism'))))
        yield ') |\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield '| MoE | '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers')))
        yield ' MoE layers · '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' experts × '
        yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'expert_intermediate'))))
        yield ', top-'
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'):
            pass
            yield ' · shared '
            yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'))))
        yield ' |\n'
    yield '| rope | '
    yield str(environment.finalize((environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'rope') or 'default / none')))
    yield ' |\n\n'
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '| component | parameters (config) | stored (checkpoint) | stored bytes | active |\n|---|---:|---:|---:|---:|\n'
        def t_22(fiter):
            for (l_1_k, l_1_v) in fiter:
                if (l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_22(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' | '
            yield str(environment.finalize(t_13(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_13(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield str(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_6(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield ' | '
            yield str(environment.finalize(t_13(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield ' |\n'
        l_1_k = l_1_v = missing
        def t_23(fiter):
            for (l_1_k, l_1_v) in fiter:
                if ((l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)) or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_23([('vision', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')), ('mtp', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp')), ('other', None)]):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' (not in total) | '
            yield str(environment.finalize(t_13(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_13(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield str(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_6(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield ' | – |\n'
        l_1_k = l_1_v = missing
        if environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'):
            pass
            yield '\nCheckpoint: '
            yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'), '; ')))
            yield '.\n'
        if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') or environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
            pass
            yield '\nStored but not parameters: '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
                pass
                yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'))))
                yield ' quantization scale/zero-point tensors ('
                yield str(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'bytes'))))
                yield ')'
            if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') and environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
                pass
                yield ' · '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'):
                pass
                yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'))))
                yield ' buffers ('
                yield str(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'bytes'))))
                yield ')'
            yield '.\n'
    else:
        pass
        yield '| component | parameters | active |\n|---|---:|---:|\n'
        def t_24(fiter):
            for (l_1_k, l_1_v) in fiter:
                if l_1_v:
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_24(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' | '
            yield str(environment.finalize(t_13(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_13(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield ' |\n'
        l_1_k = l_1_v = missing
    yield '\n## Memory and KV cache\n| layer kind | layers | KV B/token/layer | window | state B/seq/layer |\n|---|---:|---:|---:|---:|\n'
    for l_1_k in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'by_kind'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_k, 'kind')))
        yield ' | '
        yield str(environment.finalize(environment.getattr(l_1_k, 'layers')))
        yield ' | '
        yield str(environment.finalize(t_13(environment.getattr(l_1_k, 'bytes_per_token_per_layer'))))
        yield ' | '
        yield str(environment.finalize((t_13(environment.getattr(l_1_k, 'window')) if environment.getattr(l_1_k, 'window') else '–')))
        yield ' | '
        yield str(environment.finalize((t_13(environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer')) if environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer') else '–')))
        yield ' |\n'
    l_1_k = missing
    yield '\nPer sequence: '
    def t_25(fiter):
        for (l_1_c, l_1_b) in fiter:
            if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_1_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))):
                yield (l_1_c, l_1_b)
    l_1_loop = missing
    for (l_1_c, l_1_b), l_1_loop in LoopContext(t_25(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'items'))), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(t_13(l_1_c)))
        yield ' tokens → '
        yield str(environment.finalize(t_6(l_1_b)))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_c = l_1_b = missing
    yield '. Per GPU per token with TP: '
    def t_26(fiter):
        for (l_1_tp, l_1_b) in fiter:
            if (l_1_tp <= 8):
                yield (l_1_tp, l_1_b)
    l_1_loop = missing
    for (l_1_tp, l_1_b), l_1_loop in LoopContext(t_26(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_gpu_bytes_per_token'), 'items'))), undefined):
        _loop_vars = {}
        pass
        yield 'TP'
        yield str(environment.finalize(l_1_tp))
        yield ' '
        yield str(environment.finalize(t_13(l_1_b)))
        yield ' B'
        if (environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'kv_replication'), l_1_tp) > 1):
            pass
            yield ' ('
            yield str(environment.finalize(t_3(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'kv_replication'), l_1_tp), 0)))
            yield '× replicated)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_tp = l_1_b = missing
    yield '.\n\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield 'Concurrent sequences that fit on '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ' KV, after weights and runtime reserve):\n\n| TP | weights/GPU | '
        for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_13(l_1_c)))
            yield ' tokens | '
        l_1_c = missing
        yield '\n|---:|---:|'
        for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'):
            _loop_vars = {}
            pass
            yield '---:|'
        l_1_c = missing
        yield '\n'
        for l_1_cap in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(environment.getattr(l_1_cap, 'tp')))
            if environment.getattr(l_1_cap, 'engine_blocker'):
                pass
                yield ' (refused by '
                yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_3(environment.getattr(l_1_cap, 'weights_per_gpu_gib'), 1)))
            yield ' GiB | '
            for (l_2_c, l_2_n) in context.call(environment.getattr(environment.getattr(l_1_cap, 'max_sequences'), 'items'), _loop_vars=_loop_vars):
                _loop_vars = {}
                pass
                yield str(environment.finalize((t_13(l_2_n) if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_2_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))) else 'beyond context')))
                yield ' | '
            l_2_c = l_2_n = missing
            yield '\n'
        l_1_cap = missing
        yield '\n'
        def t_27(fiter):
            for l_1_cap in fiter:
                if environment.getattr(l_1_cap, 'engine_blocker'):
                    yield l_1_cap
        for l_1_cap in t_27(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity')):
            _loop_vars = {}
            pass
            yield '- TP'
            yield str(environment.finalize(environment.getattr(l_1_cap, 'tp')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_1_cap, 'engine_blocker')))
            yield '; the regimes skip it.\n'
        l_1_cap = missing
    for l_1_n in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'notes'):
        _loop_vars = {}
        pass
        yield '- '
        yield str(environment.finalize(l_1_n))
        yield '\n'
    l_1_n = missing
    yield '\n## Hardware fit\n| GEMM | count | K × N | '
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield 'TP'
        yield str(environment.finalize(l_1_tp))
        yield ' K·N | '
    l_1_tp = missing
    yield 'η@8k | η@128 |\n|---|---:|---|'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '---|'
    l_1_tp = missing
    yield '---:|---:|\n'
    l_0_tp1 = t_9(context.eval_ctx, t_15(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms'), 'tp', 'equalto', 1))
    context.vars['tp1'] = l_0_tp1
    context.exported_vars.add('tp1')
    for l_1_g in (undefined(name='tp1') if l_0_tp1 is missing else l_0_tp1):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_g, 'name')))
        yield ' | '
        yield str(environment.finalize(t_13(environment.getattr(l_1_g, 'count'))))
        yield ' | '
        yield str(environment.finalize(t_13(environment.getattr(l_1_g, 'k_full'))))
        yield ' × '
        yield str(environment.finalize(t_13(environment.getattr(l_1_g, 'n_full'))))
        yield ' | '
        for l_2_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
            _loop_vars = {}
            pass
            def t_28(fiter):
                for l_3_x in fiter:
                    if ((((environment.getattr(l_3_x, 'tp') == l_2_tp) and (environment.getattr(l_3_x, 'name') == environment.getattr(l_1_g, 'name'))) and (environment.getattr(l_3_x, 'k_full') == environment.getattr(l_1_g, 'k_full'))) and (environment.getattr(l_3_x, 'n_full') == environment.getattr(l_1_g, 'n_full'))):
                        yield l_3_x
            for l_3_x in t_28(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
                _loop_vars = {}
                pass
                yield str(environment.finalize(t_1(environment.getattr(l_3_x, 'k_multiple'))))
                yield '·'
                yield str(environment.finalize(t_1(environment.getattr(l_3_x, 'n_multiple'))))
                if (not environment.getattr(l_3_x, 'divisible')):
                    pass
                    yield ' ✘ split'
            l_3_x = missing
            yield ' | '
        l_2_tp = missing
        yield str(environment.finalize(t_3(environment.getattr(l_1_g, 'efficiency'), 2)))
        yield ' | '
        yield str(environment.finalize(t_3(environment.getattr(l_1_g, 'efficiency_decode'), 2)))
        yield ' |\n'
    l_1_g = missing
    yield '\n\n(Per TP shard, the largest power of two (capped at 512) dividing K and N: ✔ 128 or more; ◐ 8–64; ✘ not 16-byte aligned; "✘ split" = the shard does not divide evenly. η@8k = tile × wave × misalignment efficiency at prefill M = 8192 tokens and η@128 tile × wave at decode-size M = 128, both at TP1 on '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gpu')))
    yield '.)\nFLOP-weighted GEMM efficiency on '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gpu')))
    yield ': '
    l_1_loop = missing
    for (l_1_tp, l_1_e), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'flop_weighted_efficiency'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield 'TP'
        yield str(environment.finalize(l_1_tp))
        yield ' '
        yield str(environment.finalize(t_3(l_1_e, 3)))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_tp = l_1_e = missing
    yield '. TP1 by GPU: '
    l_1_loop = missing
    for (l_1_g, l_1_e), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'efficiency_by_gpu'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_g))
        yield ' '
        yield str(environment.finalize(t_3(l_1_e, 3)))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_g = l_1_e = missing
    yield '.\n\nVocabulary '
    yield str(environment.finalize(t_13(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vocab_size'))))
    yield ': vLLM pads to '
    yield str(environment.finalize(t_13(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_padded'))))
    yield ' ('
    yield str(environment.finalize(t_3(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_waste_pct'), 2)))
    yield '% padded rows)'
    def t_29(fiter):
        for (l_1_tp, l_1_rows) in fiter:
            if ((l_1_tp > 1) and (l_1_tp <= 8)):
                yield (l_1_tp, l_1_rows)
    l_1_loop = missing
    for (l_1_tp, l_1_rows), l_1_loop in LoopContext(t_29(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'per_tp_rows'), 'items'))), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield ', lm_head rows per rank'
        yield ' TP'
        yield str(environment.finalize(l_1_tp))
        yield ' '
        yield str(environment.finalize(t_13(l_1_rows)))
    l_1_loop = l_1_tp = l_1_rows = missing
    yield '; Megatron-style padding at TP8: '
    yield str(environment.finalize((t_13(environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'megatron_padded'), 8)) if (8 in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'megatron_padded')) else '–')))
    yield '.\n\nKey widths: '
    l_1_loop = missing
    for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'dims'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_k))
        yield ' '
        yield str(environment.finalize(t_13(l_1_v)))
        yield ' ('
        yield str(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'dim_alignment'), l_1_k)))
        yield ')'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_k = l_1_v = missing
    yield '. Width/depth (hidden / blocks, rule G7): '
    yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'width_depth'), 1)))
    yield '.\n\n### Parallelism\n\n\n| TP | heads | KV heads | valid | dense I/TP | expert I/TP | notes |\n|---:|---|---|---|---:|---:|---|\n'
    for l_1_r in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'tp'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_r, 'tp')))
        yield ' | '
        yield str(environment.finalize(t_11(environment.getattr(l_1_r, 'heads_ok'))))
        yield ' | '
        yield str(environment.finalize(environment.getattr(l_1_r, 'kv_mode')))
        if environment.getattr(l_1_r, 'kv_heads_per_gpu'):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_1_r, 'kv_heads_per_gpu')))
            yield '/GPU)'
        yield ' | '
        yield str(environment.finalize(t_11(environment.getattr(l_1_r, 'valid'))))
        yield ' | '
        yield str(environment.finalize((t_13(environment.getattr(l_1_r, 'mlp_shard')) if environment.getattr(l_1_r, 'mlp_shard') else '–')))
        yield ' | '
        yield str(environment.finalize((t_13(environment.getattr(l_1_r, 'expert_shard')) if environment.getattr(l_1_r, 'expert_shard') else '–')))
        yield ' | '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(l_1_r, 'notes'), '; ')))
        yield ' |\n'
    l_1_r = missing
    yield '\n'
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'ep'):
        pass
        yield 'EP (experts divide evenly): '
        l_1_loop = missing
        for (l_1_e, l_1_ok), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'ep'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield 'EP'
            yield str(environment.finalize(l_1_e))
            yield ' '
            yield str(environment.finalize(t_11(l_1_ok)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_e = l_1_ok = missing
        yield '. DeepEP hidden size: '
        yield str(environment.finalize(t_11(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'deepep_hidden_ok'))))
        yield '.\n\n'
    yield "PP (layers divide evenly; heaviest stage / mean with vLLM's split): "
    l_1_loop = missing
    for (l_1_pp, l_1_ok), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield 'PP'
        yield str(environment.finalize(l_1_pp))
        yield ' '
        yield str(environment.finalize(t_11(l_1_ok)))
        if (l_1_pp in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance')):
            pass
            yield ' '
            yield str(environment.finalize(t_3(environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance'), l_1_pp), 2)))
            yield '×'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_pp = l_1_ok = missing
    yield '.\n\nLayouts on one 8-GPU node and larger (✔ clean: valid heads, no KV replication, balanced stages, experts divide):\n\n| GPUs | '
    for l_1_n in [8, 16, 32, 64]:
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_n))
        yield ' | '
    l_1_n = missing
    yield '\n|---|---|---|---|---|\n| layouts | '
    l_1_loop = missing
    for l_1_n, l_1_loop in LoopContext([8, 16, 32, 64], undefined):
        _loop_vars = {}
        pass
        def t_30(fiter):
            for l_2_l in fiter:
                if (environment.getattr(l_2_l, 'n_gpus') == l_1_n):
                    yield l_2_l
        l_2_loop = missing
        for l_2_l, l_2_loop in LoopContext(t_30(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'layouts')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_11(environment.getattr(l_2_l, 'clean'))))
            yield ' TP'
            yield str(environment.finalize(environment.getattr(l_2_l, 'tp')))
            if (environment.getattr(l_2_l, 'pp') > 1):
                pass
                yield '×PP'
                yield str(environment.finalize(environment.getattr(l_2_l, 'pp')))
            if (environment.getattr(l_2_l, 'ep') > 1):
                pass
                yield ' EP'
                yield str(environment.finalize(environment.getattr(l_2_l, 'ep')))
            if environment.getattr(l_2_l, 'notes'):
                pass
                yield ' ('
                yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(l_2_l, 'notes'), '; ')))
                yield ')'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '<br>'
        l_2_loop = l_2_l = missing
        yield ' | '
    l_1_loop = l_1_n = missing
    yield '\n### Attention kernels\n\n('
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism')))
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'head_dim'):
        pass
        yield ', head_dim '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'head_dim')))
    yield '): FlashAttention-2 '
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa2')))
    yield ' · FA3 '
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa3')))
    yield ' · FA4 on Blackwell '
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'fa4_blackwell')))
    yield ' · FlashInfer head_dim '
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'flashinfer_head_dim')))
    yield ', group '
    yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'flashinfer_group')))
    if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mla_kernel'):
        pass
        yield ' · FlashMLA '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mla_kernel')))
    yield '.\n\n## Quantization readiness\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'):
        pass
        yield 'Checkpoint: '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'format')))
        yield ' via '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'method')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'):
            pass
            yield ', block '
            yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'), '×')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size'):
            pass
            yield ', group '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'):
            pass
            yield '; mixed precision: '
            l_1_loop = missing
            for (l_1_a, l_1_n), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield str(environment.finalize(l_1_a))
                yield ' '
                yield str(environment.finalize(t_13(l_1_n)))
                yield ' layers'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_a = l_1_n = missing
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'):
            pass
            yield '; left unquantized: '
            yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'), ', ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'):
            pass
            yield ' Runs as stored at TP '
            l_1_loop = missing
            for (l_1_eng, l_1_tps), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield str(environment.finalize((t_7(context.eval_ctx, l_1_tps, '/') or 'none')))
                yield ' ('
                yield str(environment.finalize(l_1_eng))
                yield ')'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_eng = l_1_tps = missing
            yield '.'
        yield '\n\n'
    yield "vLLM's shape checks per TP shard (✔ ready · ◐ runs with padding or a slower kernel · ✘ refused)"
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model'), 'moe'):
        pass
        yield '; "EP" = experts whole on each rank (expert parallelism)'
    yield ':\n\n| format | '
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield 'TP'
        yield str(environment.finalize(l_1_tp))
        yield ' | '
    l_1_tp = missing
    yield 'needs | rule | first blocker |\n|---|'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '---|'
    l_1_tp = missing
    yield '---|---|---|\n'
    for l_1_fmt in ['fp8', 'fp8_block', 'nvfp4', 'mxfp4', 'int4', 'int8']:
        l_1_rows = l_1_blockers = missing
        _loop_vars = {}
        pass
        l_1_rows = t_9(context.eval_ctx, t_15(context, t_15(context, t_15(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), 'format', 'equalto', l_1_fmt), 'engine', 'equalto', 'vllm'), 'tp', 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')))
        _loop_vars['rows'] = l_1_rows
        l_1_blockers = (t_9(context.eval_ctx, t_10(context, t_15(context, t_15(context, (undefined(name='rows') if l_1_rows is missing else l_1_rows), 'status', 'equalto', 'not_ready'), 'reason'), attribute='reason')) + t_9(context.eval_ctx, t_10(context, t_15(context, t_15(context, (undefined(name='rows') if l_1_rows is missing else l_1_rows), 'status', 'equalto', 'padded'), 'reason'), attribute='reason')))
        _loop_vars['blockers'] = l_1_blockers
        yield '| '
        yield str(environment.finalize(l_1_fmt))
        yield ' | '
        for l_2_e in (undefined(name='rows') if l_1_rows is missing else l_1_rows):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_16(environment.getattr(l_2_e, 'status'))))
            if (environment.getattr(l_2_e, 'ep_status') and (environment.getattr(l_2_e, 'ep_status') != environment.getattr(l_2_e, 'status'))):
                pass
                yield ' (EP '
                yield str(environment.finalize(t_16(environment.getattr(l_2_e, 'ep_status'))))
                yield ')'
            yield ' | '
        l_2_e = missing
        yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), 0), 'min_gpu')))
        yield ' | '
        yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), 0), 'rule')))
        yield ' | '
        yield str(environment.finalize((environment.getitem((undefined(name='blockers') if l_1_blockers is missing else l_1_blockers), 0) if (undefined(name='blockers') if l_1_blockers is missing else l_1_blockers) else '')))
        yield ' |\n'
    l_1_fmt = l_1_rows = l_1_blockers = missing
    yield '\n'
    l_0_diffs = []
    context.vars['diffs'] = l_0_diffs
    context.exported_vars.add('diffs')
    def t_31(fiter):
        for l_1_e in fiter:
            if (((environment.getattr(l_1_e, 'engine') != 'vllm') and (environment.getattr(l_1_e, 'tp') in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'))) and (environment.getattr(l_1_e, 'rule') != 'T1')):
                yield l_1_e
    for l_1_e in t_31(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix')):
        _loop_vars = {}
        pass
        def t_32(fiter):
            for l_2_v in fiter:
                if ((((environment.getattr(l_2_v, 'engine') == 'vllm') and (environment.getattr(l_2_v, 'format') == environment.getattr(l_1_e, 'format'))) and (environment.getattr(l_2_v, 'tp') == environment.getattr(l_1_e, 'tp'))) and (environment.getattr(l_2_v, 'status') != environment.getattr(l_1_e, 'status'))):
                    yield l_2_v
        for l_2_v in t_32(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix')):
            l_2__ = missing
            _loop_vars = {}
            pass
            l_2__ = context.call(environment.getattr((undefined(name='diffs') if l_0_diffs is missing else l_0_diffs), 'append'), l_1_e, _loop_vars=_loop_vars)
            _loop_vars['_'] = l_2__
        l_2_v = l_2__ = missing
    l_1_e = missing
    if (undefined(name='diffs') if l_0_diffs is missing else l_0_diffs):
        pass
        yield 'Where other engines differ from vLLM:\n'
        for l_1_e in (undefined(name='diffs') if l_0_diffs is missing else l_0_diffs):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(environment.getattr(l_1_e, 'engine')))
            yield ' '
            yield str(environment.finalize(environment.getattr(l_1_e, 'format')))
            yield ' TP'
            yield str(environment.finalize(environment.getattr(l_1_e, 'tp')))
            yield ': '
            yield str(environment.finalize(t_16(environment.getattr(l_1_e, 'status'))))
            yield ' — '
            yield str(environment.finalize((environment.getattr(l_1_e, 'reason') or '')))
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_1_e, 'basis')))
            yield ')\n'
        l_1_e = missing
    else:
        pass
        yield "SGLang and TensorRT-LLM give the same verdicts (SGLang's FP8-block and NVFP4 checks and TensorRT-LLM's ModelOpt AWQ/NVFP4 export checks are read from source; their other kernels are assumed to match vLLM).\n"
    yield '\n'
    if (not t_19(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'))):
        pass
        yield 'Hub: '
        yield str(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'))))
        if (t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')) >= 20):
            pass
            yield '+'
        yield ' quantized derivatives declare this model as their base'
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'):
            pass
            yield ' ('
            yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')[:5], ', ')))
            if (t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')) > 5):
                pass
                yield ', …'
            yield ')'
        yield '; weights stored as '
        yield str(environment.finalize((t_7(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'weight_formats'), ', ') or 'unknown')))
        yield '.\n\n'
    yield str(environment.finalize(t_3((environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'unquantized_share') * 100), 1)))
    yield '% of GEMM weights stay BF16 under every recipe (rule Q7): '
    yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'unquantized'), ', ')))
    yield '; embeddings are lookups and stay BF16 too.\n\n## Serving regimes\n'
    t_33 = 1
    for (l_1_gpu, l_1_results) in context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'items')):
        l_1_launches = l_1_fr = missing
        _loop_vars = {}
        pass
        yield '**'
        yield str(environment.finalize(l_1_gpu))
        yield ', '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights, '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ' KV, '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' profile**\n\n| regime | workload | layout | TTFT | TPOT/ITL | tok/s/user | tok/s/GPU | memory/GPU | bound | $/1M out |\n|---|---|---|---:|---:|---:|---:|---:|---|---:|\n'
        for l_2_r in l_1_results:
            l_2_x = resolve('x')
            _loop_vars = {}
            pass
            if environment.getattr(l_2_r, 'prediction'):
                pass
                l_2_x = environment.getattr(l_2_r, 'prediction')
                _loop_vars['x'] = l_2_x
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ' | '
                yield str(environment.finalize(t_13(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'concurrency'))))
                yield ' × '
                yield str(environment.finalize(t_13(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'isl'))))
                yield ' in / '
                yield str(environment.finalize(t_13(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'osl'))))
                yield ' out | '
                yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'layout')))
                if (environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes') > 1):
                    pass
                    yield ' ('
                    yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes')))
                    yield ' nodes)'
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'ttft_ms'), 1)))
                yield ' ms | '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tpot_ms'), 2)))
                yield ' ms | '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tokens_per_s_per_user'), 1)))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'output_tokens_per_s_per_gpu'), 0)))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'memory_per_gpu_gib'), 1)))
                yield ' GiB | '
                yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'bound')))
                yield ' | '
                yield str(environment.finalize((str_join(('$', t_5('%.3f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens')), )) if environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens') else '–')))
                yield ' |\n'
            else:
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_r, 'concurrency')))
                yield ' × '
                yield str(environment.finalize(t_13(environment.getattr(l_2_r, 'isl'))))
                yield ' in / '
                yield str(environment.finalize(t_13(environment.getattr(l_2_r, 'osl'))))
                yield ' out | '
                yield str(environment.finalize(environment.getattr(l_2_r, 'note')))
                yield ' | – | – | – | – | – | – | – |\n'
        l_2_r = l_2_x = missing
        yield '\n'
        def t_34(fiter):
            for l_2_r in fiter:
                if (environment.getattr(l_2_r, 'prediction') and environment.getattr(l_2_r, 'note')):
                    yield l_2_r
        for l_2_r in t_34(l_1_results):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_2_r, 'note')))
            yield '\n'
        l_2_r = missing
        yield '\n'
        l_1_launches = t_9(context.eval_ctx, t_15(context, l_1_results, 'launch'))
        _loop_vars['launches'] = l_1_launches
        if ((undefined(name='launches') if l_1_launches is missing else l_1_launches) and environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'argv')):
            pass
            yield 'Launch commands ('
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'engine')))
            yield ' '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'version')))
            yield '; flags as its CLI spells them):\n\n'
            def t_35(fiter):
                for l_2_r in fiter:
                    if environment.getattr(environment.getattr(l_2_r, 'launch'), 'argv'):
                        yield l_2_r
            for l_2_r in t_35((undefined(name='launches') if l_1_launches is missing else l_1_launches)):
                _loop_vars = {}
                pass
                yield '- '
                yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ':\n  ```\n  '
                yield str(environment.finalize(t_17(environment.getattr(environment.getattr(l_2_r, 'launch'), 'text'))))
                yield '\n  ```\n'
                for l_3_n in environment.getattr(environment.getattr(l_2_r, 'launch'), 'notes'):
                    _loop_vars = {}
                    pass
                    yield '  '
                    yield str(environment.finalize(l_3_n))
                    yield '\n'
                l_3_n = missing
            l_2_r = missing
        elif (undefined(name='launches') if l_1_launches is missing else l_1_launches):
            pass
            yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'notes'), '; ')))
            yield '\n'
        yield '\n'
        l_1_fr = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'frontier'), 'get'), l_1_gpu, _loop_vars=_loop_vars)
        _loop_vars['fr'] = l_1_fr
        if ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'pareto')):
            pass
            yield 'Throughput vs interactivity on '
            yield str(environment.finalize(l_1_gpu))
            yield ' ('
            yield str(environment.finalize(t_13(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'isl'))))
            yield ' in / '
            yield str(environment.finalize(t_13(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'osl'))))
            yield ' out; Pareto frontier of '
            yield str(environment.finalize(t_8(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'points'))))
            yield ' layouts × concurrencies):\n\n'
            yield str(environment.finalize(t_12((undefined(name='fr') if l_1_fr is missing else l_1_fr))))
            yield '\n\n| layout | concurrency | tok/s/user | tok/s/GPU | TTFT | TPOT | $/1M out |\n|---|---:|---:|---:|---:|---:|---:|\n'
            for l_2_x in environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'pareto'):
                _loop_vars = {}
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_x, 'layout')))
                if (environment.getattr(l_2_x, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield str(environment.finalize(environment.getattr(l_2_x, 'nodes')))
                    yield ' nodes)'
                yield ' | '
                yield str(environment.finalize(t_13(environment.getattr(l_2_x, 'concurrency'))))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr(l_2_x, 'tokens_per_s_per_user'), 1)))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr(l_2_x, 'output_tokens_per_s_per_gpu'), 0)))
                yield ' | '
                yield str(environment.finalize(t_3(environment.getattr(l_2_x, 'ttft_ms'), 1)))
                yield ' ms | '
                yield str(environment.finalize(t_3(environment.getattr(l_2_x, 'tpot_ms'), 2)))
                yield ' ms | '
                yield str(environment.finalize((str_join(('$', t_5('%.3f', environment.getattr(l_2_x, 'usd_per_1m_output_tokens')), )) if environment.getattr(l_2_x, 'usd_per_1m_output_tokens') else '–')))
                yield ' |\n'
            l_2_x = missing
            yield '\n'
        elif ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')):
            pass
            yield 'Throughput vs interactivity on '
            yield str(environment.finalize(l_1_gpu))
            yield ': not computed ('
            yield str(environment.finalize(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')))
            yield ').\n\n'
        yield '\n'
        t_33 = 0
    l_1_gpu = l_1_results = l_1_launches = l_1_fr = missing
    if t_33:
        pass
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
        yield ' model: decoder serving regimes do not apply (rule S3).\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'):
        pass
        yield '**SLA search** ('
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'):
            pass
            yield 'TTFT ≤ '
            yield str(environment.finalize((t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'), 0) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms') >= 10) else t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'), 2))))
            yield ' ms'
        else:
            pass
            yield 'any TTFT'
        yield ', '
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'):
            pass
            yield 'ITL ≤ '
            yield str(environment.finalize((t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'), 1) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms') >= 1) else t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'), 2))))
            yield ' ms'
        else:
            pass
            yield 'any ITL'
        yield ', '
        yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'isl'))))
        yield ' in / '
        yield str(environment.finalize(t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'osl'))))
        yield ' out): '
        l_1_loop = missing
        for (l_1_g, l_1_x), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'best'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_g))
            yield ': '
            if l_1_x:
                pass
                yield str(environment.finalize(environment.getattr(l_1_x, 'layout')))
                if (environment.getattr(l_1_x, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield str(environment.finalize(environment.getattr(l_1_x, 'nodes')))
                    yield ' nodes)'
                yield ' at '
                yield str(environment.finalize(t_13(environment.getattr(l_1_x, 'concurrency'))))
                yield ' concurrent, '
                yield str(environment.finalize(t_3(environment.getattr(l_1_x, 'output_tokens_per_s_per_gpu'), 0)))
                yield ' tok/s/GPU'
                if environment.getattr(l_1_x, 'usd_per_1m_output_tokens'):
                    pass
                    yield ', $'
                    yield str(environment.finalize(t_5('%.3f', environment.getattr(l_1_x, 'usd_per_1m_output_tokens'))))
                    yield '/1M out'
            else:
                pass
                yield 'no layout meets the targets'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_g = l_1_x = missing
        yield '.\n\n'
    l_0_ee = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct')
    context.vars['ee'] = l_0_ee
    context.exported_vars.add('ee')
    if ((undefined(name='ee') if l_0_ee is missing else l_0_ee) and (not t_19(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'tpot_ms')))):
        pass
        yield 'Expected error (leave-one-model-out MdAPE of the calibration): TTFT ±'
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'ttft_ms'), 0)))
        yield '%, TPOT ±'
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'tpot_ms'), 0)))
        yield '%, tokens/s/GPU ±'
        yield str(environment.finalize(t_3(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'output_tokens_per_s_per_gpu'), 0)))
        yield '%.\n'
    else:
        pass
        yield 'Predictions are uncalibrated roofline estimates: no validated error bar (see assumptions).\n'
    yield '\n## Findings\n| rule | severity | finding |\n|---|---|---|\n'
    for l_1_f in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_f, 'rule')))
        yield ' | '
        yield str(environment.finalize(environment.getattr(l_1_f, 'severity')))
        yield ' | '
        yield str(environment.finalize(environment.getattr(l_1_f, 'message')))
        yield ' |\n'
    l_1_f = missing
    yield '\n## Recommendations\n'
    t_36 = 1
    for l_1_r in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        _loop_vars = {}
        pass
        yield '- '
        yield str(environment.finalize(environment.getattr(l_1_r, 'summary')))
        yield ' [rules '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(l_1_r, 'rules'), ', ')))
        yield ']\n'
        t_36 = 0
    l_1_r = missing
    if t_36:
        pass
        yield '- No width change recommended: no width within the search bounds (+6% MLP, +10% expert and hidden width, +2% vocabulary, rounded up to multiples of 64/128/256/1024) unlocks a quantization format at a valid TP degree or is predicted faster.\n'
    yield '\n## Score '
    yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'), 1)))
    yield '/100 ('
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    yield ')\n\nFor '
    yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
    yield ' at '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
    yield ' weights (alignment efficiency and serving economics depend on the GPU and precision; the other components do not).\n\n| component | weight | sub-score | points | inputs and deductions |\n|---|---:|---:|---:|---|\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'components'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_c, 'name')))
        yield ' | '
        yield str(environment.finalize(t_3(environment.getattr(l_1_c, 'weight'), 0)))
        yield ' | '
        yield str(environment.finalize(t_3(environment.getattr(l_1_c, 'value'), 2)))
        yield ' | '
        yield str(environment.finalize(t_3(environment.getattr(l_1_c, 'points'), 1)))
        yield ' | '
        yield str(environment.finalize(t_7(context.eval_ctx, environment.getattr(l_1_c, 'details'), '; ')))
        yield ' |\n'
    l_1_c = missing
    yield '\nWeights and credits: data/scoring.json.\n\n## Assumptions and sources\n'
    for l_1_a in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'assumptions'):
        _loop_vars = {}
        pass
        yield '- '
        yield str(environment.finalize(l_1_a))
        yield '\n'
    l_1_a = missing
    yield '\nSources: '
    l_1_loop = missing
    for l_1_src, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), undefined):
        _loop_vars = {}
        pass
        yield '['
        yield str(environment.finalize((t_17(environment.getattr(l_1_src, 'id')) if environment.getattr(l_1_src, 'trusted') else environment.getattr(l_1_src, 'id'))))
        yield '] '
        yield str(environment.finalize((t_17(environment.getattr(l_1_src, 'text')) if environment.getattr(l_1_src, 'trusted') else environment.getattr(l_1_src, 'text'))))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield '; '
    l_1_loop = l_1_src = missing
    yield '.\n\nGenerated by deploysheet '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'generator'), 'version')))
    yield ' on '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'generator'), 'date')))
    yield ' from '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'source')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' at commit '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')))
    yield '.\n'

blocks = {}
debug_info = '2=127&3=130&4=133&5=137&8=143&9=147&10=222&11=230&15=250&16=253&17=259&18=263&22=267&23=270&26=274&32=278&33=291&34=294&36=296&37=299&39=310&40=313&41=316&42=357&43=360&45=362&46=365&48=389&49=407&50=411&51=421&52=423&53=426&55=429&60=438&61=449&62=451&63=465&64=472&65=475&66=487&67=490&69=500&70=503&72=516&74=518&77=521&78=529&80=545&81=553&83=567&85=570&87=572&89=575&94=594&95=602&102=610&103=614&106=626&108=665&109=668&111=674&113=681&115=687&116=691&120=709&121=717&124=722&125=726&129=730&130=738&131=744&132=747&133=751&137=784&138=786&140=813&142=839&149=855&150=859&153=880&154=884&157=900&161=917&164=925&168=959&171=979&172=982&175=1031&177=1035&178=1043&179=1049&180=1053&181=1055&182=1058&185=1079&186=1082&187=1089&188=1097&191=1101&193=1104&194=1108&200=1125&201=1128&204=1144&207=1149&208=1154&212=1162&213=1166&214=1168&215=1171&217=1203&221=1215&222=1223&225=1229&226=1231&227=1234&229=1238&230=1246&232=1248&234=1250&235=1254&238=1258&239=1260&242=1263&243=1265&244=1268&246=1276&250=1278&251=1282&254=1303&255=1306&260=1315&262=1317&263=1320&266=1374&267=1377&268=1380&276=1390&277=1394&281=1403&282=1407&287=1417&289=1421&293=1425&294=1429&300=1441&301=1445&304=1450&306=1462'