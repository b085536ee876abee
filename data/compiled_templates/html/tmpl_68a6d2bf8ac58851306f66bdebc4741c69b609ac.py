from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/findings.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    pass
    yield '<h2>Findings</h2>\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
        pass
        yield '<table><tr><th>rule</th><th>severity</th><th>finding</th></tr>\n'
        for l_1_f in environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'findings'):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(environment.getattr(l_1_f, 'rule')))
            yield '</td><td class="'
            yield escape(environment.finalize(environment.getattr(l_1_f, 'severity')))
            yield '">'
            yield escape(environment.finalize(environment.getattr(l_1_f, 'severity')))
            yield '</td><td>'
            yield escape(environment.finalize(environment.getattr(l_1_f, 'message')))
            yield '</td></tr>'
        l_1_f = missing
        yield '</table>\n'
    else:
        pass
        yield '<p>No rule of data/rules.json is violated, and there is nothing notable to report.</p>\n'

blocks = {}
debug_info = '4=13&5=16'