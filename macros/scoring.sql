{#- ratio_round_half_up(num, den, places): num / den rounded half-up to `places` decimals, as an exact DECIMAL
    (no DOUBLE in the result). For non-negative num and positive den; NULL when den is 0 or NULL. -#}
{% macro ratio_round_half_up(num, den, places=2) -%}
  {%- set scale = 10 ** places -%}
cast(case when ({{ den }}) > 0 then
    cast(floor((cast({{ num }} as decimal(38, 6)) * {{ scale * 2 }} + ({{ den }})) / (2 * ({{ den }}))) as decimal(30, 0))
    * cast('{{ "%.*f" | format(places, 1 / scale) }}' as decimal(18, {{ places }}))
end as decimal(18, {{ places }}))
{%- endmacro %}
