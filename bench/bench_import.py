#!/usr/bin/env python3
"""Benchmark `evalhouse import-runs` on large logs: a 100k-sample inspect-ai log and a 100k-row promptfoo file.

The logs are generated from the committed fixtures (python/tests/fixtures/importers/): the inspect-ai log is written
in inspect-ai's .eval zip layout from copies of the fixture's samples, each with its own id and input (so every
sample is a distinct item) and target; the promptfoo file repeats the fixture's results with distinct prompts.
Each import runs in a fresh child process into an empty suites folder (so it includes the staging check with
``check_suite``); the script prints, per tool and size, seconds (wall, and after the child's start-up), peak resident
memory of that process and the 1-minute load average before and after (the machine may be shared).

usage: .venv/bin/python bench/bench_import.py [--n 100000 ...] [--keep DIR]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "python" / "tests" / "fixtures" / "importers"


def make_inspect(n: int, out: Path) -> Path:
    """A .eval log of n samples in inspect-ai's zip layout (header, journal, summaries, one JSON per sample), each
    sample a copy of one of the fixture's (messages, events, scores, usage) with its own id, input and target.
    (inspect-ai's write_eval_log serialises 100k samples far more slowly than this; the reader is the same.)"""
    import zipfile

    import zipfile_zstd  # noqa: F401 - reads the fixture's zstd entries

    src = zipfile.ZipFile(FIX / "inspect" / "arith.eval")
    base = [json.loads(src.read(x)) for x in src.namelist() if x.startswith("samples/")]
    header = json.loads(src.read("header.json"))
    header["eval"]["dataset"].update(samples=n, sample_ids=[f"b{k}" for k in range(n)])
    header["eval"]["config"]["epochs"] = 1
    path = out / "big.eval"
    summaries = []
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("_journal/start.json", src.read("_journal/start.json"))
        for k in range(n):
            s = dict(base[k % len(base)])
            a, b = k, k % 97
            s.update(id=f"b{k}", epoch=1, input=f"What is {a} + {b}? Answer with the number only.",
                     target=str(a + b))
            z.writestr(f"samples/b{k}_epoch_1.json", json.dumps(s))
            summaries.append({key: s.get(key) for key in ("id", "epoch", "input", "target", "scores", "model_usage",
                                                          "total_time", "working_time", "uuid")})
        z.writestr("summaries.json", json.dumps(summaries))
        z.writestr("reductions.json", src.read("reductions.json"))
        z.writestr("header.json", json.dumps(header))
    return path


def make_promptfoo(n: int, out: Path) -> Path:
    """A results file of n rows (the fixture's results repeated with distinct prompts), written row by row: the same
    bytes as ``json.dumps`` of the whole document, without holding it (1M rows are ~4 GB)."""
    doc = json.loads((FIX / "promptfoo" / "results.json").read_text())
    base = doc["results"]["results"]
    doc["results"]["results"] = "\0rows"
    head, tail = json.dumps(doc).split(json.dumps("\0rows"))
    path = out / "big_results.json"
    with open(path, "w") as fh:
        fh.write(head + "[")
        for k in range(n):
            r = json.loads(json.dumps(base[k % len(base)]))
            a, b = k, k % 97
            r["prompt"]["raw"] = f"What is {a} + {b}? Answer with the number only."
            r["vars"] = {"a": a, "b": b, "target": str(a + b)}
            r["testCase"]["vars"] = r["vars"]
            r["testCase"]["description"] = f"b{k}"
            r["testIdx"] = k
            fh.write((", " if k else "") + json.dumps(r))
        fh.write("]" + tail)
    return path


def timed_import(tool: str, path: Path, suites: Path) -> tuple[float, float, float, dict, float]:
    """Import in a fresh child process: (wall s, in-process s, peak RSS MB of the child, counts, CPU s of the child:
    user + system, start-up included; on a shared machine the wall time also counts the waits for a core)."""
    code = ("import json, resource, sys, time; from pathlib import Path; "
            "from evalhouse.importers import import_runs; t = time.perf_counter(); "
            "r = import_runs(sys.argv[1], Path(sys.argv[2]), 'bench', root=Path(sys.argv[3])); "
            "u = resource.getrusage(resource.RUSAGE_SELF); "
            "print(json.dumps([time.perf_counter() - t, u.ru_maxrss / 1024, r.counts, u.ru_utime + u.ru_stime]))")
    t0 = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", code, tool, str(path), str(suites)], capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if res.returncode != 0:
        sys.exit(res.stderr)
    inproc, peak, counts, cpu = json.loads(res.stdout.strip().splitlines()[-1])
    return wall, inproc, peak, counts, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, nargs="+", default=[100_000], help="sample counts, one run each")
    ap.add_argument("--keep", type=Path, help="write the generated logs here (default: a temporary folder)")
    a = ap.parse_args()
    for n in a.n:
        with tempfile.TemporaryDirectory() as tmp:
            out = a.keep or Path(tmp)
            out.mkdir(parents=True, exist_ok=True)
            for tool, make in (("inspect", make_inspect), ("promptfoo", make_promptfoo)):
                t = time.perf_counter()
                path = make(n, out)
                gen = time.perf_counter() - t
                load_before = os.getloadavg()[0]
                with tempfile.TemporaryDirectory() as suites:
                    wall, inproc, peak_mb, counts, cpu = timed_import(tool, path, Path(suites))
                print(f"{tool}: {n} samples, log {path.stat().st_size / 1e6:.1f} MB (generated in {gen:.1f} s); "
                      f"import {wall:.1f} s wall ({inproc:.1f} s after start-up, {cpu:.1f} s CPU), peak RSS "
                      f"{peak_mb:.0f} MB; "
                      f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after; rows {counts}",
                      flush=True)
                if not a.keep:
                    path.unlink()  # disk: the 1M logs are large


if __name__ == "__main__":
    main()
