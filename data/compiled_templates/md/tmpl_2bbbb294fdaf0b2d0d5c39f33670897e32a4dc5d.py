from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/serving.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_m = resolve('m')
    l_0_ee = missing
    try:
        t_1 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
    try:
        t_2 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['length']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'length' found.")
    try:
        t_5 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_6 = environment.filters['mermaid']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'mermaid' found.")
    try:
        t_7 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_8 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_9 = environment.filters['trusted']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'trusted' found.")
    try:
        t_10 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    yield '## Serving regimes\n'
    t_11 = 1
    for (l_1_gpu, l_1_results) in context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'items')):
        l_1_launches = l_1_fr = missing
        _loop_vars = {}
        pass
        yield '**'
        yield str(environment.finalize(l_1_gpu))
        yield ', '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' weights, '
        yield str(environment.finalize(context.call(environment.getattr((environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'kv_dtype_by_gpu') or {}), 'get'), l_1_gpu, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype'), _loop_vars=_loop_vars)))
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
                yield str(environment.finalize(t_7(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'concurrency'))))
                yield ' × '
                yield str(environment.finalize(t_7(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'isl'))))
                yield ' in / '
                yield str(environment.finalize(t_7(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'osl'))))
                yield ' out | '
                yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'layout')))
                if (environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes') > 1):
                    pass
                    yield ' ('
                    yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'nodes')))
                    yield ' nodes)'
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'ttft_ms'), 1)))
                yield ' ms | '
                yield str(environment.finalize(t_1(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tpot_ms'), 2)))
                yield ' ms | '
                yield str(environment.finalize(t_1(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'tokens_per_s_per_user'), 1)))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'output_tokens_per_s_per_gpu'), 0)))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'memory_per_gpu_gib'), 1)))
                yield ' GiB | '
                yield str(environment.finalize(environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'bound')))
                yield ' | '
                yield str(environment.finalize((str_join(('$', t_2('%.3f', environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens')), )) if environment.getattr((undefined(name='x') if l_2_x is missing else l_2_x), 'usd_per_1m_output_tokens') else '–')))
                yield ' |\n'
            else:
                pass
                yield '| '
                yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ' | '
                yield str(environment.finalize(environment.getattr(l_2_r, 'concurrency')))
                yield ' × '
                yield str(environment.finalize(t_7(environment.getattr(l_2_r, 'isl'))))
                yield ' in / '
                yield str(environment.finalize(t_7(environment.getattr(l_2_r, 'osl'))))
                yield ' out | '
                yield str(environment.finalize(environment.getattr(l_2_r, 'note')))
                yield ' | – | – | – | – | – | – | – |\n'
        l_2_r = l_2_x = missing
        yield '\n'
        def t_12(fiter):
            for l_2_r in fiter:
                if (environment.getattr(l_2_r, 'prediction') and environment.getattr(l_2_r, 'note')):
                    yield l_2_r
        for l_2_r in t_12(l_1_results):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
            yield ': '
            yield str(environment.finalize(environment.getattr(l_2_r, 'note')))
            yield '\n'
        l_2_r = missing
        yield '\n'
        l_1_launches = t_5(context.eval_ctx, t_8(context, l_1_results, 'launch'))
        _loop_vars['launches'] = l_1_launches
        if ((undefined(name='launches') if l_1_launches is missing else l_1_launches) and environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'argv')):
            pass
            yield 'Launch commands ('
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'engine')))
            yield ' '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'version')))
            yield '; flags as its CLI spells them):\n\n'
            def t_13(fiter):
                for l_2_r in fiter:
                    if environment.getattr(environment.getattr(l_2_r, 'launch'), 'argv'):
                        yield l_2_r
            for l_2_r in t_13((undefined(name='launches') if l_1_launches is missing else l_1_launches)):
                _loop_vars = {}
                pass
                yield '- '
                yield str(environment.finalize(environment.getattr(l_2_r, 'title')))
                yield ':\n  ```\n  '
                yield str(environment.finalize(t_9(environment.getattr(environment.getattr(l_2_r, 'launch'), 'text'))))
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
            yield str(environment.finalize(t_3(context.eval_ctx, environment.getattr(environment.getattr(environment.getitem((undefined(name='launches') if l_1_launches is missing else l_1_launches), 0), 'launch'), 'notes'), '; ')))
            yield '\n'
        yield '\n'
        l_1_fr = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'frontier'), 'get'), l_1_gpu, _loop_vars=_loop_vars)
        _loop_vars['fr'] = l_1_fr
        if ((undefined(name='fr') if l_1_fr is missing else l_1_fr) and environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'pareto')):
            pass
            yield 'Throughput vs interactivity on '
            yield str(environment.finalize(l_1_gpu))
            yield ' ('
            yield str(environment.finalize(t_7(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'isl'))))
            yield ' in / '
            yield str(environment.finalize(t_7(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'osl'))))
            yield ' out; Pareto frontier of '
            yield str(environment.finalize(t_4(environment.getattr((undefined(name='fr') if l_1_fr is missing else l_1_fr), 'points'))))
            yield ' layouts × concurrencies):\n\n'
            yield str(environment.finalize(t_6((undefined(name='fr') if l_1_fr is missing else l_1_fr))))
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
                yield str(environment.finalize(t_7(environment.getattr(l_2_x, 'concurrency'))))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr(l_2_x, 'tokens_per_s_per_user'), 1)))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr(l_2_x, 'output_tokens_per_s_per_gpu'), 0)))
                yield ' | '
                yield str(environment.finalize(t_1(environment.getattr(l_2_x, 'ttft_ms'), 1)))
                yield ' ms | '
                yield str(environment.finalize(t_1(environment.getattr(l_2_x, 'tpot_ms'), 2)))
                yield ' ms | '
                yield str(environment.finalize((str_join(('$', t_2('%.3f', environment.getattr(l_2_x, 'usd_per_1m_output_tokens')), )) if environment.getattr(l_2_x, 'usd_per_1m_output_tokens') else '–')))
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
        t_11 = 0
    l_1_gpu = l_1_results = l_1_launches = l_1_fr = missing
    if t_11:
        pass
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
        yield ' model: decoder serving regimes do not apply (rule S3).\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'):
        pass
        yield '**SLA search** ('
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'):
            pass
            yield 'TTFT ≤ '
            yield str(environment.finalize((t_1(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'), 0) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms') >= 10) else t_1(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'ttft_ms'), 2))))
            yield ' ms'
        else:
            pass
            yield 'any TTFT'
        yield ', '
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'):
            pass
            yield 'ITL ≤ '
            yield str(environment.finalize((t_1(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'), 1) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms') >= 1) else t_1(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'itl_ms'), 2))))
            yield ' ms'
        else:
            pass
            yield 'any ITL'
        yield ', '
        yield str(environment.finalize(t_7(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'isl'))))
        yield ' in / '
        yield str(environment.finalize(t_7(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'sla'), 'osl'))))
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
                yield str(environment.finalize(t_7(environment.getattr(l_1_x, 'concurrency'))))
                yield ' concurrent, '
                yield str(environment.finalize(t_1(environment.getattr(l_1_x, 'output_tokens_per_s_per_gpu'), 0)))
                yield ' tok/s/GPU'
                if environment.getattr(l_1_x, 'usd_per_1m_output_tokens'):
                    pass
                    yield ', $'
                    yield str(environment.finalize(t_2('%.3f', environment.getattr(l_1_x, 'usd_per_1m_output_tokens'))))
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
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
    elif ((undefined(name='ee') if l_0_ee is missing else l_0_ee) and (not t_10(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'tpot_ms')))):
        pass
        yield 'Expected error (leave-one-model-out MdAPE of the calibration): TTFT ±'
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'ttft_ms'), 0)))
        yield '%, TPOT ±'
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'tpot_ms'), 0)))
        yield '%, tokens/s/GPU ±'
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='ee') if l_0_ee is missing else l_0_ee), 'output_tokens_per_s_per_gpu'), 0)))
        yield '%'
        if (t_4(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'gpus')) > 1):
            pass
            yield ' (per metric, the widest of the GPUs shown)'
        yield '.\n'
    else:
        pass
        yield 'Predictions are uncalibrated roofline estimates: no validated error bar (see assumptions).\n'
    yield '\n'

blocks = {}
debug_info = '3=76&4=81&8=89&9=93&10=95&11=98&13=130&17=142&18=150&21=156&22=158&23=161&25=165&26=173&28=175&30=177&31=181&34=185&35=187&38=190&39=192&40=195&42=203&46=205&47=209&50=230&51=233&56=242&58=244&59=247&62=301&63=304&64=306&65=309'