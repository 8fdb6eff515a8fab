"""``tracker claims``: extract candidate claims from an article, import reviewed ones.

A thin layer over :func:`claims.extract.extractor.extract`, :mod:`tracker.articles.read` and
:mod:`tracker.articles.claim_import`; every TrackerError becomes one line on stderr and exit 1 (and with ``--json`` the JSON
error of :mod:`tracker.cli.failures` on stdout).
"""

from __future__ import annotations

import datetime as dt
import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claims.values.display import candidate_value_text
from claims.values.safetext import terminal_text
from claims.vocabulary import SOURCE_KINDS
from tracker.cli.claimlist import NO_VERDICT
from tracker.cli.common import (
    DbOpt,
    TrackerTyper,
    console,
    open_db,
    plural,
    print_json,
    print_table,
    whole_word_widths,
)
from tracker.cli.failures import error_document, fail
from tracker.cli.values import choice, choices_text
from tracker.errors import CandidateErrors, ConfigError, TrackerError

if TYPE_CHECKING:
    from rich.table import Table

    from claims.extract.candidates import Candidate
    from claims.subjects.references import SubjectRef
    from tracker.articles.read import Article

claims_app = TrackerTyper(
    help=(
        "Claims from articles and the database: extract candidate claims from an article, "
        "import reviewed candidates, list stored claims with their verdicts, export a "
        "source's claims as a data file."
    ),
    no_args_is_help=True,
    add_completion=False,
)

DEFAULT_SUBJECTS = Path("data") / "subjects.toml"


def _client_factory() -> Any:
    """The fetch seam, imported lazily (tests replace this function)."""
    from tracker.net.fetch import make_client

    return make_client()


make_client: Callable[[], Any] = _client_factory


def load_subjects(path: Path | None, db: str | None = None) -> list[SubjectRef]:
    """Subject refs for extraction: from the subjects TOML ``path`` when given; else from
    the database ``db`` when given (the models tracked there, ``tracker track`` included)
    and it has any; else from ``data/subjects.toml``. Raises :class:`ConfigError` when
    none gives any or a file is malformed."""
    from claims.subjects.references import subjects_from_config

    if path is None and db:
        from tracker.articles.claim_import import subjects_from_db

        refs = subjects_from_db(open_db(db))
        if refs:
            return refs
    file = path or DEFAULT_SUBJECTS
    if file.is_file():
        try:
            return subjects_from_config(tomllib.loads(file.read_text(encoding="utf-8")))
        except (tomllib.TOMLDecodeError, ValueError) as exc:
            raise ConfigError(f"{file}: {exc}") from exc
    if path is not None:
        raise ConfigError(f"{path}: no such subjects file")
    raise ConfigError(f"{DEFAULT_SUBJECTS} not found; pass --subjects FILE or --db PATH")


def _subject_fix(subjects_file: Path | None, db: str | None = None) -> str:
    """How to give candidates a subject: the one fix line of extract and import warnings
    (the subjects come from ``subjects_file``, else from the database ``db``)."""
    if subjects_file is None and db:
        return (
            f'track the model in {db} (`tracker track "NAME" --org ORG --db {db}`) and extract '
            "again, or pass --subject SLUG (a subject of that database) for figures naming no "
            "model"
        )
    file = subjects_file or DEFAULT_SUBJECTS
    return (
        f"add the model (slug, name, aliases as written) to {file} and extract again, "
        "or pass --subject SLUG (a subject of that file) for figures naming no model"
    )


def _given_to(found: list[Candidate]) -> str:
    """ ", given to other models named in the text: Orca 7B (2), GPT-5 (1)" for the
    candidates without a subject that name the model they are about (``other_model``), in
    order of first appearance; "" when none does."""
    counts: dict[str, int] = {}
    for c in found:
        if c.subject is None and c.other_model:
            counts[c.other_model] = counts.get(c.other_model, 0) + 1
    if not counts:
        return ""
    named = ", ".join(f"{name} ({n})" for name, n in counts.items())
    return f", given to other models named in the text: {named}"


