from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/quantization.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_present = resolve('present')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_2 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_3 = environment.filters['map']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'map' found.")
    try:
        t_4 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_5 = environment.filters['select']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'select' found.")
    try:
        t_6 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_7 = environment.filters['unique']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'unique' found.")
    pass
    yield '<h2>Quantization readiness</h2>\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'):
        pass
        yield '<p>Checkpoint: '
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'format')))
        yield ' via '
        yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'method')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'):
            pass
            yield ', block '
            yield escape(environment.finalize(t_1(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'block'), '×')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size'):
            pass
            yield ', group '
            yield escape(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'group_size')))
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'):
            pass
            yield '; mixed precision: '
            l_1_loop = missing
            for (l_1_a, l_1_n), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'mixed'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield escape(environment.finalize(l_1_a))
                yield ' '
                yield escape(environment.finalize(t_4(l_1_n)))
                yield ' layers'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_a = l_1_n = missing
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'component_formats'):
            pass
            l_0_present = t_2(context.eval_ctx, t_3(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'gemms'), attribute='component'))
            context.vars['present'] = l_0_present
            context.exported_vars.add('present')
            yield '; weights per component: '
            def t_8(fiter):
                for (l_1_c, l_1_f) in fiter:
                    if (l_1_c in (undefined(name='present') if l_0_present is missing else l_0_present)):
                        yield (l_1_c, l_1_f)
            l_1_loop = missing
            for (l_1_c, l_1_f), l_1_loop in LoopContext(t_8(context.call(environment.getattr(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'component_formats'), 'items'))), undefined):
                _loop_vars = {}
                pass
                yield escape(environment.finalize(l_1_c))
                yield ' '
                yield escape(environment.finalize(l_1_f))
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_c = l_1_f = missing
        if environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'):
            pass
            yield '; left unquantized: '
            yield escape(environment.finalize(t_1(context.eval_ctx, environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint'), 'excluded'), ', ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'):
            pass
            yield ' Runs as stored at TP '
            l_1_loop = missing
            for (l_1_eng, l_1_tps), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tps'), 'items')), undefined):
                _loop_vars = {}
                pass
                yield escape(environment.finalize((t_1(context.eval_ctx, t_5(context, l_1_tps, 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')), '/') or 'none')))
                yield ' ('
                yield escape(environment.finalize(l_1_eng))
                yield ')'
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield ', '
            l_1_loop = l_1_eng = l_1_tps = missing
            yield '.'
        yield '</p>\n'
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_row'):
        pass
        yield '<p>The '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_row')))
        yield ' rows are this checkpoint as stored (each layer at its stored format; what it leaves 16-bit is not checked); the others quantize every GEMM of rule Q7.</p>\n'
    yield '<table><tr><th>format</th><th>engine</th>'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '<th>TP'
        yield escape(environment.finalize(l_1_tp))
        yield '</th>'
    l_1_tp = missing
    yield '<th>needs</th><th>rule</th></tr>\n'
    for l_1_fmt in t_7(environment, t_3(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), attribute='format')):
        _loop_vars = {}
        pass
        for l_2_eng in ['vllm', 'sglang', 'trtllm']:
            l_2_rows = missing
            _loop_vars = {}
            pass
            l_2_rows = t_2(context.eval_ctx, t_6(context, t_6(context, t_6(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), 'format', 'equalto', l_1_fmt), 'engine', 'equalto', l_2_eng), 'tp', 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')))
            _loop_vars['rows'] = l_2_rows
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_fmt))
            yield '</td><td>'
            yield escape(environment.finalize(l_2_eng))
            yield '</td>'
            for l_3_e in (undefined(name='rows') if l_2_rows is missing else l_2_rows):
                _loop_vars = {}
                pass
                yield '<td class="'
                yield escape(environment.finalize(('ok' if (environment.getattr(l_3_e, 'status') == 'ready') else ('bad' if (environment.getattr(l_3_e, 'status') == 'not_ready') else 'mid'))))
                yield '" title="'
                yield escape(environment.finalize((environment.getattr(l_3_e, 'reason') or '')))
                yield '">'
                yield escape(environment.finalize(environment.getattr(l_3_e, 'status')))
                if (environment.getattr(l_3_e, 'ep_status') and (environment.getattr(l_3_e, 'ep_status') != environment.getattr(l_3_e, 'status'))):
                    pass
                    yield ' (EP '
                    yield escape(environment.finalize(environment.getattr(l_3_e, 'ep_status')))
                    yield ')'
                yield '</td>'
            l_3_e = missing
            yield '<td>'
            yield escape(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), 0), 'min_gpu')))
            yield '</td><td>'
            yield escape(environment.finalize(environment.getattr(environment.getitem((undefined(name='rows') if l_2_rows is missing else l_2_rows), 0), 'rule')))
            yield '</td></tr>\n'
        l_2_eng = l_2_rows = missing
    l_1_fmt = missing
    yield '</table>\n\n'

blocks = {}
debug_info = '4=56&5=128&6=134&7=142&8=145&9=149&10=152'