"""Who the text says states a figure: "a Moonshot reporta", "segundo a Artificial Analysis",
"o post da Cerebras", "Cerebras says", "..., said Cerebras.", "segundo a empresa", a lab's
own "Moonshot AI will not release", its own channel ("through the company's API", "pela API
da empresa"). Input: a
sentence; output: claimant mentions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from claims.extract.lexicon import alternation, phrases, words
from claims.extract.segment import Segments

# A name stays on its line ("... Zephyr 3 Pro\n\nAurora Labs said" is "Aurora Labs").
_ORG = r"(?P<org>[A-Z][\w.&-]*(?:[ \t\u00a0]+(?:AI|Labs?|Research|Analysis|[A-Z][\w.&-]*)){0,3})"
# The words of lexicon/<lang>/*.txt named below, as regex alternations.
SAY_VERBS = alternation("say_verbs")
_ACCORDING_TO = phrases("according_to")
# An organization that announces a model is the author of the announcement: like a
# post's author it speaks for the rest of its paragraph ("X announced Y ... The weights ...").
# English only for now: "anunciou" would change the attribution of the reviewed pt seeds.
_ANNOUNCE_RE = re.compile(r"(?:" + alternation("announce_verbs") + r")$")
_SAY_RE = re.compile(rf"\b(?:{SAY_VERBS})\b")
# Looked for only in the 60 characters before a saying verb (speed: verbs are rare).
# Adverbs may stand between name and verb ("Nimbus Labs today announced").
_VERB_RE = re.compile(
    rf"(?<![\w.&-]){_ORG}\s+"
    r"(?:(?:\w+mente|[a-z]+ly|" + alternation("verb_adverbs") + r"|on\s+[A-Z][a-z]+day)\s+){0,2}$"
)
# The preposition may open the sentence ("According to X, ..."); the name keeps its capital.
_PREP_RE = re.compile(r"\b(?i:" + _ACCORDING_TO + r"|per)\s+(?:[ao]s?\s+|the\s+)?" + _ORG)
_DOC_RE = re.compile(
    rf"\b(?:{alternation('document_nouns')})"
    rf"(?:\s+de\s+engenharia|\s+técnico)?\s+(?:d[ao]\s+|by\s+|from\s+)(?:[ao]\s+)?{_ORG}"
)
# People of an organization who state a figure: "Analysts at SemiAnalysis estimate",
# "researchers from X say", "analistas da X estimam". The organization is the claimant.
_STAFF_RE = re.compile(
    r"\b(?i:" + alternation("staff_nouns") + r")\s+(?:at|from|with|of|d[ao]s?|n[ao]s?)"
    rf"\s+(?:the\s+|[ao]\s+)?{_ORG}\s+(?:\w+ly\s+|also\s+)?"
    r"(?:" + alternation("staff_verbs") + r")\b"
)
_COMPANY = r"(?:" + phrases("company_pronouns") + r")"
# The saying verbs that may come after what was said ("..., said Nimbus.", "..., disse a
# empresa."); then the name ends its clause.
_AFTER_VERBS = alternation("after_say_verbs")
_PRONOUN_ORG_RE = re.compile(
    rf"\b{_COMPANY}\s+(?:\w+mente\s+)?(?:{SAY_VERBS})\b"
    rf"|\b(?:{_ACCORDING_TO})\s+{_COMPANY}\b"
    rf"|\b(?:{_AFTER_VERBS})\s+{_COMPANY}(?=\s*[.,;:!?)\n]|$)",
    re.IGNORECASE,
)
# The lab's own channel as the source of a figure: "Through the company's API, X costs",
# "on its own platform", "Pela API da empresa", "na sua plataforma": the lab (of the
# figure's subject) states it, as "the company said" does.
_CHANNEL = r"(?:" + phrases("own_channels") + r")"
_CHANNEL_RE = re.compile(
    rf"\b(?:through|via|on|in|from|using|at)\s+(?:the\s+(?:{alternation('company_nouns')})[’']s|"
    rf"(?P<its>its|their))\s+(?:own\s+)?{_CHANNEL}\b"
    rf"|\b(?:pela|pelas|na|nas|via|através\s+da|por\s+meio\s+da)\s+{_CHANNEL}\s+"
    rf"(?:{phrases('company_of')})\b"
    rf"|\b(?:pela|na|via|através\s+da)\s+(?P<sua>sua)\s+(?:própria\s+)?{_CHANNEL}\b",
    re.IGNORECASE,
)
# "..., said Nimbus.", "..., disse a Nimbus.": the name after the verb, ending its clause.
_AFTER_RE = re.compile(
    rf"\b(?:{_AFTER_VERBS})\s+(?:(?:a|o|the)\s+)?{_ORG}(?=\s*[,;:!?)\n]|\.(?:\s|$)|$)"
)
# A lab's own commitment: "Moonshot AI will not release", "X plans to open-source", "a
# Moonshot AI não vai liberar". Kept only for a subject's organization (the lab itself):
# "Reuters will report ..." is no statement of Reuters about a figure.
_COMMIT_RE = re.compile(
    rf"(?<![\w.&-]){_ORG}\s+(?:"
    r"(?:(?:will|would)(?:\s+not|\s+never)?|won[’']t|(?:não\s+)?(?:vai|irá|deve))\s+"
    r"(?:" + phrases("commit_verbs") + r")"
    r"|(?:" + phrases("plan_verbs", "en") + r")\s+to"
    r"|(?:não\s+)?(?:" + phrases("plan_verbs", "pt") + r")"
    r")\b"
)
# Someone else reports the commitment ("According to The Information, X plans to ...",
# "Analysts say X will ...", "Segundo a Reuters, a X vai ..."): it is not X's own word.
_REPORTED_RE = re.compile(
    rf"\b(?:{SAY_VERBS})\b|\b(?i:{_ACCORDING_TO}|{alternation('hearsay_words')})\b"
)
_ARTICLES = frozenset(words("capital_articles"))
# A name never runs over a sentence end ("April. Moonshot AI said" is "Moonshot AI").
_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")


def _calendar_words(kind: str) -> frozenset[str]:
    """Month or weekday names (babel's CLDR data, en/pt-BR/pt-PT), capitalised."""
    from babel.dates import get_day_names, get_month_names

    names = get_month_names if kind == "months" else get_day_names
    out = set()
    for loc in ("en", "pt_BR", "pt_PT"):
        out |= {n[:1].upper() + n[1:] for n in names("wide", locale=loc).values()}
    return frozenset(out)


_MONTHS = _calendar_words("months")
# "The Qwen team on Tuesday announced ...": a weekday or month is never the claimant.
_CALENDAR = _MONTHS | _calendar_words("days")
_NOT_ORG = frozenset(words("not_orgs"))


@dataclass(frozen=True)
class ClaimantMention:
    """A claimant named at ``start``-``end``; ``document`` when named as the author of a
    post/report or as the organization announcing (then it speaks for the rest of its
    paragraph); ``pronoun`` for "a empresa"; ``verb_end`` is the end of the saying verb
    after the name ("Groq claims"), ``None`` for "according to X" and documents."""

    start: int
    end: int
    name: str
    document: bool = False
    pronoun: bool = False
    verb_end: int | None = None

    @property
    def bare(self) -> str:
        """The name without a leading "The" (to compare with subject names)."""
        return self.name.removeprefix("The ")


def claimant_keys(names: Sequence[str]) -> dict[str, str]:
    """Claimant names by the word that recalls them later in the text ("Moonshot AI" by
    "Moonshot"); for "The Information" both words, as "The" alone opens many sentences.
    ``names`` longest first; of names sharing the word the longest wins."""
    return {" ".join(n.split()[: 2 if n.startswith("The ") else 1]): n for n in reversed(names)}


def find_claimants(text: str, organizations: Iterable[str] = ()) -> list[ClaimantMention]:
    """Claimant mentions in ``text``; a short name ("Moonshot") is expanded to a known
    organization that starts with it ("Moonshot AI")."""
    orgs = list(organizations)
    out: list[ClaimantMention] = []
    found: list[tuple[re.Match[str], bool, int | None]] = []
    for v in _SAY_RE.finditer(text):
        m = _VERB_RE.search(text, max(0, v.start() - 60), v.start())
        if m:
            found.append((m, bool(_ANNOUNCE_RE.match(v.group(0))), v.end()))
    for rx, doc in ((_PREP_RE, False), (_DOC_RE, True)):
        found.extend((m, doc, None) for m in rx.finditer(text))
    found.extend((m, False, m.end()) for m in _STAFF_RE.finditer(text))
    found.extend((m, False, None) for m in _AFTER_RE.finditer(text))
    for m, doc, verb_end in found:
        words = _own_words(m.group("org"))
        while words and words[0] in _ARTICLES and not _titled(words, orgs):
            words = words[1:]
        if not words or words[0] in _NOT_ORG or words[0] in _CALENDAR:
            continue
        name = " ".join(words)
        end = m.end("org") - (len(name) - len(name.rstrip(".")))  # "segundo a Moonshot."
        name = name.rstrip(".")
        out.append(ClaimantMention(end - len(name), end, _expand(name, orgs), doc, False, verb_end))
    out += _commitments(text, orgs, {c.start for c in out})
    for m in _PRONOUN_ORG_RE.finditer(text):
        out.append(ClaimantMention(m.start(), m.end(), "", pronoun=True))
    named = [c.start for c in out if c.name]
    for m in _CHANNEL_RE.finditer(text):
        opening = max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start()), 0)
        if (m["its"] or m["sua"]) and any(opening <= p < m.start() for p in named):
            continue  # "OpenRouter lists X ... through its API": OpenRouter's API
        out.append(ClaimantMention(m.start(), m.end(), "", pronoun=True))
    out.sort(key=lambda c: c.start)
    return out


