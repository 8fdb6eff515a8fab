"""claims.subjects.matching: explicit aliases first, then exact normalized names for Hub repos."""

from __future__ import annotations

from claims.store.tables import Subject, SubjectAlias
from claims.subjects.matching import AliasIndex, normalize_name


def index() -> AliasIndex:
    subjects = [
        Subject(id=1, slug="kimi-k3.1-pro", name="Kimi K3.1 Pro", hub_org="moonshotai"),
        Subject(id=2, slug="kimi-k3", name="Kimi K3", hub_org="moonshotai"),
        Subject(id=3, slug="kimi-k2-thinking", name="Kimi K2 Thinking", hub_org="moonshotai"),
        Subject(id=4, slug="kimi-k2", name="Kimi K2", hub_org="moonshotai"),
    ]
    aliases = [
        SubjectAlias(subject_id=1, namespace="name", alias="Kimi 3.1 Pro"),
        SubjectAlias(subject_id=1, namespace="name", alias="K3.1 Pro"),
        SubjectAlias(subject_id=3, namespace="huggingface", alias="moonshotai/Kimi-K2-Thinking"),
        SubjectAlias(subject_id=3, namespace="openrouter", alias="moonshotai/kimi-k2-thinking"),
    ]
    return AliasIndex.build(subjects, aliases)


def test_normalize_name():
    assert normalize_name("Kimi K3.1 Pro") == normalize_name("Kimi-K3.1-Pro") == "kimik31pro"


def test_unlisted_hub_repo_matches_by_normalized_name():
    idx = index()
    assert idx.resolve("huggingface", "moonshotai/Kimi-K3.1-Pro") == 1
    assert idx.resolve("huggingface", "moonshotai/Kimi-3.1-Pro") == 1
    assert idx.resolve("huggingface", "moonshotai/Kimi-K3") == 2


def test_near_names_do_not_match():
    idx = index()
    assert idx.resolve("huggingface", "moonshotai/Kimi-K3.1-Pro-Instruct") is None
    assert idx.resolve("huggingface", "moonshotai/Kimi-K2-Instruct") is None
    # Kimi-K2-Thinking resolves to K2 Thinking (explicit alias), never to "Kimi K2".
    assert idx.resolve("huggingface", "moonshotai/Kimi-K2-Thinking") == 3


def test_explicit_aliases_and_case():
    idx = index()
    assert idx.resolve("huggingface", "MoonshotAI/kimi-k2-thinking") == 3
    assert idx.resolve("openrouter", "moonshotai/kimi-k2-thinking") == 3
    assert idx.resolve("openrouter", "moonshotai/Kimi-K2-Thinking") is None  # case-sensitive ns
    assert idx.resolve("openrouter", "moonshotai/kimi-k3") is None  # no name guessing off-Hub


def test_repo_of_another_org_is_not_the_vendors_weights():
    idx = index()
    assert idx.resolve("huggingface", "someone/Kimi-K3.1-Pro") is None
    assert idx.resolve_any([("openrouter", "x/y"), ("huggingface", "moonshotai/Kimi-K3")]) == 2
