"""Per-subject change tokens (claims/store/changetokens.py): the database's triggers
give a subject a new token on every edit of its claim and verdict rows the site shows,
and only then, on SQLite and PostgreSQL, whoever writes; the site build's claim inputs
(claims/store/sitedigest.py) use them, and the rows' aggregate when the triggers are
missing."""

from __future__ import annotations

import re

import pytest
from sqlmodel import Session, select

from claims.store.changetokens import CLAIM_WATCHED, VERDICT_WATCHED
from claims.store.engine import make_engine
from claims.store.rawdb import RawDB
from claims.store.sitedigest import ClaimInput, claim_inputs
from claims.store.tables import Claim, Source, Subject, Verdict
from claims.store.upsert import upsert

SLUGS = {1: "a", 2: "b", 3: "c"}
T0 = "2026-12-01 00:00:00"


def _empty_postgresql(url: str) -> None:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")


def _populate(engine) -> None:  # type: ignore[no-untyped-def]
    """Subjects a, b, c (ids 1-3); sources 1, 2; claims 1, 2 of a, 3, 4 of b, 5 of c;
    a verdict for claims 1-4 (claim 5 has none)."""
    with Session(engine) as s:
        s.add_all([Subject(slug=slug, name=slug.upper()) for slug in SLUGS.values()])
        s.add_all([Source(key=f"src-{i}", title=f"Source {i}") for i in (1, 2)])
        s.flush()
        owners = (1, 1, 2, 2, 3)
        s.add_all(
            [
                Claim(
                    key=f"k{i}", subject_id=sid, attribute="license", value_json="{}", source_id=1
                )  # fmt: skip
                for i, sid in enumerate(owners, start=1)
            ]
        )
        s.flush()
        s.add_all(
            [
                Verdict(claim_id=i, status="unverified", reason="nothing observed")
                for i in range(1, 5)
            ]
        )
        s.commit()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request, tmp_path):
    if request.param == "sqlite":
        engine = make_engine(tmp_path / "t.db")
    else:
        url = request.getfixturevalue("pg_server")
        _empty_postgresql(url)
        engine = make_engine(url)
    _populate(engine)
    yield engine
    engine.dispose()


def tokens(engine) -> dict[str, tuple[str, ...]]:  # type: ignore[no-untyped-def]
    """Each subject's token rows (one, unless concurrent PostgreSQL writers left more)."""
    with engine.connect() as conn:
        rows = conn.exec_driver_sql("SELECT subject_id, token FROM subjectclaimstoken").all()
    out: dict[str, tuple[str, ...]] = {}
    for sid, token in sorted(rows):
        out[SLUGS[sid]] = (*out.get(SLUGS[sid], ()), token)
    return out


def renewed(engine, *statements: str) -> set[str]:  # type: ignore[no-untyped-def]
    """The subjects whose token ``statements`` (one transaction) renewed."""
    before = tokens(engine)
    with engine.begin() as conn:
        for sql in statements:
            conn.exec_driver_sql(sql)
    after = tokens(engine)
    assert set(after) == set(before)  # a token row is never removed
    return {slug for slug in after if after[slug] != before[slug]}


CLAIM_VALUES = {
    "attribute": "'context_window_tokens'",
    "qualifiers_json": """'{"variant": "x"}'""",
    "value_json": """'{"kind": "text"}'""",
    "raw_text": "'1M'",
    "source_id": "2",
    "claimant": "'Another lab'",
    "locator": "'p. 2'",
    "stated_date": "'2026-11-30'",
    "key": "'k1-changed'",
    "note": "'a note'",
}
VERDICT_VALUES = {
    "status": "'verified'",
    "reason": "'seen'",
    "evidence_json": "'[7]'",
    "as_of": f"'{T0}'",
    "statement_json": """'{"status": "yes"}'""",
}


def test_every_column_the_site_shows_has_a_value_here():
    assert set(CLAIM_VALUES) == set(CLAIM_WATCHED) - {"id", "subject_id"}
    assert set(VERDICT_VALUES) == set(VERDICT_WATCHED) - {"claim_id"}


@pytest.mark.parametrize("column", sorted(CLAIM_VALUES))
def test_editing_a_claim_column_renews_its_subject_only(db, column):
    sql = f"UPDATE claim SET {column} = {CLAIM_VALUES[column]} WHERE id = 1"
    assert renewed(db, sql) == {"a"}


@pytest.mark.parametrize("column", sorted(VERDICT_VALUES))
def test_editing_a_verdict_column_renews_its_claims_subject_only(db, column):
    sql = f"UPDATE verdict SET {column} = {VERDICT_VALUES[column]} WHERE claim_id = 3"
    assert renewed(db, sql) == {"b"}