def _untracked_named(found: list[Candidate]) -> str:
    """ "; their sentences name 'Halcyon 9' (8), which is not a tracked subject" for the
    candidates without a subject whose warning names such a thing; "" when none does."""
    from claims.extract.untracked import NOT_TRACKED

    counts: dict[str, int] = {}
    for c in found:
        for w in c.warnings if c.subject is None else ():
            name = re.search(r"names '(.+)', " + re.escape(NOT_TRACKED), w)
            if name:
                counts[name.group(1)] = counts.get(name.group(1), 0) + 1
    if not counts:
        return ""
    named = ", ".join(f"'{name}' ({n})" for name, n in counts.items())
    which = NOT_TRACKED if len(counts) == 1 else "which are not tracked subjects"
    their = "its" if sum(counts.values()) == 1 else "their"
    return f"; {their} text names {named}, {which}"


def _read(source: str, max_kb: int) -> Article:
    """The article at ``source`` (a file or http(s) URL) of at most ``max_kb`` KB; a
    note on stderr when it is long enough for extraction to take a while."""
    from tracker.articles.read import check_article_size, fetch_article, read_article_file

    if source.startswith(("http://", "https://")):
        with make_client() as client:
            article = fetch_article(source, client)
        check_article_size(source, len(article.text.encode("utf-8")), max_kb)
    else:
        path = Path(source)
        if not path.is_file():
            raise ConfigError(f"{source}: no such file")
        article = read_article_file(path, max_kb)
    size_kb = len(article.text) // 1024
    if size_kb >= LONG_KB:
        typer.echo(
            f"reading {size_kb:,} KB of text: extraction may take a minute or more",
            err=True,
        )
    return article


LONG_KB = 100  # from here on, say that extraction takes a while (25 s at 200 KB)
MaxKbOpt = Annotated[
    int,
    typer.Option(
        "--max-kb",
        min=1,
        help="Refuse an article larger than this many KB (extraction of a long text takes "
        "minutes).",
    ),
]


LANGS = ("auto", "pt", "pt-BR", "pt-PT", "en")


def _locale(value: str) -> str:
    """``--lang`` as a locale tag (``pt_br`` -> ``pt-BR``; any pt-XX but pt-PT ->
    ``pt-BR``, :func:`claims.values.numbers.normalize_locale`); auto, pt and en as given."""
    if value.casefold() in ("auto", "pt", "en"):
        return value
    from claims.values.numbers import normalize_locale

    return normalize_locale(value)


def _parse_day(text: str | None, option: str) -> dt.date | None:
    if not text:
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError as exc:
        raise ConfigError(f"{option}: {text!r} is not a YYYY-MM-DD date") from exc


EXTRACTORS = ("rules", "llm")


def make_extractor(name: str, model: str | None, base_url: str | None) -> Any:
    """The chosen :class:`claims.extract.extractors.Extractor`; ``llm`` needs ``--model``
    and reads its API key from ``TRACKER_LLM_API_KEY`` (a local server may need none)."""
    if name != "llm":
        if model or base_url:
            raise ConfigError("--model and --base-url go with --extractor llm")
        from claims.extract.extractors import RuleExtractor

        return RuleExtractor()
    if not model:
        raise ConfigError("--extractor llm: give the model name (--model NAME)")
    from tracker.articles.llm import DEFAULT_BASE_URL, LlmExtractor
    from tracker.settings import llm_api_key

    return LlmExtractor(
        make_client(), model, base_url=base_url or DEFAULT_BASE_URL, api_key=llm_api_key()
    )


