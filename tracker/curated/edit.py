"""Editing the curated data files for ``tracker track`` / ``tracker untrack``: a plan of
new file texts (subjects, watches, subscriptions), its diff, and applying it all or
nothing (validated by the loader first).

Why tomlkit (not tomllib + a writer): the files are written by people, with comments
and an order that a TOML round trip through plain dicts would lose. New entries are
rendered by tomlkit and appended after the file's last line, so every existing byte
stays as it was; an entry is removed through tomlkit's document, which keeps the
comments and layout of the rest.
"""

from __future__ import annotations

import difflib
import functools
import os
import re
import shutil
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomlkit

from claims.curated.datafile import DataFileError, near_names, nearest
from claims.curated.hubids import namespace_problem, repo_id_problem, suggested_namespace
from claims.curated.loader import CuratedData
from claims.curated.problems import DataFileErrors
from claims.subjects.aliases import plain_alias_problem
from tracker.adapters.huggingface import watches as hub
from tracker.errors import ConfigError, TrackerError, UnknownName

FILES = ("subjects.toml", "watches.toml", "subscriptions.toml")
OPENROUTER_URL = "https://openrouter.ai/api/v1/models"
# File headers for a data folder that does not have the file yet.
HEADERS = {
    "subjects.toml": "# Subjects: the model releases claims are about (docs/data.md).\n",
    "watches.toml": "# Watches: one endpoint checked by one adapter (docs/watches.md).\n",
    "subscriptions.toml": "# Alert subscriptions (docs/alerts.md).\n",
}


def slug_of(name: str) -> str:
    """``Acme Orca 9B`` -> ``acme-orca-9b`` (the loader's slug form: lower-case letters,
    digits, dots and dashes)."""
    slug = re.sub(r"[^a-z0-9.]+", "-", name.lower()).strip("-.")
    if not slug:
        raise TrackerError(f"cannot make a slug of {name!r}: give a name with letters or digits")
    return slug


@dataclass
class Plan:
    """New texts of the data files (name -> (old text, new text)), what they add or
    remove in words, and the watches to retire in the database (untrack)."""

    data_dir: Path
    slug: str
    texts: dict[str, tuple[str, str]] = field(default_factory=dict)
    changes: list[str] = field(default_factory=list)
    retire: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def diff(self) -> str:
        """Unified diff of every changed file (``git diff`` style paths)."""
        out: list[str] = []
        for name, (old, new) in self.texts.items():
            path = str(self.data_dir / name)
            out.extend(
                difflib.unified_diff(
                    old.splitlines(keepends=True), new.splitlines(keepends=True),
                    fromfile=f"a/{path}", tofile=f"b/{path}",
                )
            )  # fmt: skip
        return "".join(out)


def _data_folder(data_dir: Path) -> None:
    """ConfigError naming ``data_dir`` when it is not an existing folder (a new, empty
    one is fine: `track` starts its files), before any file in it is read or written."""
    if data_dir.exists() and not data_dir.is_dir():
        raise ConfigError(
            f"data folder {data_dir} is a file, not a folder: pass --data the folder that "
            "holds (or is to hold) subjects.toml and watches.toml"
        )
    if not data_dir.is_dir():
        raise ConfigError(
            f"data folder {data_dir} does not exist; create it first (`mkdir -p {data_dir}`: "
            "`tracker track` starts subjects.toml and watches.toml there) or check --data"
        )


def _read(data_dir: Path, name: str) -> str:
    path = data_dir / name
    return path.read_text(encoding="utf-8") if path.exists() else ""


def _parse(data_dir: Path, name: str, text: str) -> Any:
    try:
        return tomlkit.parse(text)
    except tomlkit.exceptions.ParseError as exc:
        raise DataFileError(data_dir / name, exc.line, "toml", str(exc)) from exc