INSERT_CLAIM = (
    "INSERT INTO claim (key, subject_id, attribute, qualifiers_json, value_json, source_id, "
    f"created_at) VALUES ('new', 1, 'license', '{{}}', '{{}}', 1, '{T0}')"
)
INSERT_VERDICT = (
    "INSERT INTO verdict (claim_id, status, reason, evidence_json, checked_at) "
    f"VALUES (5, 'unverified', 'nothing observed', '[]', '{T0}')"
)
SAME_VERDICT = (
    "UPDATE verdict SET status = 'unverified', reason = 'nothing observed', "
    "evidence_json = '[]', as_of = NULL, statement_json = NULL, "
    "checked_at = '2026-12-05 00:00:00' WHERE claim_id = 3"
)


@pytest.mark.parametrize(
    ("statements", "subjects"),
    [
        ((INSERT_CLAIM,), {"a"}),
        (("DELETE FROM verdict WHERE claim_id = 1", "DELETE FROM claim WHERE id = 1"), {"a"}),
        (("DELETE FROM claim WHERE id = 5",), {"c"}),  # a claim without a verdict
        (("UPDATE claim SET id = 50 WHERE id = 5",), {"c"}),
        (("UPDATE claim SET subject_id = 3 WHERE id = 1",), {"a", "c"}),  # moved
        ((INSERT_VERDICT,), {"c"}),
        (("DELETE FROM verdict WHERE claim_id = 3",), {"b"}),
        (("UPDATE verdict SET claim_id = 5 WHERE claim_id = 3",), {"b", "c"}),  # moved
        ((SAME_VERDICT,), set()),  # written again as it was: only checked_at moved
        (("UPDATE claim SET claimant = claimant, note = note WHERE id = 1",), set()),
        ((f"UPDATE claim SET created_at = '{T0}', origin = 'import' WHERE id = 1",), set()),
        (
            (
                "DELETE FROM verdict WHERE claim_id IN (3, 4)",
                "DELETE FROM claim WHERE id IN (3, 4)",
            ),
            {"b"},
        ),  # fmt: skip
    ],
    ids=[
        "insert-claim",
        "delete-claim",
        "delete-claim-without-verdict",
        "renumber-claim",
        "move-claim",
        "insert-verdict",
        "delete-verdict",
        "move-verdict",
        "verdict-rewritten-same",
        "claim-rewritten-same",
        "claim-columns-not-shown",
        "delete-every-claim-of-a-subject",
    ],  # fmt: skip
)
def test_each_edit_renews_exactly_its_subjects(db, statements, subjects):
    assert renewed(db, *statements) == subjects


def test_every_token_is_new_random_text(db):
    first = tokens(db)
    assert all(len(rows) == 1 for rows in first.values())
    seen = {t for (t,) in first.values()}
    assert len(seen) == 3
    assert all(re.fullmatch(r"[0-9a-f-]{32,36}", t) for t in seen)
    for n in range(5):
        renewed(db, f"UPDATE claim SET note = 'n{n % 2}' WHERE id = 1")
        (token,) = tokens(db)["a"]
        seen.add(token)
    assert len(seen) == 3 + 5  # never a token seen before, even for content seen before


def test_the_orm_the_verdict_upsert_and_the_cycles_dbapi_path_renew_tokens(db):
    before = tokens(db)
    with Session(db) as s:
        claim = s.exec(select(Claim).where(Claim.id == 2)).one()
        claim.claimant = "Lab"
        s.add(claim)
        s.commit()
    assert {k for k, v in tokens(db).items() if v != before[k]} == {"a"}

    def upserted(status: str) -> set[str]:
        before = tokens(db)
        values = {"claim_id": 3, "status": status, "reason": "nothing observed",
                  "evidence_json": "[]", "as_of": None, "statement_json": None}  # fmt: skip
        with Session(db) as s:
            upsert(s, Verdict, values, ["claim_id"], list(values)[1:])
            s.commit()
        return {k for k, v in tokens(db).items() if v != before[k]}

    assert upserted("unverified") == set()  # what verification writes when nothing changed
    assert upserted("contradicted") == {"b"}

    before = tokens(db)
    raw = RawDB.from_engine(db)
    try:
        with raw.transaction():
            raw.execute("UPDATE claim SET locator = :loc WHERE id = 5", {"loc": "table 3"})
    finally:
        raw.close()
    assert {k for k, v in tokens(db).items() if v != before[k]} == {"c"}


