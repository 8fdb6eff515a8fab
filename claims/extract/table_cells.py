"""One table cell -> (subject, attribute, qualifiers, value): the rules for figures in
tables (:mod:`claims.extract.tables`).

The owner of a cell is its column header when that names a model, else its row label when
that does (a transposed table), else, in a two-column table, the top-left cell when that
does (a spec card under the model's name); the other one says what the figure is: a benchmark name
(:func:`claims.extract.rules.find_benchmarks`; in a table with at least one known benchmark
row, any other row label is a benchmark name too, without its "(EM)"/"(Pass@1)" notes),
parameter, context and speed ("tokens/s") words, or a price column ("Input price ($/1M tokens)", "Preço de
saída (US$/M)": side, currency and token unit read from the header, so a bare "0.20" cell
is a price). A row or column naming a model the subjects file lacks gives that model's
figure (subject ``None``, the model's name as written). A benchmark cell is a percent when it says so or is at
most 100 (unless its label says rating or Elo), otherwise points. Pure.
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal

from claims.extract.figures import LOWER_BOUND_WORDS, UPPER_BOUND_WORDS, Figure, scan_figures
from claims.extract.lexicon import alternation, patterns, phrases, words
from claims.extract.models import find_models
from claims.extract.rules import Named, find_benchmarks, is_cached_price, price_side
from claims.extract.tables import Cell, Table, is_numeric
from claims.subjects.references import SubjectIndex
from claims.values.tiers import canonical_condition
from claims.values.value import Value

_NOTE = re.compile(r"\s*\([^)]*\)\s*$")
_NOTES = re.compile(r"\s*\([^)]*\)")
# A column headed by a score word only ("Score", "Pontuação", "Accuracy (%)"): its
# benchmark is the one the caption above the table names.
_SCORE_HEAD = re.compile(rf"(?:{phrases('score_headers')})(?:\s*\(%\))?", re.I)
_CAPTION_WORDS = 12
# Row labels whose figures are no benchmark score (training data, prices, dates, sizes
# on disk): read by nothing here rather than guessed.
# A stem of under four letters must start a word ("GB", not the "gB" of "BigBench").
_NOT_A_SCORE = re.compile(
    "|".join(
        re.escape(w) if len(w) >= 4 else rf"(?<![^\W\d_]){re.escape(w)}"
        for w in words("not_score_labels")
    ),
    re.I,
)
_POINTS_LABEL = re.compile(patterns("points_labels"), re.I)
_MEASURE_WORDS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"(?:activ|ativ).*par[aâ]m|par[aâ]m.*(?:activ|ativ)", re.I),
        "active_params",
        "params",
    ),
    (re.compile(r"total.*par[aâ]m|par[aâ]m.*total", re.I), "total_params", "params"),
    # "Params", "Parâmetros", "Size (params)": not active, so the total
    (re.compile(r"^\W*(?:size\W+)?par[aâ]m", re.I), "total_params", "params"),
    (re.compile(r"context|contexto", re.I), "context_window", "tokens"),
    # "Speed (tokens/s)", "Output tok/s", "Velocidade (tokens por segundo)"
    (
        re.compile(r"tok(?:en)?s?\s*/\s*s\b|tokens?\s+(?:per|por)\s+seg", re.I),
        "output_tokens_per_second",
        "tokens_per_second",
    ),
)

# A price column: money words or a currency, per a token count ("$/1M tokens", "por milhão").
_PRICE_HEAD = re.compile(alternation("price_heads") + r"|[$€]|\bUSD\b|\bEUR\b", re.I)
# A cell of one figure and its unit words ("200K tokens"); two prices in one cell
# ("$15 / $75 per MTok").
_ONE_FIGURE_CELL = re.compile(r"^[~≈]?[$€£]?\s*\d[\d.,]*\s*[kKMBT]?\s+[^\W\d_]+$")
_SPEC_HEAD = re.compile(alternation("spec_value_heads"), re.I)
# A spec sheet's cell: a figure and its unit words, then a note in brackets ("744B (744
# bilhões)", "200.000 tokens").
_SPEC_CELL = re.compile(r"^[~≈]?[$€£]?\s*\d[\d.,]*\s*[kKMBT]?(?:\s+[^\W\d_]+)?\s*\([^()]*\)$")
# A limit's cell: an upper bound, a token count and a few words of what it bounds ("Up to
# 256,000 tokens per request", "Até 128K tokens por chamada").
_BOUND_CELL = re.compile(
    rf"^(?:{UPPER_BOUND_WORDS}|até)\s+\d[\d.,]*\s*[kKM]?\s+tokens?(?:\s+[^\W\d_]+){{0,3}}$",
    re.I,
)
# A row label that is a request's size, a price tier's condition ("≤ 128,000 tokens",
# "> 128K", "Above 200K tokens", "Up to 32K"): no measure, no model.
_TIER_LABEL = re.compile(
    rf"^(?:[≤≥<>]=?|{UPPER_BOUND_WORDS}|{LOWER_BOUND_WORDS}|até|acima\s+de)\s*"
    r"\d[\d.,]*\s*[kKM]?(?:\s+(?:input\s+)?tokens?)?$",
    re.I,
)
# A cell of one price per a token count ("$15 / MTok", "$2.50 per 1M tokens").
_PRICE_CELL = re.compile(
    r"^[$€£]\s*\d[\d.,]*\s*(?:/|per|por)\s*(?:1\s*)?(?:M|K|MTok|KTok|million|milh[ãa]o)"
    r"(?:\s+(?:input\s+|output\s+)?tokens)?$",
    re.I,
)
# A price cell with its cached rate after it ("$0.06 cache $0.02", "$1.25 cached $0.31"):
# the first figure is the cell's price.
_CACHED_NOTE_CELL = re.compile(
    r"^[$€£]\s*\d[\d.,]*\s+(?:cache|" + phrases("cached_price") + r")\s*:?\s*[$€£]\s*\d[\d.,]*$",
    re.I,
)
_PAIR_CELL = re.compile(
    r"^(?P<a>[$€£]?\s*\d[\d.,]*)\s*/\s*(?P<b>[$€£]?\s*\d[\d.,]*)\s*(?P<per>(?:/|per|por)\s*\S.*)$",
    re.I,
)
_PER_HEAD = re.compile(
    r"(?:/|\bper\b|\bpor\b)\s*(?:1\s*)?(?P<per>M\b|MTok|million|milh[ãa]o|K\b|KTok|thousand|mil\b)",
    re.I,
)
_HEAD_CURRENCY = re.compile(r"(?P<eur>€|\bEUR\b|euros?)|(?P<usd>US\$|\$|\bUSD\b|d[óo]lar)", re.I)

# (slug or None, attribute, qualifiers, value, (start, end), other model's name or "")
Reading = tuple[str | None, str, dict[str, str], Value, tuple[int, int], str]


def _owner(text: str, index: SubjectIndex) -> tuple[bool, str | None]:
    """(names a model, its slug if the subjects file knows it) for a header or label."""
    mentions = index.mentions(text)
    if mentions:
        return True, mentions[0].slug
    return bool(find_models(text)), None


def _is_bench_table(t: Table) -> bool:
    return any(find_benchmarks(r[0].text) for r in t.rows) or any(
        find_benchmarks(h.text) for h in t.header[1:]
    )


def read_cell(
    t: Table, label: Cell, head: Cell, cell: Cell, text: str, locale: str, index: SubjectIndex
) -> Reading | None:
    """(slug, attribute, qualifiers, value, (start, end), other model) of one cell, or
    ``None`` when the cell is no figure, names no model, or its measure is unknown. A
    model the subjects file lacks gives slug ``None`` and its name (header or label)."""
    worded = not is_numeric(cell.text)  # "200K tokens": only under a size/context/speed label
    cached_note = _CACHED_NOTE_CELL.match(cell.text)
    if cached_note:  # "$0.06 cache $0.02": the price, then its cached rate as a note
        worded = False
    elif worded and not (_ONE_FIGURE_CELL.match(cell.text) or _PRICE_CELL.match(cell.text)):
        return None
    named, slug = _owner(head.text, index)
    measure, owner = label.text, head.text
    if not named:
        named, slug = _owner(label.text, index)
        measure, owner = head.text, label.text
    if not named and len(t.header) == 2 and head is t.header[1]:
        # a spec card whose top-left cell names the model ("gemini-x-preview" over
        # "Context" / "1.0M"): every row is that model's
        named, slug = _owner(t.header[0].text, index)
        measure, owner = label.text, t.header[0].text
    if not named:
        return None
    figs = scan_figures(text[cell.start : cell.end], locale)
    if not figs:
        return None
    f = figs[0]
    span = (cell.start + f.start, cell.start + f.end)
    other = "" if slug is not None else owner
    if f.kind == "money" and f.per:
        read = _cell_price(measure, f)  # "$15 / MTok" under "Input": the unit is the cell's
    elif worded and not any(rx.search(measure) for rx, _, _ in _MEASURE_WORDS):
        return None
    else:
        if f.kind == "money" and not _PER_HEAD.search(measure):
            measure = f"{measure} {caption_unit(text, t.start)}".rstrip()
        read = _measure(t, measure, f, caption_benchmark(text, t.start))
    if read is None:
        return None
    attr, q, v = read
    return slug, attr, q, v, span, other


def read_spec_cell(
    t: Table, label: Cell, head: Cell, cell: Cell, text: str, locale: str, index: SubjectIndex
) -> tuple[str, dict[str, str], Value, tuple[int, int]] | None:
    """(attribute, qualifiers, value, (start, end)) of a spec sheet's cell: a table naming
    no model in its header nor its row labels, whose column is headed by a value word
    (``lexicon/<lang>/spec_value_heads.txt``: "| Parâmetro | Valor |", "| Spec | Details |")
    and whose row label is a size, context, speed or price measure ("Janela de Contexto |
    200.000 tokens"). The model is not the table's to say (the caller attributes the figure
    as running text); a benchmark row or an unknown measure gives ``None``."""
    if not _SPEC_HEAD.fullmatch(head.text.strip()) or is_numeric(label.text):
        return None
    if any(_owner(c.text, index)[0] for c in (*t.header, *(r[0] for r in t.rows))):
        return None
    if not (
        is_numeric(cell.text)
        or _ONE_FIGURE_CELL.match(cell.text)
        or _SPEC_CELL.match(cell.text)
        or _BOUND_CELL.match(cell.text)
    ):
        return None
    figs = scan_figures(text[cell.start : cell.end], locale)
    if not figs:
        return None
    f = figs[0]
    if f.kind == "money" and f.per:
        read = _cell_price(label.text, f)
    elif any(rx.search(label.text) for rx, _, _ in _MEASURE_WORDS):
        read = _measure(t, label.text, f)
    else:
        read = _price(label.text, f)
    if read is None:
        return None
    return read[0], read[1], read[2], (cell.start + f.start, cell.start + f.end)


def read_tier_cell(
    t: Table, label: Cell, head: Cell, cell: Cell, text: str, locale: str, index: SubjectIndex
) -> tuple[str, dict[str, str], Value, tuple[int, int]] | None:
    """(attribute, qualifiers, value, (start, end)) of a price cell in a tiered price table:
    no model named in its header nor its row labels, the column a price header naming its
    side and token unit ("Input Price (per 1M tokens)"), the row label a request's size
    ("≤ 128,000 tokens", "> 128,000 tokens", :data:`_TIER_LABEL`). The first row is the
    headline price; a later row's price holds under its condition (qualifier
    ``conditions``: the label in canonical form, :func:`claims.values.tiers.canonical_condition`,
    "> 128,000 tokens" as "> 128K tokens", as prose gives it). The model is the running text's (the caller
    attributes it); ``None`` for any other cell."""
    if not _TIER_LABEL.match(label.text.strip()) or not is_numeric(cell.text):
        return None
    if any(_owner(c.text, index)[0] for c in (*t.header, *(r[0] for r in t.rows))):
        return None
    figs = scan_figures(text[cell.start : cell.end], locale)
    read = _price(head.text, figs[0]) if len(figs) == 1 else None
    if read is None:
        return None
    attr, q, v = read
    if label is not t.rows[0][0]:
        q = {**q, "conditions": canonical_condition(label.text)}  # as prose gives it
    a = cell.start + figs[0].start
    return attr, q, v, (a, a + len(figs[0].text))


def read_pair_cell(
    label: Cell, head: Cell, cell: Cell, text: str, locale: str, index: SubjectIndex
) -> list[Reading]:
    """The two prices of a cell such as "$15 / $75 per MTok" under a row label naming a
    price and both sides in order ("API Pricing (Input/Output)"), for the model heading
    its column: [(input reading), (output reading)] in the label's order; else ``[]``."""
    m = _PAIR_CELL.match(cell.text)
    named, slug = _owner(head.text, index)
    if m is None or not named or not _PRICE_HEAD.search(label.text):
        return []
    found = [(w.start(), side) for side, w in _side_words(label.text) if w is not None]
    if len(found) != 2:
        return []
    out: list[Reading] = []
    for (_, side), g in zip(sorted(found), ("a", "b"), strict=True):
        figs = scan_figures(cell.text[m.start(g) : m.end(g)], locale)
        read = _price(f"{side} price {m.group('per')}", figs[0]) if len(figs) == 1 else None
        if read is None:
            return []
        a = cell.start + m.start(g) + figs[0].start
        out.append(
            (slug, read[0], read[1], read[2], (a, a + len(figs[0].text)), "" if slug else head.text)
        )
    return out


