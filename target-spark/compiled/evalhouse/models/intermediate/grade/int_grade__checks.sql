-- The claim checks of every GRADE task, one row per task x check: gold insights, required limitations and forbidden
-- claims with their ';'-separated match_terms (about_uncertainty: a gold insight that also counts for calibration).
select item_id, 'gold_insight' as check_kind, check_id, check_text, match_terms, about_uncertainty
from evalhouse.stg_grade__gold_insights
union all
select item_id, 'required_limitation', check_id, check_text, match_terms, false
from evalhouse.stg_grade__required_limitations
union all
select item_id, 'forbidden_claim', check_id, check_text, match_terms, false
from evalhouse.stg_grade__forbidden_claims