def test_sqlite_conflict_clauses_of_the_writer_do_not_stop_a_renewal(tmp_path):
    """An outer ``INSERT OR IGNORE`` / ``OR REPLACE`` sets the conflict policy of the
    statements its triggers run: the triggers use no conflict clause of their own."""
    engine = make_engine(tmp_path / "t.db")
    _populate(engine)
    assert renewed(engine, INSERT_CLAIM.replace("INSERT", "INSERT OR IGNORE")) == {"a"}
    assert renewed(engine, INSERT_CLAIM.replace("INSERT", "INSERT OR IGNORE")) == set()
    replace = INSERT_VERDICT.replace("INSERT", "INSERT OR REPLACE").replace("(5,", "(3,")
    assert renewed(engine, replace) == {"b"}
    engine.dispose()


@pytest.mark.postgres
def test_truncate_on_postgresql_renews_every_token(pg_server):
    _empty_postgresql(pg_server)
    engine = make_engine(pg_server)
    try:
        _populate(engine)
        assert renewed(engine, "TRUNCATE verdict") == {"a", "b", "c"}
        assert renewed(engine, "TRUNCATE claim CASCADE") == {"a", "b", "c"}
    finally:
        engine.dispose()


def _inputs(engine):  # type: ignore[no-untyped-def]
    raw = RawDB.from_engine(engine)
    try:
        return claim_inputs(raw)
    finally:
        raw.close()


def test_claim_inputs_are_the_tokens_with_each_subjects_sources_and_evidence(db):
    with db.begin() as conn:
        conn.exec_driver_sql("UPDATE claim SET source_id = 2 WHERE id = 2")
        conn.exec_driver_sql("UPDATE verdict SET evidence_json = '[9, 4]' WHERE claim_id = 1")
        conn.exec_driver_sql("UPDATE verdict SET evidence_json = '[4]' WHERE claim_id = 2")
    got, now = _inputs(db), tokens(db)
    assert got is not None
    assert {sid: (i.digest, i.source_ids, i.evidence_ids) for sid, i in got.items()} == {
        1: ("token:" + now["a"][0], (1, 2), (4, 9)),
        2: ("token:" + now["b"][0], (1,), ()),
        3: ("token:" + now["c"][0], (1,), ()),
    }
    # a subject whose claims are all gone has no inputs (its token row stays)
    with db.begin() as conn:
        conn.exec_driver_sql("DELETE FROM claim WHERE id = 5")
    assert set(_inputs(db) or {}) == {1, 2}


def _drop_a_trigger(engine) -> None:  # type: ignore[no-untyped-def]
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("DROP TRIGGER claimstoken_verdict_update")
        else:  # disabled is as good as missing
            conn.exec_driver_sql("ALTER TABLE verdict DISABLE TRIGGER claimstoken_verdict_update")


def test_without_every_trigger_the_rows_aggregate_is_the_digest(db):
    tokened = _inputs(db)
    _drop_a_trigger(db)
    first = _inputs(db)
    assert first is not None and tokened is not None
    assert all(re.fullmatch(r"[0-9a-f]{64}", i.digest) for i in first.values())
    assert [(i.source_ids, i.evidence_ids) for i in first.values()] == [
        (i.source_ids, i.evidence_ids) for i in tokened.values()
    ]
    with db.begin() as conn:  # the edit the missing trigger would have seen
        conn.exec_driver_sql("UPDATE verdict SET reason = 'seen' WHERE claim_id = 3")
    second = _inputs(db)
    assert second is not None
    assert {sid for sid in second if second[sid].digest != first[sid].digest} == {2}


def test_a_subject_whose_token_row_was_deleted_is_never_taken_as_unchanged(db):
    with db.begin() as conn:
        conn.exec_driver_sql("DELETE FROM subjectclaimstoken WHERE subject_id = 2")
    first, second = _inputs(db), _inputs(db)
    assert first is not None and second is not None
    assert first[2].digest != second[2].digest
    assert first[1].digest == second[1].digest


