"""The `evalhouse` command line. Each area registers its commands from its own module of this package
(``register(app)``): ``core``, ``grade``, ``decisions``, ``webapp``, ``suites``, ``judge``, ``imports``, ``rounds``."""
from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                  help="evalhouse: LLM evaluation warehouse tools.")


def _register_all() -> None:
    """Each area's module defines register(app: typer.Typer); the order is the order of ``evalhouse --help``."""
    from evalhouse.cli import core, decisions, grade, imports, judge, rounds, suites, webapp

    core.register(app)
    grade.register(app)
    decisions.register(app)
    webapp.register(app)
    suites.register(app)
    suites.register_diff(app)
    suites.register_build(app)
    judge.register(app)
    imports.register(app)
    rounds.register(app)


@app.callback()
def _root() -> None:
    """evalhouse: LLM evaluation warehouse tools."""


_register_all()


def main() -> None:
    """Entry point: file-system and database errors end with a one-line message and exit code 1, no traceback."""
    import duckdb

    try:
        app()
    except (OSError, duckdb.Error) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None


if __name__ == "__main__":
    main()
