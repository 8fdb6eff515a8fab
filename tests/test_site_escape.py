"""The site's templates escape ``{{ }}`` output through render.output_text, which must
give exactly what markupsafe's escape gives, and fail where it fails."""

from __future__ import annotations

import pytest
from jinja2 import UndefinedError
from markupsafe import Markup, escape

from tracker.website.render import make_environment, output_text


class Html:
    def __html__(self) -> str:
        return "<b>ok</b>"


@pytest.mark.parametrize(
    "value",
    [
        "",
        "plain",
        "<script>alert('x') & \"y\"</script>",
        "ünïcødé — 5 < 6 > 4 &amp;",
        Markup("<em>safe</em> &amp;"),
        0,
        -42,
        True,
        None,
        2.5,
        Html(),
        ["<a>"],
    ],
)
def test_output_text_is_escape(value):
    assert output_text(value) == str(escape(value))


def test_templates_escape_and_stay_strict():
    env = make_environment()
    page = env.from_string("{{ a }}|{{ b }}|{{ c }}|{% set d %}{{ a }}{% endset %}{{ d }}")
    assert page.render(a="<&'\">", b=Markup("<i>"), c=7) == (
        "&lt;&amp;&#39;&#34;&gt;|<i>|7|&lt;&amp;&#39;&#34;&gt;"
    )
    macro = env.from_string("{% macro m(x) %}{{ x }}{% endmacro %}{{ m('<') }}")
    assert macro.render() == "&lt;"
    with pytest.raises(UndefinedError):
        env.from_string("{{ missing }}").render()
