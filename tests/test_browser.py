"""Headless Chromium opens the built site: no console errors, scraped payloads stay text.

Skips with the reason when Chromium is missing. Screenshots go to test-artifacts/browser/.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest
from sitefixture import NOW, populate

from tracker.cli.site import make_server
from tracker.site import build_site

pytestmark = pytest.mark.browser
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "browser"


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if not found and Path("/usr/bin/chromium").exists():
        found = "/usr/bin/chromium"
    if not found:
        pytest.skip("Chromium not found (apt-get install chromium); browser tests need it")
    return found


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    from claims.store.engine import make_engine

    binary = chromium()
    root = tmp_path_factory.mktemp("browser")
    engine = make_engine(root / "t.db")
    populate(engine)
    build_site(engine, root / "site", now=NOW)
    server = make_server(root / "site", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield binary, f"http://127.0.0.1:{server.server_address[1]}/", root
    server.shutdown()
    server.server_close()
    thread.join()


def run_chromium(binary: str, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [
        binary,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
        f"--user-data-dir={profile}",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def console_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line or "Uncaught" in line]


@pytest.mark.parametrize(
    "path,shot",
    [
        ("index.html", "index.png"),
        ("subjects/orca-9b/index.html", "subject-orca.png"),
        ("subjects/kimi-k3.1-pro/index.html", "subject-kimi.png"),
        ("discrepancies.html", "discrepancies.png"),
    ],
)
def test_page_renders_without_errors(served, tmp_path, path, shot):
    binary, base, _ = served
    dom = run_chromium(binary, tmp_path / "profile", "--dump-dom", base + path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert console_lines(dom.stderr) == []
    html = dom.stdout
    assert "<title>pwned</title>" not in html
    assert "<img" not in html
    if path == "index.html":
        # filter.js ran (it unhides the name filter) and raised nothing.
        assert re.search(r'<p>\s*<label for="subject-filter">', html)
    if path == "subjects/orca-9b/index.html":
        assert "&lt;img src=x onerror=alert(1)&gt; AT&amp;T R&amp;D" in html
        assert "&lt;script&gt;document.title='pwned'&lt;/script&gt;" in html
        assert '<title>Orca-9B &lt;Instruct&gt; &amp; "Chat" — release-tracker</title>' in html
    if path == "discrepancies.html":
        assert "65.7% reported for Terminal-Bench 3.0 and for 4.0" in html
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / shot
    target.unlink(missing_ok=True)
    size = "390,844" if path.startswith("subjects/") else "1280,900"
    pic = run_chromium(
        binary,
        tmp_path / "profile2",
        f"--screenshot={target}",
        f"--window-size={size}",
        base + path,
    )
    assert pic.returncode == 0, pic.stderr[-2000:]
    assert target.stat().st_size > 1000


# A page that frames another at a phone's width and writes what the browser measured into
# its own DOM (headless Chromium will not make a window narrower than 500 px).
PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="{src}" style="width:{width}px;height:844px;border:0"></iframe>
<script>addEventListener("load", function () {{
  var doc = document.getElementById("f").contentDocument, root = doc.documentElement;
  var widest = 0;
  doc.querySelectorAll("table").forEach(function (t) {{
    widest = Math.max(widest, t.scrollWidth - t.clientWidth);
  }});
  document.body.setAttribute("data-widths",
    [root.scrollWidth, root.clientWidth, widest].join(","));
}});</script></body></html>"""


def widths_at(binary: str, profile: Path, site: Path, base: str, path: str, width: int = 390):
    """(document scrollWidth, its clientWidth, most any table overflows) of ``path``
    framed ``width`` px wide."""
    probe = f"probe-{width}.html"
    (site / probe).write_text(PROBE.format(src=path, width=width))
    dom = run_chromium(binary, profile, "--dump-dom", base + probe)
    assert dom.returncode == 0, dom.stderr[-2000:]
    m = re.search(r'data-widths="(\d+),(\d+),(-?\d+)"', dom.stdout)
    assert m, dom.stdout[-2000:]
    return tuple(int(g) for g in m.groups())


def test_index_fits_a_390_px_phone_without_sideways_scrolling(served, demo_served, tmp_path):
    """The subjects table stacks on a phone: neither the page nor the table scrolls sideways."""
    binary, base, root = served
    for name, (site, url) in {
        "fixture": (root / "site", base),
        "demo": (demo_served[2], demo_served[1]),
    }.items():
        scroll, client, overflow = widths_at(binary, tmp_path / name, site, url, "index.html")
        assert scroll <= 390 and scroll <= client, (name, scroll, client)
        assert overflow <= 0, (name, overflow)


