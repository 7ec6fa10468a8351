"""AlpacaEval 2.0 (CC BY-NC 4.0: never copied into the repo): the importer, win rates against the published
leaderboard, the length-controlled win rate and the position / length diagnostics, on the shared annotations.

Reads ``$EVALHOUSE_ALPACA_EVAL_DIR`` or ``../shared/data/alpaca_eval`` beside the project; skipped when absent.
"""
from __future__ import annotations

import csv
import gzip
import json
import math
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalhouse import paths
from evalhouse.importers.alpaca_eval import (
    ImportError_,
    _shown_first_from_logprobs,
    import_alpaca_eval,
    shown_first_by_rule,
)
from evalhouse.stats import pairwise as pw
from evalhouse.stats import pairwise_marts as pm


def _data_dir() -> Path:
    env = os.environ.get("EVALHOUSE_ALPACA_EVAL_DIR")
    return Path(env) if env else paths.project_dir().parent / "shared" / "data" / "alpaca_eval"


DATA = _data_dir()
pytestmark = pytest.mark.skipif(not (DATA / "annotations").is_dir(),
                                reason=f"AlpacaEval annotations not found at {DATA} (set EVALHOUSE_ALPACA_EVAL_DIR)")
BASELINE = "gpt4_1106_preview"

# weighted_alpaca_eval_gpt4_turbo_leaderboard.csv of tatsu-lab/alpaca_eval at cd543a1 (2025-08-09), the snapshot the
# annotations come from: win_rate, standard_error, n_wins, n_wins_base, n_draws, n_total, discrete_win_rate (%),
# length_controlled_winrate (%).
LEADERBOARD = {
    "NullModel": (76.91979180386511, 0.9090102449662572, 676, 129, 0, 805, 83.97515527950311, 86.45780691307947),
    "FuseChat-Gemma-2-9B-Instruct": (70.49713534560247, 1.3426390784895994, 575, 225, 5, 805, 71.73913043478261, 70.18106263911686),
    "FuseChat-Llama-3.2-3B-Instruct": (51.29667710101864, 1.482579367297701, 424, 378, 3, 805, 52.85714285714286, 53.99883748344241),
    "FuseChat-Llama-3.2-1B-Instruct": (29.9219322658882, 1.3934584328741797, 233, 570, 2, 805, 29.068322981366464, 25.27098247880791),
    "claude-2.1": (15.733506736409938, 1.120315865445773, 115, 688, 2, 805, 14.409937888198757, 25.251943886133027),
    "Mixtral-8x7B-Instruct-v0.1_concise": (13.744040154795034, 1.071868299237546, 105, 700, 0, 805, 13.043478260869565, 22.962609472758643),
    "gpt-3.5-turbo-1106_verbose": (12.76316981026087, 1.044246819212278, 94, 709, 2, 805, 11.801242236024844, 22.00093702171442),
    "gpt-3.5-turbo-1106": (9.177964561962735, 0.8904117511864436, 64, 737, 4, 805, 8.198757763975156, 19.30058903498905),
    "claude-2.1_concise": (9.22712524063354, 0.8921752289142333, 72, 730, 3, 805, 9.130434782608695, 18.2084579084493),
    "OpenHermes-2.5-Mistral-7B": (10.340415705751552, 0.935655389929366, 75, 727, 3, 805, 9.503105590062113, 16.248577696674843),
    "gpt-3.5-turbo-1106_concise": (7.41586497762733, 0.8374438113826953, 57, 744, 4, 805, 7.329192546583851, 15.769520983894386),
    "gpt4_gamed": (3.7383373713788814, 0.6278799633668313, 32, 771, 2, 805, 4.099378881987578, 12.188764057640531),
    "alpaca-7b_verbose": (2.9331016025062344, 0.5302092824422211, 22, 778, 2, 802, 2.8678304239401498, 6.816306816367379),
    "alpaca-7b": (2.591450540223603, 0.4870855382635108, 17, 785, 3, 805, 2.298136645962733, 5.875487163278986),
}


def _files() -> list[Path]:
    return sorted(p for p in (DATA / "annotations").glob("*.annotations.json.gz")
                  if not p.name.startswith(BASELINE + "."))


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("suites") / "alpaca_eval"
    res = import_alpaca_eval(_files(), folder, reference=DATA / "reference" / "gpt4_1106_preview.model_outputs.json.gz",
                             difficulty=DATA / "derived" / "instruction_difficulty_recovered.csv")
    assert res.comparisons == 805 * 13 + 802 and not res.skipped
    return folder


def _read(folder: Path, table: str) -> pd.DataFrame:
    return pd.concat([pd.read_csv(f, dtype=str, keep_default_na=False) for f in sorted((folder / table).glob("*.csv"))],
                     ignore_index=True)


