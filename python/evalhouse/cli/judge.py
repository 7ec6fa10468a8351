"""Judge commands: `evalhouse judge run` (live LLM judge over a suite; see evalhouse.judge)."""
from __future__ import annotations

from decimal import Decimal, InvalidOperation
from pathlib import Path

import typer


def _decimal(value: str | None, option: str) -> Decimal | None:
    if value is None:
        return None
    try:
        d = Decimal(value)
    except InvalidOperation:
        raise typer.BadParameter(f"{value!r} is not a number", param_hint=option) from None
    if not d.is_finite() or d < 0:
        raise typer.BadParameter(f"{value!r} must be a number >= 0", param_hint=option)
    return d


def register(app: typer.Typer) -> None:
    judge = typer.Typer(no_args_is_help=True, help="Run an LLM judge (OpenAI-compatible chat completions).")
    app.add_typer(judge, name="judge")

    @judge.command("run")
    def run_cmd(
        suite: str = typer.Option(..., "--suite", help="Suite whose replies are judged"),
        judge_model: str = typer.Option(..., "--judge", help="Judge model name sent to the endpoint"),
        rubric: str = typer.Option(None, "--rubric", help="Rubric id (required for scoring; in pairwise mode "
                                   "its criteria say what 'better' means)"),
        rubric_version: int = typer.Option(None, "--rubric-version", help="Rubric version (default: latest)"),
        pairwise: bool = typer.Option(False, "--pairwise", help="Compare pairs of model runs on each item"),
        both_orders: bool = typer.Option(False, "--both-orders", help="Pairwise: judge A/B and B/A; a flip is a tie"),
        baseline: str = typer.Option(None, "--baseline", help="Pairwise: only pairs of this model run vs the others"),
        item: list[str] = typer.Option(None, "--item", help="Only these items (repeatable)"),
        system: list[str] = typer.Option(None, "--system", help="Only these model runs (repeatable)"),
        dry_run: bool = typer.Option(False, "--dry-run", help="Print the number of calls and the cost estimate; "
                                     "call nothing"),
        budget: str = typer.Option(None, "--budget", help="Stop before spending more than this (USD)"),
        concurrency: int = typer.Option(4, "--concurrency", min=1, max=64, help="Calls in flight at most"),
        temperature: float = typer.Option(0.0, "--temperature", min=0.0, max=2.0),
        seed: int = typer.Option(0, "--seed", help="Sampling seed sent to the endpoint (and pairwise order)"),
        max_tokens: int = typer.Option(512, "--max-tokens", min=1, help="Reply length cap per call (tokens)"),
        json_mode: bool = typer.Option(True, "--json-mode/--no-json-mode",
                                       help="Ask for response_format json_object (turn off if the server rejects it)"),
        price_input: str = typer.Option(None, "--price-input", help="USD per million input tokens (overrides the "
                                        "pricing table)"),
        price_output: str = typer.Option(None, "--price-output", help="USD per million output tokens"),
        timeout: float = typer.Option(60.0, "--timeout", min=0.1, help="Seconds per HTTP attempt"),
        max_retries: int = typer.Option(4, "--max-retries", min=0, max=10, help="Retries on 429 / 5xx / timeouts"),
        cache_dir: Path = typer.Option(None, "--cache-dir", help="Cache folder (default data/judge_cache)"),
    ) -> None:
        """Judge a suite's replies with an LLM and append the verdicts to the ratings (or comparisons) store."""
        from evalhouse import paths
        from evalhouse.judge import comparisons
        from evalhouse.judge.cache import JudgeCache
        from evalhouse.judge.client import EndpointMissing, endpoint_from_env
        from evalhouse.judge.pricing import price_for
        from evalhouse.judge.run import JudgeConfig, JudgeError, check_rater_kind, combine_orders, estimate, plan, run
        from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

        if both_orders and not pairwise:
            raise typer.BadParameter("--both-orders needs --pairwise", param_hint="--both-orders")
        if judge_model != judge_model.strip() or not judge_model:
            # the name becomes the rater id judge:<model>: ' gpt-x' would be a rater of its own beside 'gpt-x'
            raise typer.BadParameter(f"{judge_model!r}: give the model name without leading or trailing spaces",
                                     param_hint="--judge")
        from evalhouse.ratings.store import rater_id_problem

        if rater_id_problem(f"judge:{judge_model}"):  # the rule import-ratings and rounds apply to every rater id
            raise typer.BadParameter(f"the rater id judge:{judge_model} would not be importable: "
                                     f"{rater_id_problem(f'judge:{judge_model}')}", param_hint="--judge")
        cfg = JudgeConfig(suite=suite, judge_model=judge_model, rubric_id=rubric, rubric_version=rubric_version,
                          pairwise=pairwise, both_orders=both_orders, baseline=baseline, items=item or None,
                          systems=system or None, temperature=temperature, seed=seed, max_tokens=max_tokens,
                          json_mode=json_mode, concurrency=concurrency, budget=_decimal(budget, "--budget"),
                          timeout=timeout, max_retries=max_retries)
        cache = JudgeCache(cache_dir)
        ratings_dir, comparisons_dir = paths.ratings_store(), comparisons.default_comparisons_dir()
        try:
            price = price_for(judge_model, _decimal(price_input, "--price-input"),
                              _decimal(price_output, "--price-output"))
            with connect_readonly() as con:
                calls, no_text = plan(con, cfg)
                check_rater_kind(con, cfg, ratings_dir)
            if dry_run:
                e = estimate(calls, cfg, price, cache, ratings_dir, comparisons_dir)
                typer.echo(f"{e['planned']} calls planned ({no_text} replies without text skipped): "
                           f"{e['already_stored']} already stored, {e['cache_hits']} in the cache, "
                           f"{e['to_send']} to send")
                typer.echo(f"input tokens: about {e['input_tokens_estimate']} (4 characters per token), at most "
                           f"{e['input_tokens_max']}; output tokens: at most {e['output_tokens_max']} "
                           f"({max_tokens} per call)")
                if price is None:
                    typer.echo(f"cost: unknown (no price for {judge_model!r}; pass --price-input/--price-output)")
                else:
                    typer.echo(f"cost estimate: {e['cost_estimate']:.4f} USD (at most {e['cost_max']:.4f} USD)")
                typer.echo("dry run: nothing was called")
                return
            if cfg.budget is not None and price is None:
                raise JudgeError(f"--budget needs a price for {judge_model!r}: add it to the pricing table or pass "
                                 "--price-input and --price-output")
            endpoint = endpoint_from_env()
            report = run(calls, cfg, endpoint, price, cache, ratings_dir, comparisons_dir)
        except (JudgeError, EndpointMissing, WarehouseMissing, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"{report.planned} calls planned ({no_text} replies without text skipped): "
                   f"{report.already_stored} already stored, {report.cache_hits} from the cache, {report.sent} sent "
                   f"({report.http_attempts} HTTP attempts), {report.failed} failed, {report.not_run} not run")
        unknown = f" (+ {report.spent_unknown} calls without usage)" if report.spent_unknown else ""
        typer.echo(f"spent: {report.spent:.6f} USD{unknown}" if price else "spent: unknown (no price)")
        if pairwise and both_orders:
            labels: dict[tuple, dict] = {}
            for v in report.verdicts:
                labels.setdefault((v["item_id"], v["response_id_a"], v["response_id_b"]), {})[v["shown_first"]] = \
                    v["label"]
            combined = [combine_orders(d.get("a"), d.get("b")) for d in labels.values() if len(d) == 2]
            flips = sum(1 for d in labels.values() if {d.get("a"), d.get("b")} == {"a", "b"})
            typer.echo(f"both orders: {len(combined)} pairs, {flips} flipped (counted as ties), "
                       f"{sum(1 for c in combined if c is None)} with a failed order")
        for f in report.files:
            typer.echo(f"wrote {f}")
        if report.stopped:
            typer.echo(report.stopped, err=True)
        if report.files and not pairwise:
            typer.echo("run `make build` to see the judge's scores and calls (fct_ratings, fct_judge_calls)")
        if report.stopped and report.stopped.startswith("stopped"):
            raise typer.Exit(1)
