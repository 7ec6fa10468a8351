"""evalhouse import-runs on logs made by the real tools (python/tests/fixtures/importers/, made by
make_fixtures.py): counts equal the logs', raw outputs round-trip byte for byte, the tools' own pass rates equal the
marts' after a dbt build, re-imports add nothing, corrupted logs store nothing.

Hand-checked figures (make_fixtures.py): 24 prompts "What is a + b?"; inspect-ai's toy model is wrong when the sum is
a multiple of 4 (10 of 24), 2 epochs -> match passes 14 x 2 = 28 of 48; promptfoo's echo transform is wrong when
the sum is a multiple of 3 (15 of 24), --repeat 2 -> 9 x 2 = 18 of 48 pass.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import duckdb
import pyarrow.parquet as pq
import pytest
import zipfile_zstd  # noqa: F401 - zstd for inspect-ai .eval files (an inspect-ai dependency)

from evalhouse.importers import LogRejected, import_runs, read_log
from evalhouse.importers.core import item_id_for

PROJECT = Path(__file__).resolve().parents[2]
FIX = Path(__file__).resolve().parent / "fixtures" / "importers"
INSPECT_EVAL = FIX / "inspect" / "arith.eval"
INSPECT_JSON = FIX / "inspect" / "arith.json"
PROMPTFOO_JSON = FIX / "promptfoo" / "results.json"
PROMPTFOO_JSONL = FIX / "promptfoo" / "results.jsonl"
LM_EVAL = FIX / "lm_eval"
OTLP = FIX / "otlp" / "traces.json"
BIN = Path(sys.executable).parent


def rows(folder: Path, table: str) -> list[dict]:
    out = []
    for f in sorted((folder / table).glob("*.parquet")) if (folder / table).is_dir() else []:
        out += pq.read_table(f).to_pylist()
    return out


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------- the logs, read independently (hand check)

def inspect_samples_raw() -> list[dict]:
    with zipfile.ZipFile(INSPECT_EVAL) as z:
        return [json.loads(z.read(n)) for n in z.namelist() if n.startswith("samples/")]


def promptfoo_results_raw() -> list[dict]:
    return json.loads(PROMPTFOO_JSON.read_text())["results"]["results"]


def test_inspect_log_counts_and_pass_rate_by_hand():
    samples = inspect_samples_raw()
    assert len(samples) == 48 and len({s["input"] for s in samples}) == 24
    assert sum(s["scores"]["match"]["value"] == "C" for s in samples) == 28


def test_promptfoo_log_counts_and_pass_rate_by_hand():
    res = promptfoo_results_raw()
    assert len(res) == 48 and len({r["prompt"]["raw"] for r in res}) == 24
    assert sum(r["success"] for r in res) == 18


# ---------------------------------------------------------------- each fixture imports

@pytest.mark.parametrize("tool,path,n_items,n_responses,n_ratings", [
    ("inspect", INSPECT_EVAL, 24, 48, 96),        # 2 scorers x 48
    ("inspect", INSPECT_JSON, 24, 48, 96),
    ("promptfoo", PROMPTFOO_JSON, 24, 48, 192),   # pass + equals + is_number + llm-rubric
    ("promptfoo", PROMPTFOO_JSONL, 24, 48, 192),
    ("lm-eval", LM_EVAL, 24, 48, 48),             # 2 tasks x 24 docs, one metric each
    ("otlp", OTLP, 2, 5, 5),
])
def test_each_fixture_imports(tmp_path, tool, path, n_items, n_responses, n_ratings):
    res = import_runs(tool, path, "arith", root=tmp_path)
    assert res.counts["items"] == n_items
    assert res.counts["responses"] == n_responses
    assert res.counts["ratings"] == n_ratings
    folder = tmp_path / "arith"
    assert len(rows(folder, "responses")) == n_responses
    assert len(rows(folder, "ratings")) == n_ratings
    r = rows(folder, "responses")[0]
    assert r["source_tool"] == {"inspect": "inspect", "promptfoo": "promptfoo", "lm-eval": "lm-eval",
                                "otlp": "otlp"}[tool]
    assert r["source_sha256"] and r["imported_at"] and r["run_label"]
    from evalhouse.suites.check import check_suite

    _, problems = check_suite(folder)
    assert problems == []


def test_inspect_raw_output_round_trips_and_judge_recorded(tmp_path):
    import_runs("inspect", INSPECT_EVAL, "arith", root=tmp_path)
    raw = {(s["id"], s["epoch"]): s for s in inspect_samples_raw()}
    resp = {(r["item_id"], r["repetition"]): r for r in rows(tmp_path / "arith", "responses")}
    s = raw[("q04", 2)]
    r = resp[(item_id_for(s["input"]), "2")]
    assert r["raw_output"].encode("utf-8") == s["output"]["choices"][0]["message"]["content"].encode("utf-8")
    assert r["raw_output"] == "17"                       # 8 + 8 = 16, a multiple of 4: the toy model says 17
    assert int(r["input_tokens"]) == s["output"]["usage"]["input_tokens"]
    assert float(r["latency_ms"]) == pytest.approx(s["output"]["time"] * 1000)
    judge = [g for g in rows(tmp_path / "arith", "ratings") if g["response_id"] == r["response_id"]
             and g["rater_kind"] == "judge"]
    assert len(judge) == 1 and judge[0]["judge_model"] == "arith/grader" and judge[0]["score"] == "0"
    assert judge[0]["reason"] == s["scores"]["model_graded_qa"]["explanation"]


def test_promptfoo_raw_output_round_trips(tmp_path):
    import_runs("promptfoo", PROMPTFOO_JSON, "arith", root=tmp_path)
    res = promptfoo_results_raw()[5]
    resp = [r for r in rows(tmp_path / "arith", "responses") if r["item_id"] == item_id_for(res["prompt"]["raw"])]
    assert {r["repetition"] for r in resp} == {"1", "2"}
    assert all(r["raw_output"].encode() == res["response"]["output"].encode() for r in resp)
    assert float(resp[0]["latency_ms"]) in {float(x["latencyMs"]) for x in promptfoo_results_raw()
                                            if x["prompt"]["raw"] == res["prompt"]["raw"]}
    judged = [g for g in rows(tmp_path / "arith", "ratings") if g["rater_kind"] == "judge"]
    assert len(judged) == 48 and {g["judge_model"] for g in judged} == {"echo"}
    assert all(g["reason"].startswith("The reply ") for g in judged)


def test_rubrics_added_with_ready_rule(tmp_path):
    import yaml

    import_runs("promptfoo", PROMPTFOO_JSON, "arith", root=tmp_path)
    spec = yaml.safe_load((tmp_path / "arith" / "suite.yml").read_text())
    by_id = {r["rubric_id"]: r for r in spec["rubrics"]}
    assert set(by_id) == {"arith_promptfoo_pass", "arith_promptfoo_equals", "arith_promptfoo_is_number",
                          "arith_promptfoo_llm_rubric"}
    crit = by_id["arith_promptfoo_pass"]["criteria"][0]
    assert (crit["min_score"], crit["max_score"]) == (0, 1)
    assert by_id["arith_promptfoo_pass"]["decision_rule"] == {"ready_gate": ["pass"]}


def test_reimport_adds_nothing_and_newer_log_gets_new_label(tmp_path):
    import_runs("inspect", INSPECT_EVAL, "arith", root=tmp_path)
    before = tree(tmp_path / "arith")
    res = import_runs("inspect", INSPECT_EVAL, "arith", root=tmp_path)
    assert res.already_imported and tree(tmp_path / "arith") == before
    # a newer log of the same run (same eval id, different bytes): a new run label, a system_id that does not merge
    doc = json.loads(INSPECT_JSON.read_text())
    import_runs("inspect", INSPECT_JSON, "arith2", root=tmp_path)
    doc["stats"]["completed_at"] = "2099-01-01T00:00:00+00:00"
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(doc))
    res = import_runs("inspect", newer, "arith2", root=tmp_path)
    assert not res.already_imported and res.counts["items"] == 0 and res.counts["responses"] == 48
    first_label = f"inspect-{doc['eval']['eval_id']}"
    assert res.run_label == f"{first_label}-2"
    assert res.systems == [f"arith/toy [{first_label}-2]"]
    assert {r["run_label"] for r in rows(tmp_path / "arith2", "responses")} == {first_label, f"{first_label}-2"}
    assert len(rows(tmp_path / "arith2", "responses")) == 96
    # the earlier import's files are untouched
    assert all(before[k] == v for k, v in tree(tmp_path / "arith").items() if k in before)


def _corrupt_cases(tmp: Path):
    text = PROMPTFOO_JSON.read_text()
    trunc = tmp / "truncated.json"
    trunc.write_text(text[: len(text) // 2])
    doc = json.loads(text)
    doc["results"]["results"][7]["response"].pop("output")
    no_out = tmp / "no_output.json"
    no_out.write_text(json.dumps(doc))
    doc = json.loads(text)
    doc["results"]["version"] = 99
    future = tmp / "future.json"
    future.write_text(json.dumps(doc))
    ins = json.loads(INSPECT_JSON.read_text())
    ins["samples"][3]["output"]["choices"] = []
    ins_no = tmp / "inspect_no_output.json"
    ins_no.write_text(json.dumps(ins))
    ins = json.loads(INSPECT_JSON.read_text())
    ins["version"] = 7
    ins_future = tmp / "inspect_future.json"
    ins_future.write_text(json.dumps(ins))
    ev = tmp / "truncated.eval"
    ev.write_bytes(INSPECT_EVAL.read_bytes()[:5000])
    lines = PROMPTFOO_JSONL.read_text().splitlines()
    bad = json.loads(lines[4])
    bad["gradingResult"]["componentResults"] = 1.5  # a number where promptfoo writes a list
    lines[4] = json.dumps(bad)
    misshapen = tmp / "misshapen.jsonl"
    misshapen.write_text("\n".join(lines) + "\n")
    lines = PROMPTFOO_JSONL.read_text().splitlines()
    copied = tmp / "copied.jsonl"  # a result twice (same id): it was stored as a third repetition (trial)
    copied.write_text("\n".join([*lines, lines[3]]) + "\n")
    return [("promptfoo", trunc, "not valid JSON"), ("promptfoo", no_out, "result 8 (testIdx"),
            ("promptfoo", misshapen, "result 5 (testIdx"),
            ("promptfoo", copied, f"result 49 (testIdx 3, 'q02'): the same result as result 4 (testIdx 3, 'q02') "
                                  f"(id {json.loads(lines[3])['id']})"),
            ("promptfoo", future, "unknown promptfoo results version 99"),
            ("inspect", ins_no, f"sample id={json.loads(INSPECT_JSON.read_text())['samples'][3]['id']} epoch="),
            ("inspect", ins_future, "unknown inspect-ai log format version 7"),
            ("inspect", ev, "truncated"),
            # an inspect-ai .eval (a zip) given to another tool's importer (trial: "not UTF-8")
            ("promptfoo", INSPECT_EVAL, "a zip archive, not a JSON log (an inspect-ai .eval log is read with --from "
                                        "inspect)")]


def test_corrupted_logs_rejected_nothing_stored(tmp_path):
    import_runs("otlp", OTLP, "arith", root=tmp_path / "suites")
    before = tree(tmp_path / "suites")
    for tool, path, words in _corrupt_cases(tmp_path):
        with pytest.raises(LogRejected) as exc:
            import_runs(tool, path, "arith", root=tmp_path / "suites")
        assert str(path) in str(exc.value) and words in str(exc.value), str(exc.value)
        assert tree(tmp_path / "suites") == before
    # a new suite is not created either
    with pytest.raises(LogRejected):
        import_runs("promptfoo", tmp_path / "truncated.json", "fresh", root=tmp_path / "suites")
    assert not (tmp_path / "suites" / "fresh").exists()


def test_lm_eval_missing_resps_names_line(tmp_path):
    out = tmp_path / "lm"
    shutil.copytree(LM_EVAL, out)
    sample = next(out.rglob("samples_arith_gen_*.jsonl"))
    lines = sample.read_text().splitlines()
    bad = json.loads(lines[2])
    bad.pop("resps")
    lines[2] = json.dumps(bad)
    sample.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogRejected, match=r"line 3 \(doc_id .*\): the sample has no output"):
        import_runs("lm-eval", out, "arith", root=tmp_path / "suites")
    assert not (tmp_path / "suites" / "arith").exists()


def test_unknown_fields_kept_and_reported(tmp_path):
    doc = json.loads(PROMPTFOO_JSON.read_text())
    for r in doc["results"]["results"]:
        r["response"]["reasoningTrace"] = "thought"
        r["futureField"] = {"x": 1}
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(doc))
    res = import_runs("promptfoo", newer, "arith", root=tmp_path / "suites")
    assert res.unknown_fields == ["response.reasoningTrace", "result.futureField"]
    meta = json.loads(rows(tmp_path / "suites" / "arith", "responses")[0]["metadata"])
    assert meta["unknown"] == {"futureField": {"x": 1}, "response.reasoningTrace": "thought"}


def test_inspect_unknown_fields_kept_and_reported(tmp_path):
    doc = json.loads(INSPECT_JSON.read_text())
    doc["futureTop"] = 1
    for k, sample in enumerate(doc["samples"]):
        sample["futureSample"] = {"k": k}
    newer = tmp_path / "newer.json"
    newer.write_text(json.dumps(doc))
    res = import_runs("inspect", newer, "arith", root=tmp_path / "suites")
    assert res.unknown_fields == ["futureTop", "sample.futureSample"]
    by_id = {r["response_id"]: json.loads(r["metadata"]) for r in rows(tmp_path / "suites" / "arith", "responses")}
    first = doc["samples"][0]
    rid = f"arith:{res.run_label}:{item_id_for(first['input'])}:{first['epoch']}"
    assert by_id[rid]["unknown"] == {"futureSample": {"k": 0}}


def _edit_eval_sample(out: Path, entry: str, edit) -> None:
    """A copy of the inspect-ai fixture log at ``out`` whose sample ``entry`` is changed in place by ``edit(doc)``."""
    with zipfile.ZipFile(INSPECT_EVAL) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            data = src.read(name)
            if name == entry:
                doc = json.loads(data)
                edit(doc)
                data = json.dumps(doc)
            dst.writestr(name, data)


def test_inspect_eval_attachment_resolved_and_unknown_sample_field_kept(tmp_path):
    """A .eval sample whose chat input refers to an attachment (inspect-ai condenses long message content so) is
    read with the attachment's text; a field inspect-ai does not know is kept per sample."""
    attached = "What is 7 + 5? " + "Think carefully. " * 20
    changed = tmp_path / "attached.eval"

    def edit(doc):
        doc["input"] = [{"role": "user", "content": "attachment://0123456789abcdef0123456789abcdef"}]
        doc["attachments"] = {**doc.get("attachments", {}), "0123456789abcdef0123456789abcdef": attached}
        doc["futureSample"] = [1, 2]

    _edit_eval_sample(changed, "samples/q01_epoch_1.json", edit)
    log = read_log("inspect", changed)
    first = [r for r in log.replies if r.sample_id == "q01" and r.repetition == 1]
    assert len(first) == 1 and first[0].input_text == f"user: {attached}"
    assert first[0].metadata["unknown"] == {"futureSample": [1, 2]}
    assert "sample.futureSample" in log.unknown_fields
    others = [r for r in log.replies if not (r.sample_id == "q01" and r.repetition == 1)]
    assert len(others) == 47 and all("attachment://" not in r.input_text for r in others)


