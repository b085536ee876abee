from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/recommendations.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    try:
        t_1 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    pass
    yield '<h2>Recommendations</h2><ul>'
    t_2 = 1
    for l_1_r in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        _loop_vars = {}
        pass
        yield '<li>'
        yield escape(environment.finalize(environment.getattr(l_1_r, 'summary')))
        yield ' [rules '
        yield escape(environment.finalize(t_1(context.eval_ctx, environment.getattr(l_1_r, 'rules'), ', ')))
        yield ']</li>'
        t_2 = 0
    l_1_r = missing
    if t_2:
        pass
        yield '<li>'
        if (not environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'recommendations')):
            pass
            yield 'Not searched (--no-recommendations).'
        else:
            pass
            yield 'No width change recommended: no width within the search bounds (+6% MLP, +10% expert and hidden width, +2% vocabulary, rounded up to multiples of 64/128/256/1024) unlocks a quantization format at a valid TP degree or is predicted faster.'
        yield '</li>'
    yield '</ul>\n\n'

blocks = {}
debug_info = '3=20'