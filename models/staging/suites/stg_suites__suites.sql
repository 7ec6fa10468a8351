-- One row per suite declared as a folder: title, licence, attribution, flags and folder from suite.yml.
select
    cast(suite as string)          as suite,
    cast(title as string)          as title,
    cast(description as string)    as description,
    cast(licence as string)        as licence,
    cast(attribution as string)    as attribution,
    cast(first_filter as boolean)   as first_filter,
    cast(grounding as boolean)      as grounding,
    cast(folder as string)         as folder
from {{ read_source('suites', 'suites') }}
