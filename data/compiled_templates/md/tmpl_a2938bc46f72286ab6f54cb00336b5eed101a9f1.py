from jinja2.runtime import LoopContext, Macro, Markup, Namespace, TemplateNotFound, TemplateReference, TemplateRuntimeError, Undefined, escape, identity, internalcode, markup_join, missing, str_join
name = 'sheet/architecture.md.j2'

def root(context, missing=missing):
    resolve = context.resolve_or_missing
    undefined = environment.undefined
    concat = environment.concat
    cond_expr_undefined = Undefined
    if 0: yield None
    l_0_m = resolve('m')
    l_0_s = resolve('s')
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
    try:
        t_4 = environment.filters['upper']
    except KeyError:
        @internalcode
        def t_4(*unused):
            raise TemplateRuntimeError("No filter named 'upper' found.")
    pass
    yield '## Architecture\n| | |\n|---|---|\n| model_type | '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'model_type')))
    yield ' (family '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'family')))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class'):
        pass
        yield ', transformers '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'config_class')))
    else:
        pass
        yield ', raw keys'
    yield ') |\n| architectures | '
    yield str(environment.finalize((t_2(context.eval_ctx, environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'architectures'), ', ') or '–')))
    yield ' |\n| layers | '
    yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_layers')))
    yield ': '
    l_1_loop = missing
    for (l_1_k, l_1_v), l_1_loop in LoopContext(context.call(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'layer_kinds'), 'items')), undefined):
        _loop_vars = {}
        pass
        yield str(environment.finalize(l_1_v))
        yield ' '
        yield str(environment.finalize(l_1_k))
        if (not environment.getattr(l_1_loop, 'last')):
            pass
            yield ', '
    l_1_loop = l_1_k = l_1_v = missing
    yield ' |\n| hidden · vocab | '
    yield str(environment.finalize(t_3(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'hidden_size'))))
    yield ' · '
    yield str(environment.finalize(t_3(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'vocab_size'))))
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'tie_word_embeddings'):
        pass
        yield ' (tied embeddings)'
    yield ' |\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'):
        pass
        yield '| attention | MLA: '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, q_lora '
        yield str(environment.finalize((environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'q_lora_rank') or '–')))
        yield ', kv_lora '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'kv_lora_rank')))
        yield ', rope '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_rope_head_dim')))
        yield ', nope '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'qk_nope_head_dim')))
        yield ', v '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'mla'), 'v_head_dim')))
        yield ' |\n'
    elif environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads'):
        pass
        yield '| attention | '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_heads')))
        yield ' heads, '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'num_kv_heads')))
        yield ' KV heads (group '
        yield str(environment.finalize(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'gqa_group')))
        yield '), head_dim '
        yield str(environment.finalize(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'head_dim')))
        yield ' ('
        yield str(environment.finalize(t_4(environment.getattr(environment.getattr(environment.getattr((undefined(name='s') if l_0_s is missing else l_0_s), 'hardware_fit'), 'attention'), 'mechanism'))))
        yield ') |\n'
    if environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'):
        pass
        yield '| MoE | '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers')))
        yield ' MoE layer'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'moe_layers') != 1):
            pass
            yield 's'
        yield ' · '
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts')))
        yield ' expert'
        if (environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'experts') != 1):
            pass
            yield 's'
        yield ' × '
        yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'expert_intermediate'))))
        yield ', top-'
        yield str(environment.finalize(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'top_k')))
        if environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'):
            pass
            yield ' · shared '
            yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'moe'), 'shared_intermediate'))))
        yield ' |\n'
    yield '| rope | '
    yield str(environment.finalize((environment.getattr((undefined(name='m') if l_0_m is missing else l_0_m), 'rope') or 'default / none')))
    yield ' |\n\n'
    if (undefined(name='ck') if l_0_ck is missing else l_0_ck):
        pass
        yield '| component | parameters (config) | stored (checkpoint) | stored bytes | active |\n|---|---:|---:|---:|---:|\n'
        def t_5(fiter):
            for (l_1_k, l_1_v) in fiter:
                if (l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_5(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' | '
            yield str(environment.finalize(t_3(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_3(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield str(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_1(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield ' | '
            yield str(environment.finalize(t_3(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield ' |\n'
        l_1_k = l_1_v = missing
        def t_6(fiter):
            for (l_1_k, l_1_v) in fiter:
                if ((l_1_v or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k)) or context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k)):
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_6([('vision', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'vision')), ('mtp', environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'mtp')), ('other', None)]):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' (not in total) | '
            yield str(environment.finalize(t_3(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_3(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'by_component'), 'get'), l_1_k, 0, _loop_vars=_loop_vars))))
            if (l_1_k in environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs')):
                pass
                yield ' ('
                yield str(environment.finalize(context.call(environment.getattr('{:+,}', 'format'), environment.getitem(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'differs'), l_1_k), _loop_vars=_loop_vars)))
                yield ')'
            yield ' | '
            yield str(environment.finalize(t_1(context.call(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'bytes_by_component'), 'get'), l_1_k, _loop_vars=_loop_vars))))
            yield ' | – |\n'
        l_1_k = l_1_v = missing
        if environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'):
            pass
            yield '\nCheckpoint: '
            yield str(environment.finalize(t_2(context.eval_ctx, environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'notes'), '; ')))
            yield '.\n'
        if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') or environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
            pass
            yield '\nStored but not parameters: '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'):
                pass
                yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors'))))
                yield ' quantization scale/zero-point tensors ('
                yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'bytes'))))
                yield ')'
            if (environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'scales'), 'tensors') and environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors')):
                pass
                yield ' · '
            if environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'):
                pass
                yield str(environment.finalize(t_3(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'tensors'))))
                yield ' buffers ('
                yield str(environment.finalize(t_1(environment.getattr(environment.getattr((undefined(name='ck') if l_0_ck is missing else l_0_ck), 'buffers'), 'bytes'))))
                yield ')'
            yield '.\n'
    else:
        pass
        yield '| component | parameters | active |\n|---|---:|---:|\n'
        def t_7(fiter):
            for (l_1_k, l_1_v) in fiter:
                if l_1_v:
                    yield (l_1_k, l_1_v)
        for (l_1_k, l_1_v) in t_7(context.call(environment.getattr(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'by_component'), 'items'))):
            _loop_vars = {}
            pass
            yield '| '
            yield str(environment.finalize(l_1_k))
            yield ' | '
            yield str(environment.finalize(t_3(l_1_v)))
            yield ' | '
            yield str(environment.finalize(t_3(environment.getitem(environment.getattr((undefined(name='p') if l_0_p is missing else l_0_p), 'active_by_component'), l_1_k))))
            yield ' |\n'
        l_1_k = l_1_v = missing
    yield '\n'

blocks = {}
debug_info = '5=40&6=51&7=53&8=67&9=74&10=77&11=89&12=92&14=102&15=105&17=126&19=128&22=131&23=139&25=155&26=163&28=177&30=180&32=182&34=185&39=204&40=212'