"""Commands of the decision comparison: export the blind benchmark package, regenerate the case pack, validate."""
from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command("export-benchmark")
    def export_benchmark(
        out: Path = typer.Argument(..., help="Folder of the blind package (created if needed)."),
        pack: Path = typer.Option(None, help="Case pack to export (default: data/decisions/pack)."),
    ) -> None:
        """Copy cases, context and protocol into a self-contained blind package (never golden); create empty group
        result files only where none exist (an existing result file is never overwritten)."""
        from evalhouse.decisions.export import export_benchmark as do_export
        from evalhouse.decisions.ingest import decisions_dir

        try:
            report = do_export(pack or decisions_dir() / "pack", out)
        except (FileNotFoundError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        typer.echo(f"exported {len(report.copied)} files to {out}")
        for name in report.created_result_files:
            typer.echo(f"created empty result file {name}")
        for name in report.kept_result_files:
            typer.echo(f"kept existing result file {name} (not overwritten)")

    @app.command("decisions-generate")
    def decisions_generate(
        out: Path = typer.Option(None, help="Target folder (default: data/decisions). Rewrites the generated files."),
        seed: int = typer.Option(None, help="Seed variant (robustness checks only, not a hold-out set); "
                                            "default: the pack's fixed seed."),
    ) -> None:
        """Regenerate the case pack, golden, example results, attempts and reviews (fixed seed, byte-identical)."""
        from evalhouse.decisions.casepack import SEED, generate
        from evalhouse.decisions.ingest import decisions_dir

        target = out or decisions_dir()
        if seed is not None and seed != SEED and out is None:
            typer.echo("error: a seed variant needs --out (the shipped pack keeps the fixed seed)", err=True)
            raise typer.Exit(2)
        files = generate(target, SEED if seed is None else seed)
        typer.echo(f"wrote {len(files)} files under {out or decisions_dir()}")

    @app.command("validate-decisions")
    def validate_decisions() -> None:
        """Check the decision comparison's raw inputs (CSV headers, JSON shapes); exit 1 naming each problem."""
        _run_validation()


def _run_validation() -> None:
    from evalhouse.decisions.ingest import decisions_dir
    from evalhouse.decisions.validate import validate_decisions_raw
    from evalhouse.problems import summarise

    notes: list[str] = []
    problems = validate_decisions_raw(decisions_dir(), notes)
    for n in notes:
        typer.echo(f"note: {n}")
    if problems:
        typer.echo(summarise(problems), err=True)
        raise typer.Exit(1)
    typer.echo("decision inputs: OK")
