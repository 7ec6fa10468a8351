"""Core commands: publish the warehouse, blind export, ratings import."""
from __future__ import annotations

from datetime import UTC

import typer

from evalhouse import paths


def _lock_file():
    return paths.build_db().parent / "build.lock"


def register(app: typer.Typer) -> None:
    @app.command()
    def publish() -> None:
        """Atomically publish the freshly built warehouse to the read-only copy the app and analysts open."""
        from evalhouse.warehouse.buildlock import BuildRunning, build_lock
        from evalhouse.warehouse.published import publish as do_publish

        try:
            with build_lock(_lock_file()):
                target = do_publish(paths.build_db(), paths.published_db())
        except BuildRunning as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"published {target}")

    _register_ratings(app)


def _register_ratings(app: typer.Typer) -> None:
    @app.command("blind-export")
    def blind_export(
        out_dir: str = typer.Argument(..., help="Folder for the packets (given to raters); must not hold packets"),
        suite: str = typer.Option("larkfield", help="Suite to export"),
        seed: int = typer.Option(42, help="Seed of the letter order"),
        export_id: str = typer.Option(None, help="Id of this export (default: <suite>-<UTC time>)"),
        item: list[str] = typer.Option(None, help="Only these items (repeatable)"),
        system: list[str] = typer.Option(None, help="Only these model runs (repeatable)"),
        rubric_version: int = typer.Option(None, help="Rubric version (default: current)"),
    ) -> None:
        """Write blind packets (letters, no model names) and keep the key in data/blind/keys/."""
        from datetime import datetime

        from evalhouse.ratings.blind import ExportError, export
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        export_id = export_id or f"{suite}-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}"
        try:
            with connect_readonly() as con:
                summary = export(con, out_dir, suite, seed, export_id, items=item or None, systems=system or None,
                                 rubric_version=rubric_version)
        except (ExportError, WarehouseMissing) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"exported {summary['packets']} packets, {summary['replies']} replies to {summary['out_dir']}; "
                   f"key kept in {summary['key_file']}")

    @app.command("blind-token")
    def blind_token(
        rater: str = typer.Argument(..., help="Rater name, as typed on the blind scoring page"),
        reissue: bool = typer.Option(False, "--reissue", help="Replace the rater's token (the old one stops working)"),
    ) -> None:
        """Issue a rater's token for the app's blind scoring page (printed once; only its hash is kept)."""
        from evalhouse.ratings import blind_access

        try:
            token = blind_access.issue(rater, replace=reissue)
        except (blind_access.TokenExists, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"token for {rater.strip()} (give it to them; it is not shown again): {token}")

    @app.command("import-ratings")
    def import_ratings_cmd(
        file: str = typer.Argument(..., help="CSV or JSONL ratings file"),
        rater: str = typer.Option(
            None, help="Rater id of every row whose rater_id is empty (a filled one that differs is refused)"),
        rater_kind: str = typer.Option(
            None, help="human | judge | program | metric | adjudicator, for every row whose rater_kind is empty "
            "(a filled one that differs is refused; default human)"),
        correction: bool = typer.Option(False, "--correction", help="Accept re-ratings of stored ratings as "
                                        "corrections (appended; the latest counts; nothing is overwritten)"),
    ) -> None:
        """Validate a ratings file and append it to the ratings store as a new file (all or nothing)."""
        from evalhouse.ratings.store import Catalog, ImportRejected, import_ratings
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        try:
            with connect_readonly() as con:
                catalog = Catalog.from_warehouse(con)
            target, n = import_ratings(file, catalog, rater=rater, rater_kind=rater_kind, correction=correction)
        except ImportRejected as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        except WarehouseMissing as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"imported {n} ratings into {target}; run `make build` to rescore")
