from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/hardware_fit.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
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
        t_3 = environment.filters['mark']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'mark' found.")
    try:
        t_4 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    pass
    yield '<h2>Hardware fit</h2>\n<table><tr><th>GEMM</th><th>count</th><th>K × N</th>'
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
    def t_5(fiter):
        for l_1_g in fiter:
            if (environment.getattr(l_1_g, 'tp') == 1):
                yield l_1_g
    for l_1_g in t_5(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_g, 'name')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_4(environment.getattr(l_1_g, 'count'))))
        yield '</td><td>'
        yield escape(environment.finalize(t_4(environment.getattr(l_1_g, 'k_full'))))
        yield ' × '
        yield escape(environment.finalize(t_4(environment.getattr(l_1_g, 'n_full'))))
        yield '</td>\n'
        for l_2_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
            _loop_vars = {}
            pass
            yield '<td>'
            def t_6(fiter):
                for l_3_x in fiter:
                    if ((((environment.getattr(l_3_x, 'tp') == l_2_tp) and (environment.getattr(l_3_x, 'name') == environment.getattr(l_1_g, 'name'))) and (environment.getattr(l_3_x, 'k_full') == environment.getattr(l_1_g, 'k_full'))) and (environment.getattr(l_3_x, 'n_full') == environment.getattr(l_1_g, 'n_full'))):
                        yield l_3_x
            for l_3_x in t_6(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
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
        yield escape(environment.finalize(t_1('%.2f', environment.getattr(l_1_g, 'efficiency'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_1('%.2f', environment.getattr(l_1_g, 'efficiency_decode'))))
        yield '</td></tr>\n'
    l_1_g = missing
    yield '</table>\n\n<h3>Parallelism</h3>\n<table><tr><th>TP</th><th>heads</th><th>KV heads</th><th>valid</th><th>dense I/TP</th><th>expert I/TP</th><th>notes</th></tr>\n'
    for l_1_r in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'tp'):
        _loop_vars = {}
        pass
        yield '<tr><td class="num">'
        yield escape(environment.finalize(environment.getattr(l_1_r, 'tp')))
        yield '</td><td>'
        yield escape(environment.finalize(t_3(environment.getattr(l_1_r, 'heads_ok'))))
        yield '</td><td>'
        yield escape(environment.finalize(environment.getattr(l_1_r, 'kv_mode')))
        if environment.getattr(l_1_r, 'kv_heads_per_gpu'):
            pass
            yield ' ('
            yield escape(environment.finalize(environment.getattr(l_1_r, 'kv_heads_per_gpu')))
            yield '/GPU)'
        yield '</td><td>'
        yield escape(environment.finalize(t_3(environment.getattr(l_1_r, 'valid'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_4(environment.getattr(l_1_r, 'mlp_shard')) if environment.getattr(l_1_r, 'mlp_shard') else '–')))
        yield '</td><td class="num">'
        yield escape(environment.finalize((t_4(environment.getattr(l_1_r, 'expert_shard')) if environment.getattr(l_1_r, 'expert_shard') else '–')))
        yield '</td><td>'
        yield escape(environment.finalize(t_2(context.eval_ctx, environment.getattr(l_1_r, 'notes'), '; ')))
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
            yield escape(environment.finalize(t_3(l_1_ok)))
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
        yield escape(environment.finalize(t_3(l_1_ok)))
        if (l_1_pp in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance')):
            pass
            yield ' '
            yield escape(environment.finalize(t_1('%.2f', environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance'), l_1_pp))))
            yield '×'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_pp = l_1_ok = missing
    yield '.</p>\n<p>Vocabulary '
    yield escape(environment.finalize(t_4(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vocab_size'))))
    yield ': vLLM pads to '
    yield escape(environment.finalize(t_4(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_padded'))))
    yield ' ('
    yield escape(environment.finalize(t_1('%.2f', environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_waste_pct'))))
    yield '% padded rows)'
    def t_7(fiter):
        for (l_1_tp, l_1_rows) in fiter:
            if ((l_1_tp > 1) and (l_1_tp <= 8)):
                yield (l_1_tp, l_1_rows)
    l_1_loop = missing
    for (l_1_tp, l_1_rows), l_1_loop in LoopContext(t_7(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'per_tp_rows'), 'items'))), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield ', '
            if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model'), 'arch'), 'has_lm_head_gemm'):
                pass
                yield 'lm_head'
            else:
                pass
                yield 'embedding'
            yield ' rows per rank'
        yield ' TP'
        yield escape(environment.finalize(l_1_tp))
        yield ' '
        yield escape(environment.finalize(t_4(l_1_rows)))
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
        def t_8(fiter):
            for l_2_l in fiter:
                if (environment.getattr(l_2_l, 'n_gpus') == l_1_n):
                    yield l_2_l
        l_2_loop = missing
        for l_2_l, l_2_loop in LoopContext(t_8(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'layouts')), undefined):
            _loop_vars = {}
            pass
            yield escape(environment.finalize(t_3(environment.getattr(l_2_l, 'clean'))))
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
                yield escape(environment.finalize(t_2(context.eval_ctx, environment.getattr(l_2_l, 'notes'), '; ')))
                yield ')'
            if (not environment.getattr(l_2_loop, 'last')):
                pass
                yield '<br>'
        l_2_loop = l_2_l = missing
        yield '</td>'
    l_1_loop = l_1_n = missing
    yield '</tr>\n</table>\n<h3>Attention kernels</h3>\n<p>('
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
    yield '.</p>\n\n'

blocks = {}
debug_info = '4=37&5=47&6=55&7=63&8=85&14=91&16=116&17=151&19=181&20=190&23=225'