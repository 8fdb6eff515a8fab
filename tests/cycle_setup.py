"""Test helpers: the demo's subjects and the watches of data/watches.toml as rows.

The lead's loader does this for real; tests build the same rows directly so the
cycle can be tested on its own.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from sqlmodel import Session

from claims.store.tables import Subject, SubjectAlias, Watch
from claims.values.canonical import dumps

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
DEMO_HAR = ROOT / "data" / "recordings" / "demo.har"
WATCHES = ROOT / "data" / "watches.toml"

SUBJECTS = [
    (
        "kimi-k3.1-pro",
        "Kimi K3.1 Pro",
        ["Kimi K3.1 Pro", "Kimi 3.1 Pro", "K3.1 Pro"],
        {
            "litellm": ["moonshot/kimi-k3.1-pro", "moonshot/kimi-k3.1-pro-highspeed"],
            "openrouter": ["moonshotai/kimi-k3.1-pro", "moonshotai/kimi-k3.1-pro-highspeed"],
            "lmarena": ["kimi-k3.1-pro"],
            "artificial_analysis": ["kimi-k3-1-pro"],
            "terminal_bench": ["kimi-k3.1-pro"],
        },
    ),
    (
        "kimi-k3",
        "Kimi K3",
        ["Kimi K3"],
        {
            "litellm": ["moonshot/kimi-k3"],
            "openrouter": ["moonshotai/kimi-k3"],
            "lmarena": ["kimi-k3"],
            "artificial_analysis": ["kimi-k3"],
        },
    ),
    (
        "kimi-k2-thinking",
        "Kimi K2 Thinking",
        ["Kimi K2 Thinking", "Kimi-K2-Thinking"],
        {
            "huggingface": ["moonshotai/Kimi-K2-Thinking"],
            "openrouter": ["moonshotai/kimi-k2-thinking"],
        },
    ),
]


def add_named_subject(s: Session, slug: str, name: str) -> int:
    """A subject whose ``name`` alias is ``name`` (how html_page rows find it); its id."""
    subject = Subject(slug=slug, name=name)
    s.add(subject)
    s.flush()
    assert subject.id is not None
    s.add(SubjectAlias(subject_id=subject.id, namespace="name", alias=name))
    return subject.id


def add_subjects(engine) -> dict[str, int]:
    """Insert the three demo subjects with aliases; returns slug -> id."""
    ids: dict[str, int] = {}
    with Session(engine) as s:
        for slug, name, names, idmap in SUBJECTS:
            subj = Subject(slug=slug, name=name, organization="Moonshot AI", hub_org="moonshotai")
            s.add(subj)
            s.flush()
            assert subj.id is not None
            ids[slug] = subj.id
            for alias in names:
                s.add(SubjectAlias(subject_id=subj.id, namespace="name", alias=alias))
            for ns, aliases in idmap.items():
                for alias in aliases:
                    s.add(SubjectAlias(subject_id=subj.id, namespace=ns, alias=alias))
        s.commit()
    return ids


def add_watches(engine, path: Path = WATCHES) -> list[str]:
    """Insert every [[watch]] of a watches.toml; returns their names."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    names = []
    with Session(engine) as s:
        for w in data["watch"]:
            s.add(
                Watch(
                    name=w["name"],
                    adapter=w["adapter"],
                    url=w["url"],
                    interval_minutes=w.get("interval_minutes", 60),
                    params_json=dumps(w.get("params", {})),
                )
            )
            names.append(w["name"])
        s.commit()
    return names


def add_page_watch(engine, name: str, *, interval: int = 60, params: dict | None = None) -> None:
    """An ``html_page`` watch of ``https://example.test/<name>`` every ``interval`` minutes
    (the scheduler tests' watch; ``params`` e.g. ``{"cron": ...}``)."""
    with Session(engine) as s:
        s.add(
            Watch(
                name=name,
                adapter="html_page",
                url=f"https://example.test/{name}",
                interval_minutes=interval,
                params_json=json.dumps(params or {}),
            )
        )
        s.commit()


def add_watch(engine, name: str, adapter: str, url: str, **params) -> int:
    with Session(engine) as s:
        w = Watch(name=name, adapter=adapter, url=url, params_json=dumps(params))
        s.add(w)
        s.commit()
        assert w.id is not None
        return w.id
