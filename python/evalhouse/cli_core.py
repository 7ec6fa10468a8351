"""Core commands: publish the warehouse, blind export, ratings import, raw-data expectations."""
from __future__ import annotations

import typer

from evalhouse import paths


def register(app: typer.Typer) -> None:
    @app.command()
    def publish() -> None:
        """Atomically publish the freshly built warehouse to the read-only copy the app and analysts open."""
        from evalhouse.warehouse import publish as do_publish

        target = do_publish(paths.build_db(), paths.published_db())
        typer.echo(f"published {target}")