def _side_words(label: str) -> list[tuple[str, re.Match[str] | None]]:
    return [
        ("input", re.search(rf"(?i)\b(?:{alternation('input_side')})", label)),
        ("output", re.search(rf"(?i)\b(?:{alternation('output_side')})", label)),
    ]


def _caption(text: str, start: int) -> str:
    """A table's caption: the nearest non-blank line before ``start`` when it is short (at
    most :data:`_CAPTION_WORDS` words), else ""."""
    above = text[:start].rstrip()
    line = above[above.rfind("\n") + 1 :]
    return line if len(line.split()) <= _CAPTION_WORDS else ""


def read_captioned_cells(t: Table, text: str, locale: str, index: SubjectIndex) -> list[Reading]:
    """Readings of a table with no label column, every cell of one row a figure, whose
    caption names the one subject they belong to ("Zephyrine pricing (USD per 1M
    tokens)" over "| Input | Output |" / "| $0.45 | $1.80 |"): each cell under its
    header as :func:`_measure` reads it, the caption's price unit given to money cells.
    Any other table gives []."""
    if len(t.rows) != 1 or not all(is_numeric(c.text) for c in t.rows[0]):
        return []
    caption = _caption(text, t.start)
    if not caption:
        return []
    mentions = index.mentions(caption)
    others = [
        n for n in find_models(caption) if not any(m.start <= n.start < m.end for m in mentions)
    ]
    if len({m.slug for m in mentions}) != 1 or others:
        return []
    unit = caption_unit(text, t.start)
    out: list[Reading] = []
    for head, cell in zip(t.header, t.rows[0], strict=True):
        figs = scan_figures(text[cell.start : cell.end], locale)
        if not figs:
            continue
        f = figs[0]
        measure = head.text
        if f.kind == "money" and not _PER_HEAD.search(measure):
            measure = f"{measure} {unit}".rstrip()
        read = _measure(t, measure, f)
        if read is not None:
            attr, q, v = read
            span = (cell.start + f.start, cell.start + f.end)
            out.append((mentions[0].slug, attr, q, v, span, ""))
    return out


