from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'report.html.j2'

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
        t_8 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    try:
        t_9 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_w = environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'workload')
    context.vars['w'] = l_0_w
    context.exported_vars.add('w')
    l_0_status_text = {'ok': 'meets the targets', 'misses_targets': 'misses the targets', 'does_not_fit': 'does not fit', 'context_too_long': 'context too long', 'not_servable': 'not a generation model', 'engine_refuses': 'the engine refuses every layout tried'}
    context.vars['status_text'] = l_0_status_text
    context.exported_vars.add('status_text')
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Serving comparison — '
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' vs '
    l_1_loop = l_1_m = missing
    yield '</title>\n<style>\nbody{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1b1f24}\nh1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}\ntable{border-collapse:collapse;margin:.6rem 0;font-size:13px}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}\nth{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}\n.card{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8rem 1rem}\n.rec{border-left:4px solid #175cd3;padding:.4rem .8rem;background:#eff8ff}.best{background:#ecfdf3}\n.high{color:#b42318;font-weight:600}.medium{color:#b54708}.info{color:#475467}.bad{color:#b42318}\nsmall{color:#475467}\npre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.5rem .8rem}\n</style>\n</head>\n<body>\n<h1>Serving comparison — '
    yield escape(environment.finalize(t_5(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'))))
    yield ' models</h1>\n<div class="card"><b>Workload:</b> '
    yield escape(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' requests/s · '
    yield escape(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'isl'))))
    yield ' input / '
    yield escape(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'osl'))))
    yield ' output tokens per request ('
    yield escape(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'output_tokens_per_s'), 0)))
    yield ' output tokens/s) · '
    yield escape(environment.finalize((markup_join(('TTFT ≤ ', t_3('%g', environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'ttft_ms')), ' ms', )) if environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'ttft_ms') else 'no TTFT target')))
    yield ' · '
    yield escape(environment.finalize((markup_join(('ITL ≤ ', t_3('%g', environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'itl_ms')), ' ms', )) if environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'itl_ms') else 'no ITL target')))
    yield ' · '
    yield escape(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'framework')))
    yield ' · GPUs: '
    l_1_loop = missing
    for l_1_g, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'gpus'), undefined):
        _loop_vars = {}
        pass
        yield escape(environment.finalize(environment.getattr(l_1_g, 'gpu')))
        yield ' ('
        yield escape(environment.finalize((t_3('$%.2f/h', environment.getattr(l_1_g, 'usd_per_hour')) if environment.getattr(l_1_g, 'usd_per_hour') else 'no price')))
        yield ')'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_g = missing
    yield '</div>\n\n<h2>Recommendation</h2>\n<div class="rec">\n<p><b>'
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'headline')))
    yield '</b></p>\n'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'ranking'):
        pass
        yield '<ol>'
        for l_1_line in environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'ranking'):
            _loop_vars = {}
            pass
            yield '<li>'
            yield escape(environment.finalize(l_1_line))
            yield '</li>'
        l_1_line = missing
        yield '</ol>'
    if environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'caveats'):
        pass
        yield '<p>Caveats:</p><ul>'
        for l_1_c in environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'recommendation'), 'caveats'):
            _loop_vars = {}
            pass
            yield '<li>'
            yield escape(environment.finalize(l_1_c))
            yield '</li>'
        l_1_c = missing
        yield '</ul>'
    yield '</div>\n\n<h2>Side by side</h2>\n<table>\n<tr><th></th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<th>'
        yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield '</th>'
    l_1_m = missing
    yield '</tr>\n<tr><th>parameters</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        yield escape(environment.finalize(t_1(environment.getattr(l_1_m, 'params_total'))))
        if environment.getattr(l_1_m, 'moe'):
            pass
            yield ' ('
            yield escape(environment.finalize(t_1(environment.getattr(l_1_m, 'params_active'))))
            yield ' active)'
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>weights</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        yield escape(environment.finalize(t_2(environment.getattr(l_1_m, 'weights_gib'), 1)))
        yield ' GiB at '
        yield escape(environment.finalize(environment.getattr(l_1_m, 'precision')))
        if (environment.getattr(l_1_m, 'precision') != 'bf16'):
            pass
            yield ' ('
            yield escape(environment.finalize(t_2(environment.getattr(l_1_m, 'weights_bf16_gib'), 1)))
            yield ' GiB BF16)'
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>KV cache per token</th>'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        if t_9(environment.getattr(l_1_m, 'kv_bytes_per_token')):
            pass
            yield '– (not a decoder)'
        else:
            pass
            if (t_5(t_6(context.eval_ctx, t_8(environment, context.call(environment.getattr(environment.getattr(l_1_m, 'kv_dtype_by_gpu'), 'values'), _loop_vars=_loop_vars)))) > 1):
                pass
                l_2_loop = missing
                for (l_2_g, l_2_kv), l_2_loop in LoopContext(context.call(environment.getattr(environment.getattr(l_1_m, 'kv_dtype_by_gpu'), 'items'), _loop_vars=_loop_vars), undefined):
                    _loop_vars = {}
                    pass
                    if (not environment.getattr(l_2_loop, 'first')):
                        pass
                        yield ' · '
                    yield escape(environment.finalize(t_7(environment.getitem(environment.getattr(l_1_m, 'kv_bytes_per_token_by_gpu'), l_2_g))))
                    yield ' B ('
                    yield escape(environment.finalize(l_2_kv))
                    yield ' on '
                    yield escape(environment.finalize(l_2_g))
                    yield ')'
                l_2_loop = l_2_g = l_2_kv = missing
            else:
                pass
                yield escape(environment.finalize(t_7(environment.getattr(l_1_m, 'kv_bytes_per_token'))))
                yield ' B ('
                yield escape(environment.finalize(environment.getattr(l_1_m, 'kv_dtype')))
                yield ')'
        yield '</td>'
    l_1_loop = l_1_m = missing
    yield '</tr>\n<tr><th>context</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        yield escape(environment.finalize(t_7(environment.getattr(l_1_m, 'max_positions'))))
        yield ' tokens</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>checkpoint quantization</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td>'
        yield escape(environment.finalize((environment.getattr(l_1_m, 'checkpoint_quantization') or 'none')))
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>quantization ready ('
    yield escape(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'framework')))
    yield ', TP)</th>'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield '<td>'
        l_2_loop = missing
        for (l_2_f, l_2_tps), l_2_loop in LoopContext(context.call(environment.getattr(environment.getattr(l_1_m, 'quant_ready'), 'items'), _loop_vars=_loop_vars), undefined):
            l_2_pad = l_2_ep = missing
            _loop_vars = {}
            pass
            l_2_pad = (context.call(environment.getattr(environment.getattr(l_1_m, 'quant_padded'), 'get'), l_2_f, _loop_vars=_loop_vars) or [])
            _loop_vars['pad'] = l_2_pad
            l_2_ep = (context.call(environment.getattr(environment.getattr(l_1_m, 'quant_ep_ready'), 'get'), l_2_f, _loop_vars=_loop_vars) or [])
            _loop_vars['ep'] = l_2_ep
            yield escape(environment.finalize(l_2_f))
            yield ' '
            yield escape(environment.finalize((t_4(context.eval_ctx, l_2_tps, ',') if l_2_tps else ('' if ((undefined(name='pad') if l_2_pad is missing else l_2_pad) or (undefined(name='ep') if l_2_ep is missing else l_2_ep)) else '✘'))))
            if (undefined(name='ep') if l_2_ep is missing else l_2_ep):
                pass
                if l_2_tps:
                    pass
                    yield ' '
                yield 'EP '
                yield escape(environment.finalize(t_4(context.eval_ctx, (undefined(name='ep') if l_2_ep is missing else l_2_ep), ',')))
            if (undefined(name='pad') if l_2_pad is missing else l_2_pad):
                pass
                if (l_2_tps or (undefined(name='ep') if l_2_ep is missing else l_2_ep)):
                    pass
                    yield ' '
                yield 'padded '
                yield escape(environment.finalize(t_4(context.eval_ctx, (undefined(name='pad') if l_2_pad is missing else l_2_pad), ',')))
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '<br>'
        l_2_loop = l_2_f = l_2_tps = l_2_pad = l_2_ep = missing
        yield '</td>'
    l_1_loop = l_1_m = missing
    yield '</tr>\n<tr><th>cheapest deployment</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td>'
        if environment.getattr(l_1_m, 'best'):
            pass
            yield escape(environment.finalize(t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'num_gpus'))))
            yield '× '
            yield escape(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu')))
            yield ' ('
            yield escape(environment.finalize(t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'replicas'))))
            yield ' × '
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'layout')))
            yield ', up to '
            yield escape(environment.finalize(t_7(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'concurrency'))))
            yield ' concurrent each)'
        else:
            pass
            yield '<span class="bad">none</span>'
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>TTFT · ITL</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        if environment.getattr(l_1_m, 'best'):
            pass
            yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'ttft_ms'), 0)))
            yield ' ms · '
            yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'prediction'), 'tpot_ms'), 1)))
            yield ' ms'
        else:
            pass
            yield '–'
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>GPUs for '
    yield escape(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' req/s</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        yield escape(environment.finalize((t_7(environment.getattr(environment.getattr(l_1_m, 'best'), 'num_gpus')) if environment.getattr(l_1_m, 'best') else '–')))
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>$ per month</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        yield escape(environment.finalize((markup_join(('$', t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month'), 0), )) if (environment.getattr(l_1_m, 'best') and (not t_9(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month')))) else '–')))
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>$ per 1M output tokens (load · capacity)</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td class="num">'
        if (environment.getattr(l_1_m, 'best') and (not t_9(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_month')))):
            pass
            yield '$'
            yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_1m_tokens_load'), 3)))
            yield ' · $'
            yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(l_1_m, 'best'), 'usd_per_1m_tokens_capacity'), 3)))
        else:
            pass
            yield '–'
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>license</th>'
    for l_1_m in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'):
        _loop_vars = {}
        pass
        yield '<td>'
        yield escape(environment.finalize((environment.getattr(l_1_m, 'license') or ('not stated' if (environment.getattr(l_1_m, 'source_kind') == 'hub') else 'not checked (local)'))))
        yield '</td>'
    l_1_m = missing
    yield '</tr>\n<tr><th>risks</th>'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield '<td>'
        def t_10(fiter):
            for l_2_x in fiter:
                if (environment.getattr(l_2_x, 'severity') != 'info'):
                    yield l_2_x
        l_2_loop = missing
        t_11 = 1
        for l_2_x, l_2_loop in LoopContext(t_10(environment.getattr(l_1_m, 'risks')), undefined):
            _loop_vars = {}
            pass
            yield '<span class="'
            yield escape(environment.finalize(environment.getattr(l_2_x, 'severity')))
            yield '">'
            yield escape(environment.finalize(environment.getattr(l_2_x, 'kind')))
            yield '</span>'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield ', '
            t_11 = 0
        l_2_loop = l_2_x = missing
        if t_11:
            pass
            yield 'none'
        yield '</td>'
    l_1_loop = l_1_m = missing
    yield '</tr>\n</table>\n\n<h2>Deployments by GPU</h2>\n<p>On each GPU, the layout and concurrency meeting the targets at '
    yield escape(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'isl'))))
    yield '/'
    yield escape(environment.finalize(t_7(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'osl'))))
    yield ' tokens with the fewest GPUs for '
    yield escape(environment.finalize(t_2(environment.getattr((undefined(name='w') if l_0_w is missing else l_0_w), 'qps'), 2)))
    yield ' requests/s (then the most output tokens/s/GPU).</p>\n<table>\n<tr><th>model</th><th>GPU</th><th>layout</th><th>concurrency</th><th>TTFT ms</th><th>ITL ms</th><th>tokens/s/GPU</th><th>req/s per replica</th><th>replicas</th><th>GPUs</th><th>$/month</th><th>$/1M out (load)</th><th>$/1M out (capacity)</th><th>expected error (TTFT · ITL · tok/s)</th></tr>\n'
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
                yield '<tr'
                if (environment.getattr(l_1_m, 'best') and (environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu') == environment.getattr(l_2_d, 'gpu'))):
                    pass
                    yield ' class="best"'
                yield '><td>'
                yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
                if (environment.getattr(l_1_m, 'best') and (environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu') == environment.getattr(l_2_d, 'gpu'))):
                    pass
                    yield ' ★'
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr(l_2_d, 'gpu')))
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'layout')))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_7(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'concurrency'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'ttft_ms'), 0)))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'tpot_ms'), 1)))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_2(environment.getattr(environment.getattr(l_2_d, 'prediction'), 'output_tokens_per_s_per_gpu'), 0)))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_2(environment.getattr(l_2_d, 'requests_per_s_per_replica'), 2)))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_7(environment.getattr(l_2_d, 'replicas'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_7(environment.getattr(l_2_d, 'num_gpus'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize((markup_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_month'), 0), )) if (not t_9(environment.getattr(l_2_d, 'usd_per_month'))) else '–')))
                yield '</td><td class="num">'
                yield escape(environment.finalize((markup_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_1m_tokens_load'), 3), )) if (not t_9(environment.getattr(l_2_d, 'usd_per_1m_tokens_load'))) else '–')))
                yield '</td><td class="num">'
                yield escape(environment.finalize((markup_join(('$', t_2(environment.getattr(l_2_d, 'usd_per_1m_tokens_capacity'), 3), )) if (not t_9(environment.getattr(l_2_d, 'usd_per_1m_tokens_capacity'))) else '–')))
                yield '</td><td>'
                l_3_loop = missing
                for l_3_k, l_3_loop in LoopContext(('ttft_ms', 'tpot_ms', 'output_tokens_per_s_per_gpu'), undefined):
                    _loop_vars = {}
                    pass
                    yield escape(environment.finalize((t_3('±%.0f%%', environment.getitem((undefined(name='e') if l_2_e is missing else l_2_e), l_3_k)) if (not t_9(context.call(environment.getattr((undefined(name='e') if l_2_e is missing else l_2_e), 'get'), l_3_k, _loop_vars=_loop_vars))) else '–')))
                    if (not environment.getattr(l_3_loop, 'last')):
                        pass
                        yield ' · '
                l_3_loop = l_3_k = missing
                yield '</td></tr>\n'
            else:
                pass
                yield '<tr><td>'
                yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr(l_2_d, 'gpu')))
                yield '</td><td colspan="12" class="bad">'
                yield escape(environment.finalize(environment.getitem((undefined(name='status_text') if l_0_status_text is missing else l_0_status_text), environment.getattr(l_2_d, 'status'))))
                yield ': '
                yield escape(environment.finalize(environment.getattr(l_2_d, 'note')))
                yield '</td></tr>\n'
        l_2_loop = l_2_d = l_2_e = missing
    l_1_loop = l_1_m = missing
    yield "</table>\n<p><small>★ the model's cheapest deployment. Predictions from the cost model ("
    yield escape(environment.finalize(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'calibration')))
    yield "); the expected error is the calibration's leave-one-model-out median error on each GPU.</small></p>\n"
    def t_12(fiter):
        for l_1_m in fiter:
            if ((environment.getattr(l_1_m, 'best') and environment.getattr(environment.getattr(l_1_m, 'best'), 'launch')) and environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'argv')):
                yield l_1_m
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(t_12(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models')), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield "<p>Launch commands of each model's cheapest deployment ("
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'engine')))
            yield ' '
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'version')))
            yield '; one per replica):</p>'
        yield '<p>'
        yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield ' on '
        yield escape(environment.finalize(environment.getattr(environment.getattr(l_1_m, 'best'), 'gpu')))
        yield ':</p><pre><code>'
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr(l_1_m, 'best'), 'launch'), 'text')))
        yield '</code></pre>'
    l_1_loop = l_1_m = missing
    yield '\n'
    if environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'skipped'):
        pass
        yield '<h2>Not compared</h2>\n<ul>\n'
        for l_1_k in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'skipped'):
            _loop_vars = {}
            pass
            yield '<li><b>'
            yield escape(environment.finalize(environment.getattr(l_1_k, 'source')))
            yield '</b>: '
            yield escape(environment.finalize(environment.getattr(l_1_k, 'reason')))
            yield '</li>\n'
        l_1_k = missing
        yield '</ul>\n'
    yield '<h2>Risks</h2>\n<ul>\n'
    l_1_loop = missing
    for l_1_m, l_1_loop in LoopContext(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'models'), undefined):
        _loop_vars = {}
        pass
        yield '<li><b>'
        yield escape(environment.finalize(environment.getattr(l_1_m, 'name')))
        yield '</b>: '
        l_2_loop = missing
        t_13 = 1
        for l_2_x, l_2_loop in LoopContext(environment.getattr(l_1_m, 'risks'), undefined):
            _loop_vars = {}
            pass
            yield '<span class="'
            yield escape(environment.finalize(environment.getattr(l_2_x, 'severity')))
            yield '">'
            yield escape(environment.finalize(environment.getattr(l_2_x, 'text')))
            yield '</span> ('
            yield escape(environment.finalize(environment.getattr(l_2_x, 'severity')))
            yield ')'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '; '
            t_13 = 0
        l_2_loop = l_2_x = missing
        if t_13:
            pass
            yield 'none found'
        yield '</li>\n'
    l_1_loop = l_1_m = missing
    yield '</ul>\n\n<h2>Assumptions</h2>\n<ul>\n'
    for l_1_a in environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'assumptions'):
        _loop_vars = {}
        pass
        yield '<li>'
        yield escape(environment.finalize(l_1_a))
        yield '</li>\n'
    l_1_a = missing
    yield '</ul>\n<p><small>deploysheet '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'generator'), 'version')))
    yield ' · '
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='r') if l_0_r is missing else l_0_r), 'generator'), 'date')))
    yield '</small></p>\n</body>\n</html>'

blocks = {}
debug_info = '2=67&3=70&9=75&23=84&24=86&28=113&29=115&30=126&35=138&36=146&37=159&38=175&39=209&40=217&41=225&42=265&43=287&44=303&45=313&46=321&47=337&48=346&52=375&55=382&56=386&57=390&58=392&59=395&61=441&66=452&67=454&68=470&70=478&73=481&74=485&80=493&81=497&87=522&88=526&91=530'