"""Live LLM judge runs: `evalhouse judge run` (rubric scores or pairwise preferences from an OpenAI-compatible
chat-completions endpoint), with retries, a concurrency limit, a cache, a cost estimate and a budget cap.

Modules: ``client`` (one HTTP call with retries), ``prompts`` (prompts, JSON Schemas, strict parsing), ``pricing``
(price table, cost, token estimates), ``cache`` (answered calls under data/judge_cache/), ``comparisons`` (the
append-only pairwise store), ``run`` (planning and running).
"""
