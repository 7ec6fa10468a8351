"""The `evalhouse` command line. Each area registers its commands from its own module (``register(app)``)."""
from __future__ import annotations

import typer

app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
                  help="evalhouse: LLM evaluation warehouse tools.")


def _register_all() -> None:
    # One line per area; each module defines register(app: typer.Typer).
    from evalhouse import cli_core

    cli_core.register(app)
    from evalhouse import cli_grade

    cli_grade.register(app)
    from evalhouse import cli_decisions

    cli_decisions.register(app)
    from evalhouse import cli_app

    cli_app.register(app)
    from evalhouse import cli_suites

    cli_suites.register(app)
    cli_suites.register_diff(app)
    cli_suites.register_build(app)
    from evalhouse import cli_judge

    cli_judge.register(app)
    from evalhouse import cli_import

    cli_import.register(app)
    from evalhouse import cli_rounds

    cli_rounds.register(app)


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
