"""`evalhouse import-runs`: bring a promptfoo, inspect-ai, lm-evaluation-harness or OTLP log into a suite."""
from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("import-runs")
    def import_runs_cmd(
        logs: list[Path] = typer.Argument(..., metavar="LOG", help="The log: promptfoo results .json/.jsonl, "
                                          "inspect-ai .eval/.json, lm-eval --output_path folder (or its "
                                          "results_*.json), OTLP JSON traces; alpaca-eval: one or more "
                                          "annotations.json (all or nothing)"),
        from_: str = typer.Option(..., "--from", help="promptfoo | inspect | lm-eval | otlp | alpaca-eval"),
        suite: str = typer.Option(..., "--suite", help="Suite folder under suites/ (created when new)"),
        run_label: str = typer.Option(None, "--run-label", help="Label of this run (default: from the log)"),
        system: str = typer.Option(None, help="alpaca-eval: the model's name (default: from the file's path)"),
        reference: Path = typer.Option(None, help="alpaca-eval: the baseline's model_outputs.json (item index)"),
        difficulty: Path = typer.Option(None, help="alpaca-eval: CSV index,instruction_difficulty (needs --reference)"),
    ) -> None:
        """Import one tool log (alpaca-eval: one or more annotation files) as new files of suites/SUITE (items,
        gold, responses, ratings; rubrics in suite.yml).

        All or nothing: the rows are checked like `evalhouse suite check` before any file is stored. The same file
        twice adds nothing. Then `make build` scores it with everything else.
        """
        from evalhouse.importers import TOOLS, LogRejected, import_runs

        if from_ == "alpaca-eval":
            _import_alpaca_eval(logs, suite, system, reference, difficulty)
            return
        if from_ not in TOOLS:
            typer.echo(f"error: --from must be one of {', '.join(TOOLS)}, alpaca-eval, not {from_!r}", err=True)
            raise typer.Exit(2)
        if len(logs) > 1:  # each log is one run with its own label: one import each
            typer.echo(f"error: --from {from_} imports one log at a time ({len(logs)} given: {logs[0]}, {logs[1]}"
                       f"{', ...' if len(logs) > 2 else ''}); run the command once per log; nothing was stored",
                       err=True)
            raise typer.Exit(2)
        path = logs[0]
        try:
            res = import_runs(from_, path, suite, run_label=run_label)
        except LogRejected as exc:
            typer.echo(f"error: {exc}", err=True)
            typer.echo("nothing was stored", err=True)
            raise typer.Exit(1) from None
        if res.unknown_fields:
            typer.echo(f"note: kept in metadata (not mapped to columns): {', '.join(res.unknown_fields)}", err=True)
        if res.already_imported:
            typer.echo(f"{path}: already imported into suite {suite} (same SHA-256); nothing added")
            return
        counts = ", ".join(f"{k} {v}" for k, v in res.counts.items())
        typer.echo(f"imported {path} into suites/{suite} as run {res.run_label} (import {res.import_id}): {counts}; "
                   f"systems: {', '.join(res.systems)}")
        if res.new_rubrics:
            typer.echo(f"rubrics added to suite.yml: {', '.join(res.new_rubrics)}")
        if res.label_taken:
            typer.echo(f"note: run {res.label_taken!r} was already imported into suites/{suite} from another file, so "
                       f"this one is a new run, {res.run_label!r}; if it is the same run saved again, delete its "
                       f"files (suites/{suite}/*/{res.import_id}.parquet)", err=True)


def _import_alpaca_eval(files: list[Path], suite: str, system, reference, difficulty) -> None:
    """AlpacaEval annotations (pairwise judge preferences against a baseline) as comparisons of a suite folder."""
    from evalhouse import paths
    from evalhouse.importers.alpaca_eval import ImportError_, import_alpaca_eval
    from evalhouse.suites.contract import SUITE_NAME

    if not SUITE_NAME.match(suite):
        typer.echo(f"error: suite {suite!r}: lower-case letters, digits and _, starting with a letter", err=True)
        raise typer.Exit(1)
    try:
        res = import_alpaca_eval(files, paths.project_dir() / "suites" / suite, system=system,
                                 reference=reference, difficulty=difficulty)
    except (ImportError_, ValueError, KeyError) as exc:
        typer.echo(f"error: {exc}", err=True)
        typer.echo("nothing was stored", err=True)
        raise typer.Exit(1) from None
    for line in res.skipped:
        typer.echo(f"skipped {line}")
    for f in res.written:
        typer.echo(f"wrote {f}")
    typer.echo(f"{res.comparisons} comparisons imported into suites/{suite}; next: evalhouse suite check {suite}")
