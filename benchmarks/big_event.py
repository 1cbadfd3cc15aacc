"""A real big event: every page a director, a player and a screen look at, at two
sizes of the event's history (issue 29).

The event is built through the app's own code paths, in this process, with the
Flask test client: a player database imported from a CSV file (the import's
bulk path, eight records per entry), the money settings (buy-in, re-entries,
late registration), buy-ins sold at the desk (``money/entries``), the draw,
more buy-ins as late entries (seated as they are sold), busts through
``seating/eliminate`` with every balancing plan it proposes confirmed, a
re-entry for some of the busted, and hands played on the tablets' API (deal,
then everyone folds to the big blind) on a few tables.  Shortcuts, so a run
takes a few minutes on 2 cores: the hands are played on four tables only (one
of them holds most of them, the table whose hand list is measured), a bust is
one request (outside hand-for-hand each table's busts are their own), and no
hand goes to a showdown.

Then each request is timed at both sizes, the sizes taking turns (the best of
``--repeat`` rounds, server time in this process, so a machine busy with
something else slows both alike), with its SQL statements (counted on the
engine) and its answer's bytes (a streamed answer read to its end).  Each
round of a write (a bust, a plan's confirm, a desk buy-in) is made on a player
or plan of its own; the seating and money settings are sent again as they are.
One JSON line per request:

    {"request", "kind", "ms_small", "ms_big", "growth", "statements_small",
     "statements_big", "kb_small", "kb_big", "vs_trivial", "ok"}

``growth``: time at the big size over the small one; ``vs_trivial``: time at
the big size over a trivial request (``GET /dealer/``) on the same app; ``ok``:
the issue's goals (pages and APIs: growth <= 2 and <= 300 KB; writes: growth
<= 2 and <= 20 KB; exports: growth <= 12; everything <= 40x trivial).  The last
line sums them up.  A benchmark is not a test: it never fails on a time.

    .venv/bin/python benchmarks/big_event.py [--small 300] [--big 2400] [--repeat 5]
"""

from __future__ import annotations

import argparse
import io
import json
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from director import create_app  # noqa: E402
from director.db import db  # noqa: E402
from director.models.seating import Player  # noqa: E402

TOKEN = "big-event-benchmark"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
LEVELS = [{"kind": "level", "game": "NO", "small_blind": 100 * (i + 1),
           "big_blind": 200 * (i + 1), "duration_seconds": 1200} for i in range(20)]
MONEY = {"currency": "EUR", "buy_in": "100", "fee": "10", "starting_stack": 20_000,
         "late_registration_level": 12, "re_entry": True, "re_entry_max": 3}
PAGE_KB, WRITE_KB, PAGE_GROWTH, EXPORT_GROWTH, TRIVIAL_TIMES = 300, 20, 2.0, 12.0, 40.0
TRIVIAL = "/dealer/"


class Counter:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *_args: Any) -> None:
        self.count += 1


