"""Each third-party format has one reader (claims/readings), and the adapters call it.

The two copies that used to exist disagreed: a YaRN config read 131,072 tokens in the
reader and 32,768 in the adapter; "Apache 2.0" became ``apache-2.0`` in one and
``apache 2.0`` in the other; prices had two plausibility caps. These tests read the
same input through the adapter (the code a cycle runs) and through the reader."""

from __future__ import annotations

import ast
import datetime as dt
import json
from decimal import Decimal
from pathlib import Path

from claims.readings.config_context import context_window
from claims.readings.licenses import hub_license
from claims.readings.prices import MAX_PLAUSIBLE_USD_PER_MTOK, litellm_price, openrouter_price
from tracker.adapters import Fetched, get_adapter

AT = dt.datetime(2026, 11, 28, 6, 0, tzinfo=dt.UTC)
ROOT = Path(__file__).resolve().parents[1]
YARN = {
    "max_position_embeddings": 32768,
    "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
}


def parse(kind: str, url: str, doc: object, params: dict | None = None):
    fetched = Fetched.from_body(url, json.dumps(doc).encode(), AT)
    return get_adapter(kind).parse(fetched, params or {})


def test_a_yarn_config_reads_the_extended_window_in_the_adapter_and_the_reader():
    url = "https://huggingface.co/acme/Orca-9B/resolve/main/config.json"
    (value,) = [
        v for v in parse("huggingface_config", url, YARN).values if v.attribute == "context_window"
    ]
    assert value.value.value == Decimal(131072)
    assert value.value.extra["native"] == 32768
    assert context_window(YARN).tokens == 131072


def test_apache_2_0_written_as_free_text_is_one_normalized_id():
    info = {"id": "acme/Orca-9B", "cardData": {"license": "Apache 2.0"}, "tags": []}
    url = "https://huggingface.co/api/models/acme/Orca-9B"
    values = parse("huggingface_model", url, info).values
    (lic,) = [v for v in values if v.attribute == "license"]
    assert lic.value.value == "apache-2.0"
    assert hub_license(info["cardData"], []).id == "apache-2.0"


def test_one_price_cap_for_both_price_adapters_and_the_readers():
    over = str(MAX_PLAUSIBLE_USD_PER_MTOK / 1_000_000 * 2)  # twice the cap, per token
    under = str(MAX_PLAUSIBLE_USD_PER_MTOK / 1_000_000 / 2)
    item = {"id": "acme/orca-9b", "pricing": {"prompt": under, "completion": over}}
    result = parse("openrouter_models", "https://openrouter.ai/api/v1/models", {"data": [item]})
    prices = {v.attribute: v.value.value for v in result.values}
    assert prices == {"price_input_usd_per_mtok": Decimal(500)}
    assert len(result.warnings) == 1 and "implausible" in result.warnings[0]
    reader = openrouter_price(item)
    assert (reader.input, reader.output) == (Decimal(500), None)
    entry = {"input_cost_per_token": float(under), "output_cost_per_token": float(over)}
    lite = litellm_price("acme/orca-9b", entry)
    assert lite is not None and (lite.input, lite.output) == (Decimal(500), None)


def _imported_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {f"{node.module}.{a.name}" for a in node.names}
    return names


def test_the_adapters_import_the_one_reader_and_define_no_reader_of_their_own():
    hub = _imported_names(ROOT / "tracker/adapters/huggingface/models.py")
    assert "claims.readings.config_context.context_window" in hub
    assert "claims.readings.licenses.hub_license" in hub
    prices = _imported_names(ROOT / "tracker/adapters/prices.py")
    assert "claims.readings.prices.usd_per_mtok" in prices
    defined = set()
    for path in (ROOT / "tracker/adapters").rglob("*.py"):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef):
                defined.add(node.name)
            elif isinstance(node, ast.Assign):
                defined |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    assert "parse_openrouter" in defined  # the scan sees the adapters' own names
    assert not {"context_length_of", "_per_mtok", "MAX_PLAUSIBLE_USD_PER_MTOK"} & defined