def caption_unit(text: str, start: int) -> str:
    """The price unit the table's caption gives its money cells ("Pricing (per million
    tokens):" above "Model  Input  Output"), as header words ("per million"); "" when the
    nearest non-blank line before ``start`` is long (over :data:`_CAPTION_WORDS` words)
    or names none."""
    per = _PER_HEAD.search(_caption(text, start))
    return per.group(0) if per else ""


def caption_benchmark(text: str, start: int) -> Named | None:
    """The one benchmark the table's caption names: the nearest non-blank line before
    ``start`` (a heading such as "SWE-bench Verified: Real GitHub Bug Fixes"), when it is
    short (at most :data:`_CAPTION_WORDS` words) and names exactly one benchmark."""
    line = _caption(text, start).strip(" #*:|")
    if not line:
        return None
    benches = find_benchmarks(line)
    return benches[0] if len({b.name for b in benches}) == 1 else None


def _measure_word(measure: str, rx: re.Pattern[str]) -> bool:
    """True when ``rx`` (a measure's words) is in the row or column label ``measure``, and
    not only in the bracketed note of a benchmark's label ("BrowseComp (w/ Context
    Manage)" is a BrowseComp score, not a context window)."""
    if not rx.search(measure):
        return False
    core = _NOTES.sub("", measure)
    return bool(rx.search(core)) or not find_benchmarks(core)


