from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/memory.md.j2'

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
        t_2 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
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
    yield '## Memory and KV cache\n'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind'))))
        yield " model: its decoder keeps self- and cross-attention caches only while a request generates; deploysheet does not model their capacity or the serving regimes (rule S3), so memory here is the weights and one batch's activations.\n\n"
    else:
        pass
        yield '| layer kind | layers | KV B/token/layer | window | state B/seq/layer |\n|---|---:|---:|---:|---:|\n'
        for l_1_k in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'by_kind'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(environment.getattr(l_1_k, 'kind')))
            yield ' | '
            yield str(environment.finalize(environment.getattr(l_1_k, 'layers')))
            yield ' | '
            yield str(environment.finalize(t_4(environment.getattr(l_1_k, 'bytes_per_token_per_layer'))))
            yield ' | '
            yield str(environment.finalize((t_4(environment.getattr(l_1_k, 'window')) if environment.getattr(l_1_k, 'window') else '–')))
            yield ' | '
            yield str(environment.finalize((t_4(environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer')) if environment.getattr(l_1_k, 'state_bytes_per_sequence_per_layer') else '–')))
            yield ' |\n'
        l_1_k = missing
        yield '\nPer sequence: '
        def t_5(fiter):
            for (l_1_c, l_1_b) in fiter:
                if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_1_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))):
                    yield (l_1_c, l_1_b)
        l_1_loop = missing
        for (l_1_c, l_1_b), l_1_loop in LoopContext(t_5(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'per_sequence_bytes'), 'items'))), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_4(l_1_c)))
            yield ' tokens → '
            yield str(environment.finalize(t_3(l_1_b)))
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
            yield str(environment.finalize(l_1_tp))
            yield ' '
            yield str(environment.finalize(t_4(l_1_b)))
            yield ' B'
            if (environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'kv_replication'), l_1_tp) > 1):
                pass
                yield ' ('
                yield str(environment.finalize(t_2(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'kv_replication'), l_1_tp), 0)))
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
                yield str(environment.finalize(t_4(l_1_c)))
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
                yield str(environment.finalize((environment.getattr(l_1_cap, 'layout') or environment.getattr(l_1_cap, 'tp'))))
                if (environment.getattr(l_1_cap, 'nodes') > 1):
                    pass
                    yield ' ('
                    yield str(environment.finalize(environment.getattr(l_1_cap, 'nodes')))
                    yield ' nodes)'
                if environment.getattr(l_1_cap, 'engine_blocker'):
                    pass
                    yield ' (refused by '
                    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
                    yield ')'
                yield ' | '
                yield str(environment.finalize(t_2(environment.getattr(l_1_cap, 'weights_per_gpu_gib'), 1)))
                yield ' GiB | '
                for (l_2_c, l_2_n) in context.call(environment.getattr(environment.getattr(l_1_cap, 'max_sequences'), 'items'), _loop_vars=_loop_vars):
                    _loop_vars = {}
                    pass
                    yield str(environment.finalize((t_4(l_2_n) if (not (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions') and (l_2_c > environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'max_positions')))) else 'beyond context')))
                    yield ' | '
                l_2_c = l_2_n = missing
                yield '\n'
            l_1_cap = missing
            yield '\n'
            def t_7(fiter):
                for l_1_cap in fiter:
                    if environment.getattr(l_1_cap, 'engine_blocker'):
                        yield l_1_cap
            for l_1_cap in t_7(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity')):
                _loop_vars = {}
                pass
                yield '- '
                yield str(environment.finalize((environment.getattr(l_1_cap, 'layout') or str_join(('TP', environment.getattr(l_1_cap, 'tp'), )))))
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

blocks = {}
debug_info = '3=38&4=40&9=45&10=49&13=61&15=100&16=103&18=109&20=116&22=122&23=126&27=149&28=157&31=162&32=166'