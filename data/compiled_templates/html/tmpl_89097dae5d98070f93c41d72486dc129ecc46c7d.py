from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/summary.html.j2'

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
        t_1 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_2 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_3 = environment.filters['hb']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'hb' found.")
    try:
        t_4 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_5 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_6 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_7 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_8 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_9 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_10 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_11 = environment.filters['wsize']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No filter named 'wsize' found.")
    pass
    yield '<table>\n<tr><th></th><th>value</th><th>source</th></tr>\n<tr><th>parameters</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' total · '
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
    yield ' active per token'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    yield '</td><td>counted from config ('
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class'):
        pass
        yield 'transformers '
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class')))
        yield ' layout'
    else:
        pass
        yield 'raw keys, layout guessed'
    yield ')'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '; estimated: '
        yield escape(environment.finalize(t_4(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
    yield '</td></tr>\n'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield '<tr><th>vision tower</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' (not in total)</td><td>vision_config</td></tr>'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'):
        pass
        yield '<tr><th>MTP layers</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp'))))
        yield ' (not in total'
        if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'):
            pass
            yield '; '
            yield escape(environment.finalize(t_8(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp_copies'))))
            yield " of them are the checkpoint's copies of the embedding/lm_head, shared when served"
        else:
            pass
            yield '; embedding/lm_head shared'
        yield ')</td><td>num_nextn_predict_layers</td></tr>'
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
        yield escape(environment.finalize(t_3(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes'))))
        yield ' stored · '
        yield escape(environment.finalize(t_2('%+.2f', environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'delta_pct'))))
        yield "% vs the config's "
        yield escape(environment.finalize(t_8(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'config_total'))))
        if (environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp') or environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')):
            pass
            yield ' (MTP and vision included)'
        if (not environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'matches')):
            pass
            yield ': differs (rule C1)'
        yield '</td><td>safetensors headers ('
        yield escape(environment.finalize(t_5(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files'))))
        yield ' file'
        yield escape(environment.finalize(('s' if (t_5(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'files')) != 1) else '')))
        yield ')</td></tr>\n'
    elif t_6(context.eval_ctx, t_9(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')):
        pass
        yield '<tr><th>stored in the checkpoint</th><td>not read: '
        yield escape(environment.finalize(environment.getattr(t_1(environment, t_9(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sources'), 'id', 'equalto', 'checkpoint')), 'text')))
        yield '</td><td>safetensors headers</td></tr>'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'):
        pass
        yield '<tr><th>Hub safetensors</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'stored_total'))))
        yield ' stored elements ('
        l_1_loop = missing
        for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'by_dtype'), 'items')), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(l_1_k))
            yield ' '
            yield escape(environment.finalize(t_8(l_1_v)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ', '
        l_1_loop = l_1_k = l_1_v = missing
        yield ')'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'comparable'):
            pass
            yield ', '
            yield escape(environment.finalize(t_2('%+.2f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'delta_pct'))))
            yield '% vs config'
        yield ': '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hub_params'), 'note')))
        yield '</td><td>Hub safetensors metadata</td></tr>'
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_base'):
        pass
        yield '<tr><th>adapter</th><td>PEFT adapter'
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_rank'):
            pass
            yield ' of rank '
            yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_rank')))
        yield ' on base '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_base')))
        yield ": the counts, fit and predictions are the base model's"
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_refused'):
            pass
            yield '; vLLM refuses it: '
            yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'adapter_refused')))
        yield '</td><td>adapter_config.json</td></tr>\n'
    yield '<tr><th>weights</th><td>'
    l_1_loop = missing
    for l_1_w, l_1_loop in LoopContext(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(t_11(l_1_w)))
        yield ' '
        yield escape(environment.finalize(environment.getattr(l_1_w, 'precision')))
        if (environment.getattr(l_1_w, 'source') == 'checkpoint'):
            pass
            yield ' (stored)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_w = missing
    yield '</td><td>params × bytes (scales included)'
    if t_6(context.eval_ctx, t_9(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 'source', 'equalto', 'checkpoint')):
        pass
        yield '; "stored": the checkpoint\'s bytes, language model'
    if (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights') and environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0), 'vision_bytes')):
        pass
        yield '; vision tower included at 16 bits ('
        yield escape(environment.finalize(t_2('%.1f', (environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0), 'vision_bytes') / 1073741824))))
        yield ' GiB)'
    yield '</td></tr>\n'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        l_0_c0 = environment.getitem(t_6(context.eval_ctx, context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'keys'))), 0)
        context.vars['c0'] = l_0_c0
        context.exported_vars.add('c0')
        yield '<tr><th>KV cache</th><td>'
        yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
        yield ' B/token · '
        yield escape(environment.finalize(t_3(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), (undefined(name='c0') if l_0_c0 is missing else l_0_c0)))))
        yield ' per '
        yield escape(environment.finalize(t_8((undefined(name='c0') if l_0_c0 is missing else l_0_c0))))
        yield '-token sequence</td><td>'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy')))
        yield ' policy, '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        yield '</td></tr>\n'
    yield '<tr><th>context</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions'))))
    yield ' tokens</td><td>max_position_embeddings</td></tr>\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vision_note'):
        pass
        yield '<tr><th>vision tower</th><td>'
        yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vision_note')))
        yield '</td><td>config.json</td></tr>'
    yield '<tr><th>model_type</th><td>'
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
    yield ')</td><td>config.json</td></tr>\n<tr><th>architectures</th><td>'
    yield escape(environment.finalize((t_4(context.eval_ctx, environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'architectures'), ', ') or '–')))
    yield '</td><td>config.json</td></tr>\n<tr><th>layers</th><td>'
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
    yield '</td><td>config.json</td></tr>\n<tr><th>hidden · vocab</th><td>'
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'hidden_size'))))
    yield ' · '
    yield escape(environment.finalize(t_8(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vocab_size'))))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'tie_word_embeddings'):
        pass
        yield ' (tied embeddings)'
    yield '</td><td>config.json</td></tr>\n'
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
        yield '</td><td>config.json</td></tr>\n'
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
        yield escape(environment.finalize(t_10(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism'))))
        yield ')</td><td>config.json</td></tr>'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield '<tr><th>MoE</th><td>'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers')))
        yield ' MoE layer'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers') != 1):
            pass
            yield 's'
        yield ' · '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' expert'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts') != 1):
            pass
            yield 's'
        yield ' × '
        yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'expert_intermediate'))))
        yield ', top-'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'):
            pass
            yield ' · shared '
            yield escape(environment.finalize(t_8(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'))))
        yield '</td><td>config.json</td></tr>'
    yield '<tr><th>checkpoint</th><td>'
    yield escape(environment.finalize((environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'dtype') or '–')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'):
        pass
        yield ' · quantized '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'format')))
        yield ' ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'method')))
        yield ')'
        def t_12(fiter):
            for (l_1_c, l_1_f) in fiter:
                if ((l_1_f != environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'quantization'), 'format')) and (l_1_c in t_6(context.eval_ctx, t_7(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'gemms'), attribute='component')))):
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
            yield escape(environment.finalize(l_1_c))
            yield ' '
            yield escape(environment.finalize(l_1_f))
        l_1_loop = l_1_c = l_1_f = missing
    yield '</td><td>config.json</td></tr>\n</table>\n'

blocks = {}
debug_info = '5=83&6=105&7=110&8=124&9=168&10=173&11=198&12=215&13=238&14=255&15=257&16=263&17=274&18=276&19=290&20=297&21=312&22=325&23=349'