"""Rating rounds in the app: a rater sees only their own round packets, one browser session at a time holds a packet,
a rater not in the round gets a clear error, round packets stay off the open blind page, the lead creates a round.

A temporary project folder (rounds, keys, tokens, store) over the published warehouse: the repo's data/ is never
written.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from evalhouse import paths
from evalhouse.ratings import blind_access, rounds

VIEWS = Path(__file__).resolve().parents[2] / "app" / "views"
pytestmark = pytest.mark.skipif(not paths.published_db().is_file(), reason="run `make build` first")


@pytest.fixture
def project(warehouse, tmp_path, monkeypatch):
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(paths.published_db()))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    (tmp_path / "data" / "ratings").mkdir(parents=True)
    rounds.create_round(warehouse, "r1", "larkfield", ["ana", "ben"], 2, "2099-01-01", items=["M01", "S07"])
    return {r: blind_access.issue(r) for r in ("ana", "ben", "zoe")}


def _page(name: str, rater: str, token: str | None) -> AppTest:
    at = AppTest.from_file(str(VIEWS / f"{name}.py"), default_timeout=60)
    at.query_params.update({"rater": rater, "round": "r1"})
    at.run()
    if token:
        at.text_input(key="rs_token").set_value(token).run()
    assert not at.exception, at.exception
    return at


def test_rater_sees_only_own_packets_one_session_at_a_time(project):
    ana = _page("round_scoring", "ana", project["ana"])
    shown = [o.split(" ")[0] for o in ana.selectbox(key="rs_packet").options]
    assert shown == rounds.rater_packets("r1", "ana") and len(shown) == 2
    assert not set(shown) & set(rounds.rater_packets("r1", "ben"))
    assert any("Open in this session" in c.value for c in ana.caption)
    # a second browser session of the same rater cannot open the packet ana's first session holds
    tab2 = _page("round_scoring", "ana", project["ana"])
    assert any("is open in another session" in e.value for e in tab2.error)
    assert rounds.active_lock("r1", shown[0]).rater_id == "ana"


def test_rater_not_in_round_and_wrong_token(project):
    zoe = _page("round_scoring", "zoe", project["zoe"])
    assert zoe.error[0].value.startswith("zoe is not a rater of round r1")
    wrong = _page("round_scoring", "ben", project["ana"])
    assert wrong.error[0].value == "This is not ben's token."


def test_round_packets_are_not_on_the_open_blind_page(project):
    at = AppTest.from_file(str(VIEWS / "blind_scoring.py"), default_timeout=60).run()
    assert not at.exception
    assert "No blind packets yet" in at.info[0].value


def test_lead_creates_a_round_and_sees_progress(project):
    at = AppTest.from_file(str(VIEWS / "rounds.py"), default_timeout=60).run()
    assert not at.exception
    at.text_input(key="rr_id").set_value("r2")
    at.text_input(key="rr_raters").set_value("ana, ben")
    at.number_input(key="rr_readers").set_value(3)
    at.button(key="rr_create").click().run()
    assert "3 readers per reply need at least 3 raters" in at.error[0].value
    assert [r["round_id"] for r in rounds.list_rounds()] == ["r1"]
    at.number_input(key="rr_readers").set_value(2)
    at.multiselect(key="rr_items").set_value(["S07"])
    at.button(key="rr_create").click().run()
    assert not at.exception
    assert at.success[0].value.startswith("Round r2: 4 replies x 2 readers = 2 packets")
    assert [r["round_id"] for r in rounds.list_rounds()] == ["r1", "r2"]


def test_cli_round_create_bad_input_stores_nothing(warehouse, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(paths.published_db()))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    base = ["round", "create", "c1", "--suite", "larkfield", "--rater", "ana", "--rater", "ben", "--due", "2099-01-01"]
    for extra, message in ((["--readers", "3"], "3 readers per reply need at least 3 raters"),
                           (["--rubric-version", "99"], "has no version 99"),
                           (["--suite", "nope"], "unknown suite 'nope'")):
        res = CliRunner().invoke(app, base + extra)
        assert res.exit_code == 1 and message in res.output, res.output
        assert not [p for p in tmp_path.rglob("*") if p.is_file()]
    res = CliRunner().invoke(app, base + ["--item", "S07"])
    assert res.exit_code == 0, res.output
    assert "round c1: 4 replies of larkfield" in res.output and "= 2 packets" in res.output
