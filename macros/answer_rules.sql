{#- Answer rules (evalhouse.rules): the registry of rule names and the gold kinds each applies to, and the check of
    var('answer_rules') (hand-mapped suites; declared suites choose theirs in suite.yml, checked by `suite check`). Keep answer_rule_registry() equal to evalhouse.rules.RULES (python/tests/test_rules.py
    compares them). -#}

{% macro answer_rule_registry() -%}
  {{ return({
      'house_exact': ['numeric_fact', 'string_fact'],
      'house_tolerance': ['numeric_fact', 'string_fact'],
      'tatqa_official_em': ['numeric_fact', 'string_fact', 'span_list_fact'],
      'tatqa_official_f1': ['numeric_fact', 'string_fact', 'span_list_fact'],
      'faithful_cot_gsm8k': ['numeric_fact'],
  }) }}
{%- endmacro %}

{#- answer_rules_checked(): the (suite, gold_kind, rule) triples of var('answer_rules') as a list of lists, after
    checking every name. Called at the top of the models that use the var, so a bad declaration stops `dbt parse`
    / `dbt build` before any model runs, with a message naming the var and the field. -#}
{% macro answer_rules_checked() -%}
  {%- set registry = answer_rule_registry() -%}
  {%- set declared = var('answer_rules', {}) -%}
  {%- set grounding = var('grade_grounding_suites', []) -%}
  {%- set kinds = ['numeric_fact', 'string_fact', 'span_list_fact'] -%}
  {%- set out = [] -%}
  {%- if declared is not mapping -%}
    {{ exceptions.raise_compiler_error("dbt var answer_rules (dbt_project.yml): expected a mapping suite -> gold kind -> list of rules") }}
  {%- endif -%}
  {%- for suite, per_kind in declared.items() -%}
    {%- if suite not in grounding -%}
      {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ " (dbt_project.yml): suite is not in var grade_grounding_suites " ~ grounding | string) }}
    {%- endif -%}
    {%- if per_kind is not mapping -%}
      {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ " (dbt_project.yml): expected a mapping gold kind -> list of rules, got " ~ per_kind | string) }}
    {%- endif -%}
    {%- for kind, rules in per_kind.items() -%}
      {%- if kind not in kinds -%}
        {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ "." ~ kind ~ " (dbt_project.yml): unknown gold kind; known: " ~ kinds | join(', ')) }}
      {%- endif -%}
      {%- if rules is string or rules is mapping -%}
        {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ "." ~ kind ~ " (dbt_project.yml): expected a list of rule names") }}
      {%- endif -%}
      {%- for rule in rules -%}
        {%- if rule not in registry -%}
          {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ "." ~ kind ~ " (dbt_project.yml): unknown answer rule '" ~ rule ~ "'; known: " ~ registry.keys() | list | join(', ')) }}
        {%- endif -%}
        {%- if kind not in registry[rule] -%}
          {{ exceptions.raise_compiler_error("dbt var answer_rules." ~ suite ~ "." ~ kind ~ " (dbt_project.yml): answer rule '" ~ rule ~ "' does not apply to gold kind " ~ kind ~ " (it applies to " ~ registry[rule] | join(', ') ~ ")") }}
        {%- endif -%}
        {%- do out.append([suite, kind, rule]) -%}
      {%- endfor -%}
    {%- endfor -%}
  {%- endfor -%}
  {{ return(out) }}
{%- endmacro %}

{#- answer_rules_values(triples, exclude_prefix): a SELECT of (suite, gold_kind, answer_rule) rows; an empty
    typed relation when there are none. -#}
{% macro answer_rules_relation(triples) -%}
  {%- if triples | length == 0 -%}
select cast(null as varchar) as suite, cast(null as varchar) as gold_kind, cast(null as varchar) as answer_rule where false
  {%- else -%}
    {%- for t in triples %}
select '{{ t[0] }}' as suite, '{{ t[1] }}' as gold_kind, '{{ t[2] }}' as answer_rule{{ ' union all' if not loop.last }}
    {%- endfor -%}
  {%- endif -%}
{%- endmacro %}
