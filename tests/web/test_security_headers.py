"""Security headers on every answer, and every page works under the CSP.

The CSP allows scripts and styles only from our own files, so a page must
have no inline script, no ``<style>`` element, no ``style=`` attribute and no
``on...=`` handler.  The test renders every GET page of the URL map (as the
director, with a real tournament and seating) and reads its HTML.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from director import security
from tests.conftest import level


class InlineFinder(HTMLParser):
    """Collects what the CSP would block."""

    def __init__(self) -> None:
        super().__init__()
        self.problems: list[str] = []
        self._script = False

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.problems.append(f"<{tag} {name}=...> (inline handler)")
            if name == "style":
                self.problems.append(f"<{tag} style=\"{value}\"> (inline style)")
            if name in ("href", "src", "action") and value and value.startswith("javascript:"):
                self.problems.append(f"<{tag} {name}=javascript:...>")
            if name in ("src", "href") and value and re.match(r"(https?:)?//", value) \
                    and tag in ("script", "link", "img", "iframe"):
                self.problems.append(f"<{tag} {name}={value}> (not our own file)")
        if tag == "style":
            self.problems.append("<style> element")
        if tag == "script":
            kind = (names.get("type") or "").lower()
            self._script = not names.get("src") and kind not in ("application/json",
                                                                 "application/ld+json")

    def handle_data(self, data):
        if self._script and data.strip():
            self.problems.append(f"inline <script>: {data.strip()[:60]}")

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False


def inline_problems(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.problems


def test_the_finder_finds_what_the_csp_blocks():
    assert len(inline_problems('<p style="color:red" onclick="x()">a</p><style>p{}</style>'
                               "<script>alert(1)</script>")) == 4
    assert inline_problems('<script type="application/json">{"a": 1}</script>'
                           '<script src="/static/live.js"></script>') == []


def test_headers_on_pages_api_and_errors(client):
    for path in ("/", "/login", "/api/tournaments", "/no-such-page"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "script-src 'self'" in csp
        assert "unsafe-inline" not in csp and "frame-ancestors 'none'" in csp
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"] == "same-origin"


def _url(rule, values):
    path = rule.rule
    for argument in rule.arguments:
        converter = re.search(rf"<(?:[^:>]+:)?{argument}>", path)
        assert converter
        path = path.replace(converter.group(0), str(values.get(argument, 1)))
    return path


def test_every_page_works_under_the_csp(app, client, auth, login, make_tournament):
    tournament_id = make_tournament(levels=[level(25, 50), level(50, 100)])
    client.post(f"/api/tournaments/{tournament_id}/money/settings", headers=auth,
                json={"buy_in": "100", "starting_stack": 10_000})  # entries are buy-ins
    for name in ("Ann", "Bob", "Cy", "Di"):
        client.post(f"/api/tournaments/{tournament_id}/seating/players", headers=auth,
                    json={"name": name})
    client.post(f"/api/tournaments/{tournament_id}/seating/draw", headers=auth)
    login()
    values = {"tournament_id": tournament_id, "table_id": 1, "number": 1, "hand_id": 1,
              "code": "en", "plan_id": 1}
    seen, problems = 0, {}
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or set()) or rule.endpoint == "static" \
                or rule.rule.endswith("/events") or any(arg not in values
                                                        for arg in rule.arguments):
            continue
        response = client.get(_url(rule, values))
        # A page that fails (5xx) is other tests' business; this one reads HTML.
        if response.mimetype == "text/html" and response.status_code == 200:
            seen += 1
            assert response.headers["Content-Security-Policy"] == security.CSP
            found = inline_problems(response.get_data(as_text=True))
            if found:
                problems[rule.rule] = found
    assert seen >= 8
    assert problems == {}, problems
