-- Systems and judges named in each suite.yml: model family (families:) and whether it is the suite's baseline.
select
    cast(suite as varchar)                      as suite,
    cast(name as varchar)                       as name,
    cast(nullif(family, '') as varchar)         as family,
    coalesce(cast(is_baseline as boolean), false) as is_baseline
from {{ read_source('suites', 'suite_systems') }}
