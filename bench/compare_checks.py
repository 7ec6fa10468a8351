#!/usr/bin/env python3
"""Old against new: the suite check and `import-runs` of a base revision and of the work tree, on the same randomly
corrupted inputs, must give the same problem lists, the same rejections and the same imported rows.

Three comparisons, each run once per version in a child process (PYTHONPATH = that version's python/):

- checks: copies of the shipped suites and of a suite made by importing every importer fixture (a folder of
  Parquet files per table), each with 1-3 random corruptions (a cell set to a value from a palette of bad and
  borderline text or to another row's value, a row duplicated or dropped, a column dropped or added, a table
  rewritten as JSONL); `check_suite` on the whole folder and with ``new_files`` (one import's files, or a random
  subset), compared as the list of problem strings (order included), the checked frames' values and, when there is
  no problem, the landing files;
- imports: the importer fixtures and randomly corrupted copies (a key removed, a value replaced, a result
  duplicated, the file truncated or a byte changed; inspect-ai .eval entries rewritten), imported with a fixed
  clock; compared as the rejection message or the result and every written table;
- logs (``--logs``): the same for large logs (e.g. bench_import.py --keep), without corruption.

usage: .venv/bin/python bench/compare_checks.py [--base c3540a8] [--cases 60] [--seed 1] [--logs big.eval ...]
Exit status 1 when anything differs (the first differences are printed).
"""
from __future__ import annotations

import argparse
import csv
import datetime as dt
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "python" / "tests" / "fixtures" / "importers"
FIXTURES = [("inspect", FIX / "inspect" / "arith.eval"), ("inspect", FIX / "inspect" / "arith.json"),
            ("promptfoo", FIX / "promptfoo" / "results.json"), ("promptfoo", FIX / "promptfoo" / "results.jsonl"),
            ("lm-eval", FIX / "lm_eval"), ("otlp", FIX / "otlp" / "traces.json")]
NOW = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC)

PALETTE = ["", " ", "x", "two", "2.5", "-1", "+3", " 4 ", "1e3", "1E-2", ".5", "5.", "NaN", "nan", "inf", "true",
           "TRUE", "False ", "0", "1", "7", "yes", "None", "null", "2026-13-45", "2026-01-02", "2026-01-02T03:04:05Z",
           "2026-01-02 03:04", "{", "[1]", "{}", '{"a": 1}', "\u00a01", "\x0b1", "1\n", "a\u2028b", "judge", "human",
           "robot", "a", "b", "tie", "string_fact", "bogus_kind", "y" * 300, "日本語"]


def digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=repr).encode()).hexdigest()


# ---------------------------------------------------------------- corrupting suites

