"""`evalhouse round ...`: rating rounds (evalhouse.ratings.rounds) for the evaluation lead."""
from __future__ import annotations

import typer


def _fail(exc: Exception) -> None:
    typer.echo(f"error: {exc}", err=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    rounds_app = typer.Typer(no_args_is_help=True, help="Rating rounds: assign blind packets so every reply gets N "
                                                        "independent readers (README: Rating rounds).")
    app.add_typer(rounds_app, name="round")

    @rounds_app.command("create")
    def create(
        round_id: str = typer.Argument(..., help="Id of the round (letters, digits, '.', '_', '-'); names files"),
        suite: str = typer.Option(..., help="Suite whose replies are read"),
        rater: list[str] = typer.Option(..., help="A rater of the round (repeat: --rater ana --rater ben ...)"),
        readers: int = typer.Option(2, help="Distinct readers per reply"),
        due: str = typer.Option(..., help="Due date, YYYY-MM-DD"),
        rubric: str = typer.Option(None, help="Rubric id (default: the suite's only rubric)"),
        rubric_version: int = typer.Option(None, help="Rubric version (default: the latest)"),
        item: list[str] = typer.Option(None, help="Only these items (repeatable)"),
        system: list[str] = typer.Option(None, help="Only replies of these model runs (repeatable)"),
        where: str = typer.Option(None, help="Only replies where this SQL predicate on dim_responses as r holds, e.g. "
                                             "\"r.response_id in (select response_id from fct_reply_scores where "
                                             "rater_kind = 'judge' and not ready)\""),
        sample: int = typer.Option(None, help="A seeded sample of this many replies of the scope"),
        seed: int = typer.Option(42, help="Seed of the sample, the assignment and the shown order"),
        lock_minutes: int = typer.Option(30, help="How long an opened packet stays locked to its rater's session"),
        created_by: str = typer.Option("lead", help="Who creates the round (logged)"),
    ) -> None:
        """Create a round: pick the replies, assign packets to raters, keep the blind key (nothing is written on
        an error)."""
        from evalhouse.ratings.rounds import RoundError, create_round
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        try:
            with connect_readonly() as con:
                out = create_round(con, round_id, suite, rater, readers, due, rubric_id=rubric,
                                   rubric_version=rubric_version, items=item or None, systems=system or None,
                                   where=where, sample=sample, seed=seed, lock_minutes=lock_minutes,
                                   created_by=created_by)
        except (RoundError, WarehouseMissing) as exc:
            _fail(exc)
        loads = ", ".join(f"{r} {n}" for r, n in out["packets"].items())
        typer.echo(f"round {out['round_id']}: {out['n_replies']} replies of {out['suite']} (rubric "
                   f"{out['rubric_id']} v{out['rubric_version']}, scope {out['scope']}) x {out['readers_per_reply']} "
                   f"readers = {out['n_packets']} packets; packets per rater: {loads}; due {out['due_date']}")

    @rounds_app.command("list")
    def list_cmd() -> None:
        """Every round: suite, rubric, readers per reply, raters, due date."""
        from evalhouse.ratings.rounds import RoundError, list_rounds

        try:
            rows = list_rounds()
        except RoundError as exc:
            _fail(exc)
        if not rows:
            typer.echo("no rounds yet; create one with `evalhouse round create`")
        for r in rows:
            typer.echo(f"{r['round_id']}\t{r['suite']}\t{r['rubric_id']} v{r['rubric_version']}\t"
                       f"{r['n_replies']} replies x {r['readers_per_reply']}\traters {r['raters'].replace(';', ', ')}"
                       f"\tdue {r['due_date']}")

    @rounds_app.command("status")
    def status(round_id: str = typer.Argument(..., help="Round id")) -> None:
        """Live progress from the ratings store: each packet's rater, submitted or not, and any open lock."""
        from evalhouse.ratings.rounds import RoundError, packet_status

        try:
            rows = packet_status(round_id)
        except RoundError as exc:
            _fail(exc)
        for r in rows:
            state = ("submitted" if r["submitted"] else f"open until {r['locked_until']}" if r["locked_until"]
                     else "not submitted")
            typer.echo(f"{r['packet_id']}\t{r['rater_id']}\t{r['n_saved']}/{r['n_replies']} replies saved\t{state}")
        done = sum(r["submitted"] for r in rows)
        typer.echo(f"{done} of {len(rows)} packets submitted")

    @rounds_app.command("reassign")
    def reassign_cmd(
        round_id: str = typer.Argument(..., help="Round id"),
        packet_id: str = typer.Argument(..., help="Packet to move"),
        to: str = typer.Option(..., help="The rater who gets it"),
        reason: str = typer.Option(..., help="Why (logged with the reassignment)"),
        acted_by: str = typer.Option("lead", help="Who reassigns (logged)"),
    ) -> None:
        """Give a packet to another rater of the round (logged; refused once its rater submitted it)."""
        from evalhouse.ratings.rounds import RoundError, packet_status, reassign

        try:
            submitted = {r["packet_id"]: r["submitted"] for r in packet_status(round_id)}
            event = reassign(round_id, packet_id, to, reason, acted_by=acted_by,
                             submitted_by_holder=submitted.get(packet_id, False))
        except RoundError as exc:
            _fail(exc)
        typer.echo(f"packet {packet_id}: {event['from_rater_id']} -> {event['rater_id']} ({event['reason']})")

    @rounds_app.command("adjudication-template")
    def adjudication_template_cmd(
        round_id: str = typer.Argument(..., help="Round id"),
        out_file: str = typer.Argument(..., help="CSV to write (must not exist)"),
    ) -> None:
        """Write the replies the readers disagree on (after `make build`) as a CSV for the adjudicator to fill in;
        import it with `evalhouse import-ratings FILE --rater NAME --rater-kind adjudicator`."""
        from evalhouse.ratings.rounds import RoundError, adjudication_template
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        try:
            with connect_readonly() as con:
                n = adjudication_template(con, round_id, out_file)
        except (RoundError, WarehouseMissing, FileExistsError) as exc:
            _fail(exc)
        typer.echo(f"wrote {n} rows to {out_file}: fill in score (and reason) on every row, the agreed criteria too "
                   "(a complete reading also gives the ready decision), then `evalhouse import-ratings "
                   f"{out_file} --rater <adjudicator> --rater-kind adjudicator` (an adjudicator id that is not also "
                   "a reader's)")
