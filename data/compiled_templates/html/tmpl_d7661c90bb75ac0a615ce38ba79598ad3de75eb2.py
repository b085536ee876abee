from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/score.html.j2'

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
    pass
    yield '<h2>Score '
    yield escape(environment.finalize(t_1('%.1f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'))))
    yield '/100 ('
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield ', serving not scored'
    yield ')</h2>\n<table><tr><th>component</th><th>weight</th><th>sub-score</th><th>points</th><th>inputs and deductions</th></tr>\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'components'):
        _loop_vars = {}
        pass
        yield '<tr><td>'
        yield escape(environment.finalize(environment.getattr(l_1_c, 'name')))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_1('%.0f', environment.getattr(l_1_c, 'weight'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_1('%.2f', environment.getattr(l_1_c, 'value'))))
        yield '</td><td class="num">'
        yield escape(environment.finalize(t_1('%.1f', environment.getattr(l_1_c, 'points'))))
        yield '</td><td>'
        yield escape(environment.finalize(t_2(context.eval_ctx, environment.getattr(l_1_c, 'details'), '; ')))
        yield '</td></tr>'
    l_1_c = missing
    yield '</table>\n\n'

blocks = {}
debug_info = '3=26&5=36'