"""The optional LLM extractor: an OpenAI-compatible chat endpoint (a hosted API, or a local
llama.cpp / Ollama / vLLM server) asked for candidate claims as JSON, every one grounded
in the article by :func:`claims.extract.grounding.ground` before it is shown.

I/O: one ``POST {base_url}/chat/completions`` through the fetch seam's client
(:func:`tracker.net.fetch.post_json`; tests pass an ``httpx.MockTransport``).
Request: ``model``, a system message with the candidate schema and the subjects' slugs and
names, the article as the user message, ``temperature`` 0 and
``response_format = {"type": "json_object"}``. Answer read: ``choices[0].message.content``,
a JSON object ``{"claims": [...]}`` (a bare list, or JSON inside a ``` fence, is accepted).
The API key (``TRACKER_LLM_API_KEY``, :func:`tracker.settings.llm_api_key`) goes in ``Authorization: Bearer``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Sequence
from typing import Any

from claims.extract.candidates import Candidate
from claims.extract.grounding import PROPOSAL_SCHEMA, ground
from claims.extract.language import article_locale
from claims.subjects.references import SubjectRef
from tracker.errors import BadStatus, ParseError
from tracker.net.fetch import post_json

DEFAULT_BASE_URL = "https://api.openai.com/v1"

SYSTEM_PROMPT = """You read one article about AI model releases and list the claims it states
about the models below, as JSON: {{"claims": [...]}} matching this schema:
{schema}
Rules: "subject" is one of these slugs: {subjects}. Only claims the article states about
that model (never another model's figures). "value": a plain number in base units (params
as a count: 1.2T = 1200000000000; prices in USD per million tokens; percents as 71.5),
{{"low": x, "high": y}} for a range, an ISO date for dates, an SPDX-like id for a licence.
"qualifiers": {{"benchmark": name, "version": v}} for benchmark scores. "quote": the exact
words of the article that state the figure, copied character for character. No prose."""


class LlmExtractor:
    """Candidate claims from an OpenAI-compatible chat model, grounded in the text.

    ``client`` is a :class:`tracker.net.client.HttpClient`; ``rejections`` holds the
    proposals of the last call that grounding dropped, with reasons."""

    name = "llm"

    def __init__(
        self, client: Any, model: str, *, base_url: str = DEFAULT_BASE_URL, api_key: str | None
    ) -> None:
        self.client, self.model = client, model
        self.base_url, self.api_key = base_url.rstrip("/"), api_key
        self.rejections: list[Any] = []

    def extract(
        self,
        text: str,
        subjects: Sequence[SubjectRef],
        *,
        lang: str | None = "auto",
        published: dt.date | None = None,
        default_subject: str | None = None,
        warnings: list[str] | None = None,
    ) -> list[Candidate]:
        """Ask the model, then ground its proposals (see the module doc). Raises
        :class:`~tracker.errors.FetchError` when the endpoint cannot be reached or answers
        non-2xx, :class:`~tracker.errors.ParseError` when its answer is not the JSON asked
        for. Dropped proposals are reported in ``warnings``, one line each."""
        del default_subject  # the model names the subject of every claim itself
        locale = article_locale(text, lang)
        proposals = self.ask(text, subjects)
        found, self.rejections = ground(proposals, text, subjects, locale, published)
        if warnings is not None:
            for r in self.rejections:
                shown = {k: r.proposal.get(k) for k in ("attribute", "value", "quote")}
                warnings.append(f"LLM claim dropped ({r.reason}): {json.dumps(shown)}")
        return found

    def ask(self, text: str, subjects: Sequence[SubjectRef]) -> list[Any]:
        """The model's proposed claims (a list, unchecked)."""
        names = "; ".join(f"{s.slug} ({', '.join(s.names[:3])})" for s in subjects)
        system = SYSTEM_PROMPT.format(schema=json.dumps(PROPOSAL_SCHEMA), subjects=names)
        body = {
            "model": self.model,
            "temperature": 0,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": text},
            ],
        }
        url = f"{self.base_url}/chat/completions"
        headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
        status, text = post_json(self.client, url, body, headers)
        if not 200 <= status < 300:
            raise BadStatus(f"{url}: HTTP {status}: {text[:200]}", url=url, status=status)
        return parse_answer(text, url)


def parse_answer(body: str, url: str = "the LLM endpoint") -> list[Any]:
    """The ``claims`` list of a chat-completions answer body. Raises
    :class:`~tracker.errors.ParseError` naming what was missing."""
    try:
        content = json.loads(body)["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ParseError(f"{url}: not a chat-completions answer ({exc!r})") from exc
    fenced = re.search(r"```(?:json)?\s*(.*?)```", content or "", re.S)
    raw = fenced.group(1) if fenced else content
    try:
        data = json.loads(raw)
    except (ValueError, TypeError) as exc:
        raise ParseError(f"{url}: the model's answer is not JSON: {str(raw)[:120]!r}") from exc
    claims = data.get("claims") if isinstance(data, dict) else data
    if not isinstance(claims, list):
        raise ParseError(f"{url}: the model's answer has no 'claims' list")
    return claims
