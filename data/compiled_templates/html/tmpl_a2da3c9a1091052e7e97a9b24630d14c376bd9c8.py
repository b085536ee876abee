from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/quantization.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    try:
        t_1 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_2 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    pass
    yield '<h2>Quantization readiness</h2>\n<table><tr><th>format</th><th>engine</th>'
    for l_1_tp in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps'):
        _loop_vars = {}
        pass
        yield '<th>TP'
        yield escape(environment.finalize(l_1_tp))
        yield '</th>'
    l_1_tp = missing
    yield '<th>needs</th><th>rule</th></tr>\n'
    for l_1_fmt in ['fp8', 'fp8_block', 'nvfp4', 'mxfp4', 'int4', 'int8']:
        _loop_vars = {}
        pass
        for l_2_eng in ['vllm', 'sglang', 'trtllm']:
            l_2_rows = missing
            _loop_vars = {}
            pass
            l_2_rows = t_1(context.eval_ctx, t_2(context, t_2(context, t_2(context, environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'matrix'), 'format', 'equalto', l_1_fmt), 'engine', 'equalto', l_2_eng), 'tp', 'in', environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'report_tps')))
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
debug_info = '4=25&5=33&6=36&7=40&8=43'