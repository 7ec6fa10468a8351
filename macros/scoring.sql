{#- ready_gate_condition(rubric_col, criterion_col): true when the criterion is a gate of the rubric's ready rule. -#}
{% macro criterion_in_rubric_var(var_name, rubric_col, criterion_col) -%}
  {%- set rules = var(var_name, {}) -%}
  {%- if rules | length == 0 -%}
    false
  {%- else -%}
  (
    {%- for rubric_id, criteria in rules.items() %}
    ({{ rubric_col }} = '{{ rubric_id }}' and {{ criterion_col }} in ({% for c in criteria %}'{{ c }}'{% if not loop.last %}, {% endif %}{% endfor %}))
    {%- if not loop.last %} or {% endif %}
    {%- endfor %}
  )
  {%- endif -%}
{%- endmacro %}

{#- rubric_has_rule(var_name, rubric_col): true when the rubric has an entry in the var. -#}
{% macro rubric_in_var(var_name, rubric_col) -%}
  {%- set rules = var(var_name, {}) -%}
  {%- if rules | length == 0 -%}
    false
  {%- else -%}
    {{ rubric_col }} in ({% for rubric_id in rules.keys() %}'{{ rubric_id }}'{% if not loop.last %}, {% endif %}{% endfor %})
  {%- endif -%}
{%- endmacro %}

{#- ratio_round_half_up(num, den, places): num / den rounded half-up to `places` decimals, as an exact DECIMAL
    (no DOUBLE in the result). For non-negative num and positive den; NULL when den is 0 or NULL. -#}
{% macro ratio_round_half_up(num, den, places=2) -%}
  {%- set scale = 10 ** places -%}
cast(case when ({{ den }}) > 0 then
    cast(floor((cast({{ num }} as decimal(38, 6)) * {{ scale * 2 }} + ({{ den }})) / (2 * ({{ den }}))) as decimal(30, 0))
    * cast('{{ "%.*f" | format(places, 1 / scale) }}' as decimal(18, {{ places }}))
end as decimal(18, {{ places }}))
{%- endmacro %}
