from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/memory.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_m = resolve('m')
    l_0_s = resolve('s')
    try:
        t_1 = environment.filters['capitalize']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'capitalize' found.")
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
        t_4 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    pass
    yield '<h2>Memory and KV cache</h2>\n'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield '<p>'
        yield escape(environment.finalize(t_1(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind'))))
        yield " model: its decoder keeps self- and cross-attention caches only while a request generates; deploysheet does not model their capacity or the serving regimes (rule S3), so memory here is the weights and one batch's activations.</p>\n"
    else:
        pass
        yield '<table><tr><th>layer kind</th><th>layers</th><th>KV B/token/layer</th><th>window</th><th>state B/seq/layer</th></tr>\n'
        for l_1_k in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'by_kind'):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(environment.getattr(l_1_k, 'kind')))
            yield '</td><td class="num">'
            yield escape(environment.finalize(environment.getattr(l_1_k, 'layers')))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_4(environment.getattr(l_1_k, 'bytes_per_token_per_layer'))))
            yield '</td><td class="num">'
            yield escape(environment.finalize((t_4(environment.getattr(l_1_k, 'window')) if environment.getattr(l_1_k, 'window') else '–')))
            yield '</td><td class="num">'
            yield escape(environment.finalize((t_4(environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer')) if environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer') else '–')))
            yield '</td></tr>'
        l_1_k = missing
        yield '</table>\n\n<p>Per sequence: '
        def t_5(fiter):
            for (l_1_c, l_1_b) in fiter:
                if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_1_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))):
                    yield (l_1_c, l_1_b)
        l_1_loop = missing
        for (l_1_c, l_1_b), l_1_loop in LoopContext(t_5(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'items'))), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(t_4(l_1_c)))
            yield ' tokens → '
            yield escape(environment.finalize(t_3(l_1_b)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_c = l_1_b = missing
        yield '. Per GPU per token with TP: '
        def t_6(fiter):
            for (l_1_tp, l_1_b) in fiter:
                if (l_1_tp <= 8):
                    yield (l_1_tp, l_1_b)
        l_1_loop = missing
        for (l_1_tp, l_1_b), l_1_loop in LoopContext(t_6(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_gpu_bytes_per_token'), 'items'))), undefined):
            _loop_vars = {}
            pass
            yield 'TP'
            yield escape(environment.finalize(l_1_tp))
            yield ' '
            yield escape(environment.finalize(t_4(l_1_b)))
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
                yield escape(environment.finalize(t_4(l_1_c)))
                yield ' tokens</th>'
            l_1_c = missing
            yield '</tr>\n'
            for l_1_cap in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
                _loop_vars = {}
                pass
                yield '<tr><td class="num">'
                yield escape(environment.finalize((environment.getattr(l_1_cap, 'layout') or environment.getattr(l_1_cap, 'tp'))))
                if (environment.getattr(l_1_cap, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield escape(environment.finalize(environment.getattr(l_1_cap, 'nodes')))
                    yield ' nodes)'
                if environment.getattr(l_1_cap, 'engine_blocker'):
                    pass
                    yield ' (refused by '
                    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
                    yield ')'
                yield '</td><td class="num">'
                yield escape(environment.finalize(t_2('%.1f', environment.getattr(l_1_cap, 'weights_per_gpu_gib'))))
                yield ' GiB</td>'
                for (l_2_c, l_2_n) in context.call(environment.getattr(environment.getattr(l_1_cap, 'max_sequences'), 'items'), _loop_vars=_loop_vars):
                    _loop_vars = {}
                    pass
                    yield '<td class="num">'
                    yield escape(environment.finalize((t_4(l_2_n) if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_2_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))) else 'beyond context')))
                    yield '</td>'
                l_2_c = l_2_n = missing
                yield '</tr>'
            l_1_cap = missing
            yield '</table>\n'
            def t_7(fiter):
                for l_1_cap in fiter:
                    if environment.getattr(l_1_cap, 'engine_blocker'):
                        yield l_1_cap
            for l_1_cap in t_7(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity')):
                _loop_vars = {}
                pass
                yield '<p class="note">'
                yield escape(environment.finalize((environment.getattr(l_1_cap, 'layout') or markup_join(('TP', environment.getattr(l_1_cap, 'tp'), )))))
                yield ': '
                yield escape(environment.finalize(environment.getattr(l_1_cap, 'engine_blocker')))
                yield '; the regimes skip it.</p>'
            l_1_cap = missing
        yield '\n'

blocks = {}
debug_info = '4=38&7=46&10=62&11=96&12=105&13=113&15=141'