@pytest.fixture(scope="module")
def comparisons(suite) -> pd.DataFrame:
    """The imported suite as int_comparisons' columns (systems, lengths, difficulty joined as the model does)."""
    c, r, i = _read(suite, "comparisons"), _read(suite, "responses"), _read(suite, "items")
    system = dict(zip(r["response_id"], r["system_id"]))
    length = dict(zip(r["response_id"], r["response_text"].str.len()))
    diff = {k: json.loads(m).get("instruction_difficulty") for k, m in zip(i["item_id"], i["metadata"])}
    return pd.DataFrame({
        "suite": "alpaca_eval", "rater_group": c["rater_id"], "item_id": c["item_id"],
        "response_id_a": c["response_id_a"], "response_id_b": c["response_id_b"],
        "system_a": c["response_id_a"].map(system), "system_b": c["response_id_b"].map(system),
        "shown_first": c["shown_first"], "preference": c["preference"].astype(float),
        "length_a": c["response_id_a"].map(length), "length_b": c["response_id_b"].map(length),
        "instruction_difficulty": c["item_id"].map(diff), "judge_model": c["judge_model"],
        "comparison_problem": None, "metadata": c["metadata"]})


def test_import_is_checked_idempotent_and_refuses_the_self_comparison(suite, tmp_path):
    from evalhouse.suites.check import check_suite

    data, problems = check_suite(suite)
    assert problems == []
    assert len(data.tables["items"]) == 805 and len(data.tables["responses"]) == 805 + 805 * 13 + 802
    again = import_alpaca_eval(_files()[:2], suite)
    assert again.written == [] and len(again.skipped) == 2
    with pytest.raises(ImportError_, match="baseline compared with itself|is the baseline"):
        import_alpaca_eval([DATA / "annotations" / f"{BASELINE}.annotations.json.gz"], tmp_path / "x")
    assert not (tmp_path / "x").exists()


def test_win_rates_equal_the_leaderboard(comparisons):
    """Win rate, standard error, counts and discrete win rate of every shipped model = the published figures."""
    table = pm.win_rates(comparisons, pd.DataFrame({"suite": ["alpaca_eval"], "name": [BASELINE], "family": [None],
                                                    "is_baseline": [True]}))
    vs = table[table["opponent_is_baseline"]].set_index("system_id")
    assert set(vs.index) == set(LEADERBOARD)
    for model, (wr, se, wins, base, draws, n, discrete, _) in LEADERBOARD.items():
        row = vs.loc[model]
        assert 100 * row["win_rate"] == pytest.approx(wr, abs=1e-6), model
        assert 100 * row["win_rate_se"] == pytest.approx(se, abs=1e-6), model
        assert (row["wins"], row["losses"], row["draws"], row["n_comparisons"]) == (wins, base, draws, n), model
        assert 100 * row["discrete_win_rate"] == pytest.approx(discrete, abs=1e-9), model
        assert row["win_rate_low"] == pytest.approx(row["win_rate"] - pw.Z95 * row["win_rate_se"])
    # the baseline against itself (not imported: identical answers) is 50 % by construction
    with gzip.open(DATA / "annotations" / f"{BASELINE}.annotations.json.gz") as fh:
        self_prefs = [r["preference"] - 1 for r in json.load(fh)]
    assert pw.win_rate(self_prefs).win_rate == 0.5 and pw.win_rate(self_prefs).draws == 805


def test_length_controlled_win_rate_against_the_leaderboard(comparisons, capsys):
    """Our refit (no df_gamed regulariser, no L1/CV) against the published LC: same direction of the correction for
    every model, same order; the table is printed for the report."""
    lc, lc_len_only = {}, {}
    for model in LEADERBOARD:
        g = comparisons[comparisons["system_b"] == model]
        args = (g["preference"].to_numpy(float), g["length_b"].to_numpy(float), g["length_a"].to_numpy(float))
        full = pw.length_controlled_win_rate(*args, g["instruction_difficulty"].tolist())
        assert full.inputs == "length+difficulty"
        lc[model] = 100 * full.value
        lc_len_only[model] = 100 * pw.length_controlled_win_rate(*args).value
    from scipy.stats import spearmanr

    published = {m: v[7] for m, v in LEADERBOARD.items()}
    with capsys.disabled():
        print("\nmodel | win rate | published LC | our LC (length+difficulty) | our LC (length only)")
        for m in LEADERBOARD:
            print(f"{m} | {LEADERBOARD[m][0]:.2f} | {published[m]:.2f} | {lc[m]:.2f} | {lc_len_only[m]:.2f}")
    for m in LEADERBOARD:
        assert np.sign(lc[m] - LEADERBOARD[m][0]) == np.sign(published[m] - LEADERBOARD[m][0]), m
    # what the missing difficulty costs: the length-only fit is much further from the published figures
    mae_full = np.mean([abs(lc[m] - published[m]) for m in LEADERBOARD])
    mae_len = np.mean([abs(lc_len_only[m] - published[m]) for m in LEADERBOARD])
    with capsys.disabled():
        rho = spearmanr([lc[m] for m in LEADERBOARD], [published[m] for m in LEADERBOARD]).statistic
        print(f"mean |ours - published|: length+difficulty {mae_full:.2f} pp, length only {mae_len:.2f} pp; "
              f"Spearman(ours, published) {rho:.3f}")
    assert mae_full < mae_len