@claims_app.command("extract")
def extract_cmd(
    source: Annotated[
        str,
        typer.Argument(
            metavar="FILE_OR_URL", help="Article: a text or HTML file, or an http(s) URL."
        ),
    ],
    lang: Annotated[
        str,
        typer.Option(
            metavar="LANG",
            parser=choice(LANGS, _locale),
            help=f"The article's language: {choices_text(LANGS)}; auto: from its metadata.",
        ),
    ] = "auto",
    published: Annotated[
        str | None, typer.Option(help="YYYY-MM-DD; default: the article's metadata.")
    ] = None,
    subject: Annotated[
        str | None, typer.Option(help="Slug for figures whose paragraph names no subject.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print a JSON array.")] = False,
    subjects_file: Annotated[
        Path | None,
        typer.Option("--subjects", help="Subjects TOML (default: data/subjects.toml)."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            metavar="<path|url>",
            help="Database whose tracked models are the subjects (when no --subjects; "
            "without either, the subjects are those of data/subjects.toml).",
        ),
    ] = None,
    extractor: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            parser=choice(EXTRACTORS),
            help=f"{choices_text(EXTRACTORS)}: rule-based (offline), or an OpenAI-compatible "
            "chat model whose claims are kept only when grounded in the text.",
        ),
    ] = "rules",
    model: Annotated[
        str | None, typer.Option(help="LLM model name (with --extractor llm).")
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            help="OpenAI-compatible API base URL (default https://api.openai.com/v1); "
            "key from TRACKER_LLM_API_KEY."
        ),
    ] = None,
    max_kb: MaxKbOpt = 1024,
) -> None:
    """Print the candidate claims of one article (a table, or JSON with --json), e.g.
    `tracker claims extract article.txt --subject kimi-k3.1-pro`. Nothing is
    stored: `tracker claims import` stores them."""
    try:
        article, found, notes = _extract_candidates(
            source,
            lang,
            published,
            subject,
            subjects_file,
            db,
            (extractor, model, base_url),
            max_kb,
        )
    except TrackerError as exc:
        raise fail(exc, json_out=json_out) from None
    notes += _subject_notes(found, subjects_file, db)
    # Warnings go out before any result (stderr, flushed); the table's caption counts them.
    for note in notes:
        typer.echo(f"warning: {terminal_text(note)}", err=True)  # notes may quote model output
    if json_out:
        print_json([c.to_dict() for c in found])
        return
    _print_candidates(found, article.title or source, len(notes))


def _extract_candidates(
    source: str,
    lang: str,
    published: str | None,
    subject: str | None,
    subjects_file: Path | None,
    db: str | None,
    extractor: tuple[str, str | None, str | None],
    max_kb: int = 1024,
) -> tuple[Article, list[Candidate], list[str]]:
    """Read the article and extract its candidates: (article, candidates, the extractor's
    warnings). ``extractor`` is (name, model, base URL) as :func:`make_extractor` takes
    them. Raises TrackerError for an unknown ``--subject``, a bad date, an unreadable
    article or a failing extractor."""
    refs = load_subjects(subjects_file, db)
    if subject and subject not in {r.slug for r in refs}:
        from claims.curated.datafile import nearest

        hint = nearest(subject, [r.slug for r in refs])
        raise ConfigError(f"--subject: unknown slug {subject!r} ({hint})")
    day = _parse_day(published, "--published")
    article = _read(source, max_kb)
    use_lang = lang
    if lang == "auto" and article.language:
        use_lang = article.language
    notes: list[str] = []
    found = make_extractor(*extractor).extract(
        article.text,
        refs,
        lang=use_lang,
        published=day or article.published,
        default_subject=subject,
        warnings=notes,
    )
    return article, found, notes


def _subject_notes(
    found: list[Candidate], subjects_file: Path | None, db: str | None = None
) -> list[str]:
    """Warnings for candidates without a subject, which `claims import` skips: a figure
    whose sentence names no model needs --subject, not a new subjects entry."""
    from claims.extract.attribution import NO_MODEL_NAMED

    notes: list[str] = []
    unnamed = sum(1 for c in found if c.subject is None and NO_MODEL_NAMED in c.warnings)
    unknown = sum(1 for c in found if c.subject is None) - unnamed
    if unknown:
        notes.append(
            f"{unknown} of {plural(len(found), 'candidate')} "
            f"{'has' if unknown == 1 else 'have'} no known subject (—)"
            f"{_given_to(found)}{_untracked_named(found)}, and `claims import` skips "
            f"{'it' if unknown == 1 else 'them'}: "
            f"{_subject_fix(subjects_file, db)}"
        )
    if unnamed:
        notes.append(
            f"{unnamed} of {plural(len(found), 'candidate')} "
            f"{'has' if unnamed == 1 else 'have'} no subject (—): no model "
            "named in their sentence, and `claims import` skips them; pass "
            f"--subject SLUG (a subject of {_subjects_place(subjects_file, db)}) if the "
            "article is about one model"
        )
    return notes