def _append(old: str, name: str, key: str, entry: dict[str, Any]) -> str:
    """``old`` with one ``[[key]]`` entry appended after its last line."""
    doc = tomlkit.document()
    table = tomlkit.aot()
    table.append(tomlkit.item(entry))
    doc[key] = table
    head = old.rstrip("\n") + "\n\n" if old.strip() else HEADERS[name] + "\n"
    return head + tomlkit.dumps(doc)


def _entries(doc: Any, key: str) -> list[Any]:
    got = doc.get(key)
    return list(got) if got is not None else []


def plan_track(
    data_dir: Path,
    name: str,
    org: str,
    *,
    hf_org: str | None = None,
    aliases: Sequence[str] = (),
    repo: str | None = None,
    openrouter: str | None = None,
    subscribe: str | None = None,
    followed: Sequence[dict[str, Any]] = (),
    retired: Sequence[dict[str, Any]] = (),
) -> Plan:
    """The entries that start tracking ``name``: its subject (slug from the name, the
    name and ``aliases`` as aliases, ``hub_org``, ``[subject.ids]`` for the repo and the
    OpenRouter id), the org listing watch unless one exists for that Hub org, the
    repo's model watch when ``repo`` is given, the OpenRouter models watch when an id
    is given and none exists, and a subscription to the subject's events when
    ``subscribe`` (an Apprise URL) is given. Raises TrackerError when the slug is taken
    or ``repo`` is not ``ORG/NAME``.

    For a subject already tracked, ``followed`` (watch entries the cycle made to follow
    its repos, from the database) are written into watches.toml instead, so git keeps
    them, and ``retired`` (entries of its watches `tracker untrack` retired, from the
    database) are written back, which re-activates them when loaded; TrackerError
    (saying how to see or untrack it) when there is none of either to write. A tracked
    slug is recognized first, so that answer comes before any complaint about the
    options (an invalid ``org``), which only a new subject uses."""
    _data_folder(data_dir)
    slug = slug_of(name)
    plan = Plan(data_dir, slug)
    subjects_text = _read(data_dir, "subjects.toml")
    subjects = _parse(data_dir, "subjects.toml", subjects_text)
    # A tracked slug is answered before the options are checked: they would make a
    # new subject, which is not what happens (its org, aliases and repo stay as filed).
    for entry in _entries(subjects, "subject"):
        if str(entry.get("slug", "")).lower() == slug:
            return _keep_followed(plan, followed, retired)
    hub_org = hub_namespace(org, hf_org, repo, plan.warnings)
    for alias in aliases:
        plain = plain_alias_problem(alias)
        if plain:
            raise TrackerError(f"--alias {plain}: give a name that names this model alone")
    subject: dict[str, Any] = {"slug": slug, "name": name, "organization": org,
                               "hub_org": hub_org,
                               "aliases": list(dict.fromkeys([name, *_auto_aliases(
                                   name, org, repo, plan.warnings), *aliases])),
                               "variants": []}  # fmt: skip
    ids = {k: [v] for k, v in (("huggingface", repo), ("openrouter", openrouter)) if v}
    if ids:
        subject["ids"] = ids
    plan.texts["subjects.toml"] = (subjects_text, _append(subjects_text, "subjects.toml",
                                                           "subject", subject))  # fmt: skip
    plan.changes.append(
        f"subject {slug} ({name}), aliases: " + ", ".join(f'"{a}"' for a in subject["aliases"])
    )
    watches_text = _read(data_dir, "watches.toml")
    new_watches = _watches_to_add(
        _entries(_parse(data_dir, "watches.toml", watches_text), "watch"), hub_org, repo, openrouter
    )
    text = watches_text
    for w in new_watches:
        text = _append(text, "watches.toml", "watch", w)
        plan.changes.append(f"watch {w['name']} ({w['adapter']})")
    if new_watches:
        plan.texts["watches.toml"] = (watches_text, text)
    if subscribe:
        subs_text = _read(data_dir, "subscriptions.toml")
        taken = {str(e.get("name")) for e in _entries(_parse(data_dir, "subscriptions.toml",
                                                             subs_text), "subscription")}  # fmt: skip
        sub_name = slug if slug not in taken else f"{slug}-{len(taken) + 1}"
        entry = {"name": sub_name, "url": subscribe, "subjects": [slug]}
        plan.texts["subscriptions.toml"] = (
            subs_text, _append(subs_text, "subscriptions.toml", "subscription", entry)
        )  # fmt: skip
        plan.changes.append(f"subscription {sub_name} (every subscriber event of {slug})")
    return plan