def _commitments(text: str, orgs: list[str], taken: set[int]) -> list[ClaimantMention]:
    """Mentions of a subject's organization (one of ``orgs``) making a commitment
    (:data:`_COMMIT_RE`); leading words that are not part of the name ("Meanwhile", "A")
    are dropped; a name already found at the same place (``taken`` starts) is skipped."""
    out: list[ClaimantMention] = []
    for m in _COMMIT_RE.finditer(text):
        opening = text[
            max(text.rfind(". ", 0, m.start()), text.rfind("\n", 0, m.start()), 0) : m.start()
        ]
        if _REPORTED_RE.search(opening):  # "According to Reuters, Moonshot AI will ...": Reuters'
            continue
        words = _own_words(m.group("org"))
        for k in range(len(words)):
            name = _expand(" ".join(words[k:]), orgs)
            if name in orgs:
                start = m.end("org") - len(" ".join(words[k:]))
                if start not in taken:
                    out.append(ClaimantMention(start, m.end("org"), name, verb_end=m.end()))
                break
    return out


def _own_words(org: str) -> list[str]:
    """The words of a matched name from its last sentence start on, without a leading
    month ("Kimi weights ship in April. Moonshot AI said" -> ["Moonshot", "AI"]) or the
    word before it ("In March Moonshot AI said" -> ["Moonshot", "AI"])."""
    words = _SENTENCE_END.split(org.strip())[-1].split()
    for k, word in enumerate(words[:2]):
        if word.rstrip(".,") in _MONTHS and k + 1 < len(words):
            return words[k + 1 :]
    return words


