"""`evalhouse app`: start the Streamlit app on the published warehouse (read-only, no usage statistics)."""
from __future__ import annotations

import os
import sys

import typer

from evalhouse import paths


def app_command(port: int = 8501, address: str = "127.0.0.1", headless: bool = True) -> list[str]:
    """The command line that serves app/streamlit_app.py with telemetry off and no file watcher."""
    return [sys.executable, "-m", "streamlit", "run", str(paths.project_dir() / "app" / "streamlit_app.py"),
            "--server.port", str(port), "--server.address", address, "--server.headless", str(headless).lower(),
            "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]


def register(app: typer.Typer) -> None:
    @app.command("app")
    def run_app(
        port: int = typer.Option(8501, help="Port to serve on"),
        address: str = typer.Option("127.0.0.1", help="Address to bind (127.0.0.1: this machine only)"),
    ) -> None:
        """Serve the app (leaderboard, heat map, drill-down, agreement, blind scoring) on the published warehouse."""
        if not paths.published_db().is_file():
            typer.echo(f"note: no warehouse at {paths.published_db()} yet; the app will ask you to run `make build`",
                       err=True)
        env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(paths.project_dir()))
        typer.echo(f"serving http://{address}:{port}  (Ctrl-C stops)")
        os.chdir(paths.project_dir())  # .streamlit/config.toml is read from the working folder
        cmd = app_command(port, address)
        os.execve(cmd[0], cmd, env)  # become the server: signals reach Streamlit directly
