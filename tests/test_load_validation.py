"""tracker load validates everything a watch or subject says, with file, line and field
(issue 20, item 2): a selector, regex, scale or column that cannot work, a cron the
scheduler cannot run, an interval of 10^18 minutes, an unsafe slug, a control character
in a name; and claim imports refuse NaN values and unsafe slugs."""

from __future__ import annotations

from pathlib import Path

import pytest

from claims.curated.datafile import DataFileError
from claims.curated.loader import DataFileErrors
from tracker.errors import ConfigError

WATCH = '[[watch]]\nname = "w"\nadapter = "html_page"\nurl = "https://a.example/"\n'


def _errors(data: Path) -> list[DataFileError]:
    from tracker.curated.load import validate_curated

    try:
        validate_curated(data)
    except DataFileErrors as exc:
        return list(exc.errors)
    except DataFileError as exc:
        return [exc]
    return []


def _watch(tmp_path: Path, body: str, head: str = "") -> list[tuple[int | None, str, str]]:
    data = tmp_path / "data"
    data.mkdir(exist_ok=True)
    (data / "watches.toml").write_text(WATCH + head + "[watch.params]\n" + body)
    return [(e.line, e.field, e.message) for e in _errors(data)]


@pytest.mark.parametrize(
    ("param", "line", "message"),
    [
        ('selector = "td:nth-child("', 6, "is not a CSS selector"),
        ('selector = "td"\nregex = "([0-9"', 7, "is not a regular expression"),
        ('selector = "td"\nscale = "abc"', 7, "expected a positive number, got 'abc'"),
        ('selector = "td"\nscale = 0', 7, "expected a positive number, got 0"),
        ('selector = "tr"\ncolumns = { x = "price_input_usd_per_mtok" }', 7, "is not a cell index"),
        ('selector = "tr"\ncolumns = { 1 = "weights_available" }', 7, "not an attribute a page"),
        ('selector = "td"\ndecimal = ";"', 7, "expected '.' or ','"),
        ('selector = "td"\ncron = "99 99 * * *"', 7, "minute field '99': outside 0-59"),
        ('selector = "td"\ncron = "0 6 * *"', 7, "has 4 fields"),
        ('selector = "td"\ncron = "0 0 * * *"\ntimezone = "Mars/Olympus"', 8, "unknown time zone"),
        ('selector = "td"\ntimezone = "../../etc/passwd"', 7, "is not an IANA time zone name"),
        ('selector = "td"\nfailing_after = 0', 7, "outside 1-1000"),
        ('selector = "td"\nallow_hosts = ["https://x/"]', 7, "is not a host name"),
        ('selector = "td"\nauth = { env = "K", header = "x y" }', 7, "is not an HTTP header name"),
    ],
)
def test_a_watch_param_that_cannot_work_is_refused_at_its_line(tmp_path, param, line, message):
    found = _watch(tmp_path, param + "\n")
    assert len(found) == 1, found
    got_line, field, text = found[0]
    key = param.splitlines()[-1].split(" ")[0]
    assert (got_line, field) == (line, f"watch[0].params.{key}")
    assert message in text


def test_an_absurd_interval_is_refused(tmp_path):
    """``interval_minutes = 10**18`` loaded, then `tracker watches` raised OverflowError."""
    found = _watch(tmp_path, 'selector = "td"\n', head="interval_minutes = 1000000000000000000\n")
    assert found == [
        (5, "watch[0].interval_minutes", "1000000000000000000 is outside 1-527040 minutes (a year)")
    ]


def test_a_watch_name_with_a_control_character_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    text = (
        WATCH.replace('name = "w"', 'name = "w\\u001b[31m"') + '[watch.params]\nselector = "td"\n'
    )
    (data / "watches.toml").write_text(text)
    [err] = _errors(data)
    assert (err.line, err.field) == (2, "watch[0].name")
    assert "control character U+001B" in err.message


@pytest.mark.parametrize(
    ("slug", "field"),
    [("../../x", "slug"), ("x\\n", "slug"), ("a..b", "slug"), ("x/y", "slug")],
)
def test_an_unsafe_slug_is_refused(tmp_path, slug, field):
    """``x\\n`` passed the old ``^...$`` pattern (``$`` matches before a final newline)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "subjects.toml").write_text(f'[[subject]]\nslug = "{slug}"\nname = "X"\n')
    [err] = _errors(data)
    assert (err.line, err.field) == (2, f"subject[0].{field}")
    assert "is not a safe lower-case slug" in err.message


def test_a_subject_name_with_a_nul_is_refused(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "subjects.toml").write_text(
        '[[subject]]\nslug = "x"\nname = "X"\naliases = ["ok", "bad\\u0000"]\n'
    )
    [err] = _errors(data)
    assert (err.line, err.field) == (4, "subject[0].aliases")


def test_the_checks_themselves():
    from claims.curated.watchparams import cron_problem, slug_problem, timezone_problem

    assert cron_problem("0 6 * * mon-fri") is None
    assert cron_problem("*/15 0-6,22 1 jan,jul sun") is None
    assert cron_problem("30 0 6 * * *") is None  # six fields: seconds first
    assert cron_problem("60 0 6 * * *") == "second field '60': outside 0-59"
    assert cron_problem("0 0 6 * * * *").startswith("'0 0 6 * * * *' has 7 fields; the scheduler")
    assert cron_problem("0 6 *").startswith("'0 6 *' has 3 fields")
    assert cron_problem("0 0 31 2 7") is None  # crontab(5): 7 is Sunday, like 0
    assert cron_problem("0 0 31 2 8") == "day of week field '8': outside 0-7"
    assert cron_problem("5-1 * * * *") == "minute field '5-1': the range runs backwards"
    assert cron_problem(5) is not None
    assert timezone_problem("America/Los_Angeles") is None
    assert slug_problem("kimi-k3.1-pro") is None and slug_problem("x\n") is not None


def test_claim_import_refuses_nan_infinite_and_out_of_range_values():
    from tracker.articles.claim_import import validate_candidates

    bad = [
        ({"kind": "quantity", "value": float("nan"), "unit": "params"}, "not a finite number"),
        ({"kind": "range", "low": 1, "high": float("inf"), "unit": "params"}, "not a finite"),
        ({"kind": "quantity", "value": 0, "unit": "tokens"}, "outside its physical range"),
    ]
    attrs = ["total_params", "total_params", "context_window"]
    for (value, message), attr in zip(bad, attrs, strict=True):
        with pytest.raises(ConfigError, match=message):
            validate_candidates([{"subject": "kimi-k3", "attribute": attr, "value": value}])


def test_claim_import_refuses_an_unsafe_subject_slug():
    from tracker.articles.claim_import import validate_candidates

    for slug in ("../../x", "x\n"):
        item = {"subject": slug, "attribute": "total_params", "value": "1T"}
        with pytest.raises(ConfigError, match="subject: .* is not a safe lower-case slug"):
            validate_candidates([item])
