from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_r = resolve('r')
    l_0_w = l_0_status_text = missing
    try:
        t_1 = environment.filters['bn']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'bn' found.")
    try:
        t_2 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
    try:
        t_3 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
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
        t_7 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_8 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_9 = environment.filters['trusted']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'trusted' found.")
    try:
        t_10 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    try:
        t_11 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_11(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_w = environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'workload')
    context.vars['w'] = l_0_w
    context.exported_vars.add('w')
    l_0_status_text = {'ok': 'meets the targets', 'misses_targets': 'misses the targets', 'does_not_fit': 'does not fit', 'context_too_long': 'context too long', 'not_servable': 'not a generation model', 'engine_refuses': 'the engine refuses every layout tried'}
    context.vars['status_text'] = l_0_status_text
    context.exported_vars.add('status_text')
    yield '# Serving comparison — '
    yield str(environment.finalize(t_5(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'))))
    yield ' models\n\n**Workload:** '
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' requests/s · '
    yield str(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'isl'))))
    yield ' input / '
    yield str(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'osl'))))
    yield ' output tokens per request ('
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'output_tokens_per_s'), 0)))
    yield ' output tokens/s) · '
    yield str(environment.finalize((str_join(('TTFT ≤ ', t_3('%g', environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'ttft_ms')), ' ms', )) if environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'ttft_ms') else 'no TTFT target')))
    yield ' · '
    yield str(environment.finalize((str_join(('ITL ≤ ', t_3('%g', environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'itl_ms')), ' ms', )) if environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'itl_ms') else 'no ITL target')))
    yield ' · '
    yield str(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'framework')))
    yield ' · GPUs: '
    l_1_loop = missing
    for l_1_g, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'gpus'), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(environment.getattr(l_1_g, 'gpu')))
        yield ' ('
        yield str(environment.finalize((t_3('$%.2f/h', environment.getattr(l_1_g, 'usd_per_hour')) if environment.getattr(l_1_g, 'usd_per_hour') else 'no price')))
        yield ')'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_g = missing
    yield '\n\n## Recommendation\n\n**'
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'headline')))
    yield '**\n\n'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'ranking'):
        pass
        l_1_loop = missing
        for l_1_line, l_1_loop in LoopContext(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'ranking'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(environment.getattr(l_1_loop, 'index')))
            yield '. '
            yield str(environment.finalize(l_1_line))
            yield '\n'
        l_1_loop = l_1_line = missing
        yield '\n'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'caveats'):
        pass
        yield 'Caveats:\n\n'
        for l_1_c in environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'caveats'):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(l_1_c))
            yield '\n'
        l_1_c = missing
        yield '\n'
    yield '## Side by side\n\n| |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield ' |'
    l_1_m = missing
    yield '\n|---|'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '---|'
    l_1_m = missing
    yield '\n| parameters |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize(t_1(environment.getattr(l_1_m, 'params_total'))))
        if environment.getattr(l_1_m, 'moe'):
            pass
            yield ' ('
            yield str(environment.finalize(t_1(environment.getattr(l_1_m, 'params_active'))))
            yield ' active)'
        yield ' |'
    l_1_m = missing
    yield '\n| weights |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize(t_2(environment.getattr(l_1_m, 'weights_gib'), 1)))
        yield ' GiB at '
        yield str(environment.finalize(environment.getattr(l_1_m, 'precision')))
        if (environment.getattr(l_1_m, 'precision') != 'bf16'):
            pass
            yield ' ('
            yield str(environment.finalize(t_2(environment.getattr(l_1_m, 'weights_bf16_gib'), 1)))
            yield ' GiB BF16)'
        yield ' |'
    l_1_m = missing
    yield '\n| KV cache per token |'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield ' '
        if t_11(environment.getattr(l_1_m, 'kv_bytes_per_token')):
            pass
            yield '– (not a decoder)'
        else:
            pass
            if (t_5(t_6(context.eval_ctx, t_10(environment, context.call(environment.getattr(environment.getattr(l_1_m, 'kv_dtype_by_gpu'), 'values'), _loop_vars=_loop_vars)))) > 1):
                pass
                l_2_loop = missing
                for (l_2_g, l_2_kv), l_2_loop in LoopContext(context.call(environment.getattr(environment.getattr(l_1_m, 'kv_dtype_by_gpu'), 'items'), _loop_vars=_loop_vars), undefined):
                    _loop_vars = {}
                    pass
                    if (not environment.getattr(l_2_loop, 'first')):
                        pass
                        yield ' · '
                    yield str(environment.finalize(t_7(environment.getitem(environment.getattr(l_1_m, 'kv_bytes_per_token_by_gpu'), l_2_g))))
                    yield ' B ('
                    yield str(environment.finalize(l_2_kv))
                    yield ' on '
                    yield str(environment.finalize(l_2_g))
                    yield ')'
                l_2_loop = l_2_g = l_2_kv = missing
            else:
                pass
                yield str(environment.finalize(t_7(environment.getattr(l_1_m, 'kv_bytes_per_token'))))
                yield ' B ('
                yield str(environment.finalize(environment.getattr(l_1_m, 'kv_dtype')))
                yield ')'
        yield ' |'
    l_1_loop = l_1_m = missing
    yield '\n| context |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize(t_7(environment.getattr(l_1_m, 'max_positions'))))
        yield ' tokens |'
    l_1_m = missing
    yield '\n| checkpoint quantization |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize((environment.getattr(l_1_m, 'checkpoint_quantization') or 'none')))
        yield ' |'
    l_1_m = missing
    yield '\n| quantization ready ('
    yield str(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'framework')))
    yield ', TP) |'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield ' '
        l_2_loop = missing
        for (l_2_f, l_2_tps), l_2_loop in LoopContext(context.call(environment.getattr(environment.getattr(l_1_m, 'quant_ready'), 'items'), _loop_vars=_loop_vars), undefined):
            l_2_pad = l_2_ep = missing
            _loop_vars = {}
            pass
            l_2_pad = (context.call(environment.getattr(environment.getattr(l_1_m, 'quant_padded'), 'get'), l_2_f, _loop_vars=_loop_vars) or [])
            _loop_vars['pad'] = l_2_pad
            l_2_ep = (context.call(environment.getattr(environment.getattr(l_1_m, 'quant_ep_ready'), 'get'), l_2_f, _loop_vars=_loop_vars) or [])
            _loop_vars['ep'] = l_2_ep
            yield str(environment.finalize(l_2_f))
            yield ' '
            yield str(environment.finalize((t_4(context.eval_ctx, l_2_tps, ',') if l_2_tps else ('' if ((undefined(name='pad') if l_2_pad is missing else l_2_pad) or (undefined(name='ep') if l_2_ep is missing else l_2_ep)) else '✘'))))
            if (undefined(name='ep') if l_2_ep is missing else l_2_ep):
                pass
                if l_2_tps:
                    pass
                    yield ' '
                yield 'EP '
                yield str(environment.finalize(t_4(context.eval_ctx, (undefined(name='ep') if l_2_ep is missing else l_2_ep), ',')))
            if (undefined(name='pad') if l_2_pad is missing else l_2_pad):
                pass
                if (l_2_tps or (undefined(name='ep') if l_2_ep is missing else l_2_ep)):
                    pass
                    yield ' '
                yield 'padded '
                yield str(environment.finalize(t_4(context.eval_ctx, (undefined(name='pad') if l_2_pad is missing else l_2_pad), ',')))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield ' · '
        l_2_loop = l_2_f = l_2_tps = l_2_pad = l_2_ep = missing
        yield ' |'
    l_1_loop = l_1_m = missing
    yield '\n| cheapest deployment |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        if environment.getattr(l_1_m, 'best'):
            pass
            yield str(environment.finalize(t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'num_gpus'))))
            yield '× '
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu')))
            yield ' ('
            yield str(environment.finalize(t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'replicas'))))
            yield ' × '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'layout')))
            yield ', up to '
            yield str(environment.finalize(t_7(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'concurrency'))))
            yield ' concurrent each)'
        else:
            pass
            yield 'none'
        yield ' |'
    l_1_m = missing
    yield '\n| TTFT · ITL |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        if environment.getattr(l_1_m, 'best'):
            pass
            yield str(environment.finalize(t_2(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'ttft_ms'), 0)))
            yield ' ms · '
            yield str(environment.finalize(t_2(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'tpot_ms'), 1)))
            yield ' ms'
        else:
            pass
            yield '–'
        yield ' |'
    l_1_m = missing
    yield '\n| GPUs for '
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' req/s |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize((t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'num_gpus')) if environment.getattr(l_1_m, 'best') else '–')))
        yield ' |'
    l_1_m = missing
    yield '\n| $ per month |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize((str_join(('$', t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month'), 0), )) if (environment.getattr(l_1_m, 'best') and (not t_11(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month')))) else '–')))
        yield ' |'
    l_1_m = missing
    yield '\n| $ per 1M output tokens (load · capacity) |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        if (environment.getattr(l_1_m, 'best') and (not t_11(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month')))):
            pass
            yield '$'
            yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_1m_tokens_load'), 3)))
            yield ' · $'
            yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_1m_tokens_capacity'), 3)))
        else:
            pass
            yield '–'
        yield ' |'
    l_1_m = missing
    yield '\n| license |'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield ' '
        yield str(environment.finalize((environment.getattr(l_1_m, 'license') or ('not stated' if (environment.getattr(l_1_m, 'source_kind') == 'hub') else 'not checked (local)'))))
        yield ' |'
    l_1_m = missing
    yield '\n| risks |'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        l_1_rk = missing
        _loop_vars = {}
        pass
        yield ' '
        l_1_rk = t_6(context.eval_ctx, t_8(context, environment.getattr(l_1_m, 'risks'), 'severity', 'equalto', 'info'))
        _loop_vars['rk'] = l_1_rk
        l_2_loop = missing
        t_12 = 1
        for l_2_x, l_2_loop in LoopContext((undefined(name='rk') if l_1_rk is missing else l_1_rk), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(environment.getattr(l_2_x, 'kind')))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield ', '
            t_12 = 0
        l_2_loop = l_2_x = missing
        if t_12:
            pass
            yield 'none'
        yield ' |'
    l_1_loop = l_1_m = l_1_rk = missing
    yield '\n\n## Deployments by GPU\n\nOn each GPU, the layout and concurrency meeting the targets at '
    yield str(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'isl'))))
    yield '/'
    yield str(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'osl'))))
    yield ' tokens with the fewest GPUs for '
    yield str(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' requests/s (then the most output tokens/s/GPU).\n\n| model | GPU | layout | concurrency | TTFT ms | ITL ms | tokens/s/GPU | req/s per replica | replicas | GPUs | $/month | $/1M out (load) | $/1M out (capacity) | expected error (TTFT · ITL · tok/s) |\n|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        l_2_loop = missing
        for l_2_d, l_2_loop in LoopContext(environment.getattr(l_1_m, 'deployments'), undefined):
            l_2_e = missing
            _loop_vars = {}
            pass
            l_2_e = environment.getattr(l_2_d, 'expected_error_pct')
            _loop_vars['e'] = l_2_e
            if environment.getattr(l_2_d, 'prediction'):
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_1_m, 'name')))
                if (environment.getattr(l_1_m, 'best') and (environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu') == environment.getattr(l_2_d, 'gpu'))):
                    pass
                    yield ' ★'
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_d, 'gpu')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'layout')))
                yield ' | '
                yield str(environment.finalize(t_7(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'concurrency'))))
                yield ' | '
                yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'ttft_ms'), 0)))
                yield ' | '
                yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'tpot_ms'), 1)))
                yield ' | '
                yield str(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'output_tokens_per_s_per_gpu'), 0)))
                yield ' | '
                yield str(environment.finalize(t_2(environment.getattr(l_2_d, 'requests_per_s_per_replica'), 2)))
                yield ' | '
                yield str(environment.finalize(t_7(environment.getattr(l_2_d, 'replicas'))))
                yield ' | '
                yield str(environment.finalize(t_7(environment.getattr(l_2_d, 'num_gpus'))))
                yield ' | '
                yield str(environment.finalize((str_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_month'), 0), )) if (not t_11(environment.getattr(l_2_d, 'usd_per_month'))) else '–')))
                yield ' | '
                yield str(environment.finalize((str_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_1m_tokens_load'), 3), )) if (not t_11(environment.getattr(l_2_d, 'usd_per_1m_tokens_load'))) else '–')))
                yield ' | '
                yield str(environment.finalize((str_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_1m_tokens_capacity'), 3), )) if (not t_11(environment.getattr(l_2_d, 'usd_per_1m_tokens_capacity'))) else '–')))
                yield ' | '
                l_3_loop = missing
                for l_3_k, l_3_loop in LoopContext(('ttft_ms', 'tpot_ms', 'output_tokens_per_s_per_gpu'), undefined):
                    _loop_vars = {}
                    pass
                    yield str(environment.finalize((t_3('±%.0f%%', environment.getitem((undefined(name='e') if l_2_e is missing else l_2_e), l_3_k)) if (not t_11(context.call(environment.getattr((undefined(name='e') if l_2_e is missing else l_2_e), 'get'), l_3_k, _loop_vars=_loop_vars))) else '–')))
                    if (not environment.getattr(l_3_loop, 'last')):
                        pass
                        yield ' · '
                l_3_loop = l_3_k = missing
                yield ' |\n'
            else:
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_1_m, 'name')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_d, 'gpu')))
                yield ' | '
                yield str(environment.finalize(environment.getitem((undefined(name='status_text') if l_0_status_text is missing else l_0_status_text), environment.getattr(l_2_d, 'status'))))
                yield ': '
                yield str(environment.finalize(environment.getattr(l_2_d, 'note')))
                yield ' | | | | | | | | | | | |\n'
        l_2_loop = l_2_d = l_2_e = missing
    l_1_loop = l_1_m = missing
    yield "\n★ the model's cheapest deployment. Predictions from the cost model ("
    yield str(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'calibration')))
    yield "); the expected error is the calibration's leave-one-model-out median error on each GPU.\n\n"
    def t_13(fiter):
        for l_1_m in fiter:
            if ((environment.getattr(l_1_m, 'best') and environment.getattr(environment.getattr(l_1_m, 'best'), 'launch')) and environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'argv')):
                yield l_1_m
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(t_13(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models')), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield "Launch commands of each model's cheapest deployment ("
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'engine')))
            yield ' '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'version')))
            yield '; one per replica):\n\n'
        yield '- '
        yield str(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield ' on '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu')))
        yield ':\n  ```\n  '
        yield str(environment.finalize(t_9(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'text'))))
        yield '\n  ```\n'
    l_1_loop = l_1_m = missing
    yield '\n'
    if environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'skipped'):
        pass
        yield '## Not compared\n\n'
        for l_1_k in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'skipped'):
            _loop_vars = {}
            pass
            yield '- **'
            yield str(environment.finalize(environment.getattr(l_1_k, 'source')))
            yield '**: '
            yield str(environment.finalize(environment.getattr(l_1_k, 'reason')))
            yield '\n'
        l_1_k = missing
        yield '\n'
    yield '## Risks\n\n'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield '- **'
        yield str(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield '**: '
        l_2_loop = missing
        t_14 = 1
        for l_2_x, l_2_loop in LoopContext(environment.getattr(l_1_m, 'risks'), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(environment.getattr(l_2_x, 'text')))
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_2_x, 'severity')))
            yield ')'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '; '
            t_14 = 0
        l_2_loop = l_2_x = missing
        if t_14:
            pass
            yield 'none found'
        yield '\n'
    l_1_loop = l_1_m = missing
    yield '\n## Assumptions\n\n'
    for l_1_a in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'assumptions'):
        _loop_vars = {}
        pass
        yield '- '
        yield str(environment.finalize(l_1_a))
        yield '\n'
    l_1_a = missing
    yield '\n<sub>deploysheet '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'generator'), 'version')))
    yield ' · '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'generator'), 'date')))
    yield '</sub>\n'

blocks = {}
debug_info = '2=79&3=82&4=86&6=88&11=115&13=117&14=120&15=123&19=129&22=132&23=136&29=141&31=149&33=155&35=168&37=184&39=218&41=226&43=234&45=274&47=296&49=312&51=322&53=330&55=346&57=355&62=379&66=386&67=390&68=394&69=396&70=399&72=441&77=452&79=454&80=462&83=470&85=474&89=478&92=481&93=485&99=493&100=497&106=519&107=523&110=527'