"""A rating round end to end in Debian's Chromium, on a built copy of the project: the lead creates a round on the
Rating rounds page (a request for more readers than raters is refused first), two raters score their packets on the
Round scoring page with their tokens (a second session of the same rater is refused while the first holds the lock),
the lead's live progress follows, and after a build of the round marts the lead page and fct_round_agreement show the
agreement of the scores entered here, computed by hand below.

Screenshots go to test-artifacts/ in the repo.
"""
from __future__ import annotations

import csv
import re
import subprocess
from pathlib import Path

import pytest
from conftest import copy_project
from test_app_e2e import BIN, CHROMIUM, CHROMIUM_ARGS, _env, server, wait_idle  # noqa: F401  (fixture re-used)

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
ROUND = "lark-e2e"
RATERS = ("ana", "ben")
CRITERIA = ("correctness", "completeness", "format_compliance", "appropriate_abstention")
# What each reader gives the four S07 replies, listed in response_id order (the shown letters differ per reader).
SCORES = {
    "correctness": ([2, 2, 1, 0], [2, 2, 1, 0]),
    "completeness": ([2, 1, 2, 0], [2, 2, 2, 0]),
    "format_compliance": ([2, 2, 2, 2], [2, 2, 2, 1]),
    "appropriate_abstention": ([2, 2, 2, 2], [2, 2, 2, 2]),
}
# By hand from SCORES (4 replies, both readers read all 4; n = 8 values per measure).
# Exact agreement: replies where both gave the same value, of 4.
# Krippendorff's alpha (nominal) = 1 - D_o / D_e, D_o = (mismatched ordered pairs within replies) / n,
# D_e = (n^2 - sum_c n_c^2) / (n (n - 1)):
#   correctness: no mismatch -> D_o = 0, alpha 1.
#   completeness: one reply (1, 2) -> D_o = 2/8; values 2 x5, 1 x1, 0 x2 -> D_e = (64 - 30) / 56 = 34/56;
#     alpha = 1 - (2/8) / (34/56) = 10/17.
#   format_compliance: one reply (2, 1) -> D_o = 2/8; values 2 x7, 1 x1 -> D_e = 14/56; alpha = 0.
#   appropriate_abstention: a single value -> D_e = 0, alpha undefined (NULL with a reason).
# Cohen's kappa (ana, ben), labels 0..2: (p_o - p_e) / (1 - p_e), p_e = sum_c p_ana(c) p_ben(c):
#   correctness: p_o = 1 -> 1.  completeness: p_o = 3/4, p_e = (2*3 + 1*0 + 1*1) / 16 = 7/16 -> 5/9.
#   format_compliance: p_o = 3/4, p_e = (4*3) / 16 = 3/4 -> 0.  appropriate_abstention: p_e = 1 -> undefined.
# Weighted kappa on completeness, agreement weights w = 1 - |i - j| / 2 (linear), 1 - (|i - j| / 2)^2 (quadratic):
#   linear p_o = (3 + 0.5) / 4, p_e = 0.0625 + 0.125 + 0.375 = 0.5625 -> 5/7;
#   quadratic p_o = (3 + 0.75) / 4, p_e = 0.0625 + 0.1875 + 0.375 = 0.625 -> 5/6.
EXPECTED = {  # measure: (exact agreement, alpha nominal, Cohen's kappa ana-ben)
    "correctness": (1.0, 1.0, 1.0),
    "completeness": (0.75, 10 / 17, 5 / 9),
    "format_compliance": (0.75, 0.0, 0.0),
    "appropriate_abstention": (1.0, None, None),
}
# The round marts, rebuilt from the ratings store (ratings, blind keys) and the rounds store.
MARTS = ("dim_rounds", "fct_round_progress", "fct_round_rater_progress", "fct_round_agreement",
         "fct_round_pair_agreement", "fct_round_disagreements")
SOURCES = ("base_ratings_store__ratings", "stg_ratings_store__blind_keys", "stg_rounds_store__rounds",
           "stg_rounds_store__assignment_events")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("rounds_project"), built=True)
    repo_data = sorted(p.name for p in (REPO / "data").rglob("*"))
    yield root
    assert sorted(p.name for p in (REPO / "data").rglob("*")) == repo_data, "a test wrote into the repo's data/"