def _titled(words: list[str], orgs: list[str]) -> bool:
    """True when a leading "The" belongs to the name ("The Information", "The Verge"):
    kept unless what follows it is a known organization ("The Moonshot AI" -> Moonshot AI)."""
    rest = " ".join(words[1:])
    return words[0] == "The" and bool(rest) and not any(o.startswith(rest) for o in orgs)


def _expand(name: str, orgs: list[str]) -> str:
    for org in orgs:
        if org != name and org.startswith(name + " "):
            return org
    return name


def named_org_after(text: str, names: Iterable[str]) -> str | None:
    """A known claimant named right after a figure as its owner ("1.500 tokens/s da Cerebras")."""
    for n in names:
        first = re.escape(n.split()[0])
        if re.match(rf"^\s*(?:[\w/%$.+-]+\s+){{0,3}}?(?:d[ao]|from|by)\s+{first}\b", text):
            return n
    return None


def opens_statement(m: ClaimantMention, seg: Segments, clause_end: int) -> bool:
    """True when ``m`` ("Groq claims ...") starts after ``clause_end`` (the end of a figure's
    clause) and words follow its verb in its own clause: it speaks for what follows it,
    not for the figure. "..., Cerebras says." still speaks for what precedes it."""
    if m.verb_end is None or m.start < clause_end:
        return False
    _, end = seg.at(m.start).clause_bounds(m.start)
    return bool(seg.text[m.verb_end : end].strip(' .!"”'))