def hub_namespace(org: str, hf_org: str | None, repo: str | None, warnings: list[str]) -> str:
    """The subject's Hub namespace: ``--hf-org``, else the org of ``--repo``, else
    ``--org`` (the display name, used only when it is also a valid Hub name). Raises
    TrackerError naming the option for an invalid repo id or namespace (rules:
    :mod:`claims.curated.hubids`), with a suggestion; appends to ``warnings`` when
    ``--hf-org`` and ``--repo`` name different orgs."""
    if repo is not None:
        problem = repo_id_problem(repo)
        if problem:
            raise TrackerError(f"--repo {problem} (e.g. nimbuslabs/Cirrus-12B)")
    if hf_org is not None:
        problem = namespace_problem(hf_org)
        if problem:
            raise TrackerError(
                f"--hf-org {problem}; the Hub namespace is the ORG of huggingface.co/ORG "
                f"(e.g. --hf-org {suggested_namespace(hf_org)})"
            )
        if repo is not None and repo.split("/")[0].lower() != hf_org.lower():
            warnings.append(
                f"--hf-org {hf_org} differs from the org of --repo {repo}: the org watch "
                f"lists {hf_org}, the model watch reads {repo}"
            )
        return hf_org
    if repo is not None:
        return repo.split("/")[0]
    problem = namespace_problem(org)
    if problem:
        raise TrackerError(
            f"--org {problem}, so it cannot be the Hub org to watch: --org is the display "
            f"name; give the Hub namespace with --hf-org (e.g. --hf-org "
            f"{suggested_namespace(org)}) or the repo with --repo ORG/NAME"
        )
    return org


def _auto_aliases(name: str, org: str, repo: str | None, warnings: list[str]) -> list[str]:
    """:func:`_short` without the aliases too plain to name one model (``3`` of ``Qwen
    3``: :mod:`claims.subjects.aliases`), each left out with a warning."""
    out = []
    for alias in _short(name, org, repo):
        plain = plain_alias_problem(alias)
        if plain:
            warnings.append(f"alias not added: {plain} (other models' figures would match it)")
        else:
            out.append(alias)
    return out


def _keep_followed(
    plan: Plan, followed: Sequence[dict[str, Any]], retired: Sequence[dict[str, Any]] = ()
) -> Plan:
    """Append the followed model watches and the retired watches watches.toml lacks
    (their ``followed_from`` param dropped: from now on the file defines them)."""
    old = _read(plan.data_dir, "watches.toml")
    names = {str(w.get("name")) for w in _entries(_parse(plan.data_dir, "watches.toml", old),
                                                  "watch")}  # fmt: skip
    text = old
    marks = [(e, "followed by the cycle") for e in followed]
    marks += [(e, "was retired: re-activated") for e in retired]
    for entry, why in marks:
        if entry["name"] in names:
            continue
        names.add(entry["name"])
        params = {k: v for k, v in entry["params"].items() if k != "followed_from"}
        text = _append(text, "watches.toml", "watch", {**entry, "params": params})
        plan.changes.append(f"watch {entry['name']} ({entry['adapter']}, {why})")
    if text == old:
        raise TrackerError(
            f"{plan.data_dir / 'subjects.toml'}: subject {plan.slug!r} is already tracked: "
            f"see it with `tracker status {plan.slug}`; stop checking it with "
            f"`tracker untrack {plan.slug}`"
        )
    plan.texts["watches.toml"] = (old, text)
    return plan


