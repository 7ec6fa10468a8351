-- Gold insights per task (gold_insights.csv). match_terms: ';'-separated terms that must all start a word in the
-- same key finding (case-folded); about_uncertainty = also counted in the calibration dimension.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id                           as item_id,
    insight_id                                          as check_id,
    insight_text                                        as check_text,
    match_terms,
    coalesce(try_cast(about_uncertainty as boolean), false) as about_uncertainty,
    filename                                            as source_file
from {{ read_source('grade', 'gold_insights') }}