def _measure(
    t: Table, measure: str, f: Figure, caption: Named | None = None
) -> tuple[str, dict[str, str], Value] | None:
    """(attribute, qualifiers, value) of figure ``f`` under the row or column ``measure``;
    ``caption`` is the benchmark the table's caption names, for a column headed by a
    score word only ("| Model | Score |")."""
    for rx, attr, unit in _MEASURE_WORDS:
        if _measure_word(measure, rx):
            v = f.to_value(unit)
            return (attr, {}, v) if v is not None else None
    price = _price(measure, f)
    if price is not None:
        return price
    if _NOT_A_SCORE.search(measure):
        return None  # "Training Tokens | ~40T": training data, not a score nor a size
    benches = find_benchmarks(measure)
    if benches:
        q = {"benchmark": benches[0].name}
        if benches[0].version:
            q["version"] = benches[0].version
    elif _is_bench_table(t):
        q = {"benchmark": _NOTE.sub("", measure)}
    elif caption is not None and _SCORE_HEAD.fullmatch(measure.strip()):
        q = {"benchmark": caption.name}
        if caption.version:
            q["version"] = caption.version
    else:
        return None
    v = f.to_value("percent")
    small = v is not None and isinstance(v.value, Decimal) and v.value <= 100
    if f.kind != "percent" and (not small or _POINTS_LABEL.search(measure)):
        v = f.to_value("points")
    return ("benchmark_score", q, v) if v is not None else None


