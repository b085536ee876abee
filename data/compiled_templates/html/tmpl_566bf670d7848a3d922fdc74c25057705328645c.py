from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/serving.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_m = resolve('m')
    try:
        t_1 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_4 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_5 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_6 = environment.filters['svg']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'svg' found.")
    try:
        t_7 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield '<h2>Serving regimes</h2>\n'
    l_1_loop = missing
    t_8 = 1
    for (l_1_gpu, l_1_results), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'items')), undefined):
        l_1_launches = l_1_fr = missing
        _loop_vars = {}
        pass
        yield '<p><b>'
        yield escape(environment.finalize(l_1_gpu))
        yield '</b>, '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights, '
        yield escape(environment.finalize(context.call(environment.getattr((environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'kv_dtype_by_gpu') or {}), 'get'), l_1_gpu, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype'), _loop_vars=_loop_vars)))
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
                yield escape(environment.finalize(t_1('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'ttft_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.2f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tpot_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tokens_per_s_per_user'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.0f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'output_tokens_per_s_per_gpu'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.1f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'memory_per_gpu_gib'))))
                yield '</td><td>'
                yield escape(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'bound')))
                yield '</td><td class="num">'
                yield escape(environment.finalize((t_1('%.3f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens')) if environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens') else '–')))
                yield '</td>'
            else:
                pass
                yield '<td colspan="9">'
                yield escape(environment.finalize(environment.getattr(l_2_r, 'note')))
                yield '</td>'
            yield '</tr>\n'
        l_2_r = l_2_x = missing
        yield '</table>\n'
        l_1_launches = t_4(context.eval_ctx, t_5(context, l_1_results, 'launch'))
        _loop_vars['launches'] = l_1_launches
        if ((undefined(name='launches') if l_1_launches is missing else l_1_launches) and environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'argv')):
            pass
            yield '<p>Launch commands ('
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'engine')))
            yield ' '
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'version')))
            yield '):</p>\n'
            def t_9(fiter):
                for l_2_r in fiter:
                    if environment.getattr(environment.getattr(l_2_r, 'launch'), 'argv'):
                        yield l_2_r
            for l_2_r in t_9((undefined(name='launches') if l_1_launches is missing else l_1_launches)):
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
            yield escape(environment.finalize(t_2(context.eval_ctx, environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'notes'), '; ')))
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
                yield escape(environment.finalize(t_6(t_4(context.eval_ctx, context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'frontier'), 'values'), _loop_vars=_loop_vars)))))
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
                yield escape(environment.finalize(t_1('%.1f', environment.getattr(l_2_x, 'tokens_per_s_per_user'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.0f', environment.getattr(l_2_x, 'output_tokens_per_s_per_gpu'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.1f', environment.getattr(l_2_x, 'ttft_ms'))))
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_1('%.2f', environment.getattr(l_2_x, 'tpot_ms'))))
                yield '</td></tr>'
            l_2_x = missing
            yield '</table>'
        elif ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')):
            pass
            yield '<p>Throughput vs interactivity: not computed ('
            yield escape(environment.finalize(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'note')))
            yield ').</p>'
        t_8 = 0
    l_1_loop = l_1_gpu = l_1_results = l_1_launches = l_1_fr = missing
    if t_8:
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
            yield escape(environment.finalize(t_1('%g', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'))))
            yield ' ms'
        else:
            pass
            yield 'any TTFT'
        yield ', '
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'):
            pass
            yield 'ITL ≤ '
            yield escape(environment.finalize(t_1('%g', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'))))
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
                yield escape(environment.finalize(t_1('%.0f', environment.getattr(l_1_x, 'output_tokens_per_s_per_gpu'))))
                yield ' tok/s/GPU, TTFT '
                yield escape(environment.finalize(t_1('%.1f', environment.getattr(l_1_x, 'ttft_ms'))))
                yield ' ms, TPOT '
                yield escape(environment.finalize(t_1('%.2f', environment.getattr(l_1_x, 'tpot_ms'))))
                yield ' ms'
                if environment.getattr(l_1_x, 'usd_per_1m_output_tokens'):
                    pass
                    yield ', $'
                    yield escape(environment.finalize(t_1('%.3f', environment.getattr(l_1_x, 'usd_per_1m_output_tokens'))))
                    yield '/1M out'
            else:
                pass
                yield 'no layout meets the targets'
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_g = l_1_x = missing
        yield '.</p>'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
    elif (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct') and (not t_7(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'tpot_ms')))):
        pass
        yield '<p>Expected error (leave-one-model-out MdAPE): TTFT ±'
        yield escape(environment.finalize(t_1('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'ttft_ms'))))
        yield '%, TPOT ±'
        yield escape(environment.finalize(t_1('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'tpot_ms'))))
        yield '%, tokens/s/GPU ±'
        yield escape(environment.finalize(t_1('%.0f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'expected_error_pct'), 'output_tokens_per_s_per_gpu'))))
        yield '%'
        if (t_3(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'gpus')) > 1):
            pass
            yield ' (per metric, the widest of the GPUs shown)'
        yield '.</p>'
    else:
        pass
        yield '<p>Uncalibrated roofline estimates: no validated error bar.</p>'
    yield '\n'

blocks = {}
debug_info = '4=58&5=63&7=69&8=76&11=116&12=118&13=125&14=145&15=150&16=152&17=165&19=169&20=192&21=202&22=204&23=265'