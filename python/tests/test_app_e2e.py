"""The app against a temporary copy of the project (never the repo's data/): blind scoring through AppTest and the
store, an end-to-end run in Debian's Chromium driven by Playwright, and `dbt build` + publish while the app reads.

The copy starts from the repo's built warehouse (conftest.copy_project); builds select what the new ratings change. Screenshots go to test-artifacts/ in the repo.
"""
from __future__ import annotations

import csv
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import copy_project
from streamlit.testing.v1 import AppTest

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def _env(project: Path) -> dict:
    env = {k: v for k, v in os.environ.items()
           if k not in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR")}
    env.update(EVALHOUSE_PROJECT_DIR=str(project), DBT_PROFILES_DIR=str(project),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false", PYTHONUNBUFFERED="1")
    return env


def _run(cmd: list, project: Path) -> subprocess.CompletedProcess:
    res = subprocess.run([str(c) for c in cmd], cwd=project, env=_env(project), capture_output=True, text=True,
                         timeout=1500)
    assert res.returncode == 0, f"{cmd} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res


def build(project: Path) -> None:
    """The copy starts built: rebuild the models between the ratings store (and the blind keys) and the marts the
    test and the pages it opens read, then publish."""
    marts = ("fct_ratings", "fct_two_reader_agreement", "fct_model_run_scores", "fct_model_run_criterion_scores",
             "fct_reply_scores", "fct_criterion_scores", "fct_stale_ratings")
    select = [f"{src}+,+{m}" for src in ("base_ratings_store__ratings", "stg_ratings_store__blind_keys") for m in marts]
    _run([BIN / "evalhouse", "build", "--indirect-selection", "cautious", "--select", *select], project)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A built copy of the project with two blind exports: e2e (S07, rubric v1) and apptest (M01, current)."""
    root = copy_project(tmp_path_factory.mktemp("evalhouse_project"), built=True)
    _run([BIN / "evalhouse", "blind-export", root / "exports" / "e2e", "--item", "S07", "--export-id", "e2e",
          "--rubric-version", "1", "--seed", "7"], root)
    _run([BIN / "evalhouse", "blind-export", root / "exports" / "apptest", "--item", "M01", "--export-id", "apptest",
          "--seed", "7"], root)
    repo_data = sorted(p.name for p in (REPO / "data").rglob("*"))
    yield root
    assert sorted(p.name for p in (REPO / "data").rglob("*")) == repo_data, "a test wrote into the repo's data/"


@pytest.fixture
def in_project(project, monkeypatch):
    for k, v in _env(project).items():
        monkeypatch.setenv(k, v)
    monkeypatch.delenv("EVALHOUSE_PUBLISHED_DB", raising=False)
    monkeypatch.delenv("EVALHOUSE_DB", raising=False)
    return project


def keys(project: Path, export_id: str) -> dict[str, str]:
    """letter -> response_id of an export's only packet."""
    with open(project / "data" / "blind" / "keys" / f"{export_id}.csv", encoding="utf-8") as fh:
        return {r["letter"]: r["response_id"] for r in csv.DictReader(fh)}


def store_files(project: Path) -> list[Path]:
    return sorted((project / "data" / "ratings").glob("*/*.csv"))


# ---------------------------------------------------------------------------------------------------------------------
def test_blind_scoring_page_saves_once_and_reveals_after_submit(in_project):
    from evalhouse.ratings import blind_app

    project = in_project
    before = store_files(project)
    at = AppTest.from_file(str(project / "app" / "views" / "blind_scoring.py"), default_timeout=60)
    at.query_params["rater"] = "apptest_rater"
    at.query_params["packet"] = "apptest-M01"
    at.run()
    assert not at.exception and not at.error
    # A first visit: the rater gets a token (shown once), needed to come back to these scores.
    at.button(key="bs_issue").click().run()
    assert not at.exception and not at.error
    token = re.search(r"Your token: `([^`]+)`", at.success[0].value).group(1)
    packet = blind_app.load_packet("apptest-M01")
    letters = packet.letters
    assert len(letters) == 3  # the three M01 replies with text
    page_text = " ".join([m.value for m in at.markdown] + [t.value for t in at.text])
    for run in ("Mistral", "Gemma", "Claude", "Gemini"):
        assert run not in page_text  # blind: no model names before submission
    assert "larkfield-M01" not in page_text  # nor response ids
    # Rubric anchors beside the scores: the radio captions are the anchors of the current rubric version.
    radio = at.radio(key=f"bs_{letters[0]}_correctness")
    assert radio.options == ["2", "1", "0"]

    # An incomplete form is refused and writes nothing.
    at.button(key=f"bs_save_{letters[0]}").click().run()
    assert "score every criterion" in at.error[0].value and store_files(project) == before

    for c in packet.criteria:
        at.radio(key=f"bs_{letters[0]}_{c['criterion']}").set_value(2)
    at.text_input(key=f"bs_{letters[0]}_reason").input("sends it to a person")
    at.button(key=f"bs_save_{letters[0]}").click().run()
    assert not at.error, [e.value for e in at.error]
    new = [f for f in store_files(project) if f not in before]
    assert len(new) == 1
    rows = list(csv.DictReader(open(new[0], encoding="utf-8")))
    assert {(r["packet_id"], r["letter"], r["rater_id"], r["score"], r["is_blind"], r["rubric_version"]) for r in rows} == {
        ("apptest-M01", letters[0], "apptest_rater", "2", "true", "2")}
    assert len(rows) == 4
    assert any("Saved: correctness 2" in s.value for s in at.success)
    assert "1 of 3 replies saved" in at.info[0].value

    # A second tab (a fresh session) sees the saved reply and cannot save it again.
    tab2 = AppTest.from_file(str(project / "app" / "views" / "blind_scoring.py"), default_timeout=60)
    tab2.query_params.update({"rater": "apptest_rater", "packet": "apptest-M01"})
    tab2.run()
    assert not tab2.success and "Enter apptest_rater's token" in tab2.info[0].value  # the name alone shows nothing
    tab2.text_input(key="bs_token").input(token).run()
    assert f"bs_save_{letters[0]}" not in [b.key for b in tab2.button]
    with pytest.raises(blind_app.SaveRefused, match="already saved"):
        blind_app.save_reply(packet, letters[0], "apptest_rater", {c["criterion"]: 1 for c in packet.criteria}, "again")
    # Two tabs saving the same reply at the same moment: exactly one file is written (store lock + duplicate check).
    results = []

    def save():
        try:
            results.append(blind_app.save_reply(packet, letters[1], "apptest_rater",
                                                {c["criterion"]: 1 for c in packet.criteria}, "race"))
        except blind_app.SaveRefused as exc:
            results.append(exc)

    threads = [threading.Thread(target=save) for _ in range(4)]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sum(isinstance(r, Path) for r in results) == 1 and len(store_files(project)) == len(before) + 2

    # Save the rest through the page; the models appear only after the last one.
    for letter in letters[2:]:
        assert not any("Packet submitted" in s.value for s in tab2.subheader)
        for c in packet.criteria:
            tab2.radio(key=f"bs_{letter}_{c['criterion']}").set_value(1)
        tab2.text_input(key=f"bs_{letter}_reason").input(f"reply {letter}")
        tab2.button(key=f"bs_save_{letter}").click().run()
        assert not tab2.error, [e.value for e in tab2.error]
    assert any("Packet submitted" in s.value for s in tab2.subheader)
    reveal = tab2.dataframe[-1].value
    assert sorted(reveal["letter"]) == sorted(letters)
    assert "Mistral 7B (local)" in set(reveal["model run"])
    assert len(store_files(project)) == len(before) + len(letters)  # one new file per reply, none edited


# ---------------------------------------------------------------------------------------------------------------------
def wait_idle(page) -> None:
    """Wait until Streamlit has finished the current run (its status widget is gone)."""
    page.wait_for_timeout(300)
    page.locator("[data-testid='stStatusWidget']").wait_for(state="hidden", timeout=30_000)
    page.wait_for_timeout(300)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(project):
    port = _free_port()
    log = open(project / "streamlit.log", "w")
    proc = subprocess.Popen([str(BIN / "evalhouse"), "app", "--port", str(port)], cwd=project, env=_env(project),
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.3)
    else:
        proc.kill()
        pytest.fail("the app did not start: " + (project / "streamlit.log").read_text()[-2000:])
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


def _second_reader_scores(letters: dict[str, str]) -> tuple[dict[tuple[str, str], int], str]:
    """The scores the second reader gives per (letter, criterion): the course team's, except completeness 1 (not 0)
    on Mistral's reply; and Mistral's letter."""
    from evalhouse.warehouse.published import connect_readonly

    by_run = {}
    with connect_readonly() as con:
        for letter, rid in letters.items():
            by_run[letter] = con.execute("select system_id from dim_responses where response_id = ?", [rid]).fetchone()[0]
        course = {(r, c): s for r, c, s in con.execute(
            "select response_id, criterion, score from fct_criterion_scores "
            "where rater_id = 'course_team' and rubric_version = 1 and item_id = 'S07'").fetchall()}
    wanted = {}
    for letter, rid in letters.items():
        for c in ("correctness", "completeness", "format_compliance", "appropriate_abstention"):
            wanted[(letter, c)] = course[(rid, c)]
    mistral = next(k for k, v in by_run.items() if v == "Mistral 7B (local)")
    assert wanted[(mistral, "completeness")] == 0
    wanted[(mistral, "completeness")] = 1
    return wanted, mistral


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (make e2e-deps)")
def test_browser_leaderboard_blind_score_reload_and_marts(project, server, in_project):
    from playwright.sync_api import expect, sync_playwright

    ARTIFACTS.mkdir(exist_ok=True)
    expect.set_options(timeout=20_000)  # a loaded 2-core machine can take a while to draw
    letters = keys(project, "e2e")
    wanted, mistral = _second_reader_scores(letters)
    from evalhouse.warehouse.published import connect_readonly

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.set_default_timeout(30_000)
        page.goto(server)
        expect(page.get_by_role("heading", name="Leaderboard")).to_be_visible()
        table = page.locator("[data-testid='stDataFrame']").first
        expect(table).to_be_visible()
        # A known value: Mistral 7B's score 6.88 and "1 of 4" ready (rubric v1, course team).
        expect(table.locator("td", has_text="6.88")).to_have_count(1)
        expect(table.locator("td", has_text="1 of 4")).to_have_count(1)
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_01_leaderboard.png"), full_page=True)

        # Where points are lost: click the heat map's Mistral 7B x correctness cell (last row, first column).
        page.goto(f"{server}/points_lost")
        chart = page.locator("[data-testid='stVegaLiteChart']").first
        expect(chart).to_be_visible()
        wait_idle(page)
        heading = page.get_by_role("heading", name="Mistral 7B (local) · correctness")
        for _attempt in range(5):  # the chart takes its click once Vega has finished drawing
            page.wait_for_timeout(1000)
            box = chart.bounding_box()
            page.mouse.click(box["x"] + 230, box["y"] + box["height"] - 60)
            try:
                heading.wait_for(timeout=4000)
                break
            except Exception:  # noqa: BLE001 -- not yet interactive: click again
                continue
        expect(heading).to_be_visible()
        expect(page.get_by_text("1 of 4 scored replies at the minimum")).to_be_visible()
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_01b_points_lost_click.png"), full_page=True)

        # Ranking practice: the action buttons show their whole label (none is cut off by a narrow column).
        page.goto(f"{server}/ranking_practice")
        for label in ("Reveal models and scores", "Start again"):
            button = page.get_by_role("button", name=label)
            expect(button).to_be_visible()
            # a cut-off label is drawn wider than its button (the button shows "Reveal mod...")
            box, text = button.bounding_box(), button.locator("p").first.bounding_box()
            assert text["x"] + text["width"] <= box["x"] + box["width"], (label, box, text)
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_01c_ranking_practice.png"), full_page=True)

        page.goto(f"{server}/blind_scoring?rater=e2e_rater&packet=e2e-S07")
        expect(page.get_by_role("heading", name="Ticket S07")).to_be_visible()
        page.get_by_role("button", name="Get my token as e2e_rater").click()
        expect(page.get_by_text("Your token:")).to_be_visible()
        token = page.get_by_role("textbox", name="Your token").input_value()
        assert len(token) >= 32
        expect(page.get_by_text(token)).to_be_visible()  # shown once, to copy
        for run in ("Mistral", "Claude", "Gemma", "Gemini"):
            expect(page.get_by_text(run)).to_have_count(0)
        expect(page.locator(".st-key-bs_A_correctness").get_by_role("radio", name="2")).to_be_attached()
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_02_blind_packet.png"), full_page=True)
        for letter in sorted(letters):
            box = page.locator(f".st-key-bs_reply_{letter}")
            for c in ("correctness", "completeness", "format_compliance", "appropriate_abstention"):
                radio = box.locator(f".st-key-bs_{letter}_{c}")
                radio.locator("label").filter(has=page.get_by_role("radio", name=str(wanted[(letter, c)]))).click()
                expect(radio.get_by_role("radio", name=str(wanted[(letter, c)]))).to_be_checked()
            box.locator(f".st-key-bs_{letter}_reason input").fill(f"e2e reply {letter}")
            box.locator(f".st-key-bs_save_{letter} button").click()
            expect(page.locator(f".st-key-bs_reply_{letter}").get_by_text("Saved:")).to_be_visible()
            wait_idle(page)
        expect(page.get_by_role("heading", name="Packet submitted: the models")).to_be_visible()
        page.wait_for_timeout(500)
        page.screenshot(path=str(ARTIFACTS / "e2e_03_blind_submitted.png"), full_page=True)

        # Reload: the name in the URL alone shows nothing; with the token, nothing lost, nothing duplicated, the
        # packet still submitted.
        page.reload()
        expect(page.get_by_text("Enter e2e_rater's token")).to_be_visible()
        expect(page.get_by_text("Saved:")).to_have_count(0)
        expect(page.get_by_role("heading", name="Packet submitted: the models")).to_have_count(0)
        page.get_by_role("textbox", name="Your token").fill(token)
        page.get_by_role("textbox", name="Your token").press("Enter")
        expect(page.get_by_role("heading", name="Packet submitted: the models")).to_be_visible()
        for letter in letters:
            expect(page.locator(f".st-key-bs_reply_{letter}").get_by_text("Saved:")).to_be_visible()
        e2e_files = [f for f in store_files(project) if "e2e_rater" in f.name]
        assert len(e2e_files) == len(letters)

        # dbt build + publish; the scores are in the marts and on the leaderboard.
        build(project)
        with connect_readonly() as con:
            got = {(r, c): s for r, c, s in con.execute(
                "select response_id, criterion, score from fct_ratings where rater_id = 'e2e_rater' and is_blind"
            ).fetchall()}
            assert got == {(letters[letter], c): s for (letter, c), s in wanted.items()}
            two = {m: (a, n, k) for m, a, n, k in con.execute(
                "select measure, n_agree, n_shared, cohen_kappa from fct_two_reader_agreement "
                "where rater_a = 'course_team' and rater_b = 'e2e_rater' and rubric_version = 1").fetchall()}
        assert two["correctness"][:2] == (4, 4) and two["completeness"][:2] == (3, 4)
        # Completeness, course team 0,2,0,2 vs 1,2,0,2 over the scale 0-2: po = 3/4, pe = .5*.25 + .5*.5 = .375,
        # kappa = (.75 - .375) / (1 - .375) = 0.6.
        assert two["completeness"][2] == pytest.approx(0.6)
        page.goto(f"{server}/agreement")
        expect(page.get_by_role("heading", name="Two readers")).to_be_visible()
        expect(page.locator("[data-testid='stDataFrame'] td", has_text="3 of 4").first).to_be_attached()
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_04_agreement_after_build.png"), full_page=True)
        page.goto(f"{server}/reply?response_id={letters[mistral]}")
        expect(page.get_by_role("heading", name="Every rating")).to_be_visible()
        wait_idle(page)
        page.get_by_role("heading", name="Every rating").scroll_into_view_if_needed()
        expect(page.locator("[data-testid='stDataFrame'] td", has_text="e2e reply").first).to_be_attached(timeout=20_000)
        wait_idle(page)
        page.screenshot(path=str(ARTIFACTS / "e2e_05_reply_drilldown.png"), full_page=True)
        browser.close()


def test_agreement_page_with_two_readers(in_project):
    at = AppTest.from_file(str(in_project / "app" / "views" / "agreement.py"), default_timeout=60).run()
    assert not at.exception and not at.error
    labels = at.selectbox(key="ag_pair").options if at.selectbox else []
    pair = next((x for x in labels if x.startswith("course_team vs e2e_rater")), None)
    if pair is None:
        pytest.skip("needs the second reader saved by the browser test (skipped without Chromium)")
    at.selectbox(key="ag_pair").set_value(pair).run()
    df = next(d.value for d in at.dataframe if "agree" in d.value.columns).set_index("measure")
    assert df.loc["completeness", "agree"] == "3 of 4" and df.loc["completeness", "Cohen's kappa"] == pytest.approx(0.6)
    assert df.loc["ready", "agree"] == "3 of 4"  # Mistral's reply turns ready with completeness 1


# ---------------------------------------------------------------------------------------------------------------------
def test_build_and_publish_while_the_app_reads(in_project):
    """`dbt build` runs while the app renders the leaderboard in a loop and a reader thread queries it; then three
    publishes swap the file under the readers. Neither side may fail, and every read sees a complete warehouse."""
    from evalhouse.app import data as appdata
    from evalhouse.app.leaderboard import leaderboard_table

    stop = threading.Event()
    reads, errors = [], []

    def reader():
        while not stop.is_set():
            try:
                data = appdata.leaderboard_data("larkfield", 1)
                board = leaderboard_table(data["runs"], data["criteria"], data.get("intervals"))
                assert len(board) >= 7, f"half-built warehouse? {len(board)} runs"
                reads.append(time.time())
            except Exception as exc:  # noqa: BLE001 -- every failure is collected and reported
                errors.append(repr(exc))
            time.sleep(0.05)

    t = threading.Thread(target=reader)
    t.start()
    renders = []
    try:
        (in_project / "warehouse" / "build").mkdir(parents=True, exist_ok=True)
        subprocess.run([str(BIN / "evalhouse"), "suite", "land"], cwd=in_project, env=_env(in_project), check=True,
                       capture_output=True)
        # The leaderboard's main mart and every model upstream of it (models only: the writes are the point). dbt's output goes to a file: a pipe read only
        # at the end fills up (64 KiB) and blocks dbt forever.
        log = in_project / "dbt_during_reads.log"
        with open(log, "w") as out:
            dbt = subprocess.Popen([str(BIN / "dbt"), "run", "--no-use-colors", "--select",
                                    "+fct_model_run_scores"],
                                   cwd=in_project, env=_env(in_project), stdout=out, stderr=subprocess.STDOUT)
            while dbt.poll() is None:  # the app renders while dbt writes the build file
                at = AppTest.from_file(str(in_project / "app" / "views" / "leaderboard.py"), default_timeout=60).run()
                renders.append((not at.exception and not at.error, len(at.dataframe)))
                time.sleep(0.5)
        assert dbt.returncode == 0, log.read_text()[-3000:]
        during_build = len(reads)
        for _ in range(3):
            _run([BIN / "evalhouse", "publish"], in_project)
    finally:
        stop.set()
        t.join()
    assert errors == []
    assert during_build > 5 and len(reads) > during_build
    assert renders and all(ok and n >= 1 for ok, n in renders)
