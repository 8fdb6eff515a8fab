"""Site stage 2: every HTML page as a :class:`Job` (path, key, render).

A page's key hashes exactly what its template is given (plain view data, see
``views.py``), so a build can skip a page whose key is unchanged; ``render`` runs
only for pages that need it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from functools import cache, partial
from operator import attrgetter
from typing import Any

from jinja2 import Environment
from markupsafe import Markup

from tracker.website.asof import AS_OF_SCRIPT, as_of_js
from tracker.website.charts import left_out_line, narrow_copy, render_svg, speed_price_chart
from tracker.website.compare import compare_rows, default_choice, related_choices
from tracker.website.pagehash import key_of
from tracker.website.summary import COLUMNS, other_benchmarks, table_columns
from tracker.website.table import table_record
from tracker.website.views import IndexRow, SiteContext, SubjectView
from tracker.website.writer import Pieces

CHANGES_LIMIT = 200
# Stands for the root of the links in an index row made once for every page depth:
# markup, so it reaches the row as it is, where data's "<" is always escaped.
ROOT_MARK = Markup("<root>")


@dataclass(frozen=True)
class Job:
    """One output file: its relative path, the key of its input, and how to make it."""

    path: str
    key: str
    render: Callable[[], str | bytes | Pieces]


def _overdue_key(row: IndexRow) -> tuple[int, str]:
    return (-(row.weights.overdue_days or -1), row.name.lower())


def _last_change_key(row: IndexRow) -> tuple[float, str]:
    ts = row.last_change.timestamp() if row.last_change else float("inf")
    return (-ts if row.last_change else ts, row.name.lower())


def _column_key(column: str, descending: bool) -> Callable[[IndexRow], Any]:
    """Sort by a comparison-table cell's number; rows without one last, then by name."""

    def key(row: IndexRow) -> tuple[bool, float, str]:
        cell = row.cells.get(column)
        n = cell.number if cell else None
        return (n is None, -(n or 0) if descending else (n or 0), row.name.lower())

    return key


# sort key name -> (label, key function); "name" is index.html itself. Prices sort
# cheapest first, sizes, speed and scores largest first.
SORTS: dict[str, tuple[str, Callable[[IndexRow], Any]]] = {
    "name": ("Name", lambda row: row.name.lower()),
    "weights": ("Weights", lambda row: (row.weights.landed, _overdue_key(row))),
    "overdue": ("Days overdue", _overdue_key),
    "discrepancies": ("Open discrepancies", lambda row: (-row.open_discrepancies, row.slug)),
    "last-change": ("Last change", _last_change_key),
    **{
        key: (label, _column_key(key, descending=not key.startswith("price")))
        for key, (label, _) in COLUMNS.items()
    },
}
# The sorts listing in ascending order (smallest, cheapest or A first): the index's
# caption and header arrow (▴) say so, the others read descending (▾); site.js's
# header sort starts the same keys ascending.
ASCENDING_SORTS = frozenset({"name", "price-in", "price-out"})
FILTERS: dict[str, tuple[str, Callable[[IndexRow], bool]]] = {
    "all": ("All", lambda row: True),
    "landed": ("Weights landed", lambda row: row.weights.landed),
    # a successful Hub check saw no weights; never-checked subjects are "unknown"
    "not-landed": ("Not landed", lambda row: row.weights.weights_word == "not landed"),
    "overdue": ("Overdue", lambda row: bool(row.weights.overdue_days)),
    "disputed": ("Open discrepancies", lambda row: row.open_discrepancies > 0),
}


def sorts_of(benchmarks: list[str]) -> dict[str, tuple[str, Callable[[IndexRow], Any]]]:
    """:data:`SORTS` and one by each headline benchmark's score (``score-<n>``)."""
    extra = {
        f"score-{i}": (name, _column_key(f"score-{i}", descending=True))
        for i, name in enumerate(benchmarks)
    }
    return {**SORTS, **extra}


def index_path(sort: str = "name", only: str = "all") -> str:
    """Stable path of one index view: ``index.html`` or ``index/<sort>-<filter>.html``."""
    return "index.html" if (sort, only) == ("name", "all") else f"index/{sort}-{only}.html"


def subject_path(slug: str) -> str:
    """``subjects/<slug>/index.html``."""
    return f"subjects/{slug}/index.html"


