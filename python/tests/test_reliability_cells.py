"""The judge-human marts' path through sufficient statistics: agreement.correlations_from_cells (weighted cells)
against scipy on the expanded pairs, score_cells (int_reliability_cells) on a hand-made table, and the three tables
read from the cells against the same statistics computed row by row."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalhouse.stats import agreement, reliability

NAN = float("nan")
REASONS = {"fewer than two complete pairs", "x is constant (all tied): correlation undefined",
           "y is constant (all tied): correlation undefined"}


def _random_cells(rng, count=300):
    """Random weighted samples: tied integer scores against half-point means, continuous values, a constant side,
    zero weights, NaN cells, repeated (x, y) cells, n = 0 / 1 / 2, and a few large weights."""
    samples = []
    for k in range(count):
        m = int(rng.integers(0, 14)) if k % 10 else int(rng.integers(0, 3))
        kind = k % 5
        if kind == 0:
            x, y = rng.integers(0, 3, m).astype(float), rng.integers(0, 5, m) / 2
        elif kind == 1:
            x, y = rng.normal(size=m).round(1), rng.integers(1, 4, m).astype(float)
        elif kind == 2:
            x, y = np.full(m, 2.0), rng.integers(0, 5, m).astype(float)
        elif kind == 3:
            x, y = rng.normal(size=m), rng.normal(size=m)
        else:
            x, y = rng.integers(0, 3, m).astype(float), np.full(m, 1.5)
        w = rng.integers(0, 6, m) if k % 4 else rng.integers(1, 3, m)
        if m and k % 7 == 0:
            x[rng.random(m) < 0.3] = NAN
        if m > 1 and k % 3 == 0:  # the same value twice: cells need not be unique
            x[-1], y[-1] = x[0], y[0]
        samples.append((x, y, w))
    return samples


def _concat(samples):
    g = np.concatenate([np.full(len(x), k) for k, (x, _, _) in enumerate(samples)])
    x, y, w = (np.concatenate([s[i] for s in samples]) for i in range(3))
    return g, x, y, w


def _scipy(method, a, b):
    if method == "kendall_tau_b":
        return sps.kendalltau(a, b, variant="b").statistic
    if method == "spearman":
        return sps.spearmanr(a, b).statistic
    return sps.pearsonr(a, b).statistic if a.size > 2 else np.sign((a[1] - a[0]) * (b[1] - b[0]))


def test_correlations_from_cells_equal_scipy_on_the_expanded_pairs():
    rng = np.random.default_rng(21)
    samples = _random_cells(rng)
    g, x, y, w = _concat(samples)
    shuffle = rng.permutation(g.size)  # cells in any order
    got = agreement.correlations_from_cells(g[shuffle], x[shuffle], y[shuffle], w[shuffle], len(samples))
    one = {"kendall_tau_b": agreement.kendall_tau_b, "spearman": agreement.spearman_rho,
           "pearson": agreement.pearson_r}
    defined = set()
    for method, fn in one.items():
        for k, (xs, ys, ws) in enumerate(samples):
            ex, ey = np.repeat(xs, ws), np.repeat(ys, ws)
            expected = fn(ex, ey)
            res = got[method][k]
            assert (res.n, res.reason) == (expected.n, expected.reason), (method, k)
            assert (res.value is None) == (expected.value is None), (method, k)
            if res.value is None:
                continue
            defined.add(k)
            keep = ~(np.isnan(ex) | np.isnan(ey))
            assert res.value == pytest.approx(float(_scipy(method, ex[keep], ey[keep])), abs=1e-12), (method, k)
            if method == "kendall_tau_b":  # exact integer pair counts through scipy's own expression
                assert res.value == expected.value
    assert len(defined) > 100
    assert {r.reason for r in got["kendall_tau_b"]} == REASONS | {None}


def test_correlations_from_cells_large_weights_and_a_table_too_large_to_count_densely(monkeypatch):
    rng = np.random.default_rng(4)
    # a 0-2 judge against the mean of two 0-2 raters over ~300k responses (4.5e10 pairs: beyond 32 bits): 15 cells
    x, y = np.repeat([0.0, 1.0, 2.0], 5), np.tile([0.0, 0.5, 1.0, 1.5, 2.0], 3)
    w = rng.integers(10_000, 30_000, x.size)
    # and continuous values on both sides, whose levels table (300 x 300) is counted on the expanded pairs instead
    cx, cy, cw = rng.normal(size=300), rng.normal(size=300), rng.integers(1, 4, 300)
    monkeypatch.setattr(agreement, "_DENSE_CELLS", 0)
    got = agreement.correlations_from_cells(np.repeat([0, 1], [x.size, cx.size]), np.concatenate([x, cx]),
                                            np.concatenate([y, cy]), np.concatenate([w, cw]), 2)
    for k, (a, b, c) in enumerate([(x, y, w), (cx, cy, cw)]):
        ea, eb = np.repeat(a, c), np.repeat(b, c)
        assert got["kendall_tau_b"][k].n == int(c.sum())
        assert got["kendall_tau_b"][k].value == float(sps.kendalltau(ea, eb, variant="b").statistic)
        assert got["spearman"][k].value == pytest.approx(sps.spearmanr(ea, eb).statistic, abs=1e-12)
        assert got["pearson"][k].value == pytest.approx(sps.pearsonr(ea, eb).statistic, abs=1e-12)


def test_correlations_from_cells_hand_example_and_bad_arguments():
    # pairs (1,1) x2, (2,1), (2,2), (3,3): concordant 6, discordant 0, tied in x only 1 (the two x = 2),
    # tied in y only 2 ((1,1)-(2,1) twice), tied in both 1 (the two (1,1)): tot 10, tau_b = 6 / sqrt(8 * 7)
    got = agreement.correlations_from_cells([0, 0, 0, 0], [1, 2, 2, 3], [1, 1, 2, 3], [2, 1, 1, 1], 1)
    assert got["kendall_tau_b"][0].value == pytest.approx(6 / np.sqrt(8 * 7))
    assert got["kendall_tau_b"][0].n == 5
    # one cell of weight 2: two pairs, both sides constant -> x's reason first
    one = agreement.correlations_from_cells([0], [1.0], [2.0], [2], 1)["spearman"][0]
    assert (one.value, one.n, one.reason) == (None, 2, "x is constant (all tied): correlation undefined")
    empty = agreement.correlations_from_cells([], [], [], [], 2)["pearson"]
    assert [(r.value, r.n, r.reason) for r in empty] == [(None, 0, "fewer than two complete pairs")] * 2
    with pytest.raises(ValueError, match="same length"):
        agreement.correlations_from_cells([0, 0], [1, 2], [1], [1, 1], 1)
    with pytest.raises(ValueError, match=">= 0"):
        agreement.correlations_from_cells([0, 0], [1, 2], [1, 2], [1, -1], 1)
    with pytest.raises(ValueError, match="out of range"):
        agreement.correlations_from_cells([0, 1], [1, 2], [1, 2], [1, 1], 1)
    with pytest.raises(ValueError, match="unknown correlation"):
        agreement.correlations_from_cells([0], [1], [1], [1], 1, methods=["kendall"])


# ------------------------------------------------------------------------------------------- score_cells

def _long(rows: list[tuple]) -> pd.DataFrame:
    """int_reliability_scores-shaped rows from (response, system, rater, kind, score, as_recorded, chars)."""
    out = []
    for response, system, rater, kind, score, recorded, chars in rows:
        out.append(dict(suite="s", task=None, rubric_id="r", rubric_version=1, criterion="c", min_score=1,
                        max_score=5, response_id=response, item_id=response, system_id=system,
                        is_reference_system=system == "ref", response_chars=chars, rater_id=rater,
                        rater_kind=kind, score_value=score, score_value_as_recorded=recorded,
                        n_scores=int(score is not None), n_excluded=int(score is None),
                        n_excluded_as_recorded=int(recorded is None), excluded_reason=None))
    return pd.DataFrame(out)


def test_score_cells_counts_equal_values_under_each_policy():
    t = _long([
        ("u1", "a", "h1", "human", 2.0, 2.0, 10), ("u1", "a", "h2", "human", 3.0, 3.0, 10),
        ("u1", "a", "j", "judge", 4.0, 4.0, 10),
        ("u2", "a", "h1", "human", 3.0, 3.0, 20), ("u2", "a", "h2", "human", 2.0, 2.0, 20),
        ("u2", "a", "j", "judge", 4.0, 4.0, 20),
        ("u3", "ref", "h1", "human", 4.0, 4.0, 10), ("u3", "ref", "j", "judge", None, -1.0, 10),
    ])
    cells = reliability.score_cells(t).df()
    assert list(cells.columns) == reliability.CELLS_COLUMNS
    assert len(cells) == 2 * 8  # per policy: h1 3 cells, h2 2, the judge 3 (two lengths, and ref's failure)
    ex = cells[cells.judge_failure_policy == "excluded"]
    # u1 and u2: the same human mean 2.5 from two raters; h2's two scores are 3 and 2: two cells
    h2 = cells[(cells.judge_failure_policy == "excluded") & (cells.rater_id == "h2")]
    assert sorted(zip(h2.score_value, h2.human_mean, h2.n_human_raters, h2.n_responses)) == [
        (2.0, 2.5, 2, 1), (3.0, 2.5, 2, 1)]
    assert h2.response_chars.isna().all()  # no reply length on a human's cells
    judge = ex[ex.rater_id == "j"]
    assert sorted(zip(judge.score_value.fillna(-9), judge.human_mean, judge.response_chars, judge.n_responses,
                      judge.n_excluded, judge.is_reference_system)) == [
        (-9, 4.0, 10, 1, 1, True), (4.0, 2.5, 10, 1, 0, False), (4.0, 2.5, 20, 1, 0, False)]
    rec = cells[(cells.judge_failure_policy == "as_recorded") & (cells.rater_id == "j") & cells.is_reference_system]
    assert (rec.score_value.tolist(), rec.n_excluded.tolist()) == ([-1.0], [0])
    one_human = cells[(cells.rater_id == "h1") & (cells.score_value == 4.0)]
    assert one_human.n_human_raters.tolist() == [1, 1] and one_human.human_mean.tolist() == [4.0, 4.0]


def test_score_cells_reads_the_human_means_int_reliability_scores_gives():
    """int_reliability_scores carries each response's human mean and count per policy (computed there by pandas
    here, by a window in the model); score_cells then reads them instead of its own window: the same cells."""
    t = pd.concat([_random_long(np.random.default_rng(3)),  # and a response without a usable human score
                   _long([("u-none", "s1", "h0", "human", None, None, 10),
                          ("u-none", "s1", "judge", "judge", 3.0, 3.0, 10)])],
                  ignore_index=True)
    keys = ["suite", "task", "rubric_id", "rubric_version", "criterion", "response_id"]
    with_means = t.copy()
    for col, mean, count in (("score_value", "human_mean", "n_human_raters"),
                             ("score_value_as_recorded", "human_mean_as_recorded", "n_human_raters_as_recorded")):
        human = t[col].where(t.rater_kind == "human")
        grouped = human.groupby([t[k].fillna("") for k in keys])
        with_means[mean] = grouped.transform("mean")
        with_means[count] = grouped.transform("count")
    assert with_means.n_human_raters.max() == 3 and with_means.human_mean.isna().any()
    # a wrong precomputed mean would show: the cells are counted by it
    order = reliability.CELLS_COLUMNS
    own = reliability.score_cells(t).df().sort_values(order[:-2]).reset_index(drop=True)
    read = reliability.score_cells(with_means).df().sort_values(order[:-2]).reset_index(drop=True)
    pd.testing.assert_frame_equal(own, read)
    shifted = with_means.assign(human_mean=with_means.human_mean + 1)
    assert not reliability.score_cells(shifted).df().human_mean.sort_values().reset_index(drop=True).equals(
        own.human_mean.sort_values().reset_index(drop=True))


# ------------------------------------------------------------------------------------------- the three tables

def _random_long(rng, n_units=60) -> pd.DataFrame:
    """Three humans (1-5, some missing), a judge on half points with a failure code, a continuous metric, a
    reference system, reply lengths with ties."""
    systems = ["ref", "s1", "s2", "s3"]
    rows = []
    for u in range(n_units):
        system, chars = systems[u % 4], int(rng.integers(1, 6)) * 10
        for h in range(3):
            score = float(rng.integers(1, 6)) if rng.random() > 0.1 else None
            rows.append((f"u{u}", system, f"h{h}", "human", score, score, chars))
        judge = float(rng.integers(2, 11)) / 2
        failed = rng.random() < 0.1
        rows.append((f"u{u}", system, "judge", "judge", None if failed else judge, -1.0 if failed else judge, chars))
        metric = float(rng.normal())
        rows.append((f"u{u}", system, "metric", "metric", metric, metric, chars))
    return _long(rows)


def _pairs(t: pd.DataFrame, policy: str) -> pd.DataFrame:
    """Row-level reference: response x rater with the rater's score and the response's human mean (policy)."""
    col = "score_value" if policy == "excluded" else "score_value_as_recorded"
    human = t[(t.rater_kind == "human") & t[col].notna()].groupby("response_id")[col].mean().rename("human_mean")
    out = t.join(human, on="response_id")
    return out[out[col].notna() & out.human_mean.notna()].assign(score=out[col])


@pytest.mark.parametrize("policy", ["excluded", "as_recorded"])
def test_judge_human_table_from_cells_equals_the_row_level_statistics(policy):
    t = _random_long(np.random.default_rng(8))
    got = reliability.judge_human_table(reliability.score_cells(t))
    got = got[got.judge_failure_policy == policy].set_index(["rater_id", "level", "reference_system_included"])
    assert len(got) == 5 * 2 * 2  # 5 raters x 2 levels x with / without the reference system
    pairs = _pairs(t, policy)
    for (rater, level, include_ref), row in got.iterrows():
        p = pairs[(pairs.rater_id == rater) & (include_ref | ~pairs.is_reference_system)]
        if level == "system":
            by_system = p.groupby("system_id")[["score", "human_mean"]].mean()
            x, y = by_system.score.to_numpy(), by_system.human_mean.to_numpy()
        else:
            x, y = p.score.to_numpy(), p.human_mean.to_numpy()
        assert row["n"] == len(x) and row["n_systems"] == p.system_id.nunique()
        # (system means are rounded to 12 significant digits before they are correlated)
        tol = 1e-12 if level == "item" else 1e-10
        for col, ref in (("kendall_tau_b", sps.kendalltau(x, y, variant="b").statistic),
                         ("spearman_rho", sps.spearmanr(x, y).statistic), ("pearson_r", sps.pearsonr(x, y).statistic)):
            assert row[col] == pytest.approx(ref, abs=tol), (rater, level, include_ref, col)
        assert row["comparison"] == ("human_ceiling" if rater.startswith("h") else row["rater_kind"])


@pytest.mark.parametrize("policy", ["excluded", "as_recorded"])
def test_judge_diagnostics_table_from_cells_equals_the_row_level_statistics(policy):
    t = _random_long(np.random.default_rng(9))
    got = reliability.judge_diagnostics_table(reliability.score_cells(t))
    got = got[got.judge_failure_policy == policy].set_index("rater_id")
    assert sorted(got.index) == ["judge", "metric"]
    pairs = _pairs(t, policy)
    excluded_col = "n_excluded" if policy == "excluded" else "n_excluded_as_recorded"
    for rater, row in got.iterrows():
        p = pairs[pairs.rater_id == rater]
        j, h, chars = p.score.to_numpy(), p.human_mean.to_numpy(), p.response_chars.to_numpy(float)
        assert row["n_items"] == len(j) == row["n_items_with_text"]
        assert row["n_judge_scores_excluded"] == t.loc[t.rater_id == rater, excluded_col].sum()
        assert row["judge_mean"] == pytest.approx(j.mean(), rel=1e-12)
        assert row["human_mean"] == pytest.approx(h.mean(), rel=1e-12)
        assert row["mean_bias"] == pytest.approx((j - h).mean(), abs=1e-12)
        assert row["judge_variance"] == pytest.approx(j.var(ddof=1), rel=1e-12)
        assert row["human_mean_variance"] == pytest.approx(h.var(ddof=1), rel=1e-12)
        assert row["same_level_share"] == pytest.approx(np.mean(np.floor(j + 0.5) == np.floor(h + 0.5)))
        assert row["judge_length_spearman"] == pytest.approx(sps.spearmanr(j, chars).statistic, abs=1e-12)
        assert row["human_length_spearman"] == pytest.approx(sps.spearmanr(h, chars).statistic, abs=1e-12)
    if policy == "as_recorded":  # the failure codes are used as scores: nothing excluded
        assert got.loc["judge", "n_judge_scores_excluded"] == 0


def test_system_rankings_table_from_cells_equals_the_row_level_means():
    t = _random_long(np.random.default_rng(10))
    got = reliability.system_rankings_table(reliability.score_cells(t)).set_index(["ranker", "system_id"])
    rankers = ["h0", "h1", "h2", "judge", "metric", "human_mean"]
    assert sorted(got.index.get_level_values(0).unique()) == sorted(rankers)
    human = t[(t.rater_kind == "human") & t.score_value.notna()].groupby(["response_id", "system_id"])[
        "score_value"].mean().reset_index()
    for ranker in rankers:
        if ranker == "human_mean":
            by_system = human.groupby("system_id")["score_value"]
        else:
            by_system = t[(t.rater_id == ranker) & t.score_value.notna()].groupby("system_id")["score_value"]
        means, counts = by_system.mean(), by_system.size()
        ranks = sps.rankdata(-means.to_numpy())
        for system_id, mean, count, rank in zip(means.index, means, counts, ranks):
            row = got.loc[(ranker, system_id)]
            assert row["mean_score"] == pytest.approx(mean, rel=1e-11) and row["n_responses"] == count
            assert row["system_rank"] == rank and row["is_reference_system"] == (system_id == "ref")
        assert got.loc[(ranker, "s1"), "ranker_kind"] == ("human_mean" if ranker == "human_mean" else
                                                         t.loc[t.rater_id == ranker, "rater_kind"].iloc[0])


def test_a_group_without_human_scores_keeps_its_rows_with_reasons():
    t = _long([("u1", "a", "j", "judge", 3.0, 3.0, 10), ("u2", "b", "j", "judge", 4.0, 4.0, 20),
               ("u1", "a", "h", "human", None, None, 10)])
    cells = reliability.score_cells(t)
    jh = reliability.judge_human_table(cells)
    assert set(jh["n"]) == {0} and set(jh["correlation_reason"]) == {"fewer than two complete pairs"}
    diag = reliability.judge_diagnostics_table(cells)
    assert diag["diagnostics_reason"].tolist() == ["no response scored by both the judge and a human"] * 2
    assert diag["length_reason"].tolist() == ["no response texts in this suite"] * 2
    ranks = reliability.system_rankings_table(cells).set_index(["ranker", "system_id"])
    assert ranks.loc[("j", "b"), "system_rank"] == 1.0
    assert ranks.loc[("human_mean", "a"), "n_responses"] == 0 and pd.isna(ranks.loc[("human_mean", "a"), "mean_score"])



def test_group_sums_do_not_depend_on_the_order_of_the_cells():
    # DuckDB lists cells in no fixed order; added in list order, 0.1 + 0.2 + 0.3 is 0.6000000000000001 one way and
    # 0.6 the other, and a system mean rounded to 12 digits can then flip. _group_sums adds them in one order.
    assert (0.1 + 0.2) + 0.3 != (0.3 + 0.2) + 0.1
    key, w, x = np.array([5, 5, 5, 2]), np.array([1, 1, 1, 2]), np.array([0.1, 0.2, 0.3, 0.25])
    forward = reliability._group_sums(key, w, x)
    backward = reliability._group_sums(key[[2, 1, 0, 3]], w[[2, 1, 0, 3]], x[[2, 1, 0, 3]])
    for a, b in zip(forward[:2] + tuple(forward[2]), backward[:2] + tuple(backward[2])):
        assert np.array_equal(a, b)
    assert forward[0].tolist() == [2, 5] and forward[1].tolist() == [2.0, 3.0]
    assert forward[2][0] == pytest.approx([0.5, 0.6], abs=1e-15)
