from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/findings.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    pass
    yield '## Findings\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
        pass
        yield '| rule | severity | finding |\n|---|---|---|\n'
        for l_1_f in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(environment.getattr(l_1_f, 'rule')))
            yield ' | '
            yield str(environment.finalize(environment.getattr(l_1_f, 'severity')))
            yield ' | '
            yield str(environment.finalize(environment.getattr(l_1_f, 'message')))
            yield ' |\n'
        l_1_f = missing
    else:
        pass
        yield 'No rule of data/rules.json is violated, and there is nothing notable to report.\n'
    yield '\n'

blocks = {}
debug_info = '3=13&6=16&7=20'