{#- The stable response id of a Larkfield reply: suite, ticket and a hash of the model run. -#}
{% macro larkfield_response_id(ticket_col, model_col) -%}
'larkfield-' || cast({{ ticket_col }} as varchar) || '-' || {{ short_hash('cast(' ~ model_col ~ ' as varchar)') }} || '-r1'
{%- endmacro %}