def _build_rounds(project: Path, marts: tuple[str, ...] = MARTS) -> None:
    select = [f"{src}+,+{m}" for src in SOURCES for m in marts]
    res = subprocess.run([str(BIN / "evalhouse"), "build", "--indirect-selection", "cautious", "--select", *select],
                         cwd=project, env=_env(project), capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"build failed:\n{res.stdout[-4000:]}\n{res.stderr[-3000:]}"


def _letters(project: Path) -> dict[str, dict[str, str]]:
    """rater -> letter -> response_id, from the round's assignments and its blind key."""
    holder = {}
    for f in sorted((project / "data" / "rounds" / "assignments" / ROUND).glob("*.csv")):
        for r in csv.DictReader(open(f, encoding="utf-8")):
            holder[r["packet_id"]] = r["rater_id"]
    out: dict[str, dict[str, str]] = {}
    for r in csv.DictReader(open(project / "data" / "blind" / "keys" / f"{ROUND}.csv", encoding="utf-8")):
        out.setdefault(holder[r["packet_id"]], {})[r["letter"]] = r["response_id"]
    return out


def _open_packet(page, url: str, rater: str, token: str) -> None:
    page.goto(f"{url}/round_scoring?round={ROUND}&rater={rater}")
    page.get_by_role("textbox", name="Your token").fill(token)
    page.get_by_role("textbox", name="Your token").press("Enter")
    wait_idle(page)


def _score_packet(page, wanted: dict[str, dict[str, int]]) -> None:
    """Score every reply of the open packet: wanted[letter][criterion]."""
    from playwright.sync_api import expect

    for letter in sorted(wanted):
        box = page.locator(f".st-key-rs_reply_{letter}")
        for c in CRITERIA:
            radio = box.locator(f".st-key-rs_{letter}_{c}")
            radio.locator("label").filter(has=page.get_by_role("radio", name=str(wanted[letter][c]))).click()
        box.locator(f".st-key-rs_{letter}_reason input").fill(f"reply {letter}")
        box.locator(f".st-key-rs_save_{letter} button").click()
        expect(page.locator(f".st-key-rs_reply_{letter}").get_by_text("Saved:")).to_be_visible()
        wait_idle(page)
    expect(page.get_by_role("heading", name="Packet submitted: the models")).to_be_visible()


def _create_round(lead, base_url: str, project) -> None:
    """The lead's page: a round with more readers than raters is refused (nothing written), then the valid round
    (S07's four replies x 2 readers) is created and shows 0 of 2 packets submitted."""
    from playwright.sync_api import expect

    lead.set_default_timeout(30_000)
    lead.goto(f"{base_url}/rounds")
    expect(lead.get_by_role("heading", name="Rating rounds")).to_be_visible()
    wait_idle(lead)
    # More readers than raters: refused with the reason, nothing written.
    lead.locator(".st-key-rr_id input").fill(ROUND)
    lead.locator(".st-key-rr_raters input").fill("ana, ben")
    lead.locator(".st-key-rr_readers input").fill("3")
    lead.locator(".st-key-rr_readers input").press("Enter")
    lead.locator(".st-key-rr_where input").fill("r.item_id = 'S07'")
    lead.locator(".st-key-rr_where input").press("Enter")
    wait_idle(lead)
    lead.locator(".st-key-rr_create button").click()
    expect(lead.get_by_text("3 readers per reply need at least 3 raters; the round lists 2 (ana, ben)")
           ).to_be_visible()
    assert not (project / "data" / "rounds" / "definitions" / f"{ROUND}.csv").exists()
    assert not (project / "data" / "blind" / "keys" / f"{ROUND}.csv").exists()
    # The valid round: S07's four replies x 2 readers = one packet each for ana and ben.
    lead.locator(".st-key-rr_readers input").fill("2")
    lead.locator(".st-key-rr_readers input").press("Enter")
    wait_idle(lead)
    lead.locator(".st-key-rr_create button").click()
    expect(lead.get_by_text(f"Round {ROUND}: 4 replies x 2 readers = 2 packets (ana 1, ben 1)")).to_be_visible()
    wait_idle(lead)
    lead.reload()
    expect(lead.get_by_text("0 of 2")).to_be_visible()  # packets submitted, live from the store
    wait_idle(lead)
    lead.screenshot(path=str(ARTIFACTS / "e2e_rounds_01_created.png"), full_page=True)


def _assert_round_marts(order: list[str]) -> None:
    """The round marts of the published warehouse: every reading, the agreement per measure and per reader pair
    (hand-computed, EXPECTED) and the replies to adjudicate."""
    from evalhouse.warehouse.published import connect_readonly

    with connect_readonly() as con:
        readings = {(rater, rid, m): int(v) for rater, rid, m, v in con.execute(
            "select rater_id, response_id, measure, value from fct_round_readings "
            "where round_id = ? and measure <> 'ready'", [ROUND]).fetchall()}
        assert readings == {(rater, rid, c): SCORES[c][i][order.index(rid)]
                            for i, rater in enumerate(RATERS) for rid in order for c in CRITERIA}
        assert con.execute("select n_replies, n_replies_complete from dim_rounds where round_id = ?",
                           [ROUND]).fetchone() == (4, 4)
        agreement = {m: (n, e, a, reason) for m, n, e, a, reason in con.execute(
            "select measure, n_replies_pairable, exact_agreement, alpha_nominal, alpha_nominal_reason "
            "from fct_round_agreement where round_id = ?", [ROUND]).fetchall()}
        pairs = {m: (a, b, n, k, reason) for m, a, b, n, k, reason in con.execute(
            "select measure, rater_a, rater_b, n_shared, cohen_kappa, kappa_reason from fct_round_pair_agreement "
            "where round_id = ?", [ROUND]).fetchall()}
        disagreements = {(rid, m) for rid, m in con.execute(
            "select response_id, measure from fct_round_disagreements where round_id = ? and measure <> 'ready'",
            [ROUND]).fetchall()}
    assert set(agreement) == set(CRITERIA) | {"ready"} and agreement["ready"][0] == 4
    for m, (exact, alpha, kappa) in EXPECTED.items():
        n, got_exact, got_alpha, alpha_reason = agreement[m]
        assert n == 4 and got_exact == pytest.approx(exact), m
        a, b, shared, got_kappa, kappa_reason = pairs[m]
        assert (a, b, shared) == ("ana", "ben", 4), m
        if alpha is None:
            assert got_alpha is None and alpha_reason, m
            assert got_kappa is None and kappa_reason, m
        else:
            assert got_alpha == pytest.approx(alpha) and alpha_reason is None, m
            assert got_kappa == pytest.approx(kappa), m
    with connect_readonly() as con:
        weighted = con.execute("select kappa_linear, kappa_quadratic from fct_round_pair_agreement "
                               "where round_id = ? and measure = 'completeness'", [ROUND]).fetchone()
    assert weighted == (pytest.approx(5 / 7), pytest.approx(5 / 6))
    # To adjudicate: completeness on the second reply, format_compliance on the fourth (response_id order).
    assert disagreements == {(order[1], "completeness"), (order[3], "format_compliance")}


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (make e2e-deps)")
def test_round_created_scored_and_agreement_after_build(project, server, monkeypatch):  # noqa: F811 (fixture)
    from playwright.sync_api import expect, sync_playwright

    for k, v in _env(project).items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("EVALHOUSE_PUBLISHED_DB", raising=False)
    monkeypatch.delenv("EVALHOUSE_DB", raising=False)
    from evalhouse.ratings import blind_access

    ARTIFACTS.mkdir(exist_ok=True)
    expect.set_options(timeout=30_000)
    tokens = {r: blind_access.issue(r, folder=project / "data" / "blind" / "raters", replace=True) for r in RATERS}
    ratings_dir = project / "data" / "ratings" / "larkfield"
    before = set(ratings_dir.glob("*.csv"))

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        lead = browser.new_page(viewport={"width": 1400, "height": 1800})
        _create_round(lead, server, project)

        letters = _letters(project)
        assert sorted(letters) == list(RATERS) and all(len(v) == 4 for v in letters.values())
        order = sorted(letters["ana"].values())
        assert sorted(letters["ben"].values()) == order  # both read the same four replies
        assert [letters["ana"][x] for x in "ABCD"] != [letters["ben"][x] for x in "ABCD"]  # in different orders
        wanted = {rater: {letter: {c: SCORES[c][i][order.index(rid)] for c in CRITERIA}
                          for letter, rid in letters[rater].items()} for i, rater in enumerate(RATERS)}

        # ana opens her packet; a second session of ana (another browser context) is refused while she holds it.
        ana = browser.new_context().new_page()
        ana2 = browser.new_context().new_page()
        _open_packet(ana, server, "ana", tokens["ana"])
        expect(ana.get_by_role("heading", name="Ticket S07")).to_be_visible()
        _open_packet(ana2, server, "ana", tokens["ana"])
        expect(ana2.get_by_text("is open in another session")).to_be_visible()
        expect(ana2.get_by_role("heading", name="Ticket S07")).to_have_count(0)
        ana2.screenshot(path=str(ARTIFACTS / "e2e_rounds_02_second_session_refused.png"), full_page=True)
        # ben's page does not take ana's token.
        ben = browser.new_context().new_page()
        _open_packet(ben, server, "ben", tokens["ana"])
        expect(ben.get_by_text("This is not ben's token.")).to_be_visible()

        _score_packet(ana, wanted["ana"])
        ana.screenshot(path=str(ARTIFACTS / "e2e_rounds_03_ana_submitted.png"), full_page=True)
        lead.reload()
        expect(lead.get_by_text("1 of 2")).to_be_visible()
        wait_idle(lead)

        _open_packet(ben, server, "ben", tokens["ben"])
        expect(ben.get_by_role("heading", name="Ticket S07")).to_be_visible()
        _score_packet(ben, wanted["ben"])
        lead.reload()
        expect(lead.get_by_text("2 of 2")).to_be_visible()
        expect(lead.get_by_text("is not in the published warehouse yet")).to_be_visible()
        wait_idle(lead)
        lead.screenshot(path=str(ARTIFACTS / "e2e_rounds_04_progress.png"), full_page=True)
        assert len(set(ratings_dir.glob("*.csv")) - before) == 8  # one file per reply and reader, none edited

        # Build the round marts; the lead page shows the round's completion and agreement.
        _build_rounds(project)
        lead.reload()
        expect(lead.get_by_text("Replies complete (last build)")).to_be_visible()
        expect(lead.get_by_text("4 of 4")).to_be_visible()
        expect(lead.get_by_text("Agreement per measure")).to_be_visible()
        # completeness: alpha 10/17 = 0.588 (agreement table), Cohen's kappa 5/9 = 0.556 (pairs table)
        expect(lead.locator("[data-testid='stDataFrame'] td", has_text=re.compile(r"^0\.588"))).to_have_count(1)
        expect(lead.locator("[data-testid='stDataFrame'] td", has_text=re.compile(r"^0\.55[56]"))).to_have_count(1)
        wait_idle(lead)
        lead.screenshot(path=str(ARTIFACTS / "e2e_rounds_05_agreement.png"), full_page=True)
        browser.close()

    _assert_round_marts(order)
    _adjudicate(project, order)


def _adjudicate(project: Path, order: list[str]) -> None:
    """The lead writes the adjudication template, lea (not a reader) fills it in and it is imported as ratings of
    kind adjudicator: after a build fct_round_disagreements shows her values, the readers' agreement is unchanged,
    and she is paired with no reader in fct_two_reader_agreement (an adjudication is not a reading)."""
    from evalhouse.warehouse.published import connect_readonly

    env = _env(project)
    out = project / "adjudicate.csv"
    res = subprocess.run([str(BIN / "evalhouse"), "round", "adjudication-template", ROUND, str(out)], cwd=project,
                         env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    # every criterion of the two replies to adjudicate; the readers' values beside each (SCORES)
    assert [(r["response_id"], r["criterion"], r["score"], r["readings"]) for r in rows] == [
        (order[1], "correctness", "", "agreed: ana=2; ben=2"), (order[1], "completeness", "", "ana=1; ben=2"),
        (order[1], "format_compliance", "", "agreed: ana=2; ben=2"),
        (order[1], "appropriate_abstention", "", "agreed: ana=2; ben=2"),
        (order[3], "correctness", "", "agreed: ana=0; ben=0"), (order[3], "completeness", "", "agreed: ana=0; ben=0"),
        (order[3], "format_compliance", "", "ana=2; ben=1"),
        (order[3], "appropriate_abstention", "", "agreed: ana=2; ben=2")]
    for r in rows:  # lea settles both disagreements on 2 and keeps the agreed values
        r["score"] = "2" if not r["readings"].startswith("agreed") else r["readings"].split("ana=")[1][0]
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    res = subprocess.run([str(BIN / "evalhouse"), "import-ratings", str(out), "--rater", "lea", "--rater-kind",
                          "adjudicator"], cwd=project, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    _build_rounds(project, (*MARTS, "fct_ratings", "fct_two_reader_agreement"))  # and fct_ratings' kind test
    with connect_readonly() as con:
        adjudicated = con.execute("select response_id, measure, is_adjudicated, adjudication "
                                  "from fct_round_disagreements where round_id = ? and measure <> 'ready' "
                                  "order by all", [ROUND]).fetchall()
        not_adjudicated = con.execute("select count(*) from fct_round_disagreements where round_id = ? "
                                      "and not is_adjudicated", [ROUND]).fetchone()[0]
        kinds = con.execute("select rater_kind, count(*) from fct_ratings where rater_id = 'lea' "
                            "group by all").fetchall()
        paired = con.execute("select count(*) filter (where 'lea' in (rater_a, rater_b)), "
                             "count(*) filter (where rater_a = 'ana' and rater_b = 'ben') "
                             "from fct_two_reader_agreement").fetchone()
    assert adjudicated == [(order[1], "completeness", True, "lea=2"), (order[3], "format_compliance", True, "lea=2")]
    assert not_adjudicated == 0  # ready too: her complete reading gives the reply's decision
    assert kinds == [("adjudicator", 8)]
    assert paired[0] == 0 and paired[1] > 0
    _assert_round_marts(order)  # the readings and the agreement are the readers' alone
