from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/quantization.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_present = resolve('present')
    l_0_m = resolve('m')
    l_0_diffs = missing
    try:
        t_1 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
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
        t_5 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_6 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_7 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_8 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_9 = environment.filters['status']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'status' found.")
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
    yield '## Quantization readiness\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'):
        pass
        yield 'Checkpoint: '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'format')))
        yield ' via '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'method')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'):
            pass
            yield ', block '
            yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'), '×')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size'):
            pass
            yield ', group '
            yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'):
            pass
            yield '; mixed precision: '
            l_1_loop = missing
            for (l_1_a, l_1_n), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield str(environment.finalize(l_1_a))
                yield ' '
                yield str(environment.finalize(t_6(l_1_n)))
                yield ' layers'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_a = l_1_n = missing
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'component_formats'):
            pass
            l_0_present = t_4(context.eval_ctx, t_5(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'gemms'), attribute='component'))
            context.vars['present'] = l_0_present
            context.exported_vars.add('present')
            yield '; weights per component: '
            def t_12(fiter):
                for (l_1_c, l_1_f) in fiter:
                    if (l_1_c in (undefined(name='present') if l_0_present is missing else l_0_present)):
                        yield (l_1_c, l_1_f)
            l_1_loop = missing
            for (l_1_c, l_1_f), l_1_loop in LoopContext(t_12(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'component_formats'), 'items'))), undefined):
                _loop_vars = {}
                pass
                yield str(environment.finalize(l_1_c))
                yield ' '
                yield str(environment.finalize(l_1_f))
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_c = l_1_f = missing
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'):
            pass
            yield '; left unquantized: '
            yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'), ', ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'):
            pass
            yield ' Runs as stored at TP '
            l_1_loop = missing
            for (l_1_eng, l_1_tps), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield str(environment.finalize((t_2(context.eval_ctx, t_7(context, l_1_tps, 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')), '/') or 'none')))
                yield ' ('
                yield str(environment.finalize(l_1_eng))
                yield ')'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_eng = l_1_tps = missing
            yield '.'
        yield '\n\n'
    yield "vLLM's shape checks per TP shard (✔ ready · ◐ runs with padding or a slower kernel · ✘ refused)"
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model'), 'moe'):
        pass
        yield '; "EP" = experts whole on each rank (expert parallelism)'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_row'):
        pass
        yield '; the '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_row')))
        yield ' row is this checkpoint as stored (each layer at its stored format; what it leaves 16-bit is not checked), the others quantize every GEMM of rule Q7'
    yield ':\n\n| format | '
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield 'TP'
        yield str(environment.finalize(l_1_tp))
        yield ' | '
    l_1_tp = missing
    yield 'needs | rule | first blocker |\n|---|'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '---|'
    l_1_tp = missing
    yield '---|---|---|\n'
    for l_1_fmt in t_10(environment, t_5(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), attribute='format')):
        l_1_rows = l_1_refused = l_1_padded = missing
        _loop_vars = {}
        pass
        l_1_rows = t_4(context.eval_ctx, t_8(context, t_8(context, t_8(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), 'format', 'equalto', l_1_fmt), 'engine', 'equalto', 'vllm'), 'tp', 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')))
        _loop_vars['rows'] = l_1_rows
        l_1_refused = t_4(context.eval_ctx, t_8(context, t_8(context, (undefined(name='rows') if l_1_rows is missing else l_1_rows), 'status', 'equalto', 'not_ready'), 'reason'))
        _loop_vars['refused'] = l_1_refused
        l_1_padded = t_4(context.eval_ctx, t_8(context, t_8(context, (undefined(name='rows') if l_1_rows is missing else l_1_rows), 'status', 'equalto', 'padded'), 'reason'))
        _loop_vars['padded'] = l_1_padded
        yield '| '
        yield str(environment.finalize(l_1_fmt))
        yield ' | '
        for l_2_e in (undefined(name='rows') if l_1_rows is missing else l_1_rows):
            _loop_vars = {}
            pass
            yield str(environment.finalize(t_9(environment.getattr(l_2_e, 'status'))))
            if (environment.getattr(l_2_e, 'ep_status') and (environment.getattr(l_2_e, 'ep_status') != environment.getattr(l_2_e, 'status'))):
                pass
                yield ' (EP '
                yield str(environment.finalize(t_9(environment.getattr(l_2_e, 'ep_status'))))
                yield ')'
            yield ' | '
        l_2_e = missing
        yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), 0), 'min_gpu')))
        yield ' | '
        yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_1_rows is missing else l_1_rows), 0), 'rule')))
        yield ' | '
        if (undefined(name='refused') if l_1_refused is missing else l_1_refused):
            pass
            yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='refused') if l_1_refused is missing else l_1_refused), 0), 'reason')))
            if (undefined(name='padded') if l_1_padded is missing else l_1_padded):
                pass
                yield '; ◐ at TP '
                yield str(environment.finalize(t_2(context.eval_ctx, t_5(context, (undefined(name='padded') if l_1_padded is missing else l_1_padded), attribute='tp'), '/')))
                yield ': '
                yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='padded') if l_1_padded is missing else l_1_padded), 0), 'reason')))
        elif (undefined(name='padded') if l_1_padded is missing else l_1_padded):
            pass
            yield str(environment.finalize(environment.getattr(environment.getitem((undefined(name='padded') if l_1_padded is missing else l_1_padded), 0), 'reason')))
        yield ' |\n'
    l_1_fmt = l_1_rows = l_1_refused = l_1_padded = missing
    yield '\n'
    l_0_diffs = []
    context.vars['diffs'] = l_0_diffs
    context.exported_vars.add('diffs')
    def t_13(fiter):
        for l_1_e in fiter:
            if (((environment.getattr(l_1_e, 'engine') != 'vllm') and (environment.getattr(l_1_e, 'tp') in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'))) and (environment.getattr(l_1_e, 'rule') != 'T1')):
                yield l_1_e
    for l_1_e in t_13(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix')):
        _loop_vars = {}
        pass
        def t_14(fiter):
            for l_2_v in fiter:
                if ((((environment.getattr(l_2_v, 'engine') == 'vllm') and (environment.getattr(l_2_v, 'format') == environment.getattr(l_1_e, 'format'))) and (environment.getattr(l_2_v, 'tp') == environment.getattr(l_1_e, 'tp'))) and (environment.getattr(l_2_v, 'status') != environment.getattr(l_1_e, 'status'))):
                    yield l_2_v
        for l_2_v in t_14(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix')):
            l_2__ = missing
            _loop_vars = {}
            pass
            l_2__ = context.call(environment.getattr((undefined(name='diffs') if l_0_diffs is missing else l_0_diffs), 'append'), l_1_e, _loop_vars=_loop_vars)
            _loop_vars['_'] = l_2__
        l_2_v = l_2__ = missing
    l_1_e = missing
    if (undefined(name='diffs') if l_0_diffs is missing else l_0_diffs):
        pass
        yield 'Where other engines differ from vLLM:\n'
        for l_1_e in (undefined(name='diffs') if l_0_diffs is missing else l_0_diffs):
            _loop_vars = {}
            pass
            yield '- '
            yield str(environment.finalize(environment.getattr(l_1_e, 'engine')))
            yield ' '
            yield str(environment.finalize(environment.getattr(l_1_e, 'format')))
            yield ' TP'
            yield str(environment.finalize(environment.getattr(l_1_e, 'tp')))
            yield ': '
            yield str(environment.finalize(t_9(environment.getattr(l_1_e, 'status'))))
            yield ' — '
            yield str(environment.finalize((environment.getattr(l_1_e, 'reason') or '')))
            yield ' ('
            yield str(environment.finalize(environment.getattr(l_1_e, 'basis')))
            yield ')\n'
        l_1_e = missing
    else:
        pass
        yield "SGLang and TensorRT-LLM give the same verdicts (SGLang's FP8-block, NVFP4 and INT4 Marlin checks and TensorRT-LLM's ModelOpt AWQ/NVFP4 export checks are read from source; their other kernels are assumed to match vLLM).\n"
    yield '\n'
    if (not t_11(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'))):
        pass
        yield 'Hub: '
        yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'))))
        if (t_3(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')) >= 20):
            pass
            yield '+'
        yield ' quantized derivatives declare this model as their base'
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives'):
            pass
            yield ' ('
            yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')[:5], ', ')))
            if (t_3(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'quantized_derivatives')) > 5):
                pass
                yield ', …'
            yield ')'
        yield '; weights stored as '
        yield str(environment.finalize((t_2(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'weight_formats'), ', ') or 'unknown')))
        yield '.\n\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'unquantized'):
        pass
        yield str(environment.finalize(t_1((environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'unquantized_share') * 100), 1)))
        yield "% of GEMM weights stay in the model's 16-bit dtype (BF16/FP16) under every recipe (rule Q7): "
        yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'unquantized'), ', ')))
        yield '; embeddings are lookups and stay 16-bit too.'
    else:
        pass
        yield "No GEMM weights stay in the model's 16-bit dtype under every recipe (rule Q7: no lm_head or router here); embeddings are lookups and stay 16-bit."
    yield '\n'

blocks = {}
debug_info = '3=82&4=85&7=155&9=164&10=172&11=178&12=182&13=184&14=186&15=189&18=221&19=224&20=231&21=239&24=243&26=246&27=250&33=267&34=270&37=286'