def test_shown_order_from_logprobs_equals_the_seeded_rule_and_the_derived_file(suite):
    with open(DATA / "derived" / "judge_position_order.csv") as fh:
        flags = {int(r["index"]): r["is_switched_outputs"] == "True" for r in csv.DictReader(fh)}
    with gzip.open(DATA / "reference" / "gpt4_1106_preview.model_outputs.json.gz") as fh:
        ref = json.load(fh)
    assert all((shown_first_by_rule(r["instruction"]) == "b") == flags[k] for k, r in enumerate(ref))
    c = _read(suite, "comparisons")
    from_logprobs = c[c["metadata"].str.contains('"shown_first_from": "raw_completion"')]
    assert len(from_logprobs) > 8000
    by_rule = from_logprobs["item_id"].map(dict(zip(_read(suite, "items")["item_id"],
                                                    (shown_first_by_rule(t) for t in _read(suite, "items")["input_text"]))))
    assert (from_logprobs["shown_first"] == by_rule).all()


def test_position_and_length_diagnostics(comparisons, capsys):
    diag = pm.judge_diagnostics(comparisons, pd.DataFrame(columns=["suite", "name", "family", "is_baseline"]))
    d = diag.set_index(["diagnostic", "subset"])
    second, first, longer = (d.loc[("p_prefer_second_slot", "all")], d.loc[("p_prefer_first_slot", "all")],
                             d.loc[("p_prefer_longer", "all")])
    assert second["n"] == len(comparisons) and second["estimate"] + first["estimate"] == pytest.approx(1)
    assert second["estimate_low"] < second["estimate"] < second["estimate_high"]
    # cross-check by another route: P(prefer the first slot) = mean P(m) read from the judge's log-probabilities
    pm_values, rows = [], []
    for f in _files():
        with gzip.open(f) as fh:
            for r in json.load(fh):
                raw = r.get("raw_completion")
                if raw and _shown_first_from_logprobs(raw, float(r["preference"])) is not None:
                    tops = {t["token"]: math.exp(t["logprob"]) for t in raw["logprobs"]["content"][0]["top_logprobs"]
                            if t["token"] in ("m", "M")}
                    pm_values.append(tops.get("m", 0) / sum(tops.values()))
                    rows.append(r["instruction"])
    has_raw = comparisons[comparisons["metadata"].str.contains('"shown_first_from": "raw_completion"')]
    _, first_raw = pw.slot_preference(has_raw["preference"].tolist(), has_raw["shown_first"].tolist())
    assert len(pm_values) == len(has_raw)
    assert first_raw.value == pytest.approx(float(np.mean(pm_values)), abs=1e-9)
    # P(prefer the longer answer) directly from the texts
    q = [(p if lb > la else 1 - p) for p, la, lb in zip(comparisons["preference"], comparisons["length_a"],
                                                      comparisons["length_b"]) if la != lb]
    assert longer["estimate"] == pytest.approx(float(np.mean(q))) and longer["n"] == len(q)
    variants = d.xs("p_prefer_longer_matched_variants", level="diagnostic")
    assert set(variants.index) == {"gpt-3.5-turbo-1106", "claude-2.1", "alpaca-7b", "Mixtral-8x7B-Instruct-v0.1"}
    with capsys.disabled():
        print("\n" + diag[["diagnostic", "subset", "estimate", "estimate_low", "estimate_high", "n",
                           "estimate_reason"]].to_string())


def test_the_cli_imports_several_annotation_files_at_once(tmp_path, monkeypatch):
    """The README's command passes a glob of annotation files; the command took one path and stopped at the second
    ("Got unexpected extra argument", trial)."""
    from typer.testing import CliRunner

    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    two = [str(f) for f in _files()[:2]]
    res = CliRunner().invoke(app, ["import-runs", "--from", "alpaca-eval", "--suite", "two_models", *two])
    assert res.exit_code == 0, res.output
    assert "1610 comparisons imported into suites/two_models" in res.output
    assert len(list((tmp_path / "suites" / "two_models" / "comparisons").glob("*.csv"))) == 2
