from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/score.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_m = resolve('m')
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
    pass
    yield '## Score '
    yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'), 1)))
    yield '/100 ('
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield ', serving not scored'
    yield ')\n\nFor '
    yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
    yield ' at '
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
    yield ' weights (alignment efficiency and serving economics depend on the GPU and precision; the other components do not).\n\n| component | weight | sub-score | points | inputs and deductions |\n|---|---:|---:|---:|---|\n'
    for l_1_c in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'components'):
        _loop_vars = {}
        pass
        yield '| '
        yield str(environment.finalize(environment.getattr(l_1_c, 'name')))
        yield ' | '
        yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'weight'), 0)))
        yield ' | '
        yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'value'), 2)))
        yield ' | '
        yield str(environment.finalize(t_1(environment.getattr(l_1_c, 'points'), 1)))
        yield ' | '
        yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr(l_1_c, 'details'), '; ')))
        yield ' |\n'
    l_1_c = missing
    yield '\nWeights and credits: data/scoring.json.\n\n'

blocks = {}
debug_info = '2=26&4=36&8=40&9=44'