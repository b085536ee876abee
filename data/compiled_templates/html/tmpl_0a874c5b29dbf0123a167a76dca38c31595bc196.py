from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/architecture.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_ck = resolve('ck')
    l_0_p = resolve('p')
    try:
        t_1 = environment.filters['hb']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'hb' found.")
    try:
        t_2 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_3 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    pass
    yield '<h2>Architecture</h2>\n'
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '<table><tr><th>component</th><th>parameters (config)</th><th>stored (checkpoint)</th><th>stored bytes</th><th>active</th></tr>\n'
        def t_4(fiter):
            for (l_1_k, l_1_v) in fiter:
                if (l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_4(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_3(l_1_v)))
            yield '</td><td class="num'
            yield escape(environment.finalize((' bad' if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')) else '')))
            yield '">'
            yield escape(environment.finalize(t_3(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield escape(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_1(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_3(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield '</td></tr>'
        l_1_k = l_1_v = missing
        def t_5(fiter):
            for (l_1_k, l_1_v) in fiter:
                if ((l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)) or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_5([('vision', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')), ('mtp', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp')), ('other', None)]):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield ' (not in total)</td><td class="num">'
            yield escape(environment.finalize(t_3(l_1_v)))
            yield '</td><td class="num'
            yield escape(environment.finalize((' bad' if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')) else '')))
            yield '">'
            yield escape(environment.finalize(t_3(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield escape(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_1(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield '</td><td class="num">–</td></tr>'
        l_1_k = l_1_v = missing
        yield '</table>\n'
        if environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'):
            pass
            yield '<p>Checkpoint: '
            yield escape(environment.finalize(t_2(context.eval_ctx, environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'), '; ')))
            yield '.</p>'
        if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') or environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
            pass
            yield '<p>Stored but not parameters: '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
                pass
                yield escape(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'))))
                yield ' quantization scale/zero-point tensors ('
                yield escape(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'bytes'))))
                yield ')'
            if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') and environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
                pass
                yield ' · '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'):
                pass
                yield escape(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'))))
                yield ' buffers ('
                yield escape(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'bytes'))))
                yield ')'
            yield '.</p>'
    else:
        pass
        yield '<table><tr><th>component</th><th>parameters</th><th>active</th></tr>\n'
        def t_6(fiter):
            for (l_1_k, l_1_v) in fiter:
                if l_1_v:
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_6(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '<tr><td>'
            yield escape(environment.finalize(l_1_k))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_3(l_1_v)))
            yield '</td><td class="num">'
            yield escape(environment.finalize(t_3(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield '</td></tr>'
        l_1_k = l_1_v = missing
        yield '</table>\n'
    yield '\n'

blocks = {}
debug_info = '4=32&6=35&7=61&9=86&10=91&13=113'