"""The results CSV opens in Excel with its accents (a UTF-8 byte-order mark) and gives each
player's entries, rebuys, add-ons and whether a deal paid him."""

from __future__ import annotations

import csv
import io

SETTINGS = {"buy_in": "100", "fee": "10", "starting_stack": 20_000, "late_registration_level": 3,
            "re_entry": True, "rebuy": True, "rebuy_price": "100", "rebuy_chips": 20_000,
            "rebuy_until": 3, "add_on": True, "add_on_price": "50", "add_on_chips": 10_000,
            "add_on_break": 1, "payout_template": "custom", "custom_payouts": "60, 40"}


def test_the_results_csv_has_a_bom_and_each_players_entries_and_deal(client, auth,
                                                                    make_tournament):
    tid = make_tournament(levels=[{"kind": "level", "game": "PO", "duration_seconds": 1200,
                                   "small_blind": 25, "big_blind": 50},
                                  {"kind": "break", "duration_seconds": 600},
                                  {"kind": "level", "game": "PO", "duration_seconds": 1200,
                                   "small_blind": 50, "big_blind": 100}])
    api = f"/api/tournaments/{tid}"

    def post(path, **body):
        response = client.post(f"{api}/{path}", json=body, headers=auth)
        assert response.status_code in (200, 201), (path, response.get_json())
        return response.get_json()

    post("money/settings", **SETTINGS)
    ids = {name: post("money/entries", kind="buy-in", name=name)["player_id"]
           for name in ("Dan Öberg", "Åsa Ek", "Cia Lind")}
    post("money/entries", kind="rebuy", player_id=ids["Åsa Ek"], stack=0)
    post("money/entries", kind="rebuy", player_id=ids["Åsa Ek"], stack=0)
    post("seating/eliminate", player_ids=[ids["Cia Lind"]])
    again = post("money/entries", kind="re-entry", player_id=ids["Cia Lind"])["player_id"]
    post("clock/start")
    post("clock/next")                                     # the break: add-ons
    post("money/entries", kind="add-on", player_id=ids["Dan Öberg"])
    post("clock/next")
    post("seating/eliminate", player_ids=[again])          # two left: they deal
    post("money/deal", method="chip-chop", **{f"stack_{ids['Dan Öberg']}": 70_000,
                                              f"stack_{ids['Åsa Ek']}": 60_000})
    response = client.get(f"/results/{tid}.csv")
    raw = response.get_data()
    assert raw.startswith("\ufeff".encode())               # Excel reads it as UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    by_name: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_name.setdefault(row["name"], []).append(row)
    dan, asa = by_name["Dan Öberg"][0], by_name["Åsa Ek"][0]
    assert (dan["entries"], dan["rebuys"], dan["add_ons"], dan["deal"]) == ("1", "0", "1", "yes")
    assert (asa["entries"], asa["rebuys"], asa["add_ons"], asa["deal"]) == ("1", "2", "0", "yes")
    cia = by_name["Cia Lind"]
    assert len(cia) == 2 and [row["entries"] for row in cia] == ["1", "1"]  # one line per entry
    assert {row["deal"] for row in cia} == {"no"}
