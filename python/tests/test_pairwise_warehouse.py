"""The pairwise models through dbt on a temporary copy of the project (suites/example_pairwise plus a comparisons
store file with broken rows), and the pairwise scoring page in Debian's Chromium (choose, reload, no duplicate
save, model names only after the choice).
"""
from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import copy_project
from test_app_e2e import BIN, CHROMIUM, CHROMIUM_ARGS, _env, server, wait_idle  # noqa: F401  (fixture re-used)

REPO = Path(__file__).resolve().parents[2]
SELECT = ["-s", "+int_comparisons+", "+int_suite_systems+", "+dim_responses", "+dim_items"]
S = "example_pairwise"
BAD = [  # (problem expected, row)
    ("preference outside [0, 1]", {"item_id": "p01", "response_id_a": f"{S}:baseline_model:p01:1",
                                   "response_id_b": f"{S}:model_y:p01:1", "preference": "1.7"}),
    ("a response compared with itself", {"item_id": "p02", "response_id_a": f"{S}:model_y:p02:1",
                                         "response_id_b": f"{S}:model_y:p02:1", "preference": "0.5"}),
    ("unknown response_id_b", {"item_id": "p03", "response_id_a": f"{S}:model_y:p03:1",
                               "response_id_b": f"{S}:nobody:p03:1", "preference": "1"}),
    ("judge call failed: reply is not JSON", {"item_id": "p04", "response_id_a": f"{S}:model_y:p04:1",
                                              "response_id_b": f"{S}:model_x:p04:1", "preference": "",
                                              "failure_reason": "reply is not JSON", "raw_output": "{oops"}),
]


