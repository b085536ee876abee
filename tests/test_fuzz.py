"""Property-based fuzzing of ``deploysheet score`` with mutations of real configs (issue 15, item 5).

Seeds: the bundled examples (data/examples/*/config.json, always present) plus ../shared/corpus when it is
there (skipped silently when absent, as tests/test_corpus.py does). Each case mutates a seed — keys deleted,
numbers zeroed / negated / huge (including integer literals of more than 4,300 digits written into the JSON
text) / fractional / non-finite, strings where numbers belong, junk nesting, huge lists, hostile strings
(Markdown / HTML injection, pipes, backticks, newlines, control characters) in model-controlled strings,
``auto_map`` pointing at a module that sits beside the config, truncated files and non-UTF-8 bytes — and runs
``scorer.cli.main(["score", path, "--format", fmt])`` in-process, asserting the CLI's contract:

* the exit code is 0 (a sheet) or 2 (bad input); never 1 (internal error) or anything else;
* stderr has at most 3 lines, and an error is exactly one line starting ``deploysheet: error:``;
* on success ``--format json`` is strict JSON (no NaN/Infinity), Markdown tables keep their shape (no
  model-controlled ``|`` or newline breaks a row) and neither Markdown nor HTML carries a raw ``<script``
  or ``<img`` tag or a control character;
* repository code is never run: a module named by ``auto_map`` is neither imported nor executed.

CI runs a bounded, deterministic number of cases (``derandomize=True``; about 400 in all). Set
``DEPLOYSHEET_FUZZ_EXAMPLES=N`` to run N cases per property instead (a bug hunt), and
``DEPLOYSHEET_FUZZ_RANDOM=1`` for fresh random cases each run (a failure prints its reproduction blob).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from conftest import CORPUS, ROOT, run_cli
from scorer.cli import main

_ENV_N = os.environ.get("DEPLOYSHEET_FUZZ_EXAMPLES")
_RANDOM = os.environ.get("DEPLOYSHEET_FUZZ_RANDOM") == "1"


def _settings(default: int):
    n = int(_ENV_N) if _ENV_N else default
    return settings(max_examples=n, deadline=None, derandomize=not _RANDOM, database=None, print_blob=_RANDOM,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much, HealthCheck.large_base_example])


def _seed_paths() -> list[Path]:
    paths = sorted((ROOT / "data" / "examples").glob("*/config.json"))
    if CORPUS.is_dir():  # opt-in: the shared corpus when this checkout has one
        paths += sorted(CORPUS.glob("*/config.json"))
    return paths


SEEDS: list[tuple[str, dict]] = [(p.parent.name, json.loads(p.read_text())) for p in _seed_paths()]
SEED_NAMES = [name for name, _ in SEEDS]
SEED = dict(SEEDS)

# ----------------------------------------------------------------------------- the contract

_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_TAGS = re.compile(r"<\s*/?\s*(script|img|iframe|svg\s+onload|a\s+href)", re.I)
#: modules the auto_map cases place beside config.json; importing one writes a marker file
EVIL_MODULES = ("configuration_fuzzevil", "modeling_fuzzevil", "tokenization_fuzzevil")


def _unescaped(line: str, char: str = "|") -> int:
    n, i = 0, 0
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == char:
            n += 1
        i += 1
    return n


def check_markdown(text: str) -> None:
    """Tables keep the header's column count in every row; no raw tags or control characters."""
    assert not _TAGS.search(text), _TAGS.search(text).group(0)
    assert not _CONTROL.search(text.replace("\t", "")), repr(_CONTROL.search(text).group(0))
    fence = False
    table: list[str] = []
    for line in text.split("\n") + [""]:
        if line.startswith("```"):
            fence = not fence
            continue
        if not fence and line.startswith("|"):
            table.append(line)
            continue
        if table:
            want = _unescaped(table[0])
            for row in table:
                assert row.rstrip().endswith("|") and _unescaped(row) == want, \
                    f"broken table row:\n{table[0]}\n{row}"
                assert _unescaped(row, "`") % 2 == 0, f"unpaired backtick in a table row:\n{row}"
            table = []


