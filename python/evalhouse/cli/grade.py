"""GRADE commands: `evalhouse scorecard`, `evalhouse grade-example-pack`."""
from __future__ import annotations

from pathlib import Path

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def scorecard(
        out: Path = typer.Option(Path("warehouse/scorecard"), "--out", help="Folder for results.json and scorecard.md"),
        pack: str = typer.Option(None, "--pack", help="Only this pack (default: all packs)"),
    ) -> None:
        """Write the GRADE results.json (validated against the shipped JSON Schema) and a Markdown scorecard."""
        from evalhouse.grade.scorecard import ResultsInvalid, write_scorecard
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        if out.exists() and not out.is_dir():
            typer.echo(f"error: --out {out}: a file; give a folder (results.json and scorecard.md are written into "
                       "it)", err=True)
            raise typer.Exit(2)
        try:
            with connect_readonly() as con:
                results, md = write_scorecard(con, out, pack)
        except (WarehouseMissing, ResultsInvalid, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"wrote {results}\nwrote {md}")

    @app.command("grade-example-pack")
    def grade_example_pack(
        out: Path = typer.Argument(Path("data/grade/packs/edu_example")),
        seed: int = typer.Option(42, "--seed"),
    ) -> None:
        """Regenerate the synthetic GRADE example pack (deterministic for a given seed)."""
        from evalhouse.grade.example_pack import write_pack

        files = write_pack(out, seed)
        typer.echo(f"wrote {len(files)} files under {out}")