def test_otlp_tokens_latency_cost(tmp_path):
    res = import_runs("otlp", OTLP, "traces", root=tmp_path)
    assert res.unknown_fields == ["gen_ai.agent.name"]
    resp = rows(tmp_path / "traces", "responses")
    gpt = sorted((r for r in resp if r["system_id"] == "gpt-4o-mini"), key=lambda r: float(r["latency_ms"]))
    assert [float(r["latency_ms"]) for r in gpt] == [80.25, 99.0, 120.5]
    assert sorted(r["repetition"] for r in gpt) == ["1", "1", "2"]
    assert {r["total_tokens"] for r in resp} == {"16"} and {r["cost_currency"] for r in resp} == {"USD"}
    assert sum(float(r["cost"]) for r in resp) == pytest.approx(3 * 0.00025 + 2 * 0.0011)


# ---------------------------------------------------------------- dbt: side by side, pass rates, costs

@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A temporary copy of the project with the fixtures imported into suite `arith` through the CLI, built once."""
    dst = tmp_path_factory.mktemp("importers") / "evalhouse"
    shutil.copytree(PROJECT, dst, ignore=shutil.ignore_patterns(
        ".venv", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "*.egg-info"))
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for k in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(k, None)

    def run(*args, check=True):
        res = subprocess.run([str(BIN / args[0]), *args[1:]], cwd=dst, env=env, capture_output=True, text=True)
        if check:
            assert res.returncode == 0, f"{args} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
        return res

    out = {}
    for tool, path, label in (("inspect", INSPECT_EVAL, "inspect-toy"), ("promptfoo", PROMPTFOO_JSON, "pf-echo"),
                              ("lm-eval", LM_EVAL, None), ("otlp", OTLP, None)):
        args = ["evalhouse", "import-runs", str(path), "--from", tool, "--suite", "arith"]
        out[tool] = run(*args, *(["--run-label", label] if label else []))
    out["again"] = run("evalhouse", "import-runs", str(INSPECT_EVAL), "--from", "inspect", "--suite", "arith")
    run("evalhouse", "build", "--quiet", "--indirect-selection", "cautious", "--select", "+fct_model_run_costs",
        "+fct_model_run_scores", "+fct_model_run_criterion_scores", "+fct_model_run_score_intervals")
    con = duckdb.connect(str(dst / "warehouse" / "build" / "evalhouse.duckdb"), read_only=True)
    yield con, out, dst
    con.close()


def test_cli_messages(built):
    _, out, _ = built
    assert "imported" in out["inspect"].stdout and "responses 48" in out["inspect"].stdout
    assert "already imported" in out["again"].stdout and "nothing added" in out["again"].stdout


def test_pass_rates_equal_the_tools(built):
    con, _, _ = built
    runs = {(s, r): (n, rated) for s, r, n, rated in con.execute(
        "select system_id, rubric_id, n_ready, n_replies_rated from fct_model_run_scores where suite = 'arith'"
    ).fetchall()}
    assert runs[("arith/toy", "arith_inspect_match")] == (28, 48)
    assert runs[("arith/toy", "arith_inspect_model_graded_qa")] == (28, 48)
    assert runs[("echo-sum", "arith_promptfoo_pass")] == (18, 48)
    assert runs[("echo-sum", "arith_promptfoo_equals")] == (18, 48)
    assert runs[("echo-sum", "arith_promptfoo_llm_rubric")] == (18, 48)
    # lm-eval: the harness's own accuracy per task equals n_ready / n
    res = json.loads(next(LM_EVAL.rglob("results_*.json")).read_text())["results"]
    mc = [v for (s, r), v in runs.items() if r == "arith_lm_eval_acc"]
    assert len(mc) == 1 and mc[0][0] / mc[0][1] == pytest.approx(res["arith_mc"]["acc,none"])
    gen = [v for (s, r), v in runs.items() if r == "arith_lm_eval_exact_match"]
    assert len(gen) == 1 and gen[0][0] / gen[0][1] == pytest.approx(res["arith_gen"]["exact_match,none"])


def test_side_by_side_with_tokens_and_latency(built):
    con, _, _ = built
    costs = {r[0]: r[1:] for r in con.execute(
        "select system_id, n_responses, total_tokens, mean_latency_ms, p95_latency_ms, n_ready, ready_share, "
        "total_cost, total_cost_reason, cost_per_ready_reply_reason from fct_model_run_costs "
        "where suite = 'arith'").fetchall()}
    toy, pf = costs["arith/toy"], costs["echo-sum"]
    samples = inspect_samples_raw()
    toy_tokens = sum(s["model_usage"]["arith/toy"]["total_tokens"] for s in samples)
    assert toy[0] == 48 and toy[1] == toy_tokens
    lat = sorted(s["output"]["time"] * 1000 for s in samples)
    assert float(toy[2]) == pytest.approx(sum(lat) / 48, abs=1e-3)
    import numpy as np

    assert float(toy[3]) == pytest.approx(np.percentile(lat, 95), abs=1e-3)
    assert toy[4] == 28 and float(toy[5]) == 0.5833          # ready: both inspect scorers pass
    res = promptfoo_results_raw()
    assert pf[0] == 48 and pf[1] == sum(r["response"]["tokenUsage"]["total"] for r in res)
    assert float(pf[2]) == pytest.approx(sum(r["latencyMs"] for r in res) / 48, abs=1e-3)
    assert pf[4] == 18 and float(pf[5]) == 0.375
    assert toy[6] is None and toy[7] == "no cost recorded for this run" and toy[8] == "no cost recorded for this run"
    # both runs are in fct_model_run_scores of the one suite
    systems = {s for (s,) in con.execute("select distinct system_id from fct_model_run_scores where suite = 'arith'")
               .fetchall()}
    assert {"arith/toy", "echo-sum"} <= systems
    # OTLP spans carry cost: gpt-4o-mini 3 x 0.00025, both spans of it that answered right are ready
    otlp = con.execute("select total_cost, cost_currency, n_ready, cost_per_ready_reply from fct_model_run_costs "
                       "where suite = 'arith' and system_id = 'gpt-4o-mini'").fetchone()
    assert float(otlp[0]) == pytest.approx(0.00075) and otlp[1] == "USD" and otlp[2] == 3
    assert float(otlp[3]) == pytest.approx(0.00025)


def test_provenance_in_int_responses(built):
    con, _, _ = built
    got = con.execute("select source_tool, count(*), count(distinct run_label) from int_responses "
                      "where suite = 'arith' group by source_tool order by source_tool").fetchall()
    assert got == [("inspect", 48, 1), ("lm-eval", 48, 1), ("otlp", 5, 1), ("promptfoo", 48, 1)]


def test_leaderboard_shows_tokens_latency_cost(built, monkeypatch):
    from streamlit.testing.v1 import AppTest

    _, _, dst = built
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(dst / "warehouse" / "evalhouse.duckdb"))
    at = AppTest.from_file(str(PROJECT / "app" / "views" / "leaderboard.py"), default_timeout=60).run()
    at.sidebar.selectbox(key="lb_suite").set_value("arith").run()
    assert not at.exception, [e.value for e in at.exception]
    costs = next(d.value for d in at.dataframe if "p95 latency ms" in d.value.columns).set_index("model run")
    assert {"arith/toy", "echo-sum", "gpt-4o-mini", "claude-haiku"} <= set(costs.index)
    assert costs.loc["arith/toy", "replies"] == 48 and costs.loc["echo-sum", "ready share"] == pytest.approx(0.375)
    assert costs.loc["gpt-4o-mini", "cost"] == pytest.approx(0.00075)


# ---------------------------------------------------------------- the fast readers give what json gives

def test_promptfoo_fast_reader_equals_the_json_reading(tmp_path):
    """The results file is split with msgspec (no decoded copy of the whole document); a file msgspec does not take
    as it stands (here a NaN, which json reads) is read whole with json: both give the same replies."""
    fast = read_log("promptfoo", PROMPTFOO_JSON)
    doc = json.loads(PROMPTFOO_JSON.read_text())
    doc["results"]["stats"]["lenient"] = float("nan")  # json.dumps writes NaN: not strict JSON
    lenient = tmp_path / "results.json"
    lenient.write_text(json.dumps(doc))
    slow = read_log("promptfoo", lenient)
    assert len(fast.replies) == 48 and fast.replies == slow.replies
    assert (fast.eval_id, fast.tool_version, fast.settings) == (slow.eval_id, slow.tool_version, slow.settings)
    assert fast.unknown_fields == slow.unknown_fields


def test_inspect_eval_sample_with_a_nan_score_is_read_as_json_reads_it(tmp_path):
    """A .eval entry with a NaN (a grader that failed; inspect-ai writes NaN) is read with json: that score gives no
    rating, the sample's other score and its reply are imported."""
    changed = tmp_path / "nan.eval"
    _edit_eval_sample(changed, "samples/q02_epoch_1.json",
                      lambda doc: doc["scores"]["model_graded_qa"].update(value=float("nan")))
    log = read_log("inspect", changed)
    q02 = [r for r in log.replies if r.sample_id == "q02" and r.repetition == 1]
    assert len(log.replies) == 48 and len(q02) == 1
    assert [s.scorer for s in q02[0].scores] == ["match"]
    res = import_runs("inspect", changed, "arith", root=tmp_path / "suites")
    assert res.counts["responses"] == 48 and res.counts["ratings"] == 95



