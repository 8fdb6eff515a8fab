"""Synthetic model-card pages for the watch-cycle bench: index -> ~2 KB HTML.

Each page has a specs table (parameters, licence, input price, tokens/s) and filler
prose, so a watcher has to fetch and parse a realistic page. ``version`` bumps the
figures of a page, which changes its bytes, ETag and Last-Modified.
"""

from __future__ import annotations

import hashlib
import random

LICENSES = ("apache-2.0", "mit", "llama3.1", "gemma", "other", "modified-mit")
WORDS = (
    "model release weights benchmark context window tokens inference latency throughput "
    "quantized checkpoint licence evaluation reasoning agentic coding vision multilingual "
    "training dataset mixture experts routing attention layers hidden vocabulary tokenizer"
).split()

# html_page watch params (table mode) reading the specs row of a page.
COLUMNS: dict[str, str] = {
    "1": "total_params",
    "2": "license",
    "3": "price_input_usd_per_mtok",
    "4": "output_tokens_per_second",
}
WATCH_PARAMS: dict[str, object] = {"selector": "table.specs tr", "columns": COLUMNS}


def slug(index: int) -> str:
    """Subject slug of page ``index`` (``bench-model-00042``)."""
    return f"bench-model-{index:05d}"


def name(index: int) -> str:
    """Subject name of page ``index`` as the page prints it (``Bench Model 00042``)."""
    return f"Bench Model {index:05d}"


def figures(index: int, version: int) -> dict[str, str]:
    """The specs of page ``index`` at ``version`` as the page prints them; every figure
    differs from one version to the next (so a changed page changes all four values)."""
    rng = random.Random(index)
    return {
        "total_params": f"{(rng.randint(1, 999) + version) * 10**9:,}",
        "license": LICENSES[(index + version) % len(LICENSES)],
        "price_input_usd_per_mtok": f"${(rng.randint(5, 2000) + version) / 100:.2f}",
        "output_tokens_per_second": f"{rng.randint(20, 3000) + version}",
    }


def filler(index: int, n_words: int) -> str:
    rng = random.Random(index)
    return " ".join(rng.choice(WORDS) for _ in range(n_words))


def render(index: int, version: int = 0) -> bytes:
    """The HTML of page ``index`` at ``version``: about 2 KB, distinct per index."""
    f = figures(index, version)
    paras = "\n".join(f"<p>{filler(index * 7 + k, 40)}</p>" for k in range(4))
    head = '<meta charset="utf-8">'
    html = f"""<!doctype html>
<html lang="en"><head>{head}<title>{name(index)} - model card</title></head>
<body><main>
<h1>bench-org/{name(index).replace(" ", "-")}</h1>
<table class="specs">
<tr><th>Model</th><th>Parameters</th><th>Licence</th>
<th>Input USD / 1M tokens</th><th>Tokens/s</th></tr>
<tr><td>{name(index)}</td><td>{f["total_params"]}</td><td>{f["license"]}</td>
<td>{f["price_input_usd_per_mtok"]}</td><td>{f["output_tokens_per_second"]}</td></tr>
</table>
<section class="about">
{paras}
</section>
<footer>revision {version}</footer>
</main></body></html>
"""
    return html.encode("utf-8")


def etag(body: bytes) -> str:
    """Strong ETag of a body (quoted, as servers send it)."""
    return '"' + hashlib.sha1(body).hexdigest()[:16] + '"'
