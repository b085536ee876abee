from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/hardware_fit.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_tp1 = missing
    try:
        t_1 = environment.filters['align']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'align' found.")
    try:
        t_2 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
    try:
        t_3 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_4 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_5 = environment.filters['mark']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'mark' found.")
    try:
        t_6 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_7 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    pass
    yield '## Hardware fit\n| GEMM | count | K × N | '
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
    l_0_tp1 = t_4(context.eval_ctx, t_7(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms'), 'tp', 'equalto', 1))
    context.vars['tp1'] = l_0_tp1
    context.exported_vars.add('tp1')
    for l_1_g in (undefined(name='tp1') if l_0_tp1 is missing else l_0_tp1):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_g, 'name')))
        yield ' | '
        yield str(environment.finalize(t_6(environment.getattr(l_1_g, 'count'))))
        yield ' | '
        yield str(environment.finalize(t_6(environment.getattr(l_1_g, 'k_full'))))
        yield ' × '
        yield str(environment.finalize(t_6(environment.getattr(l_1_g, 'n_full'))))
        yield ' | '
        for l_2_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
            _loop_vars = {}
            pass
            def t_8(fiter):
                for l_3_x in fiter:
                    if ((((environment.getattr(l_3_x, 'tp') == l_2_tp) and (environment.getattr(l_3_x, 'name') == environment.getattr(l_1_g, 'name'))) and (environment.getattr(l_3_x, 'k_full') == environment.getattr(l_1_g, 'k_full'))) and (environment.getattr(l_3_x, 'n_full') == environment.getattr(l_1_g, 'n_full'))):
                        yield l_3_x
            for l_3_x in t_8(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'gemms')):
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
        yield str(environment.finalize(t_2(environment.getattr(l_1_g, 'efficiency'), 2)))
        yield ' | '
        yield str(environment.finalize(t_2(environment.getattr(l_1_g, 'efficiency_decode'), 2)))
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
        yield str(environment.finalize(t_2(l_1_e, 3)))
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
        yield str(environment.finalize(t_2(l_1_e, 3)))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_g = l_1_e = missing
    yield '.\n\nVocabulary '
    yield str(environment.finalize(t_6(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vocab_size'))))
    yield ': vLLM pads to '
    yield str(environment.finalize(t_6(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_padded'))))
    yield ' ('
    yield str(environment.finalize(t_2(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'vllm_waste_pct'), 2)))
    yield '% padded rows)'
    def t_9(fiter):
        for (l_1_tp, l_1_rows) in fiter:
            if ((l_1_tp > 1) and (l_1_tp <= 8)):
                yield (l_1_tp, l_1_rows)
    l_1_loop = missing
    for (l_1_tp, l_1_rows), l_1_loop in LoopContext(t_9(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'per_tp_rows'), 'items'))), undefined):
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
        yield str(environment.finalize(l_1_tp))
        yield ' '
        yield str(environment.finalize(t_6(l_1_rows)))
    l_1_loop = l_1_tp = l_1_rows = missing
    yield '; Megatron-style padding at TP8: '
    yield str(environment.finalize((t_6(environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'megatron_padded'), 8)) if (8 in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'vocab'), 'megatron_padded')) else '–')))
    yield '.\n\nKey widths: '
    l_1_loop = missing
    for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'dims'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_k))
        yield ' '
        yield str(environment.finalize(t_6(l_1_v)))
        yield ' ('
        yield str(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'dim_alignment'), l_1_k)))
        yield ')'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ' · '
    l_1_loop = l_1_k = l_1_v = missing
    yield '. Width/depth (hidden / blocks, rule G7): '
    yield str(environment.finalize(t_2(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'width_depth'), 1)))
    yield '.\n\n### Parallelism\n\n\n| TP | heads | KV heads | valid | dense I/TP | expert I/TP | notes |\n|---:|---|---|---|---:|---:|---|\n'
    for l_1_r in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'tp'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_r, 'tp')))
        yield ' | '
        yield str(environment.finalize(t_5(environment.getattr(l_1_r, 'heads_ok'))))
        yield ' | '
        yield str(environment.finalize(environment.getattr(l_1_r, 'kv_mode')))
        if environment.getattr(l_1_r, 'kv_heads_per_gpu'):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_1_r, 'kv_heads_per_gpu')))
            yield '/GPU)'
        yield ' | '
        yield str(environment.finalize(t_5(environment.getattr(l_1_r, 'valid'))))
        yield ' | '
        yield str(environment.finalize((t_6(environment.getattr(l_1_r, 'mlp_shard')) if environment.getattr(l_1_r, 'mlp_shard') else '–')))
        yield ' | '
        yield str(environment.finalize((t_6(environment.getattr(l_1_r, 'expert_shard')) if environment.getattr(l_1_r, 'expert_shard') else '–')))
        yield ' | '
        yield str(environment.finalize(t_3(context.eval_ctx, environment.getattr(l_1_r, 'notes'), '; ')))
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
            yield str(environment.finalize(t_5(l_1_ok)))
            if (not environment.getattr(l_1_loop, 'last')):
                pass
                yield ' · '
        l_1_loop = l_1_e = l_1_ok = missing
        yield '. DeepEP hidden size: '
        yield str(environment.finalize(t_5(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'deepep_hidden_ok'))))
        yield '.\n\n'
    yield "PP (layers divide evenly; heaviest stage / mean with vLLM's split): "
    l_1_loop = missing
    for (l_1_pp, l_1_ok), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield 'PP'
        yield str(environment.finalize(l_1_pp))
        yield ' '
        yield str(environment.finalize(t_5(l_1_ok)))
        if (l_1_pp in environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance')):
            pass
            yield ' '
            yield str(environment.finalize(t_2(environment.getitem(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'pp_imbalance'), l_1_pp), 2)))
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
        def t_10(fiter):
            for l_2_l in fiter:
                if (environment.getattr(l_2_l, 'n_gpus') == l_1_n):
                    yield l_2_l
        l_2_loop = missing
        for l_2_l, l_2_loop in LoopContext(t_10(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'parallelism'), 'layouts')), undefined):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_5(environment.getattr(l_2_l, 'clean'))))
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
                yield str(environment.finalize(t_3(context.eval_ctx, environment.getattr(l_2_l, 'notes'), '; ')))
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
    yield '.\n\n'

blocks = {}
debug_info = '3=56&4=64&5=70&6=73&7=77&11=110&12=112&14=139&16=172&23=188&24=192&27=213&28=217&31=233&35=250&38=258&42=292'