"""Sentence counting: candidates against pysbd (evalhouse.text.checks.sentence_count, the reference) on the same texts.

Usage: .venv/bin/python bench/compare_segmenters.py [--db warehouse/build/evalhouse.duckdb]
       [--generated N --gen-script ../shared/perf/gen_data.py] [--syntok-max 10000] [--cache FILE] [--show 15]

Texts: every distinct reply text of a build that the first filter reads (int_first_filter_responses), the FR/EN edge
cases below, and N replies of the performance generator (the "answer" of the reply's JSON, or the whole text when it
does not parse: the reply text a suite would stage). The language picking pysbd's rules is CLD2's, as in the first
filter.
Candidates: the product's counter (evalhouse.text.batch.sentence_count_array: a rule, pysbd where the rule does
not apply), the rule alone (on the texts it decides), blingfire 0.1.8 and syntok 1.4.4, each after the same
glued-stop separation ("confirmée.Merci"). Prints agreement, microseconds per reply and the disagreements.
blingfire and syntok are candidates, not dependencies: `.venv/bin/pip install blingfire==0.1.8 syntok==1.4.4`
(skipped when absent).
"""
from __future__ import annotations

import argparse
import collections
import json
import re
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path

import pyarrow as pa

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT / "python"))

from evalhouse.text import batch as tb  # noqa: E402
from evalhouse.text import checks as tx  # noqa: E402

EDGE = [
    ("Votre commande est confirmée.Merci de votre confiance.", "fr"),
    ("Your order is confirmed.Thank you for your trust.", "en"),
    ("Returns are accepted within 30 days, e.g. for unopened items. Refunds take 5 days.", "en"),
    ("Returns are accepted within 30 days, e.g. For unopened items. Refunds take 5 days.", "en"),
    ("Use a standard format, i.e. a PDF. Thanks.", "en"),
    ("M. Durand vous rappellera demain. Merci de votre patience.", "fr"),
    ("Mr. Smith will call you tomorrow. Thank you.", "en"),
    ("The total is 12.50 EUR. Thanks!", "en"),
    ("Le total est de 12.50 EUR. Merci !", "fr"),
    ("Le total est de 12,50 EUR. Merci !", "fr"),
    ("Merci pour votre message ! Nous revenons vers vous rapidement.", "fr"),
    ("Avez-vous reçu le colis ? Sinon, écrivez-nous.", "fr"),
    ("Pensez à la garantie ! Elle couvre 2 ans.", "fr"),
    ("Elle a crû de 3,5 fois, p. ex. en ville. Les données sont claires.", "fr"),
    ("Il faut, p. ex., un reçu. Merci.", "fr"),
    ("Wait... what? Really!", "en"),
    ("Bonjour. Votre remboursement arrivera sous 30 jours. Cordialement, l'équipe.", "fr"),
    ("Your refund is on its way", "en"),
    ("Please see section 2. It explains the policy.", "en"),
    ("Version 2.0 is out. Update now.", "en"),
    ('He said "Stop. Now." and left. Then he came back.', "en"),
    ("First line.\nSecond line.", "en"),
    ("Contact us at help@example.com. We answer fast.", "en"),
    ("The U.S. team replied. Thanks.", "en"),
    ("Voir art. 12 du contrat. Merci.", "fr"),
    ("   ", "en"),
    ("Done.", "en"),
    ("Il est 10 h. Le magasin ouvre à 11 h.", "fr"),
]


def answer(text: str) -> str:
    """The reply text of a generated reply: its JSON's "answer", or the whole text when it does not parse."""
    m = re.fullmatch(r"```json\n(.*)\n```", text, re.S)
    try:
        return json.loads(m.group(1) if m else text)["answer"]
    except (ValueError, KeyError, TypeError):
        return text


def _ref(item: tuple[str, str]) -> int | None:
    return tx.sentence_count(item[0], item[1])


def _lang(text: str) -> str:
    return tx.detect_language(text)


def bundled_texts(db: Path) -> list[str]:
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("select distinct response_text from int_first_filter_responses where response_text is not null "
                       "order by 1").fetchall()
    return [r[0] for r in rows]


def generated_texts(n: int, gen_script: Path) -> list[str]:
    with tempfile.TemporaryDirectory() as d:
        out = Path(d) / "replies.jsonl"
        subprocess.run([sys.executable, str(gen_script), str(n), str(out)], check=True)
        return [answer(json.loads(line)["text"]) for line in out.open(encoding="utf-8")]


def blingfire_count(text: str) -> int:
    import blingfire

    if not text.strip():
        return 0
    return sum(1 for s in blingfire.text_to_sentences(tx._GLUED_STOP.sub(r"\1 ", text)).split("\n") if s.strip())


def syntok_count(text: str) -> int:
    import syntok.segmenter as seg

    if not text.strip():
        return 0
    return sum(1 for _ in seg.analyze(tx._GLUED_STOP.sub(r"\1 ", text)) for _ in _)


