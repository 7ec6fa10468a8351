-- One row per suite declared as a folder: title, licence, attribution, flags and folder from suite.yml.
select
    cast(suite as varchar)          as suite,
    cast(title as varchar)          as title,
    cast(description as varchar)    as description,
    cast(licence as varchar)        as licence,
    cast(attribution as varchar)    as attribution,
    cast(first_filter as boolean)   as first_filter,
    cast(grounding as boolean)      as grounding,
    cast(folder as varchar)         as folder
from {{ read_source('suites', 'suites') }}