def _mutate(o, rng, depth=0):
    """Replace one value somewhere in a parsed log with a value of another type (a hand-edited or damaged log)."""
    if isinstance(o, dict) and o:
        k = rng.choice(sorted(o))
        if rng.random() < 0.5 or depth > 4:
            o[k] = rng.choice([3, None, "x", [], {}, True, 1.5])
        else:
            _mutate(o[k], rng, depth + 1)
    elif isinstance(o, list) and o:
        i = rng.randrange(len(o))
        if rng.random() < 0.5:
            o[i] = rng.choice([3, None, "x", {}])
        else:
            _mutate(o[i], rng, depth + 1)


@pytest.mark.parametrize("tool", ["promptfoo", "inspect", "lm-eval", "otlp"])
def test_a_log_with_values_of_the_wrong_type_imports_or_is_rejected_never_crashes(tool, tmp_path):
    """Seeded mutations of each fixture log: every import either succeeds or raises LogRejected naming the file
    (before, some of the promptfoo, lm-eval and otlp cases crashed with TypeError or AttributeError)."""
    import random

    for seed in range(10):
        rng = random.Random(seed)
        if tool == "lm-eval":
            log = tmp_path / f"lm{seed}"
            shutil.copytree(LM_EVAL, log)
            f = rng.choice(sorted(log.rglob("*.json*")))
        else:
            src = {"promptfoo": PROMPTFOO_JSONL, "inspect": INSPECT_JSON, "otlp": OTLP}[tool]
            f = log = tmp_path / f"log{seed}{src.suffix}"
            shutil.copy(src, log)
        if f.suffix == ".jsonl":
            docs = [json.loads(x) for x in f.read_text().splitlines()]
            for _ in range(2):
                _mutate(rng.choice(docs), rng)
            f.write_text("\n".join(json.dumps(d) for d in docs) + "\n")
        else:
            doc = json.loads(f.read_text())
            for _ in range(2):
                _mutate(doc, rng)
            f.write_text(json.dumps(doc))
        try:
            import_runs(tool, log, "arith", root=tmp_path / f"suites{seed}")
        except LogRejected as exc:
            assert str(log) in str(exc) or str(f) in str(exc), str(exc)


