-- Systems and judges named in each suite.yml: model family (families:) and whether it is the suite's baseline.
select
    cast(suite as string)                      as suite,
    cast(name as string)                       as name,
    cast(nullif(family, '') as string)         as family,
    coalesce(cast(is_baseline as boolean), false) as is_baseline
from {{ read_source('suites', 'suite_systems') }}
