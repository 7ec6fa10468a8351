-- Rubric levels with anchors, per rubric version; the anchor text is the description + example of the lesson's table.
with anchors as (
    select * from {{ ref('larkfield_rubric_anchors') }}
),

criteria as (
    select * from {{ ref('larkfield_criteria') }}
)

select
    'larkfield'                                  as suite,
    cast(anchors.rubric_id as varchar)           as rubric_id,
    cast(anchors.rubric_version as integer)      as rubric_version,
    cast(anchors.criterion as varchar)           as criterion,
    cast(criteria.criterion_order as integer)    as criterion_order,
    cast(criteria.min_score as integer)          as min_score,
    cast(criteria.max_score as integer)          as max_score,
    cast(anchors.level as integer)               as level,
    cast(anchors.anchor as varchar)              as anchor
from anchors
inner join criteria
    on criteria.rubric_id = anchors.rubric_id
   and criteria.criterion = anchors.criterion