def _short(name: str, org: str, repo: str | None = None) -> list[str]:
    """Names a model goes by without its maker, as articles and Hub repos write them:
    ``Acme Orca 9B`` by ``acme`` -> ``Orca 9B``; ``Nimbus Labs Cirrus 12B`` by ``nimbus``
    (or ``Nimbus Labs``) -> ``Cirrus 12B`` (the org's words, then one word of
    ``tracker/data/org_words.txt``); and the repo's name with spaces (``acme/Orca-9B``
    -> ``Orca 9B``) when it is not just the name again."""
    words, org_words = name.split(), org.replace("-", " ").split()
    i = 0
    while i < min(len(words), len(org_words)) and words[i].casefold() == org_words[i].casefold():
        i += 1
    if i and i < len(words) - 1 and words[i].casefold() in _org_words():
        i += 1
    out = [" ".join(words[i:])] if 0 < i < len(words) else []
    if repo:
        spaced = re.sub(r"[-_]+", " ", repo.split("/", 1)[1]).strip()
        if spaced and spaced.casefold() != name.casefold():
            out.append(spaced)
    return list(dict.fromkeys(out))


@functools.cache
def _org_words() -> frozenset[str]:
    text = (Path(__file__).parent.parent / "data" / "org_words.txt").read_text(encoding="utf-8")
    return frozenset(
        w.strip().casefold() for w in text.splitlines() if w.strip() and not w.startswith("#")
    )


def _watches_to_add(
    existing: Iterable[Any], hub_org: str, repo: str | None, openrouter: str | None
) -> list[dict[str, Any]]:
    """Watch entries the subject needs that ``existing`` (watches.toml's) lacks."""
    orgs, repos, names, adapters = set[str](), set[str](), set[str](), set[str]()
    for w in existing:
        params = w.get("params") or {}
        names.add(str(w.get("name")))
        adapters.add(str(w.get("adapter")))
        if w.get("adapter") == "huggingface_org":
            org = params.get("org") or params.get("author")
            m = re.search(r"[?&]author=([^&]+)", str(w.get("url", "")))
            orgs.update(str(o).lower() for o in (org, m.group(1) if m else None) if o)
        elif w.get("adapter") == "huggingface_model":
            got = hub.repo_of_model_watch(str(w.get("url", "")), dict(params))
            repos.add((got or "").lower())
    out = []
    if hub_org.lower() not in orgs:
        out.append(hub.org_watch(hub_org))
    if repo and repo.lower() not in repos:
        out.append(hub.model_watch(repo))
    if openrouter and "openrouter_models" not in adapters:
        out.append({"name": "openrouter-models", "adapter": "openrouter_models",
                    "url": OPENROUTER_URL, "interval_minutes": 360,
                    "params": {"robots": False}})  # fmt: skip
    return [w for w in out if w["name"] not in names]


