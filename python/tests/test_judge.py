"""Live judge runs against a real chat-completions server on 127.0.0.1 with scripted answers."""
from __future__ import annotations

import csv
import json
import threading
import time
from decimal import Decimal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import duckdb
import pytest

from evalhouse.judge import prompts
from evalhouse.judge.cache import JudgeCache
from evalhouse.judge.client import Endpoint
from evalhouse.judge.pricing import Price, call_cost, estimate_tokens, max_input_tokens, price_for
from evalhouse.judge.run import JudgeConfig, combine_orders, estimate, pair_preference, plan, run

PRICE = Price(Decimal("2.50"), Decimal("10.00"), "test")  # USD per million tokens


class Scripted:
    """A chat-completions server: each request gets the next scripted answer (or the default)."""

    def __init__(self):
        self.requests: list[dict] = []
        self.script: list = []
        self.default = None
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with outer.lock:
                    outer.requests.append({"path": self.path, "auth": self.headers.get("Authorization"),
                                           "body": body})
                    answer = outer.script.pop(0) if outer.script else outer.default
                if callable(answer):
                    answer = answer(body)
                status, payload, delay = answer
                if delay:
                    time.sleep(delay)
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def completion(content: str, prompt_tokens: int = 1000, completion_tokens: int = 50):
    return (200, {"id": "x", "object": "chat.completion", "model": "judge-x",
                  "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                               "finish_reason": "stop"}],
                  "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                            "total_tokens": prompt_tokens + completion_tokens}}, 0)


def verdict(correctness: int, tone: int) -> str:
    return json.dumps({"scores": {"correctness": {"score": correctness, "reason": "checked against the key"},
                                  "tone": {"score": tone, "reason": "polite"}}})


@pytest.fixture()
def server():
    s = Scripted()
    s.thread.start()
    yield s
    s.server.shutdown()
    s.server.server_close()


@pytest.fixture()
def env(tmp_path):
    """A tiny warehouse (two items, three model runs, a two-criterion rubric) and empty stores."""
    db = tmp_path / "wh.duckdb"
    con = duckdb.connect(str(db))
    con.execute("create table dim_items (suite varchar, item_id varchar, input_text varchar, reference_text varchar)")
    con.execute("insert into dim_items values ('s', 'i1', 'Where is my parcel?', 'Give the tracking link'), "
                "('s', 'i2', 'Reset my password', null)")
    con.execute("create table dim_responses (suite varchar, response_id varchar, item_id varchar, system_id varchar, "
                "repetition integer, response_text varchar)")
    con.execute("insert into dim_responses values ('s','r1a','i1','m1',1,'Here is the link.'), "
                "('s','r1b','i1','m2',1,'No idea.'), ('s','r2a','i2','m1',1,'Click reset.'), "
                "('s','r2b','i2','m2',1,'Use the reset page.'), ('s','r2c','i2','m3',1,null)")
    con.execute("create table dim_rubric_levels (suite varchar, rubric_id varchar, rubric_version integer, "
                "criterion varchar, criterion_order integer, min_score integer, max_score integer, level integer, "
                "anchor varchar)")
    for crit, order in (("correctness", 1), ("tone", 2)):
        for level in (0, 1, 2):
            con.execute("insert into dim_rubric_levels values ('s','rb',1,?,?,0,2,?,?)",
                        [crit, order, level, f"{crit} level {level}"])
    yield {"con": con, "ratings": tmp_path / "ratings", "comparisons": tmp_path / "comparisons",
           "cache": JudgeCache(tmp_path / "cache")}
    con.close()


def go(env, server, price=PRICE, **kw):
    cfg = JudgeConfig(**{"suite": "s", "judge_model": "judge-x", "rubric_id": "rb", "concurrency": 2,
                         "backoff_base": 0.01, "backoff_max": 0.05, **kw})
    calls, _ = plan(env["con"], cfg)
    endpoint = Endpoint(server.base_url, "sk-test")
    return run(calls, cfg, endpoint, price, env["cache"], env["ratings"], env["comparisons"])


def stored(folder: Path) -> list[dict]:
    rows = []
    for f in sorted(folder.glob("*/*.csv")):
        with open(f, encoding="utf-8", newline="") as fh:
            rows.extend(csv.DictReader(fh))
    return rows


def test_verdicts_land_as_ratings_with_tokens_and_cost(env, server):
    server.default = completion(verdict(2, 1), prompt_tokens=1000, completion_tokens=50)
    report = go(env, server)
    assert (report.planned, report.sent, report.failed) == (4, 4, 0)  # r2c has no text
    rows = stored(env["ratings"])
    assert len(rows) == 8
    r = next(x for x in rows if x["response_id"] == "r1a" and x["criterion"] == "correctness")
    assert (r["score"], r["reason"], r["rater_id"], r["rater_kind"]) == ("2", "checked against the key",
                                                                       "judge:judge-x", "judge")
    assert (r["rubric_id"], r["rubric_version"], r["judge_model"]) == ("rb", "1", "judge-x")
    assert (r["input_tokens"], r["output_tokens"], r["temperature"], r["seed"]) == ("1000", "50", "0.0", "0")
    # 1000 x 2.50 / 1e6 + 50 x 10.00 / 1e6 = 0.0025 + 0.0005
    assert Decimal(r["cost"]) == Decimal("0.003") and r["cost_currency"] == "USD"
    assert int(r["latency_ms"]) >= 0 and r["failure_reason"] == "" and r["raw_output"] == ""
    assert report.spent == Decimal("0.012")
    # the prompt carries the rubric's anchors, the reference, the reply; the request is a chat completion
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions" and req["auth"] == "Bearer sk-test"
    body = req["body"]
    assert (body["model"], body["temperature"], body["seed"]) == ("judge-x", 0.0, 0)
    assert body["response_format"] == {"type": "json_object"}
    sent = next(q["body"] for q in server.requests if "Here is the link." in q["body"]["messages"][1]["content"])
    user = sent["messages"][1]["content"]
    assert "- 2: tone level 2" in user and "Give the tracking link" in user and "Where is my parcel?" in user
    assert r["prompt_hash"] == prompts.prompt_hash(sent["messages"])
    assert len({x["prompt_hash"] for x in rows}) == 4  # one prompt per reply, shared by its criteria rows


def test_a_rerun_makes_no_call_and_the_cache_answers_a_fresh_store(env, server, tmp_path):
    server.default = completion(verdict(1, 1))
    go(env, server)
    assert len(server.requests) == 4
    again = go(env, server)  # same store: every answer is already stored
    assert (again.already_stored, again.sent, again.files) == (4, 0, [])
    assert len(server.requests) == 4
    env["ratings"] = tmp_path / "other_store"  # empty store, same cache: answered from the cache, no call
    cached = go(env, server)
    assert (cached.cache_hits, cached.sent, len(server.requests)) == (4, 0, 4)
    assert len(stored(env["ratings"])) == 8
    # a different seed is a different call
    go(env, server, seed=7)
    assert len(server.requests) == 8


def test_malformed_output_is_a_failed_rating_with_the_raw_text(env, server):
    fenced = "```json\n" + verdict(2, 2) + "\n```"
    server.script = [completion(fenced), completion('{"scores": {"correctness": {"score": 3, "reason": "x"}, '
                                                    '"tone": {"score": 1, "reason": "y"}}}'),
                     completion(verdict(2, 2)), completion(verdict(2, 2))]
    report = go(env, server, concurrency=1)
    assert report.failed == 2
    rows = stored(env["ratings"])
    failed = [r for r in rows if r["failure_reason"]]
    assert len(failed) == 4  # two calls x two criteria, none guessed
    assert all(r["score"] == "" for r in failed)
    first = [r for r in failed if r["response_id"] == "r1a"]
    assert first[0]["raw_output"] == fenced and "not valid JSON" in first[0]["failure_reason"]
    second = [r for r in failed if r["response_id"] == "r1b"]
    assert "3 is greater than the maximum of 2" in second[0]["failure_reason"]
    assert second[0]["input_tokens"] == "1000"  # the malformed answer was still paid for


def test_both_orders_turns_a_scripted_flip_into_a_tie(env, server):
    def answer(body):
        user = body["messages"][1]["content"]
        if "Where is my parcel?" in user:  # always prefers the first slot: a flip across the two orders
            return completion(json.dumps({"winner": "A", "reason": "first looks better"}))
        better_first = user.index("Use the reset page.") < user.index("Click reset.")
        return completion(json.dumps({"winner": "A" if better_first else "B", "reason": "names the page"}))
    server.default = answer
    report = go(env, server, pairwise=True, both_orders=True, rubric_id=None)
    rows = stored(env["comparisons"])
    assert len(rows) == 4 and report.sent == 4
    i1 = {r["shown_first"]: r for r in rows if r["item_id"] == "i1"}
    assert (i1["a"]["response_id_a"], i1["a"]["response_id_b"]) == ("r1a", "r1b")
    assert (i1["a"]["preference"], i1["a"]["preference_label"]) == ("0", "a")
    assert (i1["b"]["preference"], i1["b"]["preference_label"]) == ("1", "b")
    assert combine_orders(i1["a"]["preference_label"], i1["b"]["preference_label"]) == "tie"
    i2 = {r["shown_first"]: r["preference_label"] for r in rows if r["item_id"] == "i2"}
    assert i2 == {"a": "b", "b": "b"} and combine_orders(i2["a"], i2["b"]) == "b"
    assert all(r["rater_id"] == "judge:judge-x" and r["cost"] == "0.003" for r in rows)
    assert rows[0]["source_file"].endswith(".csv") and rows[0]["source_row"] == "1"


def test_pair_preference_and_fastchat_rule():
    assert pair_preference("A", "a") == (Decimal(0), "a")
    assert pair_preference("A", "b") == (Decimal(1), "b")
    assert pair_preference("B", "b") == (Decimal(0), "a")
    assert pair_preference("tie", "b") == (Decimal("0.5"), "tie")
    assert combine_orders("a", "tie") == "tie" and combine_orders("b", "b") == "b"
    assert combine_orders("a", None) is None


def test_a_429_is_retried(env, server):
    server.script = [(429, {"error": {"message": "slow down"}}, 0), (503, {"error": "busy"}, 0)]
    server.default = completion(verdict(2, 2))
    report = go(env, server, concurrency=1, items=["i1"], systems=["m1"])
    assert (report.sent, report.http_attempts, report.failed) == (1, 3, 0)
    assert [r["score"] for r in stored(env["ratings"])] == ["2", "2"]


def test_a_timeout_is_retried_then_fails_cleanly_and_is_tried_again_later(env, server):
    server.default = (200, {}, 1.0)  # answers after the client gave up
    report = go(env, server, items=["i1"], systems=["m1"], timeout=0.2, max_retries=2)
    assert (report.sent, report.http_attempts, report.failed) == (1, 3, 1)
    rows = stored(env["ratings"])
    assert [r["score"] for r in rows] == ["", ""]
    assert rows[0]["failure_reason"] == "timed out after 0.2 s (gave up after 3 attempts)"
    assert rows[0]["raw_output"] == "" and rows[0]["cost"] == ""
    server.default = completion(verdict(1, 2))  # no answer was stored: a rerun calls again
    again = go(env, server, items=["i1"], systems=["m1"], timeout=0.2, max_retries=2)
    assert (again.already_stored, again.sent, again.failed) == (0, 1, 0)


def test_dry_run_calls_nothing_and_estimates_the_cost(env, server):
    cfg = JudgeConfig(suite="s", judge_model="judge-x", rubric_id="rb", max_tokens=100)
    calls, no_text = plan(env["con"], cfg)
    e = estimate(calls, cfg, PRICE, env["cache"], env["ratings"], env["comparisons"])
    assert (e["planned"], e["to_send"], no_text) == (4, 4, 1)
    est = sum(estimate_tokens(c.payload["messages"]) for c in calls)
    assert e["input_tokens_estimate"] == est and e["output_tokens_max"] == 400
    assert e["cost_estimate"] == (est * Decimal("2.50") + 400 * Decimal("10.00")) / 1_000_000
    assert e["cost_max"] > e["cost_estimate"]
    assert server.requests == []


def test_the_cli_dry_run_prints_the_estimate_and_calls_nothing(env, server, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    env["con"].close()
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(tmp_path / "wh.duckdb"))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    monkeypatch.setenv("EVALHOUSE_JUDGE_BASE_URL", server.base_url)
    res = CliRunner().invoke(app, ["judge", "run", "--suite", "s", "--rubric", "rb", "--judge", "gpt-4o-mini",
                                   "--dry-run"])
    assert res.exit_code == 0, res.output
    assert "4 calls planned (1 replies without text skipped)" in res.output
    assert "cost estimate:" in res.output and "dry run: nothing was called" in res.output
    assert server.requests == []


def test_a_judge_whose_rater_id_has_another_kind_in_the_suite_is_refused_before_any_call(env, server, tmp_path,
                                                                                          monkeypatch):
    """judge:<model> is written as rater_kind judge; when the suite already has that rater id with another kind (a
    store row, or a suite ratings file not built yet), `judge run` stops before calling anything and names where
    (a rater has one kind in a suite; the store is append-only). Another judge model is fine."""
    from typer.testing import CliRunner

    from evalhouse.cli import app

    env["con"].close()
    monkeypatch.chdir(tmp_path)  # files are named relative to where the command runs: the project
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(tmp_path / "wh.duckdb"))
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    monkeypatch.setenv("EVALHOUSE_JUDGE_BASE_URL", server.base_url)
    monkeypatch.setenv("EVALHOUSE_JUDGE_API_KEY", "sk-test")
    (tmp_path / "suites" / "s").mkdir(parents=True)
    (tmp_path / "suites" / "s" / "suite.yml").write_text("rubrics: {}\n", encoding="utf-8")
    (tmp_path / "suites" / "s" / "ratings.csv").write_text(
        "response_id,rater_id,rater_kind,criterion,score\nr1a,judge:judge-p,program,correctness,1\n",
        encoding="utf-8")
    (tmp_path / "data" / "ratings" / "s").mkdir(parents=True)
    (tmp_path / "data" / "ratings" / "s" / "20260101T000000Z_x.csv").write_text(
        "suite,response_id,rater_id,rater_kind,criterion,score\ns,r1a,judge:judge-h,,correctness,1\n",
        encoding="utf-8")
    args = ["judge", "run", "--suite", "s", "--rubric", "rb", "--price-input", "0", "--price-output", "0"]
    res = CliRunner().invoke(app, [*args, "--judge", "judge-h"])
    assert res.exit_code == 1
    assert ("rater 'judge:judge-h' is 'judge' here and 'human' at "
            f"{tmp_path}/data/ratings/s/20260101T000000Z_x.csv:2; a rater has one kind in a suite") in res.output
    res = CliRunner().invoke(app, [*args, "--judge", "judge-p"])
    assert res.exit_code == 1
    assert "rater 'judge:judge-p' is 'judge' here and 'program' at suites/s/ratings.csv (in the suite's files)" \
        in res.output
    assert server.requests == [] and len(list((tmp_path / "data" / "ratings").rglob("*.csv"))) == 1
    res = CliRunner().invoke(app, [*args, "--judge", "judge-x "])  # would be a rater of its own beside judge-x
    assert res.exit_code == 2 and "'judge-x ': give the model name without leading or trailing spaces" in res.output
    res = CliRunner().invoke(app, [*args, "--judge", "judge;x"])  # import-ratings could not take its ratings back
    assert res.exit_code == 2 and "the rater id judge:judge;x would not be importable" in res.output
    server.default = completion(verdict(2, 1))
    res = CliRunner().invoke(app, [*args, "--judge", "judge-x"])
    assert res.exit_code == 0, res.output
    assert len(server.requests) == 4
    # the store now has judge:judge-x as judge; a suite file that says human (the suite cannot build so) stops the
    # next run too: every kind the store and the suite's files give counts, not the first one found
    with open(tmp_path / "suites" / "s" / "ratings.csv", "a", encoding="utf-8") as fh:
        fh.write("r1b,judge:judge-x,human,correctness,1\n")
    res = CliRunner().invoke(app, [*args, "--judge", "judge-x", "--item", "i2"])
    assert res.exit_code == 1
    assert "rater 'judge:judge-x' is 'judge' here and 'human' at suites/s/ratings.csv (in the suite's files)" \
        in res.output
    assert len(server.requests) == 4


def test_the_budget_cap_stops_before_exceeding_it(env, server):
    # each call uses 100 prompt + 50 completion tokens: 100 x 2.50 / 1e6 + 50 x 10.00 / 1e6 = 0.00075 USD
    server.default = completion(verdict(2, 2), prompt_tokens=100, completion_tokens=50)
    cfg = JudgeConfig(suite="s", judge_model="judge-x", rubric_id="rb", max_tokens=100)
    calls, _ = plan(env["con"], cfg)
    worst = [call_cost(PRICE, c.max_input_tokens, 100) for c in calls]  # what the cap reserves per call
    # the first two calls fit; the third would not: 2 x 0.00075 + its worst case is past the cap
    budget = 2 * Decimal("0.00075") + worst[2] - Decimal("0.000001")
    assert worst[0] <= budget and Decimal("0.00075") + worst[1] <= budget
    report = go(env, server, max_tokens=100, budget=budget, concurrency=1)
    assert (report.sent, report.not_run, report.spent) == (2, 2, Decimal("0.0015"))
    assert report.spent <= budget and report.stopped.startswith("budget cap")
    assert len(server.requests) == 2 and len(stored(env["ratings"])) == 4


def test_a_budget_needs_a_price(env, server):
    from evalhouse.judge.run import JudgeError

    with pytest.raises(JudgeError, match="a budget needs a price"):
        go(env, server, budget=Decimal(1), price=None)
    assert server.requests == []


def test_strict_parsing_rejects_what_json_loads_would_guess():
    crit = [prompts.Criterion("c", 0, 2, ((0, "x"), (1, "y"), (2, "z")))]
    assert prompts.parse_rubric_verdict('{"scores": {"c": {"score": 2, "reason": "ok"}}}', crit) == {"c": (2, "ok")}
    for text, why in [('{"scores": {"c": {"score": NaN, "reason": "ok"}}}', "NaN is not valid JSON"),
                      ('{"scores": {"c": {"score": 1, "reason": "a"}, "c": {"score": 2, "reason": "b"}}}',
                       "appears twice"),
                      ('{"scores": {"c": {"score": 1, "reason": "two\\nlines"}}}', "does not match"),
                      ('{"scores": {"c": {"score": 1, "reason": "ok"}, "d": {"score": 1, "reason": "ok"}}}',
                       "Additional properties"),
                      ('{"scores": {"c": {"score": "2", "reason": "ok"}}}', "is not of type 'integer'"),
                      ('{"scores": {}}', "'c' is a required property"),
                      ('[1]', "a JSON list")]:
        with pytest.raises(prompts.VerdictError, match=why):
            prompts.parse_rubric_verdict(text, crit)
    with pytest.raises(prompts.VerdictError, match="is not one of"):
        prompts.parse_pairwise_verdict('{"winner": "C", "reason": "x"}')


def test_pricing_and_token_estimates():
    assert call_cost(PRICE, 1_000_000, 0) == Decimal("2.50")
    assert call_cost(PRICE, None, 10) is None and call_cost(None, 1, 1) is None
    assert price_for("gpt-4o-mini").input_per_mtok == Decimal("0.15")
    assert price_for("unknown-model") is None
    assert price_for("x", Decimal("1"), Decimal("2")).output_per_mtok == Decimal("2")
    with pytest.raises(ValueError, match="give both"):
        price_for("x", Decimal("1"), None)
    msgs = [{"role": "user", "content": "é" * 8}]  # 8 characters, 16 UTF-8 bytes
    assert estimate_tokens(msgs) == 2 + 4 + 3 and max_input_tokens(msgs) == 16 + 4 + 3


def test_judge_calls_reach_fct_judge_calls_next_to_older_store_files(env, server, tmp_path):
    """dbt reads the stores written by a run (and a ratings file written before the judge columns existed)."""
    import os
    import subprocess
    import sys

    project = Path(__file__).resolve().parents[2]
    server.script = [completion("not json at all"), (500, {"error": "x"}, 0)]
    server.default = completion(verdict(2, 1), prompt_tokens=1000, completion_tokens=50)
    go(env, server, concurrency=1)
    server.default = completion(json.dumps({"winner": "tie", "reason": "both fine"}), 900, 20)
    go(env, server, pairwise=True, both_orders=True, rubric_id=None, items=["i1"], price=None)
    old = env["ratings"] / "s" / "20250101T000000Z_person_0000000000.csv"
    old.write_text("suite,response_id,packet_id,letter,rater_id,rater_kind,criterion,score,reason,rubric_id,"
                   "rubric_version,is_blind,rated_at,store_row\ns,r1a,,,ana,human,tone,2,,rb,1,false,"
                   "2025-01-01T00:00:00,1\n", encoding="utf-8")
    db = tmp_path / "dbt.duckdb"
    run_env = dict(os.environ, DBT_PROFILES_DIR=str(project), EVALHOUSE_PROJECT_DIR=str(project),
                   EVALHOUSE_DB=str(db), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    variables = json.dumps({"ratings_store_glob": f"{env['ratings']}/*/*.csv",
                            "comparisons_store_glob": f"{env['comparisons']}/*/*.csv"})
    dbt = Path(sys.executable).with_name("dbt")
    done = subprocess.run([str(dbt), "build", "--no-use-colors", "--quiet", "-s", "+fct_judge_calls",
                           "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs"),
                           "--vars", variables], cwd=project, env=run_env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("select call_kind, response_id, shown_first, status, input_tokens, cost, cost_reason, "
                       "n_store_rows, raw_output from fct_judge_calls "
                       "order by call_kind desc, response_id, shown_first").fetchall()
    con.close()
    no_price = "no price for the judge model (pricing table or --price-input / --price-output)"
    assert rows == [
        ("rubric", "r1a", None, "failed", 1000, Decimal("0.003"), None, 2, "not json at all"),
        ("rubric", "r1b", None, "ok", 1000, Decimal("0.003"), None, 2, None),  # the 500 was retried
        ("rubric", "r2a", None, "ok", 1000, Decimal("0.003"), None, 2, None),
        ("rubric", "r2b", None, "ok", 1000, Decimal("0.003"), None, 2, None),
        ("pairwise", None, "a", "ok", 900, None, no_price, 1, None),
        ("pairwise", None, "b", "ok", 900, None, no_price, 1, None),
    ]