@pytest.mark.postgres
def test_a_role_that_may_not_read_the_tokens_gets_the_rows_aggregate(pg_server):
    """A read-only role granted SELECT before revision 0007 added the token table."""
    _empty_postgresql(pg_server)
    engine = make_engine(pg_server)
    _populate(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP ROLE IF EXISTS early_reader")
        conn.exec_driver_sql("CREATE ROLE early_reader LOGIN")
        conn.exec_driver_sql("GRANT USAGE ON SCHEMA public TO early_reader")
        conn.exec_driver_sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO early_reader")
        conn.exec_driver_sql("REVOKE SELECT ON subjectclaimstoken FROM early_reader")
    reader = make_engine(pg_server.replace("tracker@", "early_reader@"), upgrade=False)
    try:
        got = _inputs(reader)
        assert got is not None and set(got) == {1, 2, 3}
        assert all(re.fullmatch(r"[0-9a-f]{64}", i.digest) for i in got.values())
    finally:
        reader.dispose()
        engine.dispose()


@pytest.mark.postgres
def test_concurrent_writers_on_postgresql_never_wait_on_a_token(pg_server):
    """Two transactions each editing a claim of subject a and one of b, in opposite
    orders: their claim rows never meet, so neither may wait for the other (a token
    row updated in place made them wait, or deadlock). Each edit adds a token row;
    the next edit removes the older ones."""
    import psycopg

    _empty_postgresql(pg_server)
    engine = make_engine(pg_server)
    _populate(engine)
    before = tokens(engine)
    url = pg_server.replace("postgresql+psycopg://", "postgresql://")
    one, two = psycopg.connect(url), psycopg.connect(url)
    try:
        for conn in (one, two):
            conn.execute("SET lock_timeout = '5s'")  # a wait fails the test, never hangs it
        one.execute("UPDATE claim SET note = 'one' WHERE id = 1")  # a
        two.execute("UPDATE claim SET note = 'two' WHERE id = 3")  # b
        one.execute("UPDATE claim SET note = 'one' WHERE id = 4")  # b
        two.execute("UPDATE claim SET note = 'two' WHERE id = 2")  # a
        one.commit()
        two.commit()
        after = tokens(engine)
        assert {k for k in after if set(after[k]) & set(before[k])} == {"c"}  # a, b: new
        assert len(after["a"]) == len(after["b"]) == 2 and after["c"] == before["c"]
        assert renewed(engine, "UPDATE claim SET note = 'three' WHERE id IN (1, 3)") == {"a", "b"}
        assert all(len(rows) == 1 for rows in tokens(engine).values())
    finally:
        one.close()
        two.close()
        engine.dispose()


@pytest.mark.postgres
def test_a_rolled_back_savepoint_does_not_keep_a_subject_marked_on_postgresql(pg_server):
    """One transaction renews a subject's token once (its later edits add no rows);
    an edit in a savepoint that is rolled back leaves the subject unmarked, so the
    transaction's next edit still renews it."""
    _empty_postgresql(pg_server)
    engine = make_engine(pg_server)
    try:
        _populate(engine)
        edits = (f"UPDATE claim SET note = 'n{i}' WHERE id = 1" for i in range(4))
        assert renewed(engine, *edits) == {"a"}
        assert all(len(rows) == 1 for rows in tokens(engine).values())
        before = tokens(engine)
        with engine.begin() as conn:
            saved = conn.begin_nested()
            conn.exec_driver_sql("UPDATE claim SET note = 'gone' WHERE id = 2")
            saved.rollback()
            conn.exec_driver_sql("UPDATE claim SET note = 'kept' WHERE id = 2")
        after = tokens(engine)
        assert {k for k in after if after[k] != before[k]} == {"a"}
        assert len(after["a"]) == 1
    finally:
        engine.dispose()


def test_claim_inputs_take_a_known_tokens_inputs_and_read_the_others(db):
    """With the inputs a build cache kept (by digest), a subject whose token is among
    them gets those (not read again), the others are read; a subject whose token row
    was deleted still gets a new random digest, one without claims none."""
    first = _inputs(db)
    assert first is not None
    kept = {i.digest: i for i in first.values()}
    # what the cache says of subject a (not what the rows say): taken while its token holds
    kept[first[1].digest] = ClaimInput(first[1].digest, (99,), (77,))
    raw = RawDB.from_engine(db)
    try:
        got = claim_inputs(raw, kept)
    finally:
        raw.close()
    assert got is not None
    assert got[1] == ClaimInput(first[1].digest, (99,), (77,))
    assert (got[2], got[3]) == (first[2], first[3])
    with db.begin() as conn:  # renews b's token: its sources are read again
        conn.exec_driver_sql("UPDATE claim SET source_id = 2 WHERE id = 3")
        conn.exec_driver_sql("DELETE FROM claim WHERE id = 5")  # c has no claim left
        conn.exec_driver_sql("DELETE FROM subjectclaimstoken WHERE subject_id = 1")
    raw = RawDB.from_engine(db)
    try:
        again = claim_inputs(raw, kept)
    finally:
        raw.close()
    assert again is not None and set(again) == {1, 2}
    assert again[2].source_ids == (1, 2) and again[2].digest != first[2].digest
    assert again[1].digest.startswith("token:none-") and again[1].source_ids == (1,)