def _subjects_place(subjects_file: Path | None, db: str | None) -> str:
    """Where extraction's subjects came from (:func:`load_subjects`), for warnings."""
    if subjects_file is not None:
        return str(subjects_file)
    return db or str(DEFAULT_SUBJECTS)


def _print_candidates(found: list[Candidate], title: str, warned: int) -> None:
    """The candidates as a table titled ``title``, stacked when the terminal is too narrow;
    the caption counts the ``warned`` warnings printed before it."""
    from rich.table import Table
    from rich.text import Text

    caption = plural(len(found), "candidate")
    if warned:
        caption += f"; {plural(warned, 'warning')} printed before this table (stderr)"
    table = Table(title=title, caption=caption)
    for col in ("subject", "attribute", "qualifiers", "value", "claimant", "text", "at"):
        # names and offsets stay on one line; the free text wraps first
        table.add_column(col, no_wrap=col in ("subject", "attribute", "at"))
    for c in found:
        quals = ", ".join(f"{k}={v}" for k, v in c.qualifiers.items())
        cells = (c.subject or "—", c.attribute, quals, candidate_value_text(c.value))
        table.add_row(
            *(Text(terminal_text(x)) for x in (*cells, c.claimant or "", c.text)), str(c.start)
        )
    if console.is_terminal and whole_word_widths(table, console.width) is None:
        _print_stacked(table, title, caption)
    else:
        print_table(table)


def _print_stacked(table: Table, title: str, caption: str) -> None:
    """The candidates one block each, for a terminal too narrow for the table's seven
    columns without breaking words (an 80-column one): the same fields, named."""
    columns = [[str(cell) for cell in col.cells] for col in table.columns]
    console.print(terminal_text(title), style="italic", markup=False)
    for i, (subj, attr, quals, value, claimant, text, at) in enumerate(
        zip(*columns, strict=True), 1
    ):
        console.print(terminal_text(f"{i}. {subj}  {attr}  {value}"), highlight=False, markup=False)
        extra = [f"as written “{text}” at {at}"]
        extra += [f"claimant: {claimant}"] if claimant else []
        extra += [f"qualifiers: {quals}"] if quals else []
        console.print(terminal_text("   " + "; ".join(extra)), highlight=False, markup=False)
    console.print(caption, style="italic")