def compare(name: str, texts: list[str], langs: list[str], ref: list, syntok_max: int, show: int) -> None:
    n = len(texts)
    print(f"\n== {name}: {n} texts")
    t = time.perf_counter()
    prod = tb.sentence_count_array(pa.array(texts, pa.large_string()), pa.array(langs)).to_pylist()
    t_prod = time.perf_counter() - t
    t = time.perf_counter()
    rule = tb.rule_sentence_count_array(pa.array(texts, pa.large_string()), pa.array(langs)).to_pylist()
    t_rule = time.perf_counter() - t
    decided = [i for i, r in enumerate(rule) if r is not None]
    rule_wrong = [i for i in decided if rule[i] != ref[i]]
    print(f"  product (rule + pysbd): {sum(p == r for p, r in zip(prod, ref))}/{n} identical, "
          f"{t_prod / n * 1e6:.1f} us/reply")
    print(f"  rule alone decides {len(decided)}/{n} ({len(decided) / n:.1%}), {len(rule_wrong)} of them differ; "
          f"{t_rule / n * 1e6:.1f} us/reply over all texts")
    for i in rule_wrong[:show]:
        print(f"    rule {rule[i]} vs pysbd {ref[i]}: {texts[i][:160]!r}")
    import importlib.util

    if importlib.util.find_spec("blingfire") is None or importlib.util.find_spec("syntok") is None:
        print("  blingfire / syntok not installed: pip install blingfire==0.1.8 syntok==1.4.4")
        return
    t = time.perf_counter()
    mixed = [r if r is not None else blingfire_count(x) for r, x in zip(rule, texts)]
    t_mixed = time.perf_counter() - t + t_rule
    differ = [i for i in range(n) if mixed[i] != ref[i]]
    print(f"  rule, blingfire where the rule defers (no pysbd): {n - len(differ)}/{n} identical "
          f"({(n - len(differ)) / max(n, 1):.2%}), {t_mixed / n * 1e6:.1f} us/reply")
    for cand, fn, cap in (("blingfire", blingfire_count, n), ("syntok", syntok_count, syntok_max)):
        k = min(n, cap)
        t = time.perf_counter()
        got = [fn(x) for x in texts[:k]]
        el = time.perf_counter() - t
        diff = [i for i in range(k) if got[i] != ref[i]]
        print(f"  {cand}: {k - len(diff)}/{k} identical ({(k - len(diff)) / max(k, 1):.2%}), "
              f"{el / max(k, 1) * 1e6:.1f} us/reply")
        kinds = collections.Counter((ref[i], got[i]) for i in diff)
        if kinds:
            print(f"    (pysbd, {cand}) pairs: {kinds.most_common(6)}")
        for i in diff[:min(show, 4)]:
            print(f"    {cand} {got[i]} vs pysbd {ref[i]}: {texts[i][:160]!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--db", type=Path, default=PROJECT / "warehouse" / "build" / "evalhouse.duckdb")
    ap.add_argument("--generated", type=int, default=0)
    ap.add_argument("--gen-script", type=Path, default=PROJECT.parent / "shared" / "perf" / "gen_data.py")
    ap.add_argument("--syntok-max", type=int, default=10_000)
    ap.add_argument("--cache", type=Path, default=None, help="JSON cache of the generated texts' pysbd counts")
    ap.add_argument("--show", type=int, default=15)
    a = ap.parse_args()

    texts, langs = zip(*EDGE)
    ref = [tx.sentence_count(t, lang) for t, lang in EDGE]
    compare("FR/EN edge cases", list(texts), list(langs), ref, a.syntok_max, len(EDGE))

    if a.db.exists():
        texts = bundled_texts(a.db)
        langs = [_lang(t) for t in texts]
        ref = [tx.sentence_count(t, lang) for t, lang in zip(texts, langs)]
        compare(f"bundled replies ({a.db.name})", texts, langs, ref, a.syntok_max, a.show)

    if a.generated:
        if a.cache and a.cache.exists():
            cached = json.loads(a.cache.read_text(encoding="utf-8"))
            texts, langs, ref = cached["texts"], cached["langs"], cached["pysbd"]
        else:
            texts = generated_texts(a.generated, a.gen_script)
            with Pool(2) as p:
                langs = p.map(_lang, texts, chunksize=1000)
                t = time.perf_counter()
                ref = p.map(_ref, list(zip(texts, langs)), chunksize=500)
                print(f"pysbd reference on {len(texts)} generated texts: {time.perf_counter() - t:.1f} s on 2 "
                      f"processes")
            if a.cache:
                a.cache.write_text(json.dumps({"texts": texts, "langs": langs, "pysbd": ref}, ensure_ascii=False),
                                   encoding="utf-8")
        compare(f"generated replies (gen_data.py {len(texts)})", texts, langs, ref, a.syntok_max, a.show)


if __name__ == "__main__":
    main()
