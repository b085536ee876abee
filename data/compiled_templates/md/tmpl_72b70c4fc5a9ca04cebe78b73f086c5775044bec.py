from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'diff.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_d = resolve('d')
    l_0_arrows = missing
    try:
        t_1 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
    try:
        t_2 = environment.filters['num']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'num' found.")
    try:
        t_3 = environment.filters['pct']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'pct' found.")
    try:
        t_4 = environment.tests['none']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No test named 'none' found.")
    pass
    l_0_arrows = {'better': '▲ better', 'worse': '▼ worse', 'same': '= same', 'new': 'new', 'gone': 'gone', 'n/a': '–'}
    context.vars['arrows'] = l_0_arrows
    context.exported_vars.add('arrows')
    yield '### What this change does to deployment\n\n'
    if (not environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'changed')):
        pass
        yield 'No change to the score, the predicted serving figures or the findings ('
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'base_name')))
        yield ' → '
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'head_name')))
        yield ').\n'
    else:
        pass
        yield 'Grade **'
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'base_grade')))
        yield ' → '
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'head_grade')))
        yield '** ('
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'base_name')))
        yield ' → '
        yield str(environment.finalize(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'head_name')))
        yield ').\n\n| metric | base | head | change | |\n|---|---:|---:|---:|---|\n'
        for l_1_x in environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'deltas'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(environment.getattr(l_1_x, 'label')))
            if ((environment.getattr(l_1_x, 'head_layout') and (environment.getattr(l_1_x, 'head_layout') != environment.getattr(l_1_x, 'base_layout'))) and environment.getattr(l_1_x, 'base_layout')):
                pass
                yield ' ('
                yield str(environment.finalize(environment.getattr(l_1_x, 'base_layout')))
                yield ' → '
                yield str(environment.finalize(environment.getattr(l_1_x, 'head_layout')))
                yield ')'
            elif environment.getattr(l_1_x, 'head_layout'):
                pass
                yield ' ('
                yield str(environment.finalize(environment.getattr(l_1_x, 'head_layout')))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_2(environment.getattr(l_1_x, 'base'), environment.getattr(l_1_x, 'unit'))))
            yield ' | '
            yield str(environment.finalize(t_2(environment.getattr(l_1_x, 'head'), environment.getattr(l_1_x, 'unit'))))
            yield ' | '
            if ((environment.getattr(l_1_x, 'unit') == '/100') and (not t_4(environment.getattr(l_1_x, 'change_abs')))):
                pass
                yield str(environment.finalize(t_1('%+.1f', environment.getattr(l_1_x, 'change_abs'))))
                yield ' pts'
            else:
                pass
                yield str(environment.finalize(t_3(environment.getattr(l_1_x, 'change_pct'))))
            yield ' | '
            yield str(environment.finalize(environment.getitem((undefined(name='arrows') if l_0_arrows is missing else l_0_arrows), environment.getattr(l_1_x, 'verdict'))))
            yield ' |\n'
        l_1_x = missing
        if environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'findings_added'):
            pass
            yield '\nNew findings: '
            l_1_loop = missing
            for l_1_r, l_1_loop in LoopContext(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'findings_added'), undefined):
                _loop_vars = {}
                pass
                yield '`'
                yield str(environment.finalize(l_1_r))
                yield '` '
                yield str(environment.finalize(context.call(environment.getattr(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'finding_titles'), 'get'), l_1_r, '', _loop_vars=_loop_vars)))
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield '; '
            l_1_loop = l_1_r = missing
            yield '.\n'
        if environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'findings_removed'):
            pass
            yield '\nResolved findings: '
            l_1_loop = missing
            for l_1_r, l_1_loop in LoopContext(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'findings_removed'), undefined):
                _loop_vars = {}
                pass
                yield '`'
                yield str(environment.finalize(l_1_r))
                yield '` '
                yield str(environment.finalize(context.call(environment.getattr(environment.getattr((undefined(name='d') if l_0_d is missing else l_0_d), 'finding_titles'), 'get'), l_1_r, '', _loop_vars=_loop_vars)))
                if (not environment.getattr(l_1_loop, 'last')):
                    pass
                    yield '; '
            l_1_loop = l_1_r = missing
            yield '.\n'

blocks = {}
debug_info = '2=37&5=41&6=44&8=51&12=59&13=63&15=92&17=96&19=108&21=112'