@dataclass
class SubjectDigests:
    """Keys of each subject's claims, of its whole view (page, JSON export) and of its
    index row, made once per build and shared by every file that shows them."""

    claims: dict[str, str]
    view: dict[str, str]
    row: dict[str, str]

    @classmethod
    def of(
        cls,
        subjects: list[SubjectView],
        known: dict[str, str] | None = None,
        kept: Mapping[str, tuple[str | None, str | None]] | None = None,
    ) -> SubjectDigests:
        """Digests of ``subjects`` (by slug); the claims are encoded once, for both.
        ``known`` gives claims digests already made (``SiteContext.claim_digests``),
        ``kept`` row and view digests (either None: made here) that stand for a
        subject's row and view (``records.py``: a served subject's record's, made with
        the same input). A view's digest hashes its claims' and its row's digests with
        the view's other fields (:data:`VIEW_ONLY`): its row (:meth:`SubjectView.row`)
        is those fields of the view, so the weights status and cells, most of a view's
        JSON, are encoded once, not once for each."""
        known, kept = known or {}, kept or {}
        claims = {sv.slug: known.get(sv.slug) or key_of(sv.groups) for sv in subjects}
        row: dict[str, str] = {}
        view: dict[str, str] = {}
        for sv in subjects:
            row_kept, view_kept = kept.get(sv.slug, (None, None))
            row[sv.slug] = r = row_kept or key_of(sv.row())
            view[sv.slug] = view_kept or key_of(claims[sv.slug], r, _view_only(sv))
        return cls(claims=claims, view=view, row=row)


# The view's fields its index row does not carry (the row's are the view's same-named
# fields: tests/test_site_incremental.py checks it), less those its claims digest covers.
ROW_FIELDS = frozenset(f.name for f in fields(IndexRow))
VIEW_ONLY = tuple(
    f.name for f in fields(SubjectView) if f.name not in ROW_FIELDS | {"groups", "facts", "card"}
)
_view_only = attrgetter(*VIEW_ONLY)


def compare_jobs(
    rows: list[IndexRow],
    columns: list[tuple[str, str]],
    row_keys: dict[str, str],
    job: Callable[..., Job],
) -> list[Job]:
    """``compare.html``: its picker (every subject) and the default comparison built in
    (:func:`tracker.website.compare.default_choice`); and ``compare/<slug>.html``, each
    subject with its nearest relatives (:func:`~tracker.website.compare.related_choices`),
    which the picker links to for readers without JavaScript. Each is keyed by what it
    lists and the row digests of those compared; ``assets/table-data.js`` redraws
    ``compare.html`` for ``?s=``."""
    related = related_choices(rows)
    listing = [(r.slug, r.name, r.organization) for r in rows]
    picker = sorted(rows, key=lambda r: r.name.lower())

    def one(path: str, chosen: list[IndexRow], lists: bool) -> Job:
        lead = chosen[0] if chosen else None
        org = lead.organization if lead else None
        family = bool(org) and all(r.organization == org for r in chosen)
        key_input = [listing if lists else [], columns, [row_keys[r.slug] for r in chosen]]
        values = {
            "picker": picker if lists else [],
            "related": bool(related) and lists,
            "chosen": chosen,
            "family": org if family else "",
            "around": "" if lists or not lead else lead.name,
        }

        def make() -> dict[str, Any]:
            rows_shown = compare_rows([table_record(r) for r in chosen], columns)
            return {**values, "compare_rows": rows_shown}

        # "Data as of" on compare.html as on the index (its figures are the table's);
        # not on the pre-built ones, or every check re-rendered one page per subject
        return job("compare.html", path, key_input, make, as_of=lists)

    jobs = [one("compare.html", default_choice(rows), True)]
    jobs += [one(compare_path(slug), chosen, False) for slug, chosen in related.items()]
    return jobs


def chart_page_jobs(rows: list[IndexRow], job: Callable[..., Job], fingerprint: str) -> list[Job]:
    """``charts.html`` (linked from every page's navigation) with the cross-subject
    chart of output speed against output price (:func:`charts.speed_price_chart`, from
    the index's cells), its text alternative and data table, and a line naming the
    subjects left out and why (:func:`charts.left_out_line`); and the chart's SVGs (wide
    and, for a phone, narrow), all keyed by what they draw. Without two subjects having
    both, the page says so."""
    points, left = [], []
    for r in rows:
        price, speed = r.cells.get("price-out"), r.cells.get("speed")
        p = price.number if price else None
        v = speed.number if speed else None
        if price and speed and p is not None and v is not None:
            points.append((r.name, p, v, price.text, speed.text))
        elif p is not None or v is not None:
            left.append((r.name, "no output price" if p is None else "no compared output speed"))
        else:
            left.append((r.name, "no output price or compared speed"))
    chart = speed_price_chart(points)
    narrow = narrow_copy(chart) if chart else None
    left_out = left_out_line(left)
    key = [chart.key() if chart else "", left_out]
    values = {"chart": chart, "narrow": narrow, "left_out": left_out}
    jobs = [job("charts.html", "charts.html", key, lambda: values)]
    for c in (chart, narrow):
        if c is not None:
            jobs.append(Job(c.path, key_of(fingerprint, c.path, c.key()), partial(render_svg, c)))
    return jobs


