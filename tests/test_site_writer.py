"""The site writer's comparison with the file already there (tracker/website/writer.py):
a file is rewritten exactly when its bytes differ, also when it comes in pieces (the
spliced big exports) and keeps its size."""

from __future__ import annotations

from pathlib import Path

from tracker.website.writer import Pieces, Writer

OLD = b'{"claims": [{"id": 1, "claimant": "Lab A"}, {"id": 2, "claimant": "Lab B"}]}'


def pieces(data: bytes, cuts: list[int]) -> Pieces:
    """``data`` cut at ``cuts`` into memoryview slices and bytes, as a splice makes it."""
    view = memoryview(data)
    bounds = [0, *cuts, len(data)]
    parts = tuple(
        view[a:b] if i % 2 else bytes(view[a:b])
        for i, (a, b) in enumerate(zip(bounds, bounds[1:], strict=False))
    )
    return Pieces(parts, len(data))


def write_over(tmp_path: Path, payload: bytes | Pieces) -> Writer:
    (tmp_path / "api").mkdir(exist_ok=True)
    (tmp_path / "api" / "claims.json").write_bytes(OLD)
    writer = Writer(tmp_path)
    writer.write("api/claims.json", payload, compare=True)
    return writer


def test_same_pieces_are_left_as_they_were(tmp_path):
    writer = write_over(tmp_path, pieces(OLD, [5, 30, 31, 60]))
    assert writer.unchanged == ["api/claims.json"] and writer.written == []


def test_pieces_of_the_same_size_that_differ_are_written(tmp_path):
    new = OLD.replace(b"Lab B", b"Lab C")
    assert len(new) == len(OLD)
    writer = write_over(tmp_path, pieces(new, [5, 30, 31, 60]))
    assert writer.written == ["api/claims.json"]
    assert (tmp_path / "api" / "claims.json").read_bytes() == new


def test_a_difference_in_the_first_or_last_piece_is_seen(tmp_path):
    for new in (b"[" + OLD[1:], OLD[:-1] + b"]"):
        writer = write_over(tmp_path, pieces(new, [10, 40]))
        assert writer.written == ["api/claims.json"]
        assert (tmp_path / "api" / "claims.json").read_bytes() == new


def test_plain_bytes_compare_as_before(tmp_path):
    assert write_over(tmp_path, OLD).unchanged == ["api/claims.json"]
    changed = OLD.replace(b"Lab A", b"Lab Z")
    assert write_over(tmp_path, changed).written == ["api/claims.json"]