def test_the_cli_imports_one_tool_log_at_a_time(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    res = CliRunner().invoke(app, ["import-runs", "--from", "promptfoo", "--suite", "arith", str(PROMPTFOO_JSON),
                                   str(PROMPTFOO_JSONL)])
    assert res.exit_code == 2
    assert (f"error: --from promptfoo imports one log at a time (2 given: {PROMPTFOO_JSON}, {PROMPTFOO_JSONL}); "
            "run the command once per log; nothing was stored") in res.output
    assert not (tmp_path / "suites").exists()


def test_an_import_into_a_written_suite_keeps_its_suite_yml_text(tmp_path):
    """suite.yml is a person's work: an import adds its rubrics to the list and keeps every line of the file, its
    comments included, around them (it was dumped anew, comments gone: trial). A list written in flow style cannot
    take them as text and is dumped anew (the data the same)."""
    from evalhouse.suites.check import check_suite, load_suite_yaml
    from evalhouse.suites.scaffold import init_suite

    folder = init_suite(tmp_path, "mine")
    with (folder / "suite.yml").open("a", encoding="utf-8") as f:
        f.write("# who made which run\nfamilies:\n  echo-sum: echo   # the echo provider\n")
    before = (folder / "suite.yml").read_text(encoding="utf-8").splitlines()
    res = import_runs("promptfoo", PROMPTFOO_JSON, "mine", root=tmp_path)
    after = (folder / "suite.yml").read_text(encoding="utf-8").splitlines()
    at = after.index("  - rubric_id: mine_promptfoo_equals")
    assert after[:at] + after[-3:] == before  # the file's own lines, in order, around the added rubrics
    spec = load_suite_yaml("\n".join(after))
    assert [r["rubric_id"] for r in spec["rubrics"]] == ["mine_quality", *res.new_rubrics]
    assert spec["families"] == {"echo-sum": "echo"}
    assert check_suite(folder)[1] == []

    flow = init_suite(tmp_path, "flow")
    text = (flow / "suite.yml").read_text(encoding="utf-8")
    rubrics = load_suite_yaml(text)["rubrics"]
    (flow / "suite.yml").write_text(text[:text.index("rubrics:")] + f"rubrics: {json.dumps(rubrics)}\n",
                                    encoding="utf-8")
    res = import_runs("promptfoo", PROMPTFOO_JSON, "flow", root=tmp_path)
    spec = load_suite_yaml((flow / "suite.yml").read_text(encoding="utf-8"))
    assert [r["rubric_id"] for r in spec["rubrics"]] == ["flow_quality", *res.new_rubrics]


@pytest.mark.parametrize(("tool", "log", "says"), [
    ("inspect", PROMPTFOO_JSON, "not an inspect-ai log (no version, eval or samples field; a log of another tool? "
                                "see --from)"),
    ("promptfoo", FIX / "lm_eval", "a folder; --from promptfoo reads one log file")])
def test_a_log_of_another_kind_is_named_as_such(tmp_path, tool, log, says):
    # the trial's "unknown inspect-ai log format version None" and a raw "[Errno 21] Is a directory"
    with pytest.raises(LogRejected) as exc:
        import_runs(tool, log, "arith", root=tmp_path)
    assert str(exc.value) == f"{log}: {says}"
    assert not (tmp_path / "arith").exists()


def test_a_problem_in_a_file_the_suite_had_is_named_as_the_check_names_it(tmp_path, monkeypatch):
    """A broken reference in the suite's own ratings.csv stops an import; the message named it as 'example_qa/...'
    (the staging copy) and as a problem of the imported rows (trial)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(Path(__file__).resolve().parents[2] / "suites" / "example_qa", tmp_path / "suites" / "example_qa")
    ratings = tmp_path / "suites" / "example_qa" / "ratings.csv"
    lines = ratings.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[3].startswith("q2,model_a,ana,")
    lines[3] = lines[3].replace("q2,model_a,", "q2,model_zz,")
    ratings.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(LogRejected) as exc:
        import_runs("promptfoo", PROMPTFOO_JSON, "example_qa", root=tmp_path / "suites")
    assert str(exc.value) == (
        f"{PROMPTFOO_JSON}: the suite with the imported rows would not pass `evalhouse suite check` (nothing stored):"
        "\n  suites/example_qa/ratings.csv:4:system_id: no response of system 'model_zz' to item 'q2' (repetition 1)"
        "  (in a file the suite already had)")


def test_a_resaved_log_of_an_imported_run_is_a_new_run_and_says_so(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    first = import_runs("promptfoo", PROMPTFOO_JSON, "arith", root=tmp_path / "suites")
    assert first.label_taken is None
    resaved = tmp_path / "resaved.json"  # the same run, other bytes (another SHA-256)
    resaved.write_text(json.dumps(json.loads(PROMPTFOO_JSON.read_text()), indent=1))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    res = CliRunner().invoke(app, ["import-runs", "--from", "promptfoo", "--suite", "arith", str(resaved)])
    assert res.exit_code == 0, res.output
    label = first.run_label
    assert (f"note: run {label!r} was already imported into suites/arith from another file, so this one is a new run, "
            f"'{label}-2'; if it is the same run saved again, delete its files (suites/arith/*/") in res.output
