from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_sections = resolve('sections')
    l_0_m = l_0_p = l_0_ck = l_0_prim = l_0_fit1 = l_0_half = missing
    try:
        t_1 = environment.filters['bn']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'bn' found.")
    try:
        t_2 = environment.filters['f']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'f' found.")
    try:
        t_3 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_4 = environment.filters['join']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'join' found.")
    try:
        t_5 = environment.filters['list']
    except KeyError:
        @internalcode
        def t_5(*unused):
            raise TemplateRuntimeError("No filter named 'list' found.")
    try:
        t_6 = environment.filters['n']
    except KeyError:
        @internalcode
        def t_6(*unused):
            raise TemplateRuntimeError("No filter named 'n' found.")
    try:
        t_7 = environment.filters['rejectattr']
    except KeyError:
        @internalcode
        def t_7(*unused):
            raise TemplateRuntimeError("No filter named 'rejectattr' found.")
    try:
        t_8 = environment.filters['selectattr']
    except KeyError:
        @internalcode
        def t_8(*unused):
            raise TemplateRuntimeError("No filter named 'selectattr' found.")
    try:
        t_9 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_9(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    try:
        t_10 = environment.filters['wsize']
    except KeyError:
        @internalcode
        def t_10(*unused):
            raise TemplateRuntimeError("No filter named 'wsize' found.")
    pass
    l_0_m = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'model')
    context.vars['m'] = l_0_m
    context.exported_vars.add('m')
    l_0_p = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'params')
    context.vars['p'] = l_0_p
    context.exported_vars.add('p')
    l_0_ck = environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'checkpoint')
    context.vars['ck'] = l_0_ck
    context.exported_vars.add('ck')
    l_0_prim = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'get'), environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu'), [])
    context.vars['prim'] = l_0_prim
    context.exported_vars.add('prim')
    yield '# Deployment sheet — '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' @ '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')[:7]))
    yield '\n\n'
    l_0_fit1 = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'smallest_fit')
    context.vars['fit1'] = l_0_fit1
    context.exported_vars.add('fit1')
    yield '**Score '
    yield str(environment.finalize(t_2(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'), 1)))
    yield '/100 ('
    yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield ', serving not scored'
    yield ')** · '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' MoE ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' expert'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts') != 1):
            pass
            yield 's'
        yield ', top-'
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        yield ')'
    yield ' · '
    yield str(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' params'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' ('
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
        yield ' active)'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield ' (+'
        yield str(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' vision)'
    yield ' · weights '
    l_0_half = (t_3(environment, t_8(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 'precision', 'equalto', 'fp16')) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision') == 'fp16') else environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0))
    context.vars['half'] = l_0_half
    context.exported_vars.add('half')
    yield str(environment.finalize(t_10((undefined(name='half') if l_0_half is missing else l_0_half))))
    yield ' at '
    yield str(environment.finalize(t_9(environment.getattr((undefined(name='half') if l_0_half is missing else l_0_half), 'precision'))))
    def t_11(fiter):
        for l_1_w in fiter:
            if ((environment.getattr(l_1_w, 'precision') == environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')) and (environment.getattr(l_1_w, 'precision') not in ('bf16', 'fp16'))):
                yield l_1_w
    for l_1_w in t_11(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights')):
        _loop_vars = {}
        pass
        yield ', '
        yield str(environment.finalize(t_10(l_1_w)))
        yield ' at '
        yield str(environment.finalize(environment.getattr(l_1_w, 'precision')))
    l_1_w = missing
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'unsized_checkpoint'):
        pass
        yield " (not the checkpoint's "
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'unsized_checkpoint')))
        yield ' storage: rule Q9)'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        yield ' · KV '
        yield str(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
        yield ' B/token ('
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy') == 'window'):
            pass
            yield ', window policy: '
            yield str(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token'))))
            yield ' B/token beyond the windows'
        yield ')'
    if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by')):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by'), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework'))))
    if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tp_caps')):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' loads the checkpoint as stored at TP '
        yield str(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tp_caps'), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework'))))
        yield ' only (rule Q10)'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checkpoint_refused'):
        pass
        yield ' · engines refuse to load the checkpoint: its tensor shapes differ from config.json (rule C1)'
    if (undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1):
        pass
        yield ' · '
        if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checkpoint_refused'):
            pass
            yield 'as configured, '
        elif (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by')):
            pass
            yield 're-exported, '
        yield 'fits '
        yield str(environment.finalize((environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'num_gpus') or environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'tp'))))
        yield '× '
        yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'gpu')))
        if (environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'nodes') > 1):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout')))
            yield ', '
            yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'nodes')))
            yield ' nodes)'
        elif environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout'):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout')))
            yield ')'
        yield ' at '
        yield str(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'precision')))
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_refusal'):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_refusal')))
    elif (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity') and (not t_5(context.eval_ctx, t_7(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'), 'engine_blocker')))):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' refuses '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' at every TP ≤ 8'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_limit'):
        pass
        yield ' · '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_limit')))
        yield ': no layout it runs fits 8× '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield ' · does not fit one node (8× '
        yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ') at '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
    yield '\n'
    def t_12(fiter):
        for l_1_r in fiter:
            if (environment.getattr(l_1_r, 'prediction') and (environment.getattr(l_1_r, 'id') in ('latency', 'throughput'))):
                yield l_1_r
    l_1_loop = missing
    for l_1_r, l_1_loop in LoopContext(t_12((undefined(name='prim') if l_0_prim is missing else l_0_prim)), undefined):
        _loop_vars = {}
        pass
        if environment.getattr(l_1_loop, 'first'):
            pass
            yield '· best on '
            yield str(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
            yield ' at '
            yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
            yield ': '
        yield str(environment.finalize(environment.getattr(l_1_r, 'id')))
        yield ' '
        yield str(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'layout')))
        if (environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes') > 1):
            pass
            yield ' ('
            yield str(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes')))
            yield ' nodes)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_r = missing
    yield '\n\n'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '> **Estimated counts:** '
        yield str(environment.finalize(t_4(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
            pass
            yield ' The score is provisional.'
        yield '\n'
        for l_1_g in environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
            _loop_vars = {}
            pass
            yield '> - guess: '
            yield str(environment.finalize(l_1_g))
            yield '\n'
        l_1_g = missing
        yield '\n'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        pass
        yield '> **Change first:** '
        yield str(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'summary')))
        yield ' [rules '
        yield str(environment.finalize(t_4(context.eval_ctx, environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'rules'), ', ')))
        yield ']\n\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'custom_code'):
        pass
        yield "> **Custom code:** this config has `auto_map`; transformers needs the repository's code to run it (deploysheet read it as data only).\n\n"
    for l_1_sec in (undefined(name='sections') if l_0_sections is missing else l_0_sections):
        _loop_vars = {}
        pass
        template = environment.get_or_select_template(str_join(('sheet/', environment.getattr(l_1_sec, 'id'), '.md.j2', )), 'sheet.md.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'sec': l_1_sec, 'ck': l_0_ck, 'fit1': l_0_fit1, 'half': l_0_half, 'm': l_0_m, 'p': l_0_p, 'prim': l_0_prim}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_sec = missing

blocks = {}
debug_info = '2=74&3=77&4=80&5=83&6=87&9=93&10=97&11=238&12=246&16=266&17=269&18=275&19=279&23=283&24=286&27=290&31=293'