class Event:
    """One app, one database, one event of ``entries`` entries."""

    def __init__(self, entries: int, folder: Path, seed: int = 29) -> None:
        self.entries = entries
        self.rng = random.Random(seed)
        self.app = create_app({
            "TESTING": False, "TOKEN": TOKEN, "SECRET_KEY": "bench",
            "INSTANCE_PATH": str(folder / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'director.sqlite'}",
            "DIRECTOR_SCHEDULER": "off", "BACKUP_MINUTES": 0,
        })
        with self.app.app_context():
            db.create_all()
            self.counter = Counter()
            event.listen(db.engine, "before_cursor_execute", self.counter)
        self.api = self.app.test_client()
        self.page = self.app.test_client()
        assert self.page.post("/login", data={"token": TOKEN}).status_code == 302
        self.tid = 0
        self.people: list[str] = []
        self.player_ids: list[int] = []
        self.busted: list[int] = []
        self.table_ids: list[int] = []
        self.person_id = 0
        self.league_id = 0

    # ------------------------------------------------------------ building

    def post(self, path: str, body: Any = None, status: tuple[int, ...] = (200, 201)) -> Any:
        r = self.api.post(path, json=body if body is not None else {}, headers=AUTH)
        assert r.status_code in status, (path, r.status_code, r.get_data(as_text=True)[:300])
        return r.get_json()

    def get(self, path: str) -> Any:
        r = self.api.get(path, headers=AUTH)
        assert r.status_code == 200, (path, r.status_code)
        return r.get_json()

    def build(self) -> dict[str, float]:
        took: dict[str, float] = {}
        start = time.perf_counter()
        people = self.entries * 8
        self.people = [f"Player {i:05d}" for i in range(people)]
        csv_text = "name,nickname,email\n" + "".join(
            f"{name},n{i},p{i}@example.com\n" for i, name in enumerate(self.people))
        r = self.api.post("/api/players/import", headers=AUTH,
                          data={"file": (io.BytesIO(csv_text.encode()), "players.csv")},
                          content_type="multipart/form-data")
        assert r.status_code == 200, r.get_data(as_text=True)[:300]
        took["import_s"] = time.perf_counter() - start

        start = time.perf_counter()
        self.tid = self.post("/api/tournaments", {"name": f"Big {self.entries}",
                                                  "levels": LEVELS})["id"]
        t = f"/api/tournaments/{self.tid}"
        self.post(f"{t}/money/settings", MONEY)
        self.post(f"{t}/seating/settings", {"table_size": 9})
        first_wave = int(self.entries * 0.7)
        re_entries = int(self.entries * 0.12)
        late = self.entries - first_wave - re_entries
        names = self.rng.sample(self.people, first_wave + late)
        for name in names[:first_wave]:
            self.player_ids.append(self.post(f"{t}/money/entries",
                                             {"kind": "buy-in", "name": name})["player_id"])
        self.post(f"{t}/seating/draw")
        self.post(f"{t}/clock/start")
        for name in names[first_wave:]:
            self.player_ids.append(self.post(f"{t}/money/entries",
                                             {"kind": "buy-in", "name": name})["player_id"])
        took["entries_s"] = time.perf_counter() - start

        start = time.perf_counter()
        busts = int(self.entries * 0.55)
        alive = list(self.player_ids)
        self.rng.shuffle(alive)
        made_re_entries = 0
        while len(self.busted) < busts and len(alive) > 20:
            batch, alive = alive[:1], alive[1:]
            self.bust(batch)
            for pid in batch:
                if made_re_entries < re_entries and self.rng.random() < 0.5:
                    new = self.post(f"{t}/money/entries", {"kind": "re-entry", "player_id": pid})
                    alive.append(new["player_id"])
                    made_re_entries += 1
        while made_re_entries < re_entries:     # the rest re-enter from the busted
            pid = self.busted[made_re_entries]
            new = self.post(f"{t}/money/entries", {"kind": "re-entry", "player_id": pid},
                            status=(201, 400))
            made_re_entries += 1
            if "player_id" in (new or {}):
                alive.append(new["player_id"])
        took["busts_s"] = time.perf_counter() - start

        start = time.perf_counter()
        pairing = self.get(f"{t}/dealer/pairing")["tables"]
        self.table_ids = [row["table_id"] for row in pairing]
        hands = max(20, self.entries // 8)
        plan = [self.table_ids[0]] * (hands // 2) + self.table_ids[1:4] * (hands // 6)
        for table_id in plan:
            self.hand(table_id)
        took["hands_s"] = time.perf_counter() - start
        took["hands"] = len(plan)

        start = time.perf_counter()
        with self.app.app_context():
            found = db.session.scalar(db.select(Player.person_id).where(
                Player.tournament_id == self.tid, Player.person_id.is_not(None)).limit(1))
            self.person_id = int(found or 1)
            db.session.remove()
        other = self.post("/api/tournaments", {"name": "Earlier", "levels": LEVELS[:3]})["id"]
        self.league_id = self.post("/api/players/leagues", {
            "name": "Season", "formula": "linear", "tournament_ids": [self.tid, other]})["id"]
        took["rest_s"] = time.perf_counter() - start
        return took

    def bust(self, ids: list[int]) -> Any:
        t = f"/api/tournaments/{self.tid}"
        answer = self.post(f"{t}/seating/eliminate", {"player_ids": ids})
        self.busted.extend(ids)
        for _ in range(5):     # confirm every balancing plan the bust proposes
            plan = answer.get("pending_plan")
            if not plan:
                break
            answer = self.post(f"{t}/seating/plans/{plan['id']}/confirm", status=(200, 400, 409))
        return answer

    def pending_plan(self) -> int | None:
        seating = self.get(f"/api/tournaments/{self.tid}/seating")
        pending = seating.get("pending_plan") or seating.get("pending")
        if isinstance(pending, dict):
            return int(pending["id"])
        return None

    def confirm_pending(self) -> None:
        for _ in range(5):
            plan_id = self.pending_plan()
            if plan_id is None:
                return
            self.post(f"/api/tournaments/{self.tid}/seating/plans/{plan_id}/confirm",
                      status=(200, 409, 400))

    def hand(self, table_id: int) -> None:
        url = f"/api/tables/{table_id}"
        r = self.api.post(f"{url}/hands", json={}, headers=AUTH)
        if r.status_code != 201 and r.status_code != 200:
            return
        hand = r.get_json()
        for _ in range(20):
            if hand.get("finished") or hand.get("to_act") is None:
                return
            r = self.api.post(f"{url}/hand/actions", headers=AUTH, json={
                "seat": hand["to_act"], "action": "fold", "amount": None,
                "version": hand["version"]})
            if r.status_code != 200:
                return
            hand = r.get_json()

    # ------------------------------------------------------------ measuring

    def measure(self, method: str, path: str, *, client: str = "page", body: Any = None,
                repeat: int = 3, setup: Callable[[], Any] | None = None) -> dict[str, Any]:
        who = self.page if client == "page" else self.api
        best, statements, size, status = float("inf"), 0, 0, 0
        for _ in range(repeat):
            args = setup() if setup is not None else None
            target = path.format(args=args) if args is not None else path
            send = body(args) if callable(body) else body
            self.counter.count = 0
            start = time.perf_counter()
            if method == "GET":
                r = who.get(target, headers=AUTH if client == "api" else None)
            else:
                r = who.post(target, json=send if send is not None else {},
                             headers=AUTH if client == "api" else None)
            data = b"".join(r.response) if r.is_streamed else r.get_data()
            took = time.perf_counter() - start
            r.close()
            status = r.status_code
            if took < best:
                best, statements, size = took, self.counter.count, len(data)
        return {"ms": best * 1000, "statements": statements, "bytes": size, "status": status}

    def requests(self) -> list[tuple[str, str, str, dict[str, Any]]]:
        """(name, kind, method, arguments of ``measure``): what a director, a player and
        a screen look at, and the writes whose answers the issue names."""
        tid, table = self.tid, self.table_ids[0]
        d, a = f"/director/{tid}", f"/api/tournaments/{tid}"
        reads = [
            ("trivial " + TRIVIAL, "trivial", TRIVIAL, "page"),
            ("director tournaments", "page", "/director/", "page"),
            ("director tournament", "page", d, "page"),
            ("director desk", "page", f"{d}/desk", "page"),
            ("director desk search", "page", f"{d}/desk?q=Player 0", "page"),
            ("director money settings", "page", f"{d}/money", "page"),
            ("director money summary", "page", f"{d}/money/summary", "page"),
            ("director seating", "page", f"{d}/seating", "page"),
            ("director results", "page", f"/results/{tid}", "page"),
            ("director players", "page", "/director/players", "page"),
            ("director players search", "page", "/director/players?q=Player 01234", "page"),
            ("director player history", "page", f"/director/players/{self.person_id}", "page"),
            ("director league", "page", f"/director/players/leagues/{self.league_id}", "page"),
            ("director log", "page", "/director/log", "page"),
            ("director dealer tablets", "page", f"{d}/dealers", "page"),
            ("director table hands", "page", f"{d}/dealers/{table}/hands", "page"),
            ("public clock", "page", f"/clock/{tid}", "anonymous"),
            ("public seats", "page", f"/seats/{tid}?q=Player 0", "anonymous"),
            ("public results", "page", f"/results/{tid}", "anonymous"),
            ("public room", "page", "/room", "anonymous"),
            ("api clock", "api", f"{a}/clock", "api"),
            ("api money", "api", f"{a}/money", "api"),
            ("api seating", "api", f"{a}/seating", "api"),
            ("api results", "api", f"{a}/results", "api"),
            ("api waiting list", "api", f"{a}/waiting-list", "api"),
            ("api players", "api", "/api/players", "api"),
            ("api players suggest", "api", "/api/players/suggest?q=Player 0123", "api"),
            ("api player record", "api", f"/api/players/{self.person_id}", "api"),
            ("api league", "api", f"/api/players/leagues/{self.league_id}", "api"),
            ("api table hands", "api", f"/api/tables/{table}/hands", "api"),
            ("api dealer pairing", "api", f"{a}/dealer/pairing", "api"),
            ("export results csv", "export", f"/results/{tid}.csv", "page"),
            ("export players csv", "export", "/director/players.csv", "page"),
            ("export hands zip", "export", f"/api/tables/{table}/hands.zip", "api"),
        ]
        out: list[tuple[str, str, str, dict[str, Any]]] = [
            (name, kind, "GET", {"path": path, "client": "api" if who == "api" else
                                 "anon" if who == "anonymous" else "page"})
            for name, kind, path, who in reads]
        seated = self.seated_ids()
        # writes: each run on a player of its own
        out.append(("write bust", "write", "POST", {
            "path": f"{a}/seating/eliminate", "client": "api",
            "setup": lambda: seated.pop(), "body": lambda pid: {"player_ids": [pid]}}))
        out.append(("write plan confirm", "write", "POST", {
            "path": a + "/seating/plans/{args}/confirm", "client": "api",
            "setup": self.plan_to_confirm(seated)}))
        out.append(("write desk buy-in", "write", "POST", {
            "path": f"{a}/money/entries", "client": "api",
            "setup": self.fresh_name(), "body": lambda name: {"kind": "buy-in", "name": name}}))
        # the settings, as they are (what a director's form sends again)
        out.append(("write seating settings", "write", "POST", {
            "path": f"{a}/seating/settings", "client": "api",
            "body": {"table_size": 9}}))
        out.append(("write money settings", "write", "POST", {
            "path": f"{a}/money/settings", "client": "api",
            "body": MONEY}))
        return out

    def seated_ids(self) -> list[int]:
        """Every seated player, page after page of the seating API (``next``)."""
        ids: list[int] = []
        path: str | None = f"/api/tournaments/{self.tid}/seating"
        while path:
            seating = self.get(path)
            ids.extend(s["player_id"] for table in seating["tables"] for s in table["seats"])
            path = seating.get("next")
        self.rng.shuffle(ids)
        return ids

    def plan_to_confirm(self, seated: list[int]) -> Callable[[], int]:
        def setup() -> int:
            for _ in range(30):
                plan_id = self.pending_plan()
                if plan_id is not None:
                    return plan_id
                self.post(f"/api/tournaments/{self.tid}/seating/eliminate",
                          {"player_ids": [seated.pop()]})
            raise RuntimeError("no balancing plan was proposed")
        return setup

    def fresh_name(self) -> Callable[[], str]:
        count = iter(range(10**6))
        return lambda: f"Walk-in {next(count)}"


def build(entries: int) -> tuple[Event, dict[str, Any]]:
    folder = Path(tempfile.mkdtemp(prefix=f"big-event-{entries}-"))
    ev = Event(entries, folder)
    built = ev.build()
    size_kb = (folder / "director.sqlite").stat().st_size / 1024
    return ev, {"entries": entries, "database_kb": round(size_kb),
                **{k: round(v, 1) for k, v in built.items()}}


def measure_both(events: list[Event], repeat: int,
                 only: list[str] | None = None) -> list[dict[str, dict[str, Any]]]:
    """Every request at each size, the sizes taking turns (``repeat`` rounds, the best of
    each kept): a busy machine slows both sizes alike instead of one of them."""
    found: list[dict[str, dict[str, Any]]] = [{} for _ in events]
    plans = [ev.requests() for ev in events]
    anons = [ev.app.test_client() for ev in events]
    for index, (name, kind, method, _spec) in enumerate(plans[0]):
        if only and kind != "trivial" and not any(word in name for word in only):
            continue
        for _ in range(repeat):
            for ev, plan, anon, out in zip(events, plans, anons, found, strict=True):
                spec = plan[index][3]
                saved = ev.page
                if spec.get("client") == "anon":
                    ev.page = anon
                try:
                    got = ev.measure(method, spec["path"],
                                     client="api" if spec.get("client") == "api" else "page",
                                     body=spec.get("body"), repeat=1, setup=spec.get("setup"))
                finally:
                    ev.page = saved
                best = out.get(name)
                if best is None or got["ms"] < best["ms"]:
                    out[name] = {"kind": kind, **got}
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", type=int, default=300)
    parser.add_argument("--big", type=int, default=2400)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", action="append", default=[],
                        help="measure only the requests whose name holds this (repeatable)")
    args = parser.parse_args()
    small_event, built_small = build(args.small)
    print(json.dumps({"built": built_small}), flush=True)
    big_event, built_big = build(args.big)
    print(json.dumps({"built": built_big}), flush=True)
    small, big = measure_both([small_event, big_event], args.repeat, args.only)
    trivial = big["trivial " + TRIVIAL]["ms"]
    failed = []
    for name, s in small.items():
        b = big[name]
        kind = s["kind"]
        growth = b["ms"] / s["ms"] if s["ms"] else 0.0
        vs = b["ms"] / trivial if trivial else 0.0
        kb = b["bytes"] / 1024
        if kind == "export":
            ok = growth <= EXPORT_GROWTH
        elif kind == "write":
            ok = growth <= PAGE_GROWTH and kb <= WRITE_KB
        else:
            ok = growth <= PAGE_GROWTH and kb <= PAGE_KB
        ok = ok and vs <= TRIVIAL_TIMES and b["status"] < 400 and s["status"] < 400
        if not ok:
            failed.append(name)
        print(json.dumps({
            "request": name, "kind": kind, "ms_small": round(s["ms"], 2), "ms_big": round(b["ms"], 2),
            "growth": round(growth, 2), "statements_small": s["statements"],
            "statements_big": b["statements"], "kb_small": round(s["bytes"] / 1024, 1),
            "kb_big": round(kb, 1), "vs_trivial": round(vs, 1),
            "status": b["status"], "ok": ok}), flush=True)
    print(json.dumps({"small": args.small, "big": args.big, "requests": len(small),
                      "trivial_ms": round(trivial, 2), "failed": failed,
                      "ok": not failed}), flush=True)


if __name__ == "__main__":
    main()