def _read_csv(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return [row for row in csv.reader(fh)]


def _write_csv(path: Path, rows: list[list[str]]) -> None:
    with open(path, "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh).writerows(rows)


def _grid(path: Path) -> tuple[list[str], list[list], dict]:
    """A data file as (header, rows, how to write it back)."""
    if path.suffix == ".csv":
        rows = _read_csv(path)
        return rows[0], rows[1:], {"kind": "csv"}
    if path.suffix == ".jsonl":
        objs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        header = list(dict.fromkeys(k for o in objs for k in o))
        return header, [[o.get(k) for k in header] for o in objs], {"kind": "jsonl"}
    import pyarrow.parquet as pq

    t = pq.read_table(path)
    return t.column_names, [list(r.values()) for r in t.to_pylist()], {"kind": "parquet", "schema": t.schema}


def _put(path: Path, header: list[str], rows: list[list], how: dict) -> None:
    if how["kind"] == "csv":
        _write_csv(path, [header] + [["" if v is None else str(v).replace("\x00", "") for v in r] for r in rows])
    elif how["kind"] == "jsonl":
        path.write_text("".join(json.dumps(dict(zip(header, r)), ensure_ascii=False) + "\n" for r in rows),
                        encoding="utf-8")
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = {}
        for i, h in enumerate(header):
            vals = [r[i] for r in rows]
            try:
                old = how["schema"].field(h).type if h in how["schema"].names else pa.string()
                cols[h] = pa.array(vals, type=old)
            except (pa.ArrowInvalid, pa.ArrowTypeError, KeyError):
                cols[h] = pa.array([None if v is None else str(v) for v in vals], type=pa.string())
        pq.write_table(pa.table(cols), path)


def corrupt_suite(folder: Path, rng: random.Random) -> list[str]:
    """1-3 random corruptions of the data files under ``folder``; returns what was done."""
    done = []
    data_files = sorted(p for p in folder.rglob("*") if p.suffix in (".csv", ".jsonl", ".parquet")
                        and p.parent.name != "metrics")
    for _ in range(rng.randint(1, 3)):
        f = rng.choice(data_files)
        header, rows, how = _grid(f)
        if not rows:
            continue
        op = rng.choices(["cell", "cell_other", "dup_row", "drop_row", "drop_col", "add_col", "jsonl", "null"],
                         weights=[8, 5, 3, 2, 1, 1, 1, 2])[0]
        i, j = rng.randrange(len(rows)), rng.randrange(len(header))
        if op == "cell":
            rows[i][j] = rng.choice(PALETTE)
        elif op == "cell_other":
            rows[i][j] = rows[rng.randrange(len(rows))][rng.choice([j, j, rng.randrange(len(header))])]
        elif op == "null":
            rows[i][j] = None
        elif op == "dup_row":
            rows.insert(rng.randrange(len(rows) + 1), list(rows[i]))
        elif op == "drop_row":
            rows.pop(i)
        elif op == "drop_col":
            header = header[:j] + header[j + 1:]
            rows = [r[:j] + r[j + 1:] for r in rows]
        elif op == "add_col":
            header = header + ["surprise"]
            rows = [r + ["s"] for r in rows]
        elif op == "jsonl" and how["kind"] == "csv":
            f.unlink()
            f = f.with_suffix(".jsonl")
            how = {"kind": "jsonl"}
        _put(f, header, rows, how)
        data_files = sorted(p for p in folder.rglob("*") if p.suffix in (".csv", ".jsonl", ".parquet")
                            and p.parent.name != "metrics")
        done.append(f"{op} {f.relative_to(folder.parent)} row {i} col {header[j] if j < len(header) else j}")
    return done


# ---------------------------------------------------------------- corrupting logs

def _mutate_json(obj, rng: random.Random):
    """One random change somewhere inside ``obj`` (a dict or list), in place."""
    node = obj
    for _ in range(rng.randint(0, 4)):
        kids = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        kids = [(k, v) for k, v in kids if isinstance(v, (dict, list)) and v]
        if not kids:
            break
        node = rng.choice(kids)[1]
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if not keys:
        return
    k = rng.choice(keys)
    op = rng.choice(["del", "set", "set", "dup"])
    if op == "del" and isinstance(node, dict):
        del node[k]
    elif op == "dup" and isinstance(node, list):
        node.insert(k, json.loads(json.dumps(node[k])))
    else:
        node[k] = rng.choice([None, "", 0, -1, 1.5, True, False, "x", "C", "I", [], {}, float("nan"), 10 ** 30,
                              "attachment://nope", {"value": "C"}])


def corrupt_log(tool: str, path: Path, out: Path, rng: random.Random) -> Path:
    """A corrupted copy of one log (file) in ``out``."""
    dst = out / path.name
    op = rng.choice(["json", "json", "json", "truncate", "byte"])
    data = path.read_bytes()
    if op == "truncate":
        dst.write_bytes(data[: rng.randrange(1, len(data))])
    elif op == "byte":
        k = rng.randrange(len(data))
        dst.write_bytes(data[:k] + bytes([rng.choice(b'{}[],:"0aN\\')]) + data[k + 1:])
    elif path.suffix == ".eval":
        with zipfile.ZipFile(path) as src, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as z:
            names = src.namelist()
            victim = rng.choice([n for n in names if n.startswith("samples/")] + ["header.json"])
            for n in names:
                b = src.read(n)
                if n == victim:
                    doc = json.loads(b)
                    _mutate_json(doc, rng)
                    b = json.dumps(doc).encode()
                z.writestr(n, b)
    elif path.suffix == ".jsonl":
        lines = data.decode().splitlines()
        k = rng.randrange(len(lines))
        doc = json.loads(lines[k])
        _mutate_json(doc, rng)
        lines[k] = json.dumps(doc)
        dst.write_text("\n".join(lines) + "\n")
    else:
        doc = json.loads(data)
        target = doc
        if tool == "promptfoo" and rng.random() < 0.8:
            target = rng.choice(doc["results"]["results"])
        elif tool == "inspect" and rng.random() < 0.8 and doc.get("samples"):
            target = rng.choice(doc["samples"])
        _mutate_json(target, rng)
        dst.write_text(json.dumps(doc))
    return dst


# ---------------------------------------------------------------- the child: one version's results

def worker(spec_file: Path) -> None:
    spec = json.loads(spec_file.read_text())
    out = []
    for case in spec["checks"]:
        out.append(_check_case(case))
    for case in spec["imports"]:
        out.append(_import_case(case))
    print(json.dumps(out))


def _frames(data) -> dict:
    return {t: [list(map(str, df.columns))] + [[str(v) for v in row] for row in df.itertuples(index=False)]
            for t, df in data.tables.items()}


def _check_case(case: dict) -> dict:
    from evalhouse.suites.check import check_suite
    from evalhouse.suites.land import land

    cwd = os.getcwd()
    os.chdir(case["root"])
    try:
        res = {}
        for label, new in (("full", None), ("new", case["new_files"])):
            try:
                data, problems = check_suite(Path(case["name"]), new_files=None if new is None else
                                             [Path(f) for f in new])
            except Exception as exc:  # noqa: BLE001 - a crash is a result to compare too
                res[label] = f"CRASH {type(exc).__name__}: {exc}"
                continue
            res[label] = [str(p) for p in problems]
            if label == "full":
                res["frames"] = digest(_frames(data))
                if not problems:
                    with tempfile.TemporaryDirectory() as land_dir:
                        land([data], Path(land_dir))
                        import pyarrow.parquet as pq

                        res["landing"] = {p.name: digest(pq.read_table(p).to_pylist())
                                          for p in sorted(Path(land_dir).glob("*.parquet"))}
        return res
    finally:
        os.chdir(cwd)


def _import_case(case: dict) -> dict:
    from evalhouse.importers import read_log
    from evalhouse.importers.core import import_log, sha256_file

    root = Path(tempfile.mkdtemp(prefix="cmp-import-"))
    try:
        path = Path(case["path"])
        try:
            log = read_log(case["tool"], path)
            sources = log.source_files or [path]
            import hashlib

            if len(sources) == 1:
                sha = sha256_file(sources[0])
            else:
                h = hashlib.sha256()
                for f in sources:
                    h.update(f"{Path(f).name}\0{sha256_file(f)}\n".encode())
                sha = h.hexdigest()
            r = import_log(log, sources[0], sha, "cmp", root, now=NOW)
        except Exception as exc:  # noqa: BLE001
            return {"error": f"{type(exc).__name__}: {exc}"}
        import pyarrow.parquet as pq

        files = {str(p.relative_to(root)): (pq.read_schema(p).to_string(), digest(pq.read_table(p).to_pylist()))
                 for p in sorted(root.rglob("*.parquet"))}
        return {"result": [r.import_id, r.run_label, r.counts, r.unknown_fields, r.new_rubrics, r.systems],
                "files": files, "suite.yml": (root / "cmp" / "suite.yml").read_text()}
    finally:
        shutil.rmtree(root, ignore_errors=True)


# ---------------------------------------------------------------- the parent

def _run(python_dir: Path, spec_file: Path) -> list:
    # The landed folder column is relative to the project folder; a fixed hash seed orders sets alike in both
    # children (an error message that names two values compared while sorting a set names them in set order).
    env = dict(os.environ, PYTHONPATH=str(python_dir), GX_ANALYTICS_ENABLED="False",
               EVALHOUSE_PROJECT_DIR=str(ROOT), PYTHONHASHSEED="0")
    res = subprocess.run([sys.executable, __file__, "--worker", str(spec_file)], env=env, capture_output=True,
                         text=True)
    if res.returncode:
        sys.exit(f"worker ({python_dir}) failed:\n{res.stderr[-4000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def _fixture_suite(root: Path) -> None:
    """Suite `arith` of every importer fixture (new code: only its files are used, by both versions)."""
    from evalhouse.importers import import_runs

    for k, (tool, path) in enumerate(FIXTURES):
        import_runs(tool, path, "arith", run_label=f"run{k}", root=root)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="c3540a8", help="git revision of the old code (default: before issue 15's "
                    "speed-up)")
    ap.add_argument("--cases", type=int, default=60, help="corrupted suites (and as many corrupted logs)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--logs", type=Path, nargs="*", default=[], help="large logs to import with both versions "
                    "(tool from the suffix: .eval inspect, .json promptfoo)")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(a.worker)
        return
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory(prefix="compare-checks-") as tmp:
        tmp = Path(tmp)
        base = tmp / "base"
        base.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", a.base, "python/evalhouse"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
        clean = tmp / "clean"
        shutil.copytree(ROOT / "suites", clean, ignore=shutil.ignore_patterns("README.md", "*.py", "SOURCE.md"))
        _fixture_suite(clean)
        # suites with data files of their own (a suite of packs only, suites/grade, names a folder outside)
        names = sorted(p.parent.name for p in clean.glob("*/suite.yml")
                       if any(f.suffix in (".csv", ".jsonl", ".parquet") for f in p.parent.rglob("*")))
        checks, notes = [], []
        for k in range(a.cases):
            name = names[k % len(names)] if k < len(names) else rng.choice(names)
            root = tmp / f"c{k}"
            shutil.copytree(clean / name, root / name)
            did = corrupt_suite(root / name, rng) if k >= len(names) else ["(none)"]
            data = sorted(str(p.relative_to(root)) for p in (root / name).rglob("*")
                          if p.suffix in (".csv", ".jsonl", ".parquet") and p.parent.name != "metrics")
            stems = sorted({Path(f).stem for f in data if Path(f).parent.name != name})
            new = [f for f in data if Path(f).stem == rng.choice(stems)] if stems else \
                rng.sample(data, rng.randint(1, len(data)))
            checks.append({"root": str(root), "name": name, "new_files": new})
            notes.append(f"suite {name}: {'; '.join(did)}; new files {new}")
        imports = [{"tool": t, "path": str(p)} for t, p in FIXTURES]
        notes += [f"log {p}" for _, p in FIXTURES]
        for k in range(a.cases):
            tool, path = rng.choice([f for f in FIXTURES if f[0] in ("inspect", "promptfoo")])
            out = tmp / f"l{k}"
            out.mkdir()
            dst = corrupt_log(tool, path, out, rng)
            imports.append({"tool": tool, "path": str(dst)})
            notes.append(f"corrupted log {dst}")
        for p in a.logs:
            imports.append({"tool": "inspect" if p.suffix == ".eval" else "promptfoo", "path": str(p.resolve())})
            notes.append(f"log {p}")
        spec_file = tmp / "spec.json"
        spec_file.write_text(json.dumps({"checks": checks, "imports": imports}))
        old = _run(base / "python", spec_file)
        new = _run(ROOT / "python", spec_file)
    n_problems = sum(len(o.get("full", [])) for o in old[:len(checks)] if isinstance(o.get("full"), list))
    n_rejected = sum("error" in o for o in old[len(checks):])
    diffs = [(note, o, n) for note, o, n in zip(notes, old, new) if o != n]
    print(f"{len(checks)} suites ({n_problems} problems in the full checks), {len(imports)} logs ({n_rejected} "
          f"rejected): {len(diffs)} differ between {a.base} and the work tree")
    for note, o, n in diffs[:5]:
        print(f"\n{note}")
        for key in sorted(set(o) | set(n)):
            if o.get(key) != n.get(key):
                print(f"  {key}:\n    old: {json.dumps(o.get(key))[:1200]}\n    new: {json.dumps(n.get(key))[:1200]}")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