def check_html(text: str) -> None:
    assert not _TAGS.search(text), _TAGS.search(text).group(0)
    assert not _CONTROL.search(text.replace("\t", "")), repr(_CONTROL.search(text).group(0))


def _strict_json(text: str):
    def bad(c):
        raise AssertionError(f"non-finite number in JSON output: {c}")
    return json.loads(text, parse_constant=bad)


#: errors about the file as a whole (they need not name a key)
_FILE_ERRORS = ("is not UTF-8", "is not valid JSON", "is not usable JSON", "must hold a JSON object",
                "invalid Unicode", "-byte cap", "byte-order mark")


def _keys(data: bytes) -> set[str]:
    """Every key of the JSON object in data, at any depth (iteratively: the nesting may be deep)."""
    try:
        stack, keys = [json.loads(data.decode("utf-8-sig"))], set()
    except (ValueError, RecursionError):
        return set()
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            keys.update(k for k in x if isinstance(k, str))
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return keys


def _names_the_problem(line: str, data: bytes) -> bool:
    """An error about a config's contents names the key at fault (or a key the config lacks: 'missing X')."""
    if any(s in line for s in _FILE_ERRORS) or " missing " in line or "needs " in line:
        return True
    msg = line.split("error: ", 1)[1]
    return any(re.search(r"(?<![A-Za-z0-9_])" + re.escape(k) + r"(?![A-Za-z0-9_])", msg)
               for k in _keys(data) if k.strip())


