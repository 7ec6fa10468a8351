{#-
  The incremental rating chain (int_ratings -> int_effective_scores -> int_reply_scores ->
  int_rater_pair_scores / int_reliability_scores -> int_reliability_units, and fct_ratings, fct_criterion_scores,
  fct_reply_scores, fct_stale_ratings, fct_word_search_vs_human; and, recomputed per suite, int_reliability_cells
  -> fct_judge_human_agreement, fct_judge_diagnostics, fct_system_rankings, and int_reliability_unit_patterns ->
  fct_interrater_reliability, fct_coder_set_alpha).

  int_rating_groups hashes the rating rows of every (source_file, suite, response_id) and fingerprints everything
  else the chain reads (rubric criteria, rules and versions, responses, items, the chain's own code); HANNA's metric
  scores are hashed per response like rating rows. It keeps the suites' groups while the suites' rating rows come
  from the same landed file (suite_ratings_fingerprint: the file's md5) and the other inputs are the same: a
  ratings import hashes the store's rows only.
  int_rating_changes lists the (source_file, suite, response_id) groups whose hash or fingerprint differs from
  _rating_chain_state (the groups as the whole chain last applied them), plus the groups still pending from a run
  that did not finish. On DuckDB each chain model is incremental: a pre-hook deletes the affected keys, the model
  recomputes them and its rows are appended (incremental_strategy 'append': the pre-hook already deleted every key
  the model writes, so delete+insert's own delete by key only scanned the table again, 0.05-0.1 s a model at a
  million replies; a recomputed row whose key another row still holds fails the grain test instead of replacing it),
  and its grain test checks only those (rating_chain_test_filter). The keys are the affected
  responses, or for the rating rows their (source_file, response_id) pairs, or for the per-suite models (their rows
  summarise a whole suite: rating_chain_suite_models) the suites of the changed groups, every suite when a changed
  group has no suite. The Python library those models call (evalhouse.stats) is code of the chain too:
  `evalhouse build` drops the chain's tables when it changed (evalhouse.cli.suites.rating_chain_code_hash); a plain
  `dbt build` after such a change needs --full-refresh. save_rating_chain_state
  (on-run-end) advances the state only when every chain model ran successfully in the run and no test on one
  failed. On any other engine the chain models are tables and none of this applies: the two bookkeeping models are
  duckdb_only (dbt_project.yml) and the chain models do not ref them there.
-#}

{% macro rating_chain_models() -%}
  {{ return(['int_rating_groups', 'int_rating_changes', 'int_ratings', 'fct_ratings', 'int_effective_scores',
             'int_reply_scores', 'int_rater_pair_scores', 'int_reliability_scores', 'int_reliability_units',
             'fct_criterion_scores', 'fct_reply_scores', 'fct_stale_ratings', 'fct_word_search_vs_human']
            + rating_chain_suite_models()) }}
{%- endmacro %}

{#- rating_chain_suite_models(): the chain models recomputed per suite (key suite; Python models on DuckDB). -#}
{% macro rating_chain_suite_models() -%}
  {{ return(['int_reliability_cells', 'fct_judge_human_agreement', 'fct_judge_diagnostics', 'fct_system_rankings',
             'int_reliability_unit_patterns', 'fct_interrater_reliability', 'fct_coder_set_alpha']) }}
{%- endmacro %}

{#- rating_chain_materialized(): 'incremental' on DuckDB, 'table' elsewhere. -#}
{% macro rating_chain_materialized() -%}
  {{ return('incremental' if target.type == 'duckdb' else 'table') }}
{%- endmacro %}

{#- multiset_hash(alias): an aggregate fingerprint of the rows of a group (order-independent). -#}
{% macro multiset_hash(alias) -%}
  {{ return(adapter.dispatch('multiset_hash', 'evalhouse')(alias)) }}
{%- endmacro %}
{% macro default__multiset_hash(alias) -%}
concat(cast(count(*) as string), '.',
       cast(sum(cast(conv(substr(md5(to_json(struct({{ alias }}.*))), 1, 15), 16, 10) as decimal(38, 0))) as string))
{%- endmacro %}
{% macro duckdb__multiset_hash(alias) -%}
cast(count(*) as varchar) || '.' || cast(sum(cast(hash({{ alias }}) as hugeint)) as varchar)
{%- endmacro %}

{#- rating_chain_code_hash(): md5 of the chain models' code, so a changed model recomputes every key. -#}
{% macro rating_chain_code_hash() -%}
  {%- set code = [] -%}
  {%- if execute -%}
    {%- for node in graph.nodes.values() -%}
      {%- if node.resource_type == 'model' and node.name in rating_chain_models() -%}
        {%- do code.append(node.name ~ ':' ~ node.raw_code) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
  {{ return(local_md5(code | sort | join('\n'))) }}
{%- endmacro %}

{#- rating_rows(): every rating row (suites and ratings store) with the columns int_ratings reads. -#}
{% macro rating_rows() -%}
{{ suite_rating_rows() }}
union all
{{ store_rating_rows() }}
{%- endmacro %}

{#- suite_rating_rows(): the rating rows of the suites (their landing), with rating_rows()' columns. -#}
{% macro suite_rating_rows() -%}
{{ union_suites('ratings', ['suite', 'source_file', 'source_row', 'response_id', 'rater_id', 'rater_kind',
                            'criterion', 'score_text', 'reason', 'rubric_id', 'rubric_version', 'is_blind',
                            'rated_at', 'reported_total', 'reported_ready', 'judge_model']) }}
{%- endmacro %}

{#- store_rating_rows(): the rating rows of the ratings store, with rating_rows()' columns. -#}
{% macro store_rating_rows() -%}
select suite, source_file, source_row, response_id, rater_id, rater_kind, criterion, score_text, reason,
       rubric_id, rubric_version, is_blind, rated_at,
       cast(null as integer) as reported_total, cast(null as boolean) as reported_ready,
       cast(null as string) as judge_model
from {{ ref('stg_ratings_store__ratings') }}
{%- endmacro %}

{#- suite_ratings_fingerprint(): a scalar SQL expression: what the suites' rating rows (suite_rating_rows) are made
    from, the md5 of the landed ratings file's bytes (landed_file_hash; the landing writes the same bytes for the
    same rows) and the md5 of stg_suites__ratings' code; NULL where the engine cannot read the file's bytes (then
    nothing is reused). int_rating_groups keeps the suites' groups while it is the same. -#}
{% macro suite_ratings_fingerprint() -%}
  {%- set code = [] -%}
  {%- if execute -%}
    {%- for node in graph.nodes.values() -%}
      {%- if node.resource_type == 'model' and node.name == 'stg_suites__ratings' -%}
        {%- do code.append(node.raw_code) -%}
      {%- endif -%}
    {%- endfor -%}
  {%- endif -%}
({{ landed_file_hash('suites', 'ratings') }} || '|{{ local_md5(code | join("")) }}')
{%- endmacro %}

{#- landed_file_hash(source_name, table_name): a scalar SQL expression, the md5 of a declared file source's bytes
    (one file, e.g. a landed Parquet file; 0.2 s for 50 MB), NULL on engines that cannot read a file's bytes. -#}
{% macro landed_file_hash(source_name, table_name) -%}
  {{ return(adapter.dispatch('landed_file_hash', 'evalhouse')(source_path(source_name, table_name))) }}
{%- endmacro %}
{% macro default__landed_file_hash(path) -%}
cast(null as string)
{%- endmacro %}
{% macro duckdb__landed_file_hash(path) -%}
(select md5(landed.content) from read_blob('{{ path }}') as landed)
{%- endmacro %}

{#- rating_chain_inputs_fingerprint(): a scalar SQL expression, the fingerprint of everything the rating chain reads
    besides the rating rows (rubric criteria, rules and versions, responses, items) and of its code
    (rating_chain_code_hash). -#}
{% macro rating_chain_inputs_fingerprint() -%}
('{{ rating_chain_code_hash() }}'
 || '|' || (select {{ multiset_hash('criteria') }} from {{ ref('int_rubric_criteria') }} as criteria)
 || '|' || (select {{ multiset_hash('rules') }} from {{ ref('int_rubric_rules') }} as rules)
 || '|' || (select {{ multiset_hash('versions') }} from {{ ref('int_rubric_versions') }} as versions)
 || '|' || (select {{ multiset_hash('responses') }} from {{ ref('int_responses') }} as responses)
 || '|' || (select {{ multiset_hash('items') }} from {{ ref('int_items') }} as items))
{%- endmacro %}

{#- rating_groups_delete(): pre-hook of int_rating_groups: in an incremental run, delete every stored group except
    the suites' groups made from the same suite rating rows (suite_ratings_fingerprint) and the same other inputs
    (rating_chain_inputs_fingerprint); the model then adds every group it lacks. -#}
{% macro rating_groups_delete() -%}
  {%- if is_incremental() -%}
delete from {{ this }}
where not coalesce(rows_fingerprint = {{ suite_ratings_fingerprint() }}
                   and inputs_fingerprint = {{ rating_chain_inputs_fingerprint() }}, false)
  {%- endif -%}
{%- endmacro %}

{#- rating_chain_state_relation(): the stored state, or none before the first complete incremental run (or when
    the state was saved by an older evalhouse, without the groups' suite: everything is then recomputed). -#}
{% macro rating_chain_state_relation() -%}
  {%- set state = adapter.get_relation(database=this.database, schema=this.schema, identifier='_rating_chain_state') -%}
  {%- if state is not none and 'suite' not in (adapter.get_columns_in_relation(state) | map(attribute='name')
                                                | map('lower') | list) -%}
    {%- set state = none -%}
  {%- endif -%}
  {{ return(state) }}
{%- endmacro %}

{#- affected_responses(column): in an incremental run, a condition true for the responses to recompute; else true. -#}
{% macro affected_responses(column) -%}
  {%- if target.type == 'duckdb' -%}{%- set changes = ref('int_rating_changes') -%}{%- endif -%}
  {%- if is_incremental() -%}
{{ column }} in (select rating_changes.response_id from {{ changes }} as rating_changes)
  {%- else -%}
true
  {%- endif -%}
{%- endmacro %}

{#- affected_rating_rows(alias): the same for the rows of a rating: its (source_file, response_id) pair changed. -#}
{% macro affected_rating_rows(alias) -%}
  {%- if target.type == 'duckdb' -%}{%- set changes = ref('int_rating_changes') -%}{%- endif -%}
  {%- if is_incremental() -%}
exists (
    select 1 from {{ changes }} as rating_changes
    where rating_changes.source_file = {{ alias }}.source_file
      and rating_changes.response_id is not distinct from {{ alias }}.response_id
)
  {%- else -%}
true
  {%- endif -%}
{%- endmacro %}

{#- changed_suites(column, changes): a condition true for the suites of the groups in the relation `changes`
    (int_rating_changes), and for every suite when one of them has none. What the per-suite chain models recompute
    (rating_chain_delete, rating_chain_test_filter; their Python side: evalhouse.warehouse.rating_chain). -#}
{% macro changed_suites(column, changes) -%}
({{ column }} in (select rating_changes.suite from {{ changes }} as rating_changes)
 or exists (select 1 from {{ changes }} as rating_changes where rating_changes.suite is null))
{%- endmacro %}

{#- affected_suites(column): in an incremental run of a per-suite chain model, a condition true for the suites to
    recompute (changed_suites); otherwise true. -#}
{% macro affected_suites(column) -%}
  {%- if target.type == 'duckdb' -%}{%- set changes = ref('int_rating_changes') -%}{%- endif -%}
  {%- if is_incremental() -%}
{{ changed_suites(column, changes) }}
  {%- else -%}
true
  {%- endif -%}
{%- endmacro %}

{#- rating_chain_delete(key): pre-hook of an incremental chain model: delete the affected keys (key 'response_id',
    'suite', or 'rating' for the (source_file, response_id) pairs); everything when no state was saved yet. -#}
{% macro rating_chain_delete(key) -%}
  {%- if is_incremental() -%}
    {%- set changes = this.incorporate(path={'identifier': 'int_rating_changes'}) -%}
    {%- if rating_chain_state_relation() is none -%}
delete from {{ this }}
    {%- elif key == 'response_id' -%}
delete from {{ this }} where response_id in (select response_id from {{ changes }})
    {%- elif key == 'suite' -%}
delete from {{ this }} where {{ changed_suites('suite', changes) }}
    {%- else -%}
delete from {{ this }} where exists (
    select 1 from {{ changes }} as rating_changes
    where rating_changes.source_file = {{ this }}.source_file
      and rating_changes.response_id is not distinct from {{ this }}.response_id)
    {%- endif -%}
  {%- endif -%}
{%- endmacro %}

{#- save_rating_chain_state(results): on-run-end: when every chain model ran successfully and no test on a chain
    model failed or errored, the groups become the state and the pending changes are cleared; otherwise both stay,
    and the next run recomputes (and checks) them again. -#}
{% macro save_rating_chain_state(results) -%}
  {%- if execute and target.type == 'duckdb' -%}
    {%- set done = [] -%}
    {%- set failed = [] -%}
    {%- set chain_ids = [] -%}
    {%- for name in rating_chain_models() -%}
      {%- do chain_ids.append('model.' ~ project_name ~ '.' ~ name) -%}
    {%- endfor -%}
    {%- for res in results -%}
      {%- if res.node.resource_type == 'model' and res.node.name in rating_chain_models()
            and res.status == 'success' -%}
        {%- do done.append(res.node.name) -%}
      {%- elif res.node.resource_type == 'test' and res.status in ['fail', 'error']
               and res.node.depends_on.nodes | select('in', chain_ids) | list | length > 0 -%}
        {%- do failed.append(res.node.name) -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if done | unique | list | length == rating_chain_models() | length and failed | length == 0 -%}
      {%- set groups = api.Relation.create(database=target.database, schema=target.schema,
                                           identifier='int_rating_groups') -%}
      {%- set changes = api.Relation.create(database=target.database, schema=target.schema,
                                            identifier='int_rating_changes') -%}
      {%- set state = api.Relation.create(database=target.database, schema=target.schema,
                                          identifier='_rating_chain_state') -%}
      {%- set columns = 'source_file, suite, response_id, content_hash, inputs_fingerprint' -%}
      {#- (a query, not adapter.get_columns_in_relation: that opens a transaction the hook's end rolls back) -#}
      {%- set with_suite = run_query("select count(*) from information_schema.columns where table_catalog = '"
                                     ~ target.database ~ "' and table_schema = '" ~ target.schema ~ "' and "
                                     ~ "table_name = '_rating_chain_state' and column_name = 'suite'") -%}
      {%- if with_suite.columns[0].values()[0] > 0 -%}
        {#- Only the changed groups are replaced: every other group has the same row in the state and in the groups
            (int_rating_changes lists every group whose row differs, and every group only one of them has), so
            the state ends equal to the groups, without copying them all (0.7 s at a million replies). -#}
        {%- set listed -%}
exists (select 1 from {{ changes }} as rating_changes
        where rating_changes.source_file = {alias}.source_file
          and rating_changes.suite is not distinct from {alias}.suite
          and rating_changes.response_id is not distinct from {alias}.response_id)
        {%- endset -%}
        {%- do run_query('delete from ' ~ state ~ ' where ' ~ listed | replace('{alias}', state)) -%}
        {%- do run_query('insert into ' ~ state ~ ' (' ~ columns ~ ') select ' ~ columns ~ ' from ' ~ groups
                         ~ ' as current_groups where ' ~ listed | replace('{alias}', 'current_groups')) -%}
      {%- else -%}
        {%- do run_query('create or replace table ' ~ state ~ ' as select ' ~ columns ~ ' from ' ~ groups) -%}
      {%- endif -%}
      {%- do run_query('delete from ' ~ changes) -%}
    {%- endif -%}
  {%- endif -%}
  select 1
{%- endmacro %}

{#- rating_chain_test_filter(model, columns): a where clause for a uniqueness test (`columns`, the key) of an
    incremental chain model, restricting it to the keys of the rows this run recomputed, or nothing (every row is
    checked). Restricted only in a `dbt build` on DuckDB that selected the model, not --full-refresh, after a saved
    state. The recomputed rows are those of the affected responses (response_id in int_rating_changes), for the
    rating rows (int_ratings, fct_ratings) of the affected rating files (source_file), for the per-suite models
    of the changed suites. A key holding that column
    reads just those rows; a one-column key (rating_id) reads every row whose value one of them has; another key is
    not restricted. Sound because a duplicate the run made has a recomputed row in it; the kept rows were checked
    in the run that wrote them, and the state advances only when the chain's tests passed (save_rating_chain_state).
    fct_word_search_vs_human is not restricted: it also recomputes responses whose first filter changed, which
    int_rating_changes does not list. A plain `dbt test` checks every row. -#}
{% macro rating_chain_test_filter(model, columns) -%}
  {%- set name = model.identifier if model.identifier is defined else none -%}
  {%- if execute and target.type == 'duckdb' and name in rating_chain_models()
        and name not in ['int_rating_groups', 'int_rating_changes', 'fct_word_search_vs_human']
        and flags.WHICH == 'build' and not flags.FULL_REFRESH
        and ('model.' ~ project_name ~ '.' ~ name) in selected_resources
        and adapter.get_relation(database=model.database, schema=model.schema,
                                 identifier='_rating_chain_state') is not none -%}
    {%- set changes = model.incorporate(path={'identifier': 'int_rating_changes'}) -%}
    {%- if name in rating_chain_suite_models() -%}
      {%- set by = 'suite' -%}
      {%- set recomputed = changed_suites('suite', changes) -%}
    {%- else -%}
      {%- set by = 'source_file' if name in ['int_ratings', 'fct_ratings'] else 'response_id' -%}
      {%- set recomputed = by ~ ' in (select ' ~ by ~ ' from ' ~ changes ~ ')' -%}
    {%- endif -%}
    {%- if by in columns -%}
where {{ recomputed }}
    {%- elif columns | length == 1 -%}
where {{ columns[0] }} in (select {{ columns[0] }} from {{ model }} where {{ recomputed }})
    {%- endif -%}
  {%- endif -%}
{%- endmacro %}

{#- word_search_delete(): pre-hook of fct_word_search_vs_human (after rating_chain_delete): in an incremental run,
    delete the responses whose stored first-filter columns are not int_first_filter's now (the first filter
    changed without a rating change: suite settings, labels, the text checks); the model then adds them again. -#}
{% macro word_search_delete() -%}
  {%- if is_incremental() -%}
    {%- set first_filter = this.incorporate(path={'identifier': 'int_first_filter'}) -%}
delete from {{ this }} where not exists (
    select 1 from {{ first_filter }} as ff
    where ff.response_id = {{ this }}.response_id
      and ff.suite is not distinct from {{ this }}.suite
      and ff.item_id is not distinct from {{ this }}.item_id
      and ff.system_id is not distinct from {{ this }}.system_id
      and ff.word_search_verdict is not distinct from {{ this }}.word_search_verdict
      and ff.first_filter_verdict is not distinct from {{ this }}.first_filter_verdict
      and ff.n_required_missing_plain is not distinct from {{ this }}.n_required_missing_plain
      and ff.n_required_missing_normalized is not distinct from {{ this }}.n_required_missing_normalized
      and ff.n_forbidden_found_plain is not distinct from {{ this }}.n_forbidden_found_plain
      and ff.n_forbidden_violations is not distinct from {{ this }}.n_forbidden_violations
      and ff.n_labels_wrong is not distinct from {{ this }}.n_labels_wrong
      and ff.language_matches_key is not distinct from {{ this }}.language_matches_key)
  {%- endif -%}
{%- endmacro %}
