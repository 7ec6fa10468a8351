-- One row per rubric x version x criterion: the score range and whether this version changed the criterion's
-- anchors compared with the previous version (any level's anchor text differs, or a level was added/removed), and
-- its direction: 'higher' (a higher level is better) or 'lower' (e.g. a count of errors; default higher).
with levels as (
    select * from evalhouse.int_rubric_levels
),

versions as (
    select * from evalhouse.int_rubric_versions
),

criteria as (
    select suite, rubric_id, rubric_version, criterion,
           min(criterion_order) as criterion_order,
           min(min_score) as min_score,
           max(max_score) as max_score,
           coalesce(min(direction), 'higher') as direction
    from levels
    group by suite, rubric_id, rubric_version, criterion
),

level_changes as (
    select cur.rubric_id, cur.rubric_version, cur.criterion,
           max(case when prev.anchor is null or prev.anchor <> cur.anchor then 1 else 0 end) as changed
    from levels as cur
    left join levels as prev
        on prev.rubric_id = cur.rubric_id
       and prev.rubric_version = cur.rubric_version - 1
       and prev.criterion = cur.criterion
       and prev.level = cur.level
    where cur.rubric_version > (select min(v.rubric_version) from versions as v where v.rubric_id = cur.rubric_id)
    group by cur.rubric_id, cur.rubric_version, cur.criterion
),

latest as (
    select rubric_id, max(rubric_version) as current_version
    from versions
    group by rubric_id
)

select
    criteria.suite,
    criteria.rubric_id,
    criteria.rubric_version,
    criteria.criterion,
    criteria.criterion_order,
    criteria.min_score,
    criteria.max_score,
    criteria.direction,
    coalesce(level_changes.changed, 0) = 1                  as anchors_changed_in_version,
    criteria.rubric_version = latest.current_version        as is_current_version,
    latest.current_version
from criteria
left join level_changes
    on level_changes.rubric_id = criteria.rubric_id
   and level_changes.rubric_version = criteria.rubric_version
   and level_changes.criterion = criteria.criterion
inner join latest
    on latest.rubric_id = criteria.rubric_id