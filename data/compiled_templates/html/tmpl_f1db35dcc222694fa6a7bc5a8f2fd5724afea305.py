from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet.html.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_s = resolve('s')
    l_0_sections = resolve('sections')
    l_0_m = l_0_p = l_0_prim = l_0_ck = l_0_half = l_0_fit1 = missing
    try:
        t_1 = environment.filters['bn']
    except KeyError:
        @internalcode
        def t_1(*unused):
            raise TemplateRuntimeError("No filter named 'bn' found.")
    try:
        t_2 = environment.filters['first']
    except KeyError:
        @internalcode
        def t_2(*unused):
            raise TemplateRuntimeError("No filter named 'first' found.")
    try:
        t_3 = environment.filters['format']
    except KeyError:
        @internalcode
        def t_3(*unused):
            raise TemplateRuntimeError("No filter named 'format' found.")
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
    l_0_prim = context.call(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'regimes'), 'get'), environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu'), [])
    context.vars['prim'] = l_0_prim
    context.exported_vars.add('prim')
    l_0_ck = environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'checkpoint')
    context.vars['ck'] = l_0_ck
    context.exported_vars.add('ck')
    yield '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>Deployment sheet — '
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    yield '</title>\n<style>\nbody{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem auto;max-width:1200px;padding:0 1rem;color:#1b1f24}\nh1{font-size:1.6rem;margin-bottom:.2rem}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #d0d7de;padding-bottom:.2rem}\ntable{border-collapse:collapse;margin:.6rem 0;font-size:13px}th,td{border:1px solid #d0d7de;padding:.25rem .5rem;text-align:left;vertical-align:top}\nth{background:#f6f8fa}td.num{text-align:right;font-variant-numeric:tabular-nums}\n.card{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.8rem 1rem}\n.grade{font-size:1.3rem;font-weight:700}.HARD{color:#b42318;font-weight:600}.FALLBACK{color:#b54708}.PERF{color:#175cd3}.INFO{color:#475467}\n.ok{color:#067647}.bad{color:#b42318}.mid{color:#b54708}.change{border-left:4px solid #175cd3;padding:.4rem .8rem;background:#eff8ff}\nsmall{color:#475467}\npre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:.5rem .8rem}\n</style>\n</head>\n<body>\n<h1>Deployment sheet — '
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'name')))
    if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha'):
        pass
        yield ' @ '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'provenance'), 'commit_sha')[:7]))
    yield '</h1>\n<div class="card">\n<span class="grade">Score '
    yield escape(environment.finalize(t_3('%.1f', environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'total'))))
    yield '/100 ('
    yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'grade')))
    if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
        pass
        yield ', provisional'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') != 'decoder'):
        pass
        yield ', serving not scored'
    yield ')</span> ·\n'
    yield escape(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' MoE ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' expert'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts') != 1):
            pass
            yield 's'
        yield ', top-'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        yield ')'
    yield ' ·\n'
    yield escape(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'total'))))
    yield ' params'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield ' (estimated)'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield ' ('
        yield escape(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active'))))
        yield ' active)'
    if environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'):
        pass
        yield ' (+'
        yield escape(environment.finalize(t_1(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision'))))
        yield ' vision)'
    yield ' ·\nweights '
    l_0_half = (t_2(environment, t_8(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 'precision', 'equalto', 'fp16')) if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision') == 'fp16') else environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights'), 0))
    context.vars['half'] = l_0_half
    context.exported_vars.add('half')
    yield escape(environment.finalize(t_10((undefined(name='half') if l_0_half is missing else l_0_half))))
    yield ' at '
    yield escape(environment.finalize(t_9(environment.getattr((undefined(name='half') if l_0_half is missing else l_0_half), 'precision'))))
    def t_11(fiter):
        for l_1_w in fiter:
            if ((environment.getattr(l_1_w, 'precision') == environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')) and (environment.getattr(l_1_w, 'precision') not in ('bf16', 'fp16'))):
                yield l_1_w
    for l_1_w in t_11(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'weights')):
        _loop_vars = {}
        pass
        yield ', '
        yield escape(environment.finalize(t_10(l_1_w)))
        yield ' at '
        yield escape(environment.finalize(environment.getattr(l_1_w, 'precision')))
    l_1_w = missing
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'unsized_checkpoint'):
        pass
        yield " (not the checkpoint's "
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'unsized_checkpoint')))
        yield ' storage: rule Q9)'
    if (environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'kind') == 'decoder'):
        pass
        yield ' · KV '
        yield escape(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token_all_layers'))))
        yield ' B/token ('
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'dtype')))
        if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'policy') == 'window'):
            pass
            yield ', window policy: '
            yield escape(environment.finalize(t_6(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'kv_cache'), 'bytes_per_token'))))
            yield ' B/token beyond the windows'
        yield ')'
    l_0_fit1 = environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'smallest_fit')
    context.vars['fit1'] = l_0_fit1
    context.exported_vars.add('fit1')
    if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by')):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by'), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework'))))
        yield '</b>'
    if (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tp_caps')):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' loads the checkpoint as stored at TP '
        yield escape(environment.finalize(environment.getitem(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_tp_caps'), environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework'))))
        yield ' only (rule Q10)</b>'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checkpoint_refused'):
        pass
        yield ' · <b class="verdict">engines refuse to load the checkpoint: its tensor shapes differ from config.json (rule C1)</b>'
    if (undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1):
        pass
        yield ' · <b class="verdict">'
        if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'checkpoint_refused'):
            pass
            yield 'as configured, '
        elif (environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework') in environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'quantization'), 'checkpoint_refused_by')):
            pass
            yield 're-exported, '
        yield 'fits '
        yield escape(environment.finalize((environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'num_gpus') or environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'tp'))))
        yield '× '
        yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'gpu')))
        if (environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'nodes') > 1):
            pass
            yield ' ('
            yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout')))
            yield ', '
            yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'nodes')))
            yield ' nodes)'
        elif environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout'):
            pass
            yield ' ('
            yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'layout')))
            yield ')'
        yield ' at '
        yield escape(environment.finalize(environment.getattr((undefined(name='fit1') if l_0_fit1 is missing else l_0_fit1), 'precision')))
        yield '</b>'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_refusal'):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_refusal')))
        yield '</b>'
    elif (environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity') and (not t_5(context.eval_ctx, t_7(context, environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'), 'engine_blocker')))):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'framework')))
        yield ' refuses '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield ' at every TP ≤ 8</b>'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_limit'):
        pass
        yield ' · <b class="verdict">'
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'engine_limit')))
        yield ': no layout it runs fits 8× '
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ' at '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield '</b>'
    elif environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'capacity'):
        pass
        yield ' · <b class="verdict">does not fit one node (8× '
        yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
        yield ') at '
        yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
        yield '</b>'
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
            yield ' · best on '
            yield escape(environment.finalize(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'primary_gpu')))
            yield ' at '
            yield escape(environment.finalize(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'options'), 'precision')))
            yield ': '
        yield escape(environment.finalize(environment.getattr(l_1_r, 'id')))
        yield ' '
        yield escape(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'layout')))
        if (environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes') > 1):
            pass
            yield ' ('
            yield escape(environment.finalize(environment.getattr(environment.getattr(l_1_r, 'prediction'), 'nodes')))
            yield ' nodes)'
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_r = missing
    yield '</div>\n'
    if (not environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'exact')):
        pass
        yield '<p class="change"><b>Estimated counts:</b> '
        yield escape(environment.finalize(t_4(context.eval_ctx, environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'estimate_reasons'), '; ')))
        yield '.'
        if environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'score'), 'provisional'):
            pass
            yield ' The score is provisional.'
        yield '</p>\n'
        if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
            pass
            yield '<ul>'
            for l_1_g in environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'guesses'):
                _loop_vars = {}
                pass
                yield '<li>guess: '
                yield escape(environment.finalize(l_1_g))
                yield '</li>'
            l_1_g = missing
            yield '</ul>'
    if environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'):
        pass
        yield '<p class="change"><b>Change first:</b> '
        yield escape(environment.finalize(environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'summary')))
        yield ' [rules '
        yield escape(environment.finalize(t_4(context.eval_ctx, environment.getattr(environment.getitem(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'recommendations'), 0), 'rules'), ', ')))
        yield ']</p>\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'custom_code'):
        pass
        yield '<p class="change"><b>Custom code:</b> this config has <code>auto_map</code>; transformers needs the repository\'s code to run it (read here as data only).</p>'
    yield '\n'
    for l_1_sec in (undefined(name='sections') if l_0_sections is missing else l_0_sections):
        _loop_vars = {}
        pass
        template = environment.get_or_select_template(markup_join(('sheet/', environment.getattr(l_1_sec, 'id'), '.html.j2', )), 'sheet.html.j2')
        gen = template.root_render_func(template.new_context(context.get_all(), True, {'sec': l_1_sec, 'ck': l_0_ck, 'fit1': l_0_fit1, 'half': l_0_half, 'm': l_0_m, 'p': l_0_p, 'prim': l_0_prim}))
        try:
            for event in gen:
                yield event
        finally: gen.close()
    l_1_sec = missing
    yield '</body>\n</html>'

blocks = {}
debug_info = '2=74&3=77&4=80&5=83&11=87&25=89&27=95&28=105&29=118&30=134&31=157&32=169&33=243&35=271&36=280&37=291&38=294&40=298&42=302'