def _cell_price(measure: str, f: Figure) -> tuple[str, dict[str, str], Value] | None:
    """A cell stating its own price per tokens ("$15 / MTok") under a header naming only
    its side ("Input", "Output"): that side's price in USD per million tokens; a cached or
    batch column ("Prompt Caching Write", "Batch input") or one with no side gives none."""
    side = price_side(measure, "")
    if side is None or is_cached_price(measure) or f.currency != "usd":
        return None
    v = f.to_value()
    if v is None or v.unit != "usd_per_mtok":
        return None
    return f"price_{side}_usd_per_mtok", {}, v


def _price(measure: str, f: Figure) -> tuple[str, dict[str, str], Value] | None:
    """An input or output price in USD per million tokens when ``measure`` is a price
    header naming its side and a token unit ("Input price ($/1M tokens)", "Output $/M"),
    or a side and a unit only ("Input /M") over a cell of money ("$0.56");
    a price in another currency, or with no side, gives none."""
    per = _PER_HEAD.search(measure)
    side = price_side(measure, "")
    # a header of a side and a unit only ("Input /M") is a price's when the cell is money
    priced = _PRICE_HEAD.search(measure) or f.kind == "money"
    if not (priced and per and side) or f.kind not in ("money", "plain"):
        return None
    cur = _HEAD_CURRENCY.search(measure)
    currency = f.currency or ("eur" if cur and cur.group("eur") else "usd")
    if currency != "usd":
        return None
    unit = per.group("per")
    key = unit if unit in ("M", "K") else unit.lower().replace("ã", "a")
    key = {"mtok": "M", "ktok": "K", "milhao": "milhão"}.get(key, key)
    v = replace(f, kind="money", currency="usd", per=key).to_value()
    return (f"price_{side}_usd_per_mtok", {}, v) if v is not None else None


# Between a benchmark's name and its score in a cell of words: a colon or spaces at most.
_NAME_TO_SCORE = re.compile(r"\s*[:=]?\s*$")


def read_prose_cells(t: Table, text: str, locale: str, index: SubjectIndex) -> list[Reading]:
    """Scores written in words inside a cell ("SWE-bench 80.9% (first to break 80%)",
    "AIME 100%, LiveCodeBench 2,439 Elo") of a row that names one model in another cell
    ("| Software Engineering | Claude Opus 4.5 | SWE-bench 80.9% … |", a "Winner" column),
    in a table whose header names no model: each benchmark name followed by a figure is
    that model's score (a percent when it says so or is at most 100, else points)."""
    if any(_owner(h.text, index)[0] for h in t.header):
        return []
    out: list[Reading] = []
    for row in t.rows:
        named = [(c, _owner(c.text, index)) for c in row]
        owners = [(c, slug) for c, (is_model, slug) in named if is_model]
        if len(owners) != 1:
            continue
        owner, slug = owners[0]
        for cell in row:
            if cell is owner or is_numeric(cell.text):
                continue
            figs = scan_figures(text[cell.start : cell.end], locale)
            for b in find_benchmarks(cell.text):
                f = next((f for f in figs if f.start >= b.end), None)
                if f is None or not _NAME_TO_SCORE.match(cell.text[b.end : f.start]):
                    continue
                v = f.to_value("percent")
                small = v is not None and isinstance(v.value, Decimal) and v.value <= 100
                if f.kind != "percent" and not small:
                    v = f.to_value("points")
                if v is None:
                    continue
                q = {"benchmark": b.name, **({"version": b.version} if b.version else {})}
                span = (cell.start + f.start, cell.start + f.end)
                out.append((slug, "benchmark_score", q, v, span, "" if slug else owner.text))
    return out