def score(data: bytes, fmt: str, recommendations: bool, extra_files: dict[str, str] | None = None):
    """Write ``data`` as config.json in a fresh folder, run ``deploysheet score`` in-process, check the contract;
    returns (rc, stdout, stderr, folder contents after the run)."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        folder = Path(tmp)
        (folder / "config.json").write_bytes(data)
        for name, body in (extra_files or {}).items():
            (folder / name).write_text(body)
        argv = ["score", str(folder / "config.json"), "--format", fmt]
        if not recommendations:
            argv.append("--no-recommendations")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
        out, err = out.getvalue(), err.getvalue()
        left = sorted(p.name for p in folder.iterdir())
    lines = err.splitlines()
    assert "internal error" not in err and "Traceback" not in err, err
    assert rc in (0, 2), (rc, err)
    assert len(lines) <= 3, err
    if rc:
        assert len(lines) == 1 and lines[0].startswith("deploysheet: error: "), err
        assert out == "", "output written on error"
        assert _names_the_problem(lines[0], data), f"the error names no key of the config: {err}"
    else:
        assert out
        if fmt == "json":
            _strict_json(out)
        elif fmt == "md":
            check_markdown(out)
        else:
            check_html(out)
    return rc, out, err, left


# ----------------------------------------------------------------------------- mutations

class BigInt:
    """Placeholder for an integer literal written into the JSON text as ``digits`` nines."""

    def __init__(self, digits: int, negative: bool = False):
        self.digits, self.negative = digits, negative
        self.token = f"__BIGINT_{id(self)}__"


class RawNumber:
    """Placeholder for JSON text written as is: number literals json.dumps never writes (1e999, NaN), deep nesting."""

    def __init__(self, text: str):
        self.text = text
        self.token = f"__RAWNUM_{id(self)}__"


def to_text(cfg) -> str:
    """json.dumps with the placeholders written out as literals."""
    subs: dict[str, str] = {}

    def conv(x):
        if isinstance(x, BigInt):
            subs[x.token] = ("-" if x.negative else "") + "9" * x.digits
            return x.token
        if isinstance(x, RawNumber):
            subs[x.token] = x.text
            return x.token
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        if isinstance(x, list):
            return [conv(v) for v in x]
        return x

    text = json.dumps(conv(cfg))
    for token, lit in subs.items():
        text = text.replace(json.dumps(token), lit)
    return text


def leaves(obj, path=()):
    """Every (path, value) below obj; lists contribute at most their first 4 and last items."""
    out = []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.append((path + (k,), v))
            out += leaves(v, path + (k,))
    elif isinstance(obj, list):
        idx = list(range(min(len(obj), 4)))
        if len(obj) > 4:
            idx.append(len(obj) - 1)
        for i in idx:
            out.append((path + (i,), obj[i]))
            out += leaves(obj[i], path + (i,))
    return out


def set_at(cfg, path, value):
    node = cfg
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value


def delete_at(cfg, path):
    node = cfg
    for p in path[:-1]:
        node = node[p]
    if isinstance(node, dict):
        del node[path[-1]]
    else:
        node.pop(path[-1])


FRAGMENTS = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "|", "||", "`", "```", "\n", "\r\n",
             "\n\n# heading\n", "\n| a | b |\n", "\t", "\x00", "\x07", "\x1b[31m", "\u202e", "\u2066", "\x85",
             "\u2028", "[x](javascript:alert(1))", "@everyone", "http://evil.example", "**b**", "_i_", "\\", "\\|",
             "&lt;script&gt;", "</td></tr></table>", "<!--", "-->", "'\"", "{{ 7*7 }}", "{% if %}", "${x}", "%s",
             "é", "\u00a0", "\ufeff", "\u200b", "😀", "-->\n<script>", "</script>", "<SCRIPT>", "< script>"]
hostile = st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), min_size=1, max_size=6).map("".join)

NUMBER_SWAPS = [0, -1, 1, 0.5, 1e-300, -0.0, 2 ** 31, 2 ** 53 + 1, 2 ** 63, 2 ** 64 + 1, 10 ** 18, 10 ** 100,
                10 ** 1000, 1e308, float("inf"), float("-inf"), float("nan"), True, False, None]
CORE = ["hidden_size", "intermediate_size", "num_hidden_layers", "num_attention_heads", "num_key_value_heads",
        "vocab_size", "head_dim", "model_type", "architectures", "text_config", "num_local_experts",
        "num_experts", "num_experts_per_tok", "moe_intermediate_size", "max_position_embeddings",
        "sliding_window", "layer_types", "rope_scaling", "rope_parameters", "quantization_config",
        "tie_word_embeddings", "kv_lora_rank", "q_lora_rank", "first_k_dense_replace", "n_routed_experts",
        "d_model", "num_layers", "n_layer", "n_embd", "n_head", "block_configs", "hybrid_override_pattern",
        "vision_config", "torch_dtype", "dtype"]
STRING_SPOTS = ["model_type", "_name_or_path", "torch_dtype", "dtype", "hidden_act", "name", "model_name"]


def _numbers(cfg):
    return [(p, v) for p, v in leaves(cfg) if isinstance(v, (int, float)) and not isinstance(v, bool)]


@st.composite
def number_value(draw, v):
    kind = draw(st.sampled_from(["swap", "neg", "scale", "frac", "bigint", "raw", "string"]))
    if kind == "swap":
        return draw(st.sampled_from(NUMBER_SWAPS))
    if kind == "neg":
        return -v if v else -1
    if kind == "scale":
        return v * 10 ** draw(st.integers(3, 400)) if isinstance(v, int) else v * 1e200
    if kind == "frac":
        return v + draw(st.sampled_from([0.5, 0.25, 1e-9, -0.5]))
    if kind == "bigint":
        return BigInt(draw(st.sampled_from([400, 4299, 4300, 4301, 5000, 20000])), draw(st.booleans()))
    if kind == "raw":
        return RawNumber(draw(st.sampled_from(["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1E+400",
                                               "0.0000000000000000000001", "1" + "0" * 400 + ".5", "-0"])))
    return draw(st.sampled_from(["", "4096", "abc", "1e3", " 7 ", "NaN", "0x10", "inf", "[1]"]) | hostile)


def _nest(depth: int, leaf):
    x = leaf
    for i in range(depth):
        x = [x] if i % 2 else {"a": x}
    return x


@st.composite
def mutate(draw, cfg):
    """One structural mutation of cfg, in place."""
    op = draw(st.sampled_from(["delete", "delete_core", "number", "number", "number", "string_for_dict",
                               "junk", "huge_list", "hostile", "type_swap", "unknown_type"]))
    nums = _numbers(cfg)
    allp = leaves(cfg)
    if op == "delete" and allp:
        path, _ = draw(st.sampled_from(allp))
        delete_at(cfg, path)
    elif op == "delete_core":
        present = [k for k in CORE if k in cfg] or list(cfg)
        if present:
            del cfg[draw(st.sampled_from(present))]
    elif op == "number" and nums:
        path, v = draw(st.sampled_from(nums))
        set_at(cfg, path, draw(number_value(v)))
    elif op == "string_for_dict":
        dicts = [(p, v) for p, v in allp if isinstance(v, (dict, list))]
        if dicts:
            path, _ = draw(st.sampled_from(dicts))
            set_at(cfg, path, draw(st.sampled_from(["", "x", 0, -1, 1.5, None, True, [], {}])))
    elif op == "junk" and allp:
        path, v = draw(st.sampled_from(allp))
        depth = draw(st.sampled_from([1, 3, 50, 400, 990, 5000]))
        if depth > 50:  # written into the text: the test's own recursive helpers stay shallow
            set_at(cfg, path, RawNumber('{"a": [' * depth + "1" + "]}" * depth))
        else:
            set_at(cfg, path, _nest(depth, draw(st.sampled_from([v if not isinstance(v, (dict, list)) else 1,
                                                                 None, "x", {}, []]))))
    elif op == "huge_list":
        spots = [p for p, v in allp if isinstance(v, list)] + [(k,) for k in ("architectures", "layer_types")]
        path = draw(st.sampled_from(spots))
        n = draw(st.sampled_from([1000, 20000, 100000]))
        item = draw(st.sampled_from([0, 1, "full_attention", "sliding_attention", "LlamaForCausalLM", None, {}]))
        set_at(cfg, path, [item] * n)
    elif op == "hostile":
        strs = [(p, v) for p, v in allp if isinstance(v, str)]
        spot = draw(st.sampled_from(["model_type", "architectures", "string_leaf", "key", "name_or_path",
                                     "quant_method"]))
        s = draw(hostile)
        if spot == "model_type":
            cfg["model_type"] = s
        elif spot == "architectures":
            cfg["architectures"] = [s]
        elif spot == "name_or_path":
            cfg["_name_or_path"] = s
        elif spot == "quant_method":
            cfg["quantization_config"] = {"quant_method": s, "bits": 4, "group_size": 128}
        elif spot == "key":
            dicts = [p for p, v in allp if isinstance(v, dict)]
            target = cfg
            if dicts and draw(st.booleans()):
                node = cfg
                for p in draw(st.sampled_from(dicts)):
                    node = node[p]
                target = node
            target[s] = draw(st.sampled_from([1, "x", None]))
        elif strs:
            path, _ = draw(st.sampled_from(strs))
            set_at(cfg, path, s)
    elif op == "unknown_type":  # transformers has no class for it: the generic reader takes the raw keys
        cfg["model_type"] = "fuzzunknown"
        cfg["architectures"] = ["FuzzUnknownForCausalLM"]
    elif op == "type_swap":
        key = draw(st.sampled_from(CORE))
        cfg[key] = draw(st.sampled_from(["", "x", 0, -5, 1.5, None, True, [], {}, [1, 2], {"a": 1}]))


@st.composite
def byte_mutation(draw, data: bytes) -> bytes:
    op = draw(st.sampled_from(["truncate", "bad_utf8", "bom", "nul", "latin1", "empty", "trailing", "dup_key"]))
    if op == "truncate":
        return data[:draw(st.integers(0, max(0, len(data) - 1)))]
    if op == "bad_utf8":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.sampled_from([b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xed\xa0\x80", b"\x80"])) \
            + data[at:]
    if op == "bom":
        return draw(st.sampled_from([b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"])) + data
    if op == "nul":
        at = draw(st.integers(0, len(data)))
        return data[:at] + b"\x00" + data[at:]
    if op == "latin1":
        return data[:-1] + b', "_name_or_path": "caf\xe9"}'
    if op == "empty":
        return draw(st.sampled_from([b"", b" \n", b"null", b"[]", b"0", b'"x"', b"{", b"{}"]))
    if op == "trailing":
        return data + draw(st.sampled_from([b"x", b"{}", b"\x00", b",", b"\n\n"]))
    return data[:-1] + b', "hidden_size": "dup", "hidden_size": -3}'


fmts = st.sampled_from(["md", "json", "html"])


@st.composite
def mutated_config(draw):
    name = draw(st.sampled_from(SEED_NAMES))
    cfg = copy.deepcopy(SEED[name])
    for _ in range(draw(st.integers(1, 3))):
        draw(mutate(cfg))
    return to_text(cfg).encode("utf-8")


# ----------------------------------------------------------------------------- properties

@_settings(220)
@given(data=mutated_config(), fmt=fmts, rec=st.booleans())
def test_mutated_configs_keep_the_contract(data, fmt, rec):
    score(data, fmt, rec and len(data) < 200_000)


@_settings(100)
@given(name=st.sampled_from(SEED_NAMES), s=hostile, fmt=fmts,
       spot=st.sampled_from(["model_type", "architectures", "_name_or_path", "auto_map_key", "quant_method",
                             "layer_types", "torch_dtype"]))
@example(name="llama-2-7b", s="a|b\n| x | y |\n<script>alert(1)</script>`", fmt="md", spot="model_type")
@example(name="llama-2-7b", s="</td><script>alert(1)</script>", fmt="html", spot="architectures")
def test_hostile_strings_are_escaped(name, s, fmt, spot):
    cfg = copy.deepcopy(SEED[name])
    if spot == "architectures":
        cfg["architectures"] = [s, *(cfg.get("architectures") or [])]
    elif spot == "auto_map_key":
        cfg["auto_map"] = {s: f"{s}.{s}", "AutoConfig": s}
    elif spot == "quant_method":
        cfg["quantization_config"] = {"quant_method": s, "bits": 4, "group_size": 128}
    elif spot == "layer_types":
        n = cfg.get("num_hidden_layers") if isinstance(cfg.get("num_hidden_layers"), int) else 2
        cfg["layer_types"] = [s] * max(1, min(n, 200))
    else:
        cfg[spot] = s
    rc, out, err, _ = score(to_text(cfg).encode("utf-8"), fmt, False)
    if rc == 0 and fmt == "json":
        _strict_json(out)


@_settings(60)
@given(name=st.sampled_from(SEED_NAMES), fmt=fmts, data=st.data())
def test_truncated_and_undecodable_files(name, fmt, data):
    text = json.dumps(SEED[name]).encode("utf-8")
    score(data.draw(byte_mutation(text)), fmt, False)


_EVIL_BODY = ("import pathlib\npathlib.Path(__file__).with_name('EXECUTED').write_text('x')\n"
              "raise SystemExit('repository code was executed')\n")


@_settings(40)
@given(name=st.sampled_from(SEED_NAMES), fmt=fmts, model_type=st.sampled_from([None, "fuzzevil", "keep"]),
       extra=st.integers(0, 2))
@example(name="llama-2-7b", fmt="json", model_type="fuzzevil", extra=0)
def test_auto_map_never_imports(name, fmt, model_type, extra):
    cfg = copy.deepcopy(SEED[name])
    cfg["auto_map"] = {"AutoConfig": "configuration_fuzzevil.EvilConfig",
                       "AutoModelForCausalLM": "modeling_fuzzevil.EvilModel",
                       "AutoTokenizer": ["tokenization_fuzzevil.EvilTokenizer", None]}
    if extra:
        cfg["auto_map"]["AutoModel"] = "someone/repo--modeling_fuzzevil.EvilModel"
    if extra == 2:
        cfg["trust_remote_code"] = True
    if model_type is None:
        cfg.pop("model_type", None)
    elif model_type == "fuzzevil":
        cfg["model_type"] = "fuzzevil"
    before = set(sys.modules)
    files = {f"{m}.py": _EVIL_BODY for m in EVIL_MODULES}
    sys_path = list(sys.path)
    rc, out, err, left = score(to_text(cfg).encode("utf-8"), fmt, False, files)
    assert sys.path == sys_path
    assert "EXECUTED" not in left, "a module named by auto_map was executed"
    new = {m for m in set(sys.modules) - before if "fuzzevil" in m}
    assert not new, new
    if rc == 0 and fmt == "json":
        # the repository's code is needed where transformers has no class of the model_type (a known type's
        # auto_map is not used: transformers and the engines run their own implementation)
        assert _strict_json(out)["model"]["custom_code"] is (model_type != "keep")


# ----------------------------------------------------------------------------- in a real process

@pytest.mark.slow
@pytest.mark.parametrize("body", [
    b'{"model_type": "llama", "hidden_size": ' + b"9" * 5000 + b"}",
    b'{"model_type": "zz|<script>\\n", "architectures": ["A\\u0007"], "hidden_size": 1024, '
    b'"intermediate_size": 2816, "num_hidden_layers": 2, "num_attention_heads": 8, "vocab_size": 1000}',
    b'\xff\xfe{"model_type": "llama"}',
], ids=["bigint", "hostile", "utf16-bom"])
def test_stderr_contract_in_a_subprocess(tmp_path, body):
    """What a user sees: nothing on stderr but the one error line (no logging or warnings from libraries)."""
    cfg = tmp_path / "config.json"
    cfg.write_bytes(body)
    proc = run_cli("score", str(cfg), "--format", "md", "--no-recommendations")
    assert proc.returncode in (0, 2), proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) <= 3 and "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    if proc.returncode:
        assert len(lines) == 1 and lines[0].startswith("deploysheet: error: ")
    else:
        check_markdown(proc.stdout)


# ----------------------------------------------------------------------------- regressions the fuzzer found

LLAMA = {"model_type": "llama", "architectures": ["LlamaForCausalLM"], "hidden_size": 1024,
         "intermediate_size": 2816, "num_hidden_layers": 4, "num_attention_heads": 8, "num_key_value_heads": 2,
         "vocab_size": 32000}

#: (minimal config text, a word the one-line error must hold)
REGRESSIONS = {
    # transformers' __post_init__ failed with "'str' object has no attribute 'items'", naming no key
    "id2label_string": (json.dumps(dict(LLAMA, id2label="")), "id2label"),
    # Qwen2.5-1.5B without num_key_value_heads: Qwen2Config's default of 32 does not divide 12 heads; the error
    # named neither key ("12 attention heads are not a multiple of 32 key/value heads")
    "kv_heads_absent": (json.dumps({"model_type": "qwen2", "architectures": ["Qwen2ForCausalLM"], "hidden_size": 1536,
                                    "intermediate_size": 8960, "num_hidden_layers": 2, "num_attention_heads": 12,
                                    "vocab_size": 1000}), "num_key_value_heads, absent from the config"),
    "heads_not_dividing_hidden": (json.dumps(dict(LLAMA, num_attention_heads=7, num_key_value_heads=7)),
                                  "(num_attention_heads)"),
    # DeepSeek-V3 with moe_intermediate_size 2,048,000: the plausibility bound said only "a dimension is probably
    # wrong"; it now names the component and its keys
    "plausibility_bound": (json.dumps({"model_type": "mixtral", "architectures": ["MixtralForCausalLM"],
                                       "hidden_size": 16384, "intermediate_size": 4194304, "num_hidden_layers": 64,
                                       "num_attention_heads": 128, "num_key_value_heads": 8, "num_local_experts": 8,
                                       "num_experts_per_tok": 2, "vocab_size": 32000}),
                           "are routed experts, check the expert count (num_experts, num_local_experts"),
}


@pytest.mark.parametrize("case", sorted(REGRESSIONS))
def test_fuzz_regressions(case):
    text, word = REGRESSIONS[case]
    for fmt in ("md", "json", "html"):
        rc, _, err, _ = score(text.encode("utf-8"), fmt, False)
        assert rc == 2 and word in err, err
