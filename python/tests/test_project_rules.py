"""The project's layering rules, checked on dbt's manifest (in the spirit of dbt-project-evaluator):

- a staging model reads exactly one declared source (a `base_` model may sit between the source and the staging
  model) and no seed, intermediate model or mart;
- a `base_` model reads at most one source and, beside it, only base models, and it reads something (no root
  model): one source, with a base model when it needs one (the case-CSV readers base_decisions__pos, __budget and
  __inventory read their files as the listing base_decisions__case_files says), or base models only (a second step
  on a source: that Python listing reads the case index through base_decisions__cases, because a Python model
  cannot read a file-backed source itself); the one exception, LISTINGS, is that listing: it opens the first line of
  the case CSVs by path and names their three sources (never read through dbt) so that they are in its lineage;
- a mart reads no source, seed or staging model;
- an intermediate model reads no mart (no mart -> intermediate -> mart chain);
- every model has a grain test (unique, or the compound `unique_combination` test).

KNOWN lists what has not been moved onto these rules yet; each entry is a debt, and a model that starts to obey a
rule must leave the list (the test fails on a stale entry too).
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

PROJECT = Path(__file__).resolve().parents[2]

# model name -> rule it does not follow yet
KNOWN: dict[str, str] = {}
KNOWN_NO_GRAIN: set[str] = set()
# base model -> the sources whose files it lists by path (declared for the lineage, beside its base models)
LISTINGS = {"base_decisions__case_files": {f"source.evalhouse.decisions.{t}" for t in ("pos", "budget", "inventory")}}


@pytest.fixture(scope="module")
def manifest() -> dict:
    path = PROJECT / "target" / "manifest.json"
    if not path.is_file():
        env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
        subprocess.run([str(Path(sys.executable).with_name("dbt")), "parse", "--quiet"], cwd=PROJECT, env=env,
                       check=True)
    return json.loads(path.read_text())


def _layer(manifest: dict, uid: str) -> str:
    if uid.startswith("source."):
        return "source"
    if uid.startswith("seed."):
        return "seed"
    node = manifest["nodes"].get(uid, {})
    path = node.get("original_file_path", "")
    if node.get("name", "").startswith("base_"):
        return "base"
    for layer in ("staging", "intermediate", "marts"):
        if f"models/{layer}/" in path:
            return layer
    return "other"


def violations(manifest: dict) -> dict[str, str]:
    out = {}
    for uid, node in manifest["nodes"].items():
        if node["resource_type"] != "model":
            continue
        name, layer = node["name"], _layer(manifest, uid)
        listed = LISTINGS.get(name, set())
        parents = [_layer(manifest, p) for p in node["depends_on"]["nodes"] if p not in listed]
        if listed and not listed <= set(node["depends_on"]["nodes"]):
            out[name] = "a listing must name the sources whose files it lists"
        elif layer == "base" and not (parents and set(parents) <= {"source", "base"} and parents.count("source") <= 1):
            out[name] = "base model must read exactly one source (or only base_ models), and no other layer"
        elif layer == "staging":
            direct = parents.count("source")
            if not ((direct == 1 and len(parents) == 1) or (direct == 0 and parents and set(parents) == {"base"})):
                out[name] = "staging must read exactly one source (or base_ models)"
        elif layer == "marts" and {"source", "seed", "staging", "base"} & set(parents):
            out[name] = "mart reads a source, seed or staging model"
        elif layer == "intermediate" and "marts" in parents:
            out[name] = "intermediate reads a mart"
    return out


def test_layering_rules(manifest):
    found = violations(manifest)
    new = {k: v for k, v in found.items() if KNOWN.get(k) != v}
    stale = sorted(k for k in KNOWN if k not in found)
    assert new == {}, f"models breaking the layering rules: {new}"
    assert stale == [], f"these models follow the rules now; remove them from KNOWN: {stale}"


def test_every_model_has_a_grain_test(manifest):
    tested = set()
    for node in manifest["nodes"].values():
        if node["resource_type"] != "test":
            continue
        meta = node.get("test_metadata") or {}
        if meta.get("name") in ("unique", "unique_combination") or node["name"].startswith("assert_") and \
                "grain" in node["name"]:
            tested.update(node["depends_on"]["nodes"])
    missing = {n["name"] for uid, n in manifest["nodes"].items() if n["resource_type"] == "model" and uid not in tested}
    assert sorted(missing - KNOWN_NO_GRAIN) == []
    assert sorted(KNOWN_NO_GRAIN - missing) == [], "these models have a grain test now; remove them from KNOWN_NO_GRAIN"


def test_the_rules_catch_a_mart_reading_staging():
    fake = {"nodes": {
        "model.e.stg_x": {"resource_type": "model", "name": "stg_x", "original_file_path": "models/staging/x/stg_x.sql",
                          "depends_on": {"nodes": ["source.e.x.t"]}},
        "model.e.fct_y": {"resource_type": "model", "name": "fct_y", "original_file_path": "models/marts/fct_y.sql",
                          "depends_on": {"nodes": ["model.e.stg_x"]}},
        "model.e.int_z": {"resource_type": "model", "name": "int_z",
                          "original_file_path": "models/intermediate/int_z.sql",
                          "depends_on": {"nodes": ["model.e.fct_y"]}},
        "model.e.stg_w": {"resource_type": "model", "name": "stg_w", "original_file_path": "models/staging/stg_w.sql",
                          "depends_on": {"nodes": ["model.e.stg_x"]}},
    }}
    assert violations(fake) == {"fct_y": "mart reads a source, seed or staging model",
                                "int_z": "intermediate reads a mart",
                                "stg_w": "staging must read exactly one source (or base_ models)"}


def test_every_macro_is_described(manifest):
    """Each macro of the project has a description in macros/_macros.yml; the engine implementations behind
    adapter.dispatch (duckdb__, default__, spark__) are described by their dispatching macro."""
    undescribed = sorted(
        m["name"] for m in manifest["macros"].values()
        if m["package_name"] == "evalhouse" and not m["name"].startswith(("duckdb__", "default__", "spark__"))
        and not (m.get("description") or "").strip())
    assert undescribed == []


def test_the_macro_descriptions_name_existing_macros():
    """A description left behind by a removed or renamed macro is a stale entry."""
    described = {m["name"] for m in yaml.safe_load((PROJECT / "macros" / "_macros.yml").read_text())["macros"]}
    defined = set()
    for path in (PROJECT / "macros").glob("*.sql"):
        defined.update(("test_" if kind == "test" else "") + name for kind, name in
                       re.findall(r"\{%-?\s*(macro|test)\s+([a-z_0-9]+)\s*\(", path.read_text()))
        # a materialization is the macro materialization_<name>_<adapter>
        defined.update(f"materialization_{name}_{adapter}" for name, adapter in
                       re.findall(r"\{%-?\s*materialization\s+([a-z_0-9]+)\s*,\s*adapter\s*=\s*['\"]([a-z_0-9]+)['\"]",
                                  path.read_text()))
    assert sorted(described - defined) == []


def test_the_rules_catch_a_base_model_joining_sources_or_reading_a_later_layer():
    def model(name, path, *parents):
        return {f"model.e.{name}": {"resource_type": "model", "name": name, "original_file_path": path,
                                     "depends_on": {"nodes": list(parents)}}}

    fake = {"nodes": {
        **model("base_a", "models/staging/x/base/base_a.sql", "source.e.x.a"),
        **model("base_a_listing", "models/staging/x/base/base_a_listing.py", "model.e.base_a"),
        **model("base_b", "models/staging/x/base/base_b.sql", "source.e.x.b", "model.e.base_a_listing"),
        **model("base_two_sources", "models/staging/x/base/base_two_sources.sql", "source.e.x.a", "source.e.x.b"),
        **model("base_on_staging", "models/staging/x/base/base_on_staging.sql", "source.e.x.c", "model.e.stg_b"),
        **model("base_root", "models/staging/x/base/base_root.py"),
        **model("stg_b", "models/staging/x/stg_b.sql", "model.e.base_b", "model.e.base_a"),
        **model("stg_mixed", "models/staging/x/stg_mixed.sql", "source.e.x.d", "model.e.base_a"),
    }}
    expected = "base model must read exactly one source (or only base_ models), and no other layer"
    assert violations(fake) == {"base_two_sources": expected, "base_on_staging": expected, "base_root": expected,
                                "stg_mixed": "staging must read exactly one source (or base_ models)"}


def test_the_rating_chain_is_listed_alike_in_the_macros_and_in_evalhouse_build():
    """evalhouse build drops the chain's tables when its code changes; the on-run-end hook saves the chain's state
    when every chain model ran: both must name the same models (macros/rating_chain.sql, cli/suites.py)."""
    import re

    from evalhouse.cli.suites import RATING_CHAIN_MODELS

    text = (PROJECT / "macros" / "rating_chain.sql").read_text()
    body = re.search(r"macro rating_chain_models\(\).*?return\(\[(.*?)\]\)", text, re.S).group(1)
    assert re.findall(r"'([a-z_]+)'", body) == list(RATING_CHAIN_MODELS)
    assert all(next(PROJECT.glob(f"models/**/{m}.sql"), None) or next(PROJECT.glob(f"models/**/{m}.py"), None)
               for m in RATING_CHAIN_MODELS)


def test_the_chains_large_queries_run_one_at_a_time(manifest):
    """The rating chain's four 8M-row queries at a million replies each wait for the one before, by a depends_on
    line where nothing is read: side by side they peaked at 9.5 GB, and two of them ran out of memory under
    EVALHOUSE_MEMORY_LIMIT=2.5GB (README, "Benchmarks")."""
    line = ["int_effective_scores", "int_reliability_scores", "int_rater_pair_scores", "int_reliability_units"]
    for before, after in zip(line, line[1:]):
        assert f"model.evalhouse.{before}" in manifest["nodes"][f"model.evalhouse.{after}"]["depends_on"]["nodes"]