def plan_untrack(data_dir: Path, slug: str, stored_watches: Sequence[str] = ()) -> Plan:
    """The watches.toml entries only ``slug`` needs, removed (its model watches; its org
    listing when no other subject has that Hub org), plus ``stored_watches`` (names in
    the database that follow its repos) to retire. The subject, its claims and every
    observation stay (history). Raises TrackerError for an unknown slug, with the
    nearest known one."""
    _data_folder(data_dir)
    subjects = _parse(data_dir, "subjects.toml", _read(data_dir, "subjects.toml"))
    entries = _entries(subjects, "subject")
    mine = next((e for e in entries if str(e.get("slug")) == slug), None)
    if mine is None:
        slugs = [str(e.get("slug")) for e in entries]
        raise UnknownName(
            f"unknown subject {slug!r} in {data_dir / 'subjects.toml'} ({nearest(slug, slugs)})",
            near_names(slug, slugs),
        )
    repos = {r.lower() for r in (mine.get("ids") or {}).get("huggingface", [])}
    hub_org = str(mine.get("hub_org") or "").lower()
    shared = any(str(e.get("hub_org") or "").lower() == hub_org for e in entries if e is not mine)
    plan = Plan(data_dir, slug)
    old = _read(data_dir, "watches.toml")
    doc = _parse(data_dir, "watches.toml", old)
    table = doc.get("watch")
    drop = []
    for i, w in enumerate(_entries(doc, "watch")):
        params = dict(w.get("params") or {})
        if w.get("adapter") == "huggingface_model":
            got = hub.repo_of_model_watch(str(w.get("url", "")), params) or ""
            if got.lower() in repos:
                drop.append(i)
        elif w.get("adapter") == "huggingface_org" and hub_org and not shared:
            if str(params.get("org") or params.get("author") or "").lower() == hub_org:
                drop.append(i)
    for i in reversed(drop):
        name = str(table[i]["name"])
        plan.retire.append(name)
        plan.changes.append(f"watch {name} removed from watches.toml and retired")
        del table[i]
    if drop:
        # the blank line `track` put before the entries goes with them
        new = tomlkit.dumps(doc)
        plan.texts["watches.toml"] = (old, new.rstrip("\n") + "\n" if new.strip() else new)
    for name in stored_watches:
        if name not in plan.retire:
            plan.retire.append(name)
            plan.changes.append(f"watch {name} (followed) retired")
    return plan


def _rewritten(exc: DataFileError, tmp: Path, real: Path) -> DataFileError:
    """``exc`` naming ``real`` files instead of the validation copy's."""

    def one(e: DataFileError) -> DataFileError:
        return DataFileError(e.path.replace(str(tmp), str(real)), e.line, e.field, e.message)

    if isinstance(exc, DataFileErrors):
        return DataFileErrors([one(e) for e in exc.errors])
    return one(exc)


def validate(plan: Plan) -> CuratedData:
    """Validate the planned files with the loader (and subscriptions with their reader)
    in a copy of the data folder; raises DataFileError / ConfigError naming the real
    files and lines. Nothing under ``plan.data_dir`` is touched."""
    from tracker.alerts.subscriptions import load_subscriptions
    from tracker.curated.load import validate_curated

    real = plan.data_dir
    with tempfile.TemporaryDirectory(prefix="tracker-track-") as tmp_name:
        tmp = Path(tmp_name)
        for name in FILES:
            if name in plan.texts:
                (tmp / name).write_text(plan.texts[name][1], encoding="utf-8")
            elif (real / name).exists():
                shutil.copyfile(real / name, tmp / name)
        if (real / "claims").is_dir():
            (tmp / "claims").symlink_to((real / "claims").resolve())
        try:
            curated = validate_curated(tmp)
            if (tmp / "subscriptions.toml").exists():
                load_subscriptions(tmp / "subscriptions.toml", env={})
        except DataFileError as exc:
            raise _rewritten(exc, tmp, real) from None
        except ConfigError as exc:
            raise ConfigError(str(exc).replace(str(tmp), str(real))) from None
    return curated


def apply(plan: Plan) -> CuratedData:
    """Validate, then write every planned file: each to a temporary file beside it, and
    only when all are written, renamed over the originals (``os.replace``), so a failure
    leaves every file as it was. Returns the folder as the loader reads it now."""
    from tracker.curated.load import validate_curated

    validate(plan)
    written: list[tuple[Path, Path]] = []
    try:
        for name, (_old, new) in plan.texts.items():
            target = plan.data_dir / name
            tmp = target.with_name(f".{name}.tracker-tmp")
            tmp.write_text(new, encoding="utf-8")
            written.append((tmp, target))
    except OSError:
        for tmp, _target in written:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, target in written:
        os.replace(tmp, target)
    return validate_curated(plan.data_dir)