def compare_path(slug: str) -> str:
    """A subject's pre-built comparison with its relatives: ``compare/<slug>.html``."""
    return f"compare/{slug}.html"


def search_and_compare(
    ctx: SiteContext,
    rows: list[IndexRow],
    job: Callable[..., Job],
    columns: list[tuple[str, str]],
    row_keys: dict[str, str],
) -> list[Job]:
    """``search.html`` (keyed by the subjects and sources it lists without JavaScript)
    and the compare pages (:func:`compare_jobs`; ``columns`` the index's, ``row_keys``
    each subject's row digest)."""
    listing = [(r.slug, r.name, r.organization, r.aliases) for r in rows]
    sources = [sv.source for sv in ctx.sources]
    shown_sources = [(src.key, src.title, src.publisher) for src in sources]
    return [
        job(
            "search.html",
            "search.html",
            [listing, shown_sources],
            lambda: {"subjects": rows, "sources": sources},
        ),
        *compare_jobs(rows, columns, row_keys, job),
    ]


@dataclass(frozen=True)
class PageMaker:
    """Makes page :class:`Job` s that share one environment, the templates'
    ``fingerprint`` and the variables every page gets (``common``)."""

    ctx: SiteContext
    env: Environment
    fingerprint: str
    common: dict[str, Any]

    def __call__(
        self,
        template: str,
        path: str,
        key_input: Any,
        values: Callable[[], dict[str, Any]],
        as_of: bool = False,
    ) -> Job:
        """``values`` makes the template's variables, only when the page is rendered;
        ``key_input`` must cover everything they show. Only pages with ``as_of`` (the
        index views, the compare page, the watches page) carry the "Data as of" time: it
        moves with every watch check, and in every footer it re-rendered the whole site
        after each cycle. The others' footers link to it and get it from
        ``assets/as-of.js`` where JavaScript runs (:mod:`tracker.website.asof`)."""
        ctx = self.ctx
        shown = (ctx.data_as_of, ctx.latest_check) if as_of else None
        key = key_of(self.fingerprint, template, path, shown, key_input)
        root = "../" * path.count("/")
        env, common = self.env, self.common

        def render() -> str:
            return env.get_template(template).render(
                root=root, page_path=path, show_as_of=as_of, **common, **values()
            )

        return Job(path, key, render)


