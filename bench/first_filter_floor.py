#!/usr/bin/env python3
"""The bare DuckDB floor of the first filter: one SQL query over the generated replies (the performance harness's
filter_duckdb.py, kept here so the product never reads outside the repository). Prints run,n,n_pass,share.

A reply passes when its text is valid JSON (json_valid, lenient) or one ```json fence whose body is, every required
phrase and no forbidden phrase occurs in lower(nfc(text)) as a substring, and it has 1-4 sentence stops
('.', '!' or '?' before whitespace, a double quote or the end).

usage: first_filter_floor.py REPLIES.jsonl
"""
import sys

import duckdb

SQL = r"""
WITH replies AS (
    SELECT run, text, required, forbidden, lower(nfc_normalize(text)) AS low
    FROM read_json(?, format = 'newline_delimited',
                   columns = {id: 'BIGINT', run: 'VARCHAR', lang: 'VARCHAR', text: 'VARCHAR',
                              required: 'VARCHAR[]', forbidden: 'VARCHAR[]'})
), checked AS (
    SELECT run,
           (json_valid(text) OR json_valid(regexp_extract(text, '^```json\n((?s).*)\n```$', 1)))
           AND len(list_filter(required, lambda p: NOT contains(low, lower(nfc_normalize(p))))) = 0
           AND len(list_filter(forbidden, lambda p: contains(low, lower(nfc_normalize(p))))) = 0
           AND len(regexp_extract_all(low, '[.!?]([ \t\n\r"]|$)')) BETWEEN 1 AND 4 AS passed
    FROM replies
)
SELECT run, count(*) AS n, count_if(passed) AS n_pass
FROM checked GROUP BY run ORDER BY run
"""


def main() -> None:
    rows = duckdb.connect().execute(SQL, [sys.argv[1]]).fetchall()
    print("run,n,n_pass,share")
    for run, n, n_pass in rows:
        print(f"{run},{n},{n_pass},{n_pass / n:.4f}")


if __name__ == "__main__":
    main()
