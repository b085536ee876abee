from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/summary.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_p = resolve('p')
    l_0_m = resolve('m')
    l_0_ck = resolve('ck')
    l_0_s = resolve('s')
    l_0_c0 = resolve('c0')
    try:
        t_1 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
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
        t_6 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_7 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_8 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_9 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_10 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_11 = environment.filters['wsize']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'wsize' found.")
    pass
    yield '| | value | source |\n|---|---|---|\n| parameters | '
    yield str(environment.finalize(t_9(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' total · '
    yield str(environment.finalize(t_9(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
    yield ' active per token'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    yield ' | counted from config ('
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class'):
        pass
        yield 'transformers '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class')))
        yield ' layout'
    else:
        pass
        yield 'raw keys, layout guessed'
    yield ')'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '; estimated: '
        yield str(environment.finalize(t_5(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
    yield ' |\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield '| vision tower | '
        yield str(environment.finalize(t_9(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' (not in total) | vision_config |\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'):
        pass
        yield '| MTP layers | '
        yield str(environment.finalize(t_9(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'))))
        yield ' (not in total'
        if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'):
            pass
            yield '; '
            yield str(environment.finalize(t_9(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'))))
            yield " of them are the checkpoint's copies of the embedding/lm_head, shared when served"
        else:
            pass
            yield '; embedding/lm_head shared'
        yield ') | num_nextn_predict_layers |\n'
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '| stored in the checkpoint | '
        yield str(environment.finalize(t_9(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'total'))))
        yield ' parameters ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_k))
            yield ' '
            yield str(environment.finalize(t_9(l_1_v)))
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
            yield str(environment.finalize(t_9(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'elements'))))
            yield ' scale elements'
        yield ' · '
        yield str(environment.finalize(t_4(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes'))))
        yield ' stored · '
        yield str(environment.finalize(t_3('%+.2f', environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'delta_pct'))))
        yield "% vs the config's "
        yield str(environment.finalize(t_9(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'config_total'))))
        if (environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp') or environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')):
            pass
            yield ' (MTP and vision included)'
        if (not environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'matches')):
            pass
            yield ': differs (rule C1)'
        yield ' | safetensors headers ('
        yield str(environment.finalize(t_6(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files'))))
        yield ' file'
        yield str(environment.finalize(('s' if (t_6(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files')) != 1) else '')))
        yield ') |\n'
    elif t_7(context.eval_ctx, t_10(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')):
        pass
        yield '| stored in the checkpoint | not read: '
        yield str(environment.finalize(environment.getattr(t_2(environment, t_10(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')), 'text')))
        yield ' | safetensors headers |\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'):
        pass
        yield '| Hub safetensors | '
        yield str(environment.finalize(t_9(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'stored_total'))))
        yield ' stored elements ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(l_1_k))
            yield ' '
            yield str(environment.finalize(t_9(l_1_v)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_k = l_1_v = missing
        yield ')'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'comparable'):
            pass
            yield ', '
            yield str(environment.finalize(t_3('%+.2f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'delta_pct'))))
            yield '% vs config'
        yield ': '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'note')))
        yield ' | Hub safetensors metadata |\n'
    yield '| weights | '
    l_1_loop = missing
    for l_1_w, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(t_11(l_1_w)))
        yield ' '
        yield str(environment.finalize(environment.getattr(l_1_w, 'precision')))
        if (environment.getattr(l_1_w, 'source') == 'checkpoint'):
            pass
            yield ' (stored)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_w = missing
    yield ' | params × bytes (scales included)'
    if t_7(context.eval_ctx, t_10(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 'source', 'equalto', 'checkpoint')):
        pass
        yield '; "stored": the checkpoint\'s bytes, language model'
    if (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights') and environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0), 'vision_bytes')):
        pass
        yield '; vision tower included at 16 bits ('
        yield str(environment.finalize(t_1((environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0), 'vision_bytes') / 1073741824), 1)))
        yield ' GiB)'
    yield ' |\n'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        l_0_c0 = environment.getitem(t_7(context.eval_ctx, context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'keys'))), 0)
        context.vars['c0'] = l_0_c0
        context.exported_vars.add('c0')
        yield '| KV cache | '
        yield str(environment.finalize(t_9(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
        yield ' B/token · '
        yield str(environment.finalize(t_4(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), (undefined(name='c0') if l_0_c0 is missing else l_0_c0)))))
        yield ' per '
        yield str(environment.finalize(t_9((undefined(name='c0') if l_0_c0 is missing else l_0_c0))))
        yield '-token sequence | '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy')))
        yield ' policy, '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield ' |\n'
    yield '| context | '
    yield str(environment.finalize(t_9(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions'))))
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
        def t_12(fiter):
            for (l_1_c, l_1_f) in fiter:
                if ((l_1_f != environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'format')) and (l_1_c in t_7(context.eval_ctx, t_8(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'gemms'), attribute='component')))):
                    yield (l_1_c, l_1_f)
        l_1_loop = missing
        for (l_1_c, l_1_f), l_1_loop in LoopContext(t_12(context.call(environment.getattr((environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'component_formats') or {}), 'items'))), undefined):
            _loop_vars = {}
            pass
            if environment.getattr(l_1_loop, 'first'):
                pass
                yield '; mixed: '
            else:
                pass
                yield ', '
            yield str(environment.finalize(l_1_c))
            yield ' '
            yield str(environment.finalize(l_1_f))
        l_1_loop = l_1_c = l_1_f = missing
    yield ' | config.json |\n'
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_base'):
        pass
        yield '| adapter | PEFT adapter'
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_rank'):
            pass
            yield ' of rank '
            yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_rank')))
        yield ' on base '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_base')))
        yield ": the counts, fit and predictions are the base model's"
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_refused'):
            pass
            yield '; vLLM refuses it: '
            yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_refused')))
        yield ' | adapter_config.json |\n'
    yield '\n'

blocks = {}
debug_info = '4=83&5=105&6=108&8=110&9=113&11=124&12=127&13=168&14=171&16=173&17=176&19=200&20=223&21=225&22=229&24=240&25=242&26=245&28=248&29=275&30=278'