def index_jobs(
    rows: list[IndexRow],
    sorts: dict[str, tuple[str, Callable[[IndexRow], Any]]],
    columns: Any,
    digests: SubjectDigests,
    job: PageMaker,
) -> list[Job]:
    """The index views, one per sort and filter, from one list of rows: each row's
    HTML is rendered once per page depth and shared by every view that shows it.

    A view shows the rows its filter keeps, in its sort's order; that order is made
    from those rows' fields, ties kept in subject order (a stable sort, then the
    filter). So a view's key hashes the digests of the rows its filter keeps, in
    subject order (one list per filter, not per view), and the rows are sorted only
    when a view renders: a rebuild whose rows did not change sorts nothing (55 views
    sorted 1,000 rows eleven times, ~8 ms of a one-claim rebuild)."""
    row_macro = job.env.get_template("_macros.html").module.index_row  # type: ignore[attr-defined]

    @cache
    def row_at(i: int) -> str:
        return str(row_macro(rows[i], ROOT_MARK, columns))

    @cache
    def row_html(i: int, root: str) -> str:
        # The row made once for every page depth: the root only starts its links
        # (``href="<root>subjects/...``), and no data can write the mark (its "<" is
        # escaped); a mark elsewhere than after ``="`` (which would be the template's
        # own) and the row is made for this root.
        text, mark = row_at(i), str(ROOT_MARK)
        if text.count(mark) != text.count('="' + mark):
            return row_macro(rows[i], root, columns)  # type: ignore[no-any-return]
        return text.replace(mark, root)

    headline = [label for key, label in columns if key.startswith("score-")]

    def index_values(shown: list[int], sort: str, only: str, root: str) -> dict[str, Any]:
        return {
            "headline": headline,
            "more_scores": other_benchmarks([rows[i] for i in shown], headline),
            # how many of the shown subjects have a score in a headline column
            "scored": sum(1 for i in shown if any(k.startswith("score-") for k in rows[i].cells)),
            "subjects": [rows[i] for i in shown],
            # the rows' HTML joined here: a template loop escaped each of 1,000 rows
            # again per view (54 views)
            "rows": Markup("".join([row_html(i, root) for i in shown])),
            # figures a column does not compare, for the line under the table
            "asides": [
                (rows[i], label, rows[i].cells[key])
                for i in shown
                for key, label in columns
                if key in rows[i].cells and rows[i].cells[key].aside
            ],
            "sort": sort,
            "only": only,
        }

    @cache
    def ordered(sort: str) -> list[int]:
        order = sorts[sort][1]
        return sorted(range(len(rows)), key=lambda i: order(rows[i]))

    def view_values(sort: str, only: str, root: str) -> dict[str, Any]:
        keep = FILTERS[only][1]
        return index_values([i for i in ordered(sort) if keep(rows[i])], sort, only, root)

    kept = {
        only: key_of([digests.row[row.slug] for row in rows if keep(row)])
        for only, (_, keep) in FILTERS.items()
    }
    jobs = []
    for sort in sorts:
        for only in FILTERS:
            path = index_path(sort, only)
            root = "../" * path.count("/")
            values = partial(view_values, sort, only, root)
            jobs.append(job("index.html", path, [sort, only, columns, kept[only]], values, True))
    return jobs


def page_jobs(
    ctx: SiteContext, env: Environment, fingerprint: str, digests: SubjectDigests
) -> list[Job]:
    """A :class:`Job` per page: 25 index views, a page per subject, discrepancies,
    sources, watches and changes. Keys include ``fingerprint`` (templates and code).
    ``sources.html`` is keyed by its sources, their counts and ``ctx.listed_digest``
    (every claim it lists, digested per subject as the claim views are made) when the
    context has one."""
    sorts = sorts_of(ctx.benchmarks)
    columns = table_columns(ctx.benchmarks)
    common = {
        "data_as_of": ctx.data_as_of,
        "latest_check": ctx.latest_check,
        "sorts": {k: v[0] for k, v in sorts.items()},
        "ascending_sorts": ASCENDING_SORTS,
        "columns": columns,
        "filters": {k: v[0] for k, v in FILTERS.items()},
        "index_path": index_path,
    }
    job = PageMaker(ctx, env, fingerprint, common)
    rows = [sv.row() for sv in ctx.subjects]
    jobs = index_jobs(rows, sorts, columns, digests, job)
    names = {sv.slug: sv.name for sv in ctx.subjects}
    # A claim relative to another subject shows that subject's name (subjectrefs.py); the
    # build records keep no claims to say which pages name which subjects, so every
    # subject page is keyed by all names: a rename or a new subject re-renders them all.
    names_key = key_of(sorted(names.items()))
    for sv in ctx.subjects:
        jobs.append(
            job(
                "subject.html",
                subject_path(sv.slug),
                (digests.view[sv.slug], names_key),
                partial(lambda s: {"s": s, "card": s.card}, sv),
            )
        )
    jobs += search_and_compare(ctx, rows, job, columns, digests.row)
    jobs += chart_page_jobs(rows, job, fingerprint)
    events = ctx.events[:CHANGES_LIMIT]
    for template, values in (
        ("discrepancies.html", {"discrepancies": ctx.discrepancies}),
        ("sources.html", {"sources": ctx.sources}),
        ("watches.html", {"watches": ctx.watches}),
        ("changes.html", {"events": events}),
    ):
        key_input: Any = values
        if template == "sources.html" and ctx.listed_digest:
            key_input = [[(sv.source, sv.counts) for sv in ctx.sources], ctx.listed_digest]
        if template == "sources.html":  # a claim relative to a subject shows its name
            key_input = [key_input, sorted(names.items())]
        jobs.append(job(template, template, key_input, values.copy, template == "watches.html"))
    # the time the other pages' footers link to, put in by site.js (asof.py)
    as_of = ctx.data_as_of
    jobs.append(
        Job(AS_OF_SCRIPT, key_of(fingerprint, AS_OF_SCRIPT, as_of), partial(as_of_js, as_of))
    )
    return jobs
