"""`evalhouse import-runs`: other tools' logs into a suite folder (AlpacaEval annotations)."""
from __future__ import annotations

from pathlib import Path

import typer

from evalhouse import paths


def register(app: typer.Typer) -> None:
    @app.command("import-runs")
    def import_runs(
        files: list[Path] = typer.Argument(..., help="Log files (AlpacaEval: annotations.json, .json.gz)"),
        from_: str = typer.Option(..., "--from", help="The tool that wrote the logs: alpaca-eval"),
        suite: str = typer.Option(..., help="Suite folder to write into (suites/<suite>/, created if absent)"),
        system: str = typer.Option(None, help="AlpacaEval: the model's name (default: from the file's path)"),
        reference: Path = typer.Option(None, help="AlpacaEval: the baseline's model_outputs.json (item index)"),
        difficulty: Path = typer.Option(None, help="AlpacaEval: CSV index,instruction_difficulty (needs --reference)"),
    ) -> None:
        """Import run logs as new files of a suite folder (all or nothing; a file imported before is skipped)."""
        if from_ != "alpaca-eval":
            typer.echo(f"error: unknown --from {from_!r} (supported here: alpaca-eval)", err=True)
            raise typer.Exit(1)
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
            raise typer.Exit(1)
        for line in res.skipped:
            typer.echo(f"skipped {line}")
        for f in res.written:
            typer.echo(f"wrote {f}")
        typer.echo(f"{res.comparisons} comparisons imported into suites/{suite}; next: evalhouse suite check {suite}")
