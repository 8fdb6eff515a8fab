"""Reading a response body with a cap on its DECODED size and a total deadline.

httpx decodes ``Content-Encoding`` one raw chunk at a time, each in full: a 100 KB gzip
chunk of zeros becomes 100 MB at once (issue 20: a 1 MiB gzip bomb took 2.2 GB while
recording). Here gzip and deflate are decompressed with zlib's ``max_length``, so no
more than the cap is ever held; other encodings (br, zstd, stacked ones) go through
httpx's decoders, checked after each chunk.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator

import httpx

from tracker.errors import FetchTimeout, TooLarge

Deadline = tuple[float, Callable[[], float]]  # (monotonic time to finish by, the clock)


def _inflate(raw: Iterator[bytes], wbits: int, limit: int) -> Iterator[bytes]:
    """Decompress ``raw`` chunks, never producing more than ``limit`` + 1 bytes in all."""
    d = zlib.decompressobj(wbits)
    produced = 0
    for chunk in raw:
        data = chunk
        while data and produced <= limit:
            out = d.decompress(data, limit + 1 - produced)
            produced += len(out)
            if out:
                yield out
            data = d.unconsumed_tail
        if produced > limit:
            return
    if produced <= limit:
        tail = d.flush()
        if tail:
            yield tail


def _deflate(raw: Iterator[bytes], limit: int) -> Iterator[bytes]:
    """``deflate`` is zlib-wrapped by the RFC, raw deflate by some servers (httpx's rule)."""
    first = next(raw, b"")
    try:
        zlib.decompressobj(zlib.MAX_WBITS).decompress(first[:64])
        wbits = zlib.MAX_WBITS
    except zlib.error:
        wbits = -zlib.MAX_WBITS
    yield from _inflate(_chain(first, raw), wbits, limit)


def _chain(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


def decoded_chunks(response: httpx.Response, limit: int) -> Iterator[bytes]:
    """The body's chunks, decoded; for gzip/deflate at most ``limit`` + 1 bytes are
    ever produced (enough to tell the body is over ``limit``)."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    try:
        if encoding in ("gzip", "x-gzip"):
            yield from _inflate(response.iter_raw(), zlib.MAX_WBITS | 16, limit)
            return
        if encoding == "deflate":
            yield from _deflate(response.iter_raw(), limit)
            return
    except zlib.error as exc:
        raise httpx.DecodingError(f"body fails its Content-Encoding ({exc})") from exc
    yield from response.iter_bytes()


def read_body(response: httpx.Response, max_bytes: int, deadline: Deadline | None = None) -> bytes:
    """The decoded body of ``response`` (URL from its request): :class:`TooLarge` past
    ``max_bytes`` decoded bytes (a declared Content-Length over it fails at once),
    :class:`FetchTimeout` when a chunk arrives after ``deadline``."""
    url = str(response.request.url)
    declared = response.headers.get("content-length")
    encoded = response.headers.get("content-encoding", "identity").strip().lower()
    if encoded == "identity" and declared and declared.isdigit() and int(declared) > max_bytes:
        raise TooLarge(f"{url}: body of {declared} bytes is over the {max_bytes}-byte cap", url=url)
    chunks: list[bytes] = []
    size = 0
    for chunk in decoded_chunks(response, max_bytes):
        size += len(chunk)
        if size > max_bytes:
            raise TooLarge(f"{url}: body is over the {max_bytes}-byte cap", url=url)
        if deadline is not None and deadline[1]() > deadline[0]:
            raise FetchTimeout(f"{url}: body not read within the total time limit", url=url)
        chunks.append(chunk)
    return b"".join(chunks)