@pytest.mark.parametrize(
    "path",
    ["changes.html", "subjects/kimi-k3.1-pro/index.html", "sources.html", "discrepancies.html"],
)
def test_changes_and_claims_fit_a_390_px_phone(demo_served, tmp_path, path):
    """The changes table, a subject's claim tables, the sources table and a discrepancy's
    sides stack on a phone: "What changed", Claimant, Date, Verdict, Confirmed and
    Contradicted stay on screen, nothing scrolls sideways."""
    binary, url, site = demo_served
    scroll, client, overflow = widths_at(binary, tmp_path / "p", site, url, path)
    assert scroll <= 390 and scroll <= client, (path, scroll, client)
    assert overflow <= 0, (path, overflow)


def test_console_check_catches_a_script_error(tmp_path):
    """Canary: the same checks flag a page whose script throws or injects an <img>."""
    binary = chromium()
    site = tmp_path / "broken"
    site.mkdir()
    (site / "index.html").write_text(
        "<!DOCTYPE html><html><body><script>"
        "document.body.insertAdjacentHTML('beforeend', '<img src=x>');"
        "throw new Error('boom')</script></body></html>"
    )
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
        dom = run_chromium(binary, tmp_path / "profile", "--dump-dom", url)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    assert any("Uncaught Error: boom" in line for line in console_lines(dom.stderr))
    assert "<img" in dom.stdout


@pytest.fixture(scope="module")
def demo_served(tmp_path_factory):
    """The real demo: curated data + the recorded Hub/price responses, built and served."""
    from claims.store.engine import make_engine
    from tracker.demo import run_demo

    binary = chromium()
    root = tmp_path_factory.mktemp("demo")
    repo = Path(__file__).resolve().parent.parent
    run_demo(
        make_engine(root / "t.db"),
        data_dir=repo / "data",
        har=repo / "data" / "recordings" / "demo.har",
        out_dir=root / "site",
        snapshot_dir=root / "snapshots",
    )
    server = make_server(root / "site", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield binary, f"http://127.0.0.1:{server.server_address[1]}/", root / "site"
    server.shutdown()
    server.server_close()
    thread.join()


@pytest.mark.parametrize(
    "path,expected",
    [
        (
            "index.html",
            ["Kimi K3.1 Pro", "not landed", "overdue by 24 days", "moonshotai/Kimi-K2-Thinking"],
        ),
        (
            "subjects/kimi-k3.1-pro/index.html",
            [
                "Terminal-Bench",
                "contradicted",
                "overdue",
                "relative to: kimi-k3",
                "Verdict changed",
            ],
        ),
        ("changes.html", ["Verdict changed", "Discrepancy opened", "Subject discovered"]),
        ("discrepancies.html", ["Terminal-Bench 4.0", "Terminal-Bench 3.0", "before 2026-11-04"]),
    ],
)
def test_demo_site_in_browser(demo_served, tmp_path, path, expected):
    binary, base, _ = demo_served
    dom = run_chromium(binary, tmp_path / "profile", "--dump-dom", base + path)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert console_lines(dom.stderr) == []
    for text in expected:
        assert text in dom.stdout, text
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    target = ARTIFACTS / ("demo-" + path.replace("/", "-").replace(".html", ".png"))
    target.unlink(missing_ok=True)
    pic = run_chromium(
        binary, tmp_path / "p2", f"--screenshot={target}", "--window-size=1280,1000", base + path
    )
    assert pic.returncode == 0 and target.stat().st_size > 1000


def test_demo_watches_table_fits_a_desktop_width(demo_served, tmp_path):
    """The watches table (long watch URLs, adapter names, errors) fits 1,100 px: URLs and
    errors wrap, adapter names do not break mid-word, no column scrolls out of sight."""
    binary, url, site = demo_served
    scroll, client, overflow = widths_at(binary, tmp_path / "w", site, url, "watches.html", 1100)
    assert scroll <= client and overflow <= 0, (scroll, client, overflow)


def test_watches_with_failures_fit_a_390_px_phone(served, tmp_path):
    """The watches table stacks on a phone like the other tables: state, failure times
    and a long error (a URL) stay on screen, nothing scrolls sideways."""
    from sqlmodel import Session, select

    from claims.store.engine import make_engine
    from claims.store.tables import Watch

    binary, base, root = served
    engine = make_engine(tmp_path / "w.db")
    populate(engine)
    with Session(engine) as s:
        w = s.exec(select(Watch).where(Watch.name == "hf-moonshotai")).one()
        w.consecutive_failures, w.last_error = (
            2,
            (
                "GET https://huggingface.co/api/models?author=moonshotai&sort=createdAt"
                "&direction=-1&limit=100 is not recorded in /tmp/somewhere/empty.har"
            ),
        )
        s.add(w)
        s.commit()
    build_site(engine, root / "site" / "failing", now=NOW)
    scroll, client, overflow = widths_at(
        binary, tmp_path / "p", root / "site", base, "failing/watches.html"
    )
    assert scroll <= 390 and scroll <= client, (scroll, client)
    assert overflow <= 0, overflow