def _run(cmd, project):
    res = subprocess.run([str(c) for c in cmd], cwd=project, env=_env(project), capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, f"{cmd} failed:\n{res.stdout[-4000:]}\n{res.stderr[-3000:]}"
    return res


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = copy_project(tmp_path_factory.mktemp("pairwise_project"), built=True)
    from evalhouse.judge.comparisons import COMPARISON_COLUMNS

    store = root / "data" / "comparisons" / S
    store.mkdir(parents=True, exist_ok=True)
    with open(store / "20260101T000000Z_judge_bad.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=COMPARISON_COLUMNS, lineterminator="\n")
        w.writeheader()
        for k, (_, row) in enumerate(BAD, 1):
            w.writerow({"suite": S, "rater_id": "judge:acme-large", "rater_kind": "judge", "shown_first": "a",
                        "prompt_hash": "h", "source_file": f"data/comparisons/{S}/20260101T000000Z_judge_bad.csv",
                        "source_row": k, **row})
    _run([BIN / "evalhouse", "build", *SELECT], root)
    return root


@pytest.fixture
def con(project, monkeypatch):
    for k, v in _env(project).items():
        monkeypatch.setenv(k, v)
    from evalhouse.warehouse.published import connect_readonly

    with connect_readonly() as c:
        yield c


def test_int_comparisons_flags_bad_rows_and_drops_nothing(con):
    n_suite = sum(1 for _ in open(REPO / "suites" / S / "comparisons.csv")) - 1
    got = con.execute("select origin, count(*) from int_comparisons where suite = ? group by 1 order by 1",
                      [S]).fetchall()
    assert got == [("store", len(BAD)), ("suite", n_suite)]
    problems = dict(con.execute("select source_row, comparison_problem from int_comparisons where origin = 'store'"
                                " and suite = ?", [S]).fetchall())
    for k, (expected, _) in enumerate(BAD, 1):
        assert expected in problems[k]
    assert con.execute("select count(*) from int_comparisons where origin = 'suite' and comparison_problem is not "
                       "null").fetchone()[0] == 0
    # a label-only row (the person's) gets its preference from the label
    assert con.execute("select min(preference), max(preference) from int_comparisons where rater_id = 'ana'"
                       ).fetchone()[0] in (0, 0.5)


def test_marts_on_the_example_suite(con):
    import pandas as pd

    from evalhouse.stats import pairwise as pw

    c = con.execute("select * from int_comparisons where suite = ? and comparison_problem is null", [S]).df()
    wr = con.execute("select * from fct_pairwise_win_rates where suite = ?", [S]).df()
    row = wr[(wr.rater_group == "judge:acme-large") & (wr.system_id == "model_x") & wr.opponent_is_baseline].iloc[0]
    q = c[(c.rater_group == "judge:acme-large") & (c.system_b == "model_x") & (c.system_a == "baseline_model")]
    ref = pw.win_rate(q["preference"].astype(float).tolist())
    assert row["win_rate"] == pytest.approx(ref.win_rate) and row["n_comparisons"] == ref.n == 24
    assert row["lc_inputs"] == "length+difficulty" and row["length_controlled_win_rate"] is not None
    back = wr[(wr.rater_group == "judge:acme-large") & (wr.system_id == "baseline_model") & (wr.opponent_id == "model_x")]
    assert back["win_rate"].iloc[0] == pytest.approx(1 - row["win_rate"])
    ratings = con.execute("select * from fct_pairwise_ratings where suite = ? and rater_group = 'judge:acme-large'",
                          [S]).df()
    assert sorted(ratings["system_id"]) == ["baseline_model", "model_x", "model_x_concise", "model_y"]
    assert ratings["bt_rating"].sum() == pytest.approx(0, abs=1e-9)
    assert (ratings["bt_rating_low"] <= ratings["bt_rating"]).all() and (ratings["bt_rating"] <= ratings["bt_rating_high"]).all()
    d = con.execute("select * from fct_pairwise_judge_diagnostics where suite = ?", [S]).df().set_index(
        ["rater_group", "diagnostic", "subset"])
    judge = "judge:acme-large"
    assert d.loc[(judge, "flip_rate", "all"), "n"] == 8
    own = d.loc[(judge, "p_prefer_own_family", "acme")]
    mask = (c.rater_group == judge) & ((c.system_a == "model_y") ^ (c.system_b == "model_y"))
    sub = c[mask]
    expected = [1 - p if b == "model_y" else p for p, b in zip(sub["preference"].astype(float), sub["system_b"])]
    assert own["estimate"] == pytest.approx(sum(expected) / len(expected)) and own["n"] == len(expected)
    kappa = d.loc[(judge, "kappa_with_people", "all")]
    assert kappa["n"] == 12 and -1 <= kappa["estimate"] <= 1
    assert not pd.isna(d.loc[(judge, "p_prefer_longer_matched_variants", "model_x"), "estimate"])


def test_suite_check_reports_bad_comparisons(tmp_path):
    from evalhouse.suites.check import check_suite

    folder = tmp_path / "bad_pairs"
    shutil.copytree(REPO / "suites" / S, folder)
    rows = list(csv.DictReader(open(folder / "comparisons.csv")))
    rows[0]["preference"] = "1.5"
    rows[1]["response_id_b"] = rows[1]["response_id_a"]
    rows[2]["response_id_b"] = f"{S}:ghost:p02:1"
    with open(folder / "comparisons.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
    spec = (folder / "suite.yml").read_text().replace("baseline: baseline_model", "baseline: nobody")
    (folder / "suite.yml").write_text(spec)
    _, problems = check_suite(folder)
    text = [str(p) for p in problems]
    assert any("comparisons.csv:2:preference" in t and "within [0, 1]" in t for t in text), text
    assert any("comparisons.csv:3:response_id_b" in t and "itself" in t for t in text), text
    assert any("comparisons.csv:4:response_id_b" in t and "unknown response" in t for t in text), text
    assert any("suite.yml" in t and "baseline 'nobody'" in t for t in text), text


def _store_rows(project: Path, rater: str) -> list[dict]:
    out = []
    for f in sorted((project / "data" / "comparisons").glob("*/*.csv")):
        out.extend(r for r in csv.DictReader(open(f)) if r["rater_id"] == rater)
    return out


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (make e2e-deps)")
def test_pairwise_page_in_chromium(project, server, monkeypatch):  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    from evalhouse.ratings import pairwise_app

    expect.set_options(timeout=30_000)
    artifacts = REPO / "test-artifacts"
    artifacts.mkdir(exist_ok=True)
    systems = ["baseline_model", "model_x_concise", "model_x", "model_y"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{server}/pairwise_scoring?rater=pw_rater&suite={S}")
        expect(page.get_by_role("heading", name="Answer A")).to_be_visible()
        wait_idle(page)
        for name in systems:  # blind: no model name on the page before the choice
            expect(page.get_by_text(name, exact=False)).to_have_count(0)
        page.screenshot(path=str(artifacts / "pairwise_01_blind.png"), full_page=True)
        key = page.url.split("pair=")[1].split("&")[0]
        page.locator(".st-key-pw_choice").get_by_text("B is better").click()
        page.locator(".st-key-pw_reason input").fill("B answers the question")
        page.locator(".st-key-pw_save button").click()
        expect(page.get_by_role("heading", name="The models")).to_be_visible()
        wait_idle(page)
        page.screenshot(path=str(artifacts / "pairwise_02_revealed.png"), full_page=True)
        rows = _store_rows(project, "pw_rater")
        assert len(rows) == 1
        row = rows[0]
        pair = pairwise_app.Pair(S, row["item_id"], row["response_id_a"], row["response_id_b"], row["shown_first"])
        assert pair.key == key
        slot_b = pair.slots()[1]
        assert row["preference_label"] == ("b" if slot_b == row["response_id_b"] else "a")
        assert row["reason"] == "B answers the question" and row["rater_kind"] == "human"
        shown_b = slot_b.split(":")[1]
        expect(page.get_by_text(shown_b, exact=True)).to_be_visible()

        page.reload()  # the same pair comes back saved and revealed; nothing is stored twice
        expect(page.get_by_role("heading", name="The models")).to_be_visible()
        expect(page.locator(".st-key-pw_save")).to_have_count(0)
        wait_idle(page)
        assert len(_store_rows(project, "pw_rater")) == 1
        page.locator(".st-key-pw_next button").click()
        expect(page.locator(".st-key-pw_save")).to_be_visible()
        assert page.url.split("pair=")[1].split("&")[0] != key
        browser.close()
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(project))
    with pytest.raises(pairwise_app.SaveRefused, match="already saved"):
        pairwise_app.save_choice(pair, "pw_rater", "A", "again")
    assert len(_store_rows(project, "pw_rater")) == 1