@claims_app.command("import")
def import_cmd(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE",
            help="Reviewed candidates (JSON array from: tracker claims extract --json).",
        ),
    ],
    source: Annotated[str, typer.Option(help="Source key (e.g. the article URL or a short id).")],
    db: DbOpt = None,
    title: Annotated[str | None, typer.Option(help="Source title (new sources).")] = None,
    url: Annotated[str | None, typer.Option(help="Source URL.")] = None,
    publisher: Annotated[str | None, typer.Option(help="Source publisher.")] = None,
    published: Annotated[str | None, typer.Option(help="Source date, YYYY-MM-DD.")] = None,
    language: Annotated[str | None, typer.Option(help="Source language, e.g. pt-BR.")] = None,
    kind: Annotated[
        str,
        typer.Option(
            metavar="KIND",
            parser=choice(SOURCE_KINDS),
            help=f"Kind of source (new sources): {choices_text(SOURCE_KINDS)}.",
        ),
    ] = "press",
    subjects_file: Annotated[Path | None, typer.Option("--subjects", help="Subjects TOML.")] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the counts as JSON for scripts.")
    ] = False,
) -> None:
    """Store reviewed candidates as claims of the --source; importing twice stores them once."""
    from tracker.articles.claim_import import SourceInfo, import_candidates

    try:
        try:
            given = json.loads(file.read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"{file}: cannot read ({exc.__class__.__name__})") from exc
        except json.JSONDecodeError as exc:
            # json's messages end "at" before the position it appends ("Invalid control
            # character at"): the position goes first, as in every file error here.
            why = exc.msg.removesuffix(" at")
            raise ConfigError(f"{file}:{exc.lineno}:{exc.colno}: not JSON ({why})") from exc
        items, day, refs, engine = _checked_import(given, published, source, subjects_file, db)
        info = SourceInfo(
            key=source, title=title, url=url, publisher=publisher,
            published=day.isoformat() if day else None, language=language, kind=kind,
        )  # fmt: skip
        if items and not any(item.get("subject") for item in items):
            # Nothing would be stored (not even the source): say why and how to fix it.
            why = (
                f"{file}: none of {plural(len(items), 'candidate')} has a subject, so "
                f"nothing was imported: {_subject_fix(subjects_file, db)}"
            )
            typer.echo(f"warning: {why}", err=True)
            if json_out:
                print_json(error_document("config", why))
            raise typer.Exit(1)
        result = import_candidates(engine, items, info, refs)
    except TrackerError as exc:
        raise fail(exc, json_out=json_out) from None
    if json_out:
        print_json({"source": source, "stored": result.stored, "present": result.present,
                    "skipped": result.skipped, "not_applied": list(result.not_applied)})  # fmt: skip
        return
    typer.echo(
        f"imported {result.stored} claims ({result.present} already present, "
        f"{result.skipped} skipped without subject)"
    )
    if result.stored:
        typer.echo(f"they have {NO_VERDICT}: run `tracker verify` to give them verdicts")
    if result.not_applied:
        given = ", ".join(f"--{f}" for f in result.not_applied)
        one = len(result.not_applied) == 1
        typer.echo(
            f"warning: source {source!r} was already stored: {given} "
            f"{'differs' if one else 'differ'} from it and {'was' if one else 'were'} not "
            "applied (an import never rewrites a source)",
            err=True,
        )


def _checked_import(
    given: Any, published: str | None, source: str, subjects_file: Path | None, db: str | None
) -> tuple[list[dict[str, Any]], dt.date | None, list[SubjectRef], Any]:
    """(checked candidates, --published day, subjects file refs, engine) of `claims
    import`. Every bad candidate is named at once, an unknown subject (neither in the
    database nor in the subjects file, with a did-you-mean) among them; the candidates'
    own problems come first when the options or database fail too."""
    from tracker.articles.claim_import import known_subjects, validate_candidates

    try:
        validate_candidates(given)
        early = None
    except CandidateErrors as exc:
        early = exc
    try:
        day = _parse_day(published, "--published")
        _not_a_curated_source(source, (subjects_file or DEFAULT_SUBJECTS).parent / "claims")
        refs = _optional_subjects(subjects_file)
        # Like every command but `load`/`demo`: a missing database is an error, not a new file.
        engine = open_db(db, write=True)
    except TrackerError:
        if early is not None:
            raise early from None
        raise
    return validate_candidates(given, known_subjects(engine, refs)), day, refs, engine


def _not_a_curated_source(key: str, claims_dir: Path) -> None:
    """Raise ConfigError when a data file under ``claims_dir`` defines source ``key``:
    `tracker load` owns that source's claims (it removes those its file no longer
    states), so imported ones would not survive the next load."""
    import tomllib

    for path in sorted(claims_dir.glob("*.toml")):
        try:
            defined = tomllib.loads(path.read_text(encoding="utf-8")).get("source", {})
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # `tracker load` reports a broken data file
        if isinstance(defined, dict) and defined.get("key") == key:
            raise ConfigError(
                f"--source {key!r} is defined by {path}: add these claims to that file and "
                "run `tracker load`, or import under another source key"
            )


def _optional_subjects(path: Path | None) -> list[SubjectRef]:
    try:
        return load_subjects(path)
    except ConfigError:
        if path is not None:
            raise
        return []
