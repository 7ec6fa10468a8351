-- TAT-QA has no ratings (grounding only): empty, with the shared columns.
select cast(null as varchar) as suite, cast(null as varchar) as source_file, cast(null as integer) as source_row,
       cast(null as varchar) as response_id, cast(null as varchar) as rater_id, cast(null as varchar) as rater_kind,
       cast(null as varchar) as criterion, cast(null as varchar) as score_text, cast(null as varchar) as reason,
       cast(null as varchar) as rubric_id, cast(null as integer) as rubric_version, cast(null as boolean) as is_blind,
       cast(null as timestamp) as rated_at
where false
