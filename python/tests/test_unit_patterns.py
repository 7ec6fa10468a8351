"""Reliability statistics from aggregates (evalhouse.stats.unit_patterns) and the two marts computed from them
(fct_interrater_reliability, fct_coder_set_alpha through int_reliability_unit_patterns), against the reference
libraries (krippendorff, scipy) and the raw-data functions of evalhouse.stats.agreement on the expanded data."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalhouse.stats import agreement, reliability, unit_patterns
from evalhouse.stats.unit_patterns import UnitPatterns

NAN = float("nan")
LEVELS = ("nominal", "ordinal", "interval")


def aggregated(m: np.ndarray) -> UnitPatterns:
    """The rows of a units x raters matrix counted by pattern (the sorted usable values): what SQL hands over."""
    counts: dict[tuple, int] = {}
    for row in np.asarray(m, dtype=float):
        key = tuple(sorted(row[~np.isnan(row)]))
        if key:
            counts[key] = counts.get(key, 0) + 1
    return UnitPatterns.from_lists([list(k) for k in counts], list(counts.values()))


def random_matrix(rng, fractional: bool, missing: float = 0.3) -> np.ndarray:
    m = rng.integers(1, 6, (int(rng.integers(3, 30)), int(rng.integers(2, 6)))).astype(float)
    if fractional:
        m += rng.integers(0, 3, m.shape) * 0.5
    m[rng.random(m.shape) < missing] = np.nan
    return m


def n_raters(m: np.ndarray) -> int:
    return int(np.sum(np.any(~np.isnan(m), axis=0)))


# ---------------------------------------------------------------- Krippendorff's alpha from coincidence cells

def test_coincidence_matrix_by_hand():
    # unit 1 = (1, 1, 2): o_11 = 2*1/2, o_12 = o_21 = 2*1/2, o_22 = 0; unit 2 = (1, 2): o_12 = o_21 = 1
    values, o = unit_patterns.coincidences(UnitPatterns.from_lists([[1, 1, 2], [1, 2]]))
    assert values.tolist() == [1.0, 2.0]
    assert np.asarray(o).tolist() == [[1.0, 2.0], [2.0, 0.0]]
    # a unit rated once is not pairable; a pattern's units count as many units
    values, o = unit_patterns.coincidences(UnitPatterns.from_lists([[1, 2], [5]], [3, 10]))
    assert values.tolist() == [1.0, 2.0] and np.asarray(o).tolist() == [[0.0, 3.0], [3.0, 0.0]]


def test_alpha_from_patterns_equals_krippendorff_package_with_missing_values():
    import krippendorff

    rng = np.random.default_rng(11)
    checked = 0
    for t in range(150):
        m = random_matrix(rng, fractional=bool(t % 2))
        keep = (~np.isnan(m)).sum(axis=1) >= 2
        ours = unit_patterns.krippendorff_alphas(aggregated(m), n_raters(m))
        for level in LEVELS:
            raw = agreement.krippendorff_alpha(m, level)
            assert (ours[level].value is None) == (raw.value is None)
            assert (ours[level].n, ours[level].reason) == (raw.n, raw.reason)
            if raw.value is None:
                continue
            ref = krippendorff.alpha(reliability_data=m[keep].T, level_of_measurement=level)
            assert ours[level].value == pytest.approx(float(ref), abs=1e-12)
            checked += 1
    assert checked > 400


def test_alpha_from_coincidences_krippendorff_2011_example():
    data = np.array([
        [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
        [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
    ]).T
    values, o = unit_patterns.coincidences(aggregated(data))
    # the paper's value totals n_c (11 pairable units, 40 pairable values)
    assert np.asarray(o).sum(axis=1) == pytest.approx([9, 13, 10, 5, 3]) and values.tolist() == [1, 2, 3, 4, 5]
    got = {lv: unit_patterns.krippendorff_alpha_coincidences(values, o, lv, 11) for lv in LEVELS + ("ratio",)}
    assert [round(got[lv].value, 3) for lv in ("nominal", "ordinal", "interval", "ratio")] == \
        [0.743, 0.815, 0.849, 0.797]
    assert got["nominal"].n == 11


@pytest.mark.parametrize("lists, units, raters, reason", [
    ([[3, 3], [3, 3, 3]], [5, 2], 3, "all pairable ratings are equal"),     # a constant rating
    ([[1], [2], [3]], [1, 1, 1], 2, "no unit has two or more ratings"),     # every unit rated once
    ([[1], [2]], [4, 1], 1, "fewer than two raters"),                        # one rater
    ([], [], 0, "fewer than two raters"),                                    # nothing at all
])
def test_alpha_from_patterns_undefined_is_null_with_reason(lists, units, raters, reason):
    for r in unit_patterns.krippendorff_alphas(UnitPatterns.from_lists(lists, units), raters).values():
        assert r.value is None and reason in r.reason


def test_alpha_one_unit_and_ordinal_limit():
    one = unit_patterns.krippendorff_alphas(UnitPatterns.from_lists([[1, 2]]), 2)
    assert one["nominal"].n == 1 and one["nominal"].value == pytest.approx(
        agreement.krippendorff_alpha([[1, 2]], "nominal").value)
    many = UnitPatterns.from_lists([[i, i + 0.5] for i in range(1500)])
    got = unit_patterns.krippendorff_alphas(many, 2)
    assert got["ordinal"].value is None and "limit" in got["ordinal"].reason
    assert got["interval"].value == pytest.approx(
        agreement.krippendorff_alpha([[i, i + 0.5] for i in range(1500)], "interval").value, abs=1e-12)


# ---------------------------------------------------------------- ICC(1,1) from the ANOVA sums

def test_icc_from_sums_equals_raw_formula():
    rng = np.random.default_rng(5)
    for t in range(120):
        m = random_matrix(rng, fractional=bool(t % 3 == 0), missing=0.15 if t % 2 else 0.0)
        raw = agreement.icc1(m)
        ours = unit_patterns.icc1(aggregated(m), n_raters(m))
        assert ours.k == raw.k
        for a, b in ((ours.single, raw.single), (ours.average, raw.average)):
            assert (a.n, a.reason) == (b.n, b.reason)
            assert (a.value is None) == (b.value is None)
            if b.value is not None:
                assert a.value == pytest.approx(b.value, abs=1e-12)


def test_icc_from_sums_shrout_fleiss_and_edge_cases():
    sf = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]], float)
    sums, ss = sf.sum(axis=1), ((sf - sf.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    r = unit_patterns.icc1_from_sums(sums, ss, 4)
    assert round(r.single.value, 2) == 0.17 and round(r.average.value, 2) == 0.44 and r.single.n == 6
    # one unit (n < 2), one rater, a constant rating, no variance between units
    assert "two units" in unit_patterns.icc1_from_sums([3.0], [2.0], 2).single.reason
    assert unit_patterns.icc1(UnitPatterns.from_lists([[1], [2]]), 1).single.reason == \
        "fewer than two raters with ratings"
    const = unit_patterns.icc1(UnitPatterns.from_lists([[3, 3]], [5]), 2)
    assert const.single.value is None and "no variance" in const.single.reason
    flat = unit_patterns.icc1(UnitPatterns.from_lists([[1, 3], [2, 2]], [2, 2]), 2)  # every unit mean is 2
    assert flat.single.value == pytest.approx(agreement.icc1([[1, 3], [3, 1], [2, 2], [2, 2]]).single.value)
    assert flat.average.value is None and "MS_B = 0" in flat.average.reason
    # units missing a rater are left out (listwise), as agreement.icc1 does
    gap = unit_patterns.icc1(UnitPatterns.from_lists([[1, 2], [2, 3], [5]]), 2)
    assert gap.single.n == 2 and gap.single.value == pytest.approx(agreement.icc1([[1, 2], [2, 3]]).single.value)


# ---------------------------------------------------------------- Fleiss' kappa, Gwet's AC1, agreement

def test_kappa_family_from_patterns_equals_raw_functions():
    rng = np.random.default_rng(9)
    for t in range(150):
        m = random_matrix(rng, fractional=t % 4 == 0)
        labels = None if t % 4 == 0 else [1.0, 2.0, 3.0, 4.0, 5.0]
        p = aggregated(m)
        pairs = ((unit_patterns.fleiss_kappa(p, labels), agreement.fleiss_kappa(m, labels)),
                 (unit_patterns.gwet_ac1(p, labels), agreement.gwet_ac1(m, labels)),
                 (unit_patterns.percent_agreement(p), agreement.percent_agreement(m)))
        for ours, raw in pairs:
            assert (ours.n, ours.reason) == (raw.n, raw.reason)
            assert (ours.value is None) == (raw.value is None)
            if raw.value is not None:
                assert ours.value == pytest.approx(raw.value, abs=1e-12)
        pairable = m[(~np.isnan(m)).sum(axis=1) >= 2]
        share = unit_patterns.all_agree_share(p)
        if pairable.size:
            assert share == pytest.approx(np.mean(np.nanmax(pairable, axis=1) == np.nanmin(pairable, axis=1)))
        else:
            assert share is None


def test_kappa_family_from_patterns_edge_cases():
    constant = UnitPatterns.from_lists([[0, 0, 0]], [5])
    for r in (unit_patterns.gwet_ac1(constant, [0, 1]), unit_patterns.fleiss_kappa(constant, [0, 1])):
        assert r.value is None and "one category" in r.reason
    assert unit_patterns.percent_agreement(constant).value == 1.0
    assert "not on the scale" in unit_patterns.fleiss_kappa(UnitPatterns.from_lists([[1, 7]]), [1, 2, 3]).reason
    once = UnitPatterns.from_lists([[1], [2]])
    assert unit_patterns.gwet_ac1(once, [1, 2]).reason == "no unit has two or more ratings"
    assert unit_patterns.fleiss_kappa(once).reason == "no unit has two or more ratings"
    # the Gwet hand example (two raters, 10 units, 8 agree): 12/17
    hand = UnitPatterns.from_lists([[1, 1], [0, 0], [0, 1]], [7, 1, 2])
    assert unit_patterns.gwet_ac1(hand, [0, 1]).value == pytest.approx(12 / 17)


# ---------------------------------------------------------------- Spearman from pair contingency counts

def test_spearman_from_counts_equals_scipy_on_the_expanded_pairs():
    rng = np.random.default_rng(2)
    for _ in range(200):
        x, y = rng.integers(0, 4, 40).astype(float), rng.integers(0, 3, 40).astype(float)
        cells = pd.DataFrame({"x": x, "y": y}).value_counts().reset_index()
        ours = unit_patterns.spearman_from_counts(cells["x"], cells["y"], cells["count"])
        if np.all(x == x[0]) or np.all(y == y[0]):
            assert ours.value is None
            continue
        assert ours.n == 40 and ours.value == pytest.approx(sps.spearmanr(x, y).statistic, abs=1e-12)
        assert ours.value == pytest.approx(agreement.spearman_rho(x, y).value, abs=1e-12)


def test_spearman_from_counts_edge_cases():
    assert unit_patterns.spearman_from_counts([1.0], [2.0], [1]).reason == "fewer than two complete pairs"
    assert unit_patterns.spearman_from_counts([], [], []).n == 0
    assert "x is constant" in unit_patterns.spearman_from_counts([1, 1], [1, 2], [3, 4]).reason
    assert "y is constant" in unit_patterns.spearman_from_counts([1, 2], [2, 2], [3, 4]).reason
    # a cell counted twice is a pair counted twice
    assert unit_patterns.spearman_from_counts([1, 2, 2], [1, 2, 2], [1, 1, 1]).value == \
        pytest.approx(unit_patterns.spearman_from_counts([1, 2], [1, 2], [1, 2]).value)


# ---------------------------------------------------------------- rank-based alpha

def test_rank_based_alphas_equal_agreement_rank_based_alpha():
    rng = np.random.default_rng(4)
    for t in range(150):
        m = np.round(rng.normal(3, 1, (int(rng.integers(1, 8)), int(rng.integers(1, 5)))), 1)
        m[rng.random(m.shape) < 0.2] = np.nan
        higher = bool(t % 2)
        ours = unit_patterns.rank_based_alphas(m, higher)
        for level in LEVELS:
            raw = agreement.rank_based_alpha(m, level, higher)
            assert (ours[level].n, ours[level].reason) == (raw.n, raw.reason)
            if raw.value is None:
                assert ours[level].value is None
            else:
                assert ours[level].value == pytest.approx(raw.value, abs=1e-12)


# ---------------------------------------------------------------- the two marts through int_reliability_unit_patterns

def long_table(rng, n_units: int, humans: int, judges: int, missing: float, scale=(0, 2)) -> pd.DataFrame:
    rows = []
    systems = [f"s{i}" for i in rng.integers(0, 3, n_units)]
    for r in [f"h{i}" for i in range(humans)] + [f"j{i}" for i in range(judges)]:
        kind = "human" if r.startswith("h") else "judge"
        for u in range(n_units):
            if rng.random() < missing:
                continue
            v = float(rng.integers(scale[0], scale[1] + 1))
            if kind == "judge":
                v = min(scale[1], v + rng.integers(0, 2) * 0.5)
            bad = rng.random() < 0.05
            rows.append(dict(suite="t", task=None, rubric_id="r", rubric_version=1, criterion="c",
                             min_score=scale[0], max_score=scale[1], response_id=f"u{u}", item_id=f"i{u}",
                             system_id=systems[u], is_reference_system=False, response_chars=10.0, rater_id=r,
                             rater_kind=kind, score_value=NAN if bad else v, n_scores=0 if bad else 1,
                             n_excluded=1 if bad else 0, excluded_reason="out_of_range" if bad else None))
    return pd.DataFrame(rows)


def _matrix(t: pd.DataFrame, kinds=("human",)) -> pd.DataFrame:
    used = t[t["rater_kind"].isin(kinds) & t["score_value"].notna()]
    return used.pivot(index="response_id", columns="rater_id", values="score_value").sort_index(axis=1)


def test_reliability_table_equals_the_raw_functions_on_the_units_x_raters_matrix():
    rng = np.random.default_rng(8)
    for t_i in range(12):
        t = long_table(rng, int(rng.integers(2, 60)), int(rng.integers(1, 4)), 0, missing=0.25)
        row = reliability.reliability_table(t).iloc[0]
        m = _matrix(t).to_numpy(float)
        scale = [0.0, 1.0, 2.0]
        expected = {f"alpha_{lv}": agreement.krippendorff_alpha(m, lv) for lv in LEVELS}
        expected |= {"fleiss_kappa": agreement.fleiss_kappa(m, scale), "gwet_ac1": agreement.gwet_ac1(m, scale),
                     "exact_agreement": agreement.percent_agreement(m),
                     "mean_pairwise_spearman": agreement.mean_pairwise_spearman(m)}
        icc = agreement.icc1(m)
        expected |= {"icc_1_1": icc.single, "icc_1_k": icc.average}
        for col, r in expected.items():
            got = row[col]
            if r.value is None:
                assert pd.isna(got) and row[f"{col}_reason"] == r.reason, (t_i, col)
            else:
                assert got == pytest.approx(r.value, abs=1e-12), (t_i, col)
        human = t[t["rater_kind"] == "human"]
        assert row["n_units"] == human["response_id"].nunique()
        assert row["n_ratings_used"] == human["score_value"].notna().sum()
        assert row["n_ratings_excluded"] == human["n_excluded"].sum()
        assert row["n_units_pairable"] == int(((~np.isnan(m)).sum(axis=1) >= 2).sum())
        assert row["icc_n_units"] == icc.single.n and row["icc_k"] == icc.k


def test_coder_set_alpha_table_equals_the_raw_functions():
    rng = np.random.default_rng(6)
    for t_i in range(10):
        t = long_table(rng, int(rng.integers(3, 50)), int(rng.integers(1, 4)), int(rng.integers(1, 3)),
                       missing=0.3)
        if not (t["score_value"].notna() & (t["rater_kind"] == "human")).any():
            continue
        out = reliability.coder_set_alpha_table(t).set_index("judge_rater_id", drop=False)
        wide = _matrix(t, ("human", "judge"))
        humans = sorted(t.loc[(t.rater_kind == "human") & t.score_value.notna(), "rater_id"].unique())
        used = t[t.score_value.notna()]
        system_means = used.groupby(["system_id", "rater_id"])["score_value"].mean().unstack()
        for _, row in out.iterrows():
            judge = row["judge_rater_id"]
            coders = humans + ([judge] if isinstance(judge, str) else [])
            for lv in LEVELS:
                raw = agreement.krippendorff_alpha(wide[coders].to_numpy(float), lv)
                got = row[f"item_alpha_{lv}"]
                assert (pd.isna(got) and row[f"item_alpha_{lv}_reason"] == raw.reason) if raw.value is None \
                    else got == pytest.approx(raw.value, abs=1e-12), (t_i, judge, lv)
                rank = agreement.rank_based_alpha(system_means[coders].to_numpy(float), lv, True)
                got = row[f"rank_alpha_{lv}"]
                assert pd.isna(got) if rank.value is None else got == pytest.approx(rank.value, abs=1e-9)


def test_marts_edge_cases_one_unit_constant_and_no_usable_rating():
    base = dict(suite="t", task=None, rubric_id="r", rubric_version=1, min_score=0, max_score=2, item_id="i",
                system_id="s", is_reference_system=False, response_chars=1.0, n_scores=1, n_excluded=0,
                excluded_reason=None)
    rows = [  # c1: one unit, rated 1 and 2; c2: a constant rating; c3: nothing usable
        dict(base, criterion="c1", response_id="u1", rater_id="a", rater_kind="human", score_value=1.0),
        dict(base, criterion="c1", response_id="u1", rater_id="b", rater_kind="human", score_value=2.0),
        *[dict(base, criterion="c2", response_id=f"u{u}", rater_id=r, rater_kind="human", score_value=2.0)
          for u in range(4) for r in "ab"],
        dict(base, criterion="c3", response_id="u1", rater_id="a", rater_kind="human", score_value=NAN,
             n_scores=0, n_excluded=2, excluded_reason="missing"),
    ]
    out = reliability.reliability_table(pd.DataFrame(rows)).set_index("criterion")
    one, const, empty = out.loc["c1"], out.loc["c2"], out.loc["c3"]
    assert one["n_units_pairable"] == 1 and "two units" in one["icc_1_1_reason"]
    assert one["alpha_nominal"] == pytest.approx(agreement.krippendorff_alpha([[1, 2]], "nominal").value)
    assert "fewer than two complete pairs" in one["mean_pairwise_spearman_reason"]
    assert pd.isna(const["alpha_interval"]) and "all pairable ratings are equal" in const["alpha_interval_reason"]
    assert "no variance" in const["icc_1_1_reason"] and const["exact_agreement"] == 1.0
    assert const["all_raters_agree_share"] == 1.0 and "one category" in const["fleiss_kappa_reason"]
    assert (empty["n_units"], empty["n_ratings_used"], empty["n_ratings_excluded"], empty["n_raters"]) == (1, 0, 2, 0)
    assert empty["alpha_nominal_reason"] == "no usable ratings" and empty["icc_k"] == 0
    assert all(pd.isna(empty[c]) for c in ("alpha_nominal", "icc_1_1", "gwet_ac1"))


def test_unit_pattern_models_in_the_warehouse(warehouse):
    """int_reliability_units holds every response x criterion with a coder's row, int_reliability_unit_patterns
    counts each of them once among the human rows (when a human rated it) and once per judge that scored it."""
    from evalhouse.warehouse.published import connect_readonly

    con = connect_readonly()
    try:
        counts = con.execute("""
            select
                (select count(*) from (select distinct suite, rubric_id, rubric_version, criterion, response_id
                                       from int_reliability_scores where rater_kind <> 'metric')),
                (select count(*) from int_reliability_units),
                (select count(*) from (select distinct suite, rubric_id, rubric_version, criterion, response_id
                                       from int_reliability_scores where rater_kind = 'human')),
                (select sum(n_units) from int_reliability_unit_patterns where judge_rater_id is null),
                (select count(*) from int_reliability_scores
                 where rater_kind in ('judge', 'program') and score_value is not null),
                (select sum(n_units) from int_reliability_unit_patterns where judge_rater_id is not null)
        """).fetchone()
    finally:
        con.close()
    assert counts[0] == counts[1] and counts[2] == counts[3] and counts[4] == counts[5]
    assert counts[3] > 10_000
