
  
    
        create table evalhouse.fct_grade__fact_checks
      
      
      
      
      
      
      
      

      as
      
-- depends_on: evalhouse.int_grade__tasks
-- GRADE grounding accuracy (C1) as a SQL tolerance join: every gold numeric_fact / string_fact of the grounding
-- suites (int_grade__grounding_suites) against every response to its item, through the value the response reported under
-- the fact's key (response_labels: structured_metrics for packs, the parsed answer for TAT-QA / GSM8K).
-- Numeric: the LAST number token of the reported text (macro grade_number_tokens; rules in
-- evalhouse.grade.text), compared in DECIMAL(38,18): passed iff |reply - gold| <= abs_tol + rel_tol * |gold|
-- (gold is the reference, boundary inclusive, abs_tol 0 unless set). passed_exact: reply = gold as decimals.
-- String: passed iff casefold(trim(reply)) = casefold(trim(gold)) (full Unicode case folding, nothing else is
-- normalised: no article stripping, no numeric reading of IDs); passed_exact: trim(reply) = trim(gold).
with grounding_suites as (
    select suite from evalhouse.int_grade__grounding_suites
),

gold as (
    select
        suite,
        item_id,
        gold_kind,
        gold_key,
        gold_value,
        cast(coalesce(abs_tol, 0) as decimal(38, 18))    as abs_tol,
        cast(coalesce(rel_tol, 0) as decimal(18, 9))     as rel_tol,
        regexp_extract_all(gold_value, '(^|[^0-9A-Za-z.])((-|−)?[$€£]?(-|−)?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?: ?%)?)', 2)          as gold_tokens
    from evalhouse.int_gold
    where gold_kind in ('numeric_fact', 'string_fact')
      and suite in (select grounding_suites.suite from grounding_suites)
),

gold_typed as (
    select
        gold.*,
        case when gold.gold_kind = 'numeric_fact' and size(gold_tokens) = 1
             then case when (replace(replace(replace(replace(replace(replace(replace(element_at(gold_tokens, 1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') rlike '^-?[0-9]{1,12}([.][0-9]{1,6})?$')
     then cast(cast(replace(replace(replace(replace(replace(replace(replace(element_at(gold_tokens, 1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') as decimal(18, 6)) as decimal(38, 18))
     else try_cast(replace(replace(replace(replace(replace(replace(replace(element_at(gold_tokens, 1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') as decimal(38, 18)) end end    as gold_number,
        case when gold.gold_kind = 'string_fact' then case when regexp_like(lower(trim(gold_value)), '[µßŉſǰͅΐΰςϐϑϕϖϰϱϵևᏸᏹᏺᏻᏼᏽᲀᲁᲂᲃᲄᲅᲆᲇᲈẖẗẘẙẚẛὐὒὔὖᾀᾁᾂᾃᾄᾅᾆᾇᾐᾑᾒᾓᾔᾕᾖᾗᾠᾡᾢᾣᾤᾥᾦᾧᾲᾳᾴᾶᾷιῂῃῄῆῇῒΐῖῗῢΰῤῦῧῲῳῴῶῷꭰꭱꭲꭳꭴꭵꭶꭷꭸꭹꭺꭻꭼꭽꭾꭿꮀꮁꮂꮃꮄꮅꮆꮇꮈꮉꮊꮋꮌꮍꮎꮏꮐꮑꮒꮓꮔꮕꮖꮗꮘꮙꮚꮛꮜꮝꮞꮟꮠꮡꮢꮣꮤꮥꮦꮧꮨꮩꮪꮫꮬꮭꮮꮯꮰꮱꮲꮳꮴꮵꮶꮷꮸꮹꮺꮻꮼꮽꮾꮿﬀﬁﬂﬃﬄﬅﬆﬓﬔﬕﬖﬗ]') then replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(trim(gold_value)), 'µ', 'μ'), 'ß', 'ss'), 'ŉ', 'ʼn'), 'ſ', 's'), 'ǰ', 'ǰ'), 'ͅ', 'ι'), 'ΐ', 'ΐ'), 'ΰ', 'ΰ'), 'ς', 'σ'), 'ϐ', 'β'), 'ϑ', 'θ'), 'ϕ', 'φ'), 'ϖ', 'π'), 'ϰ', 'κ'), 'ϱ', 'ρ'), 'ϵ', 'ε'), 'և', 'եւ'), 'ᏸ', 'Ᏸ'), 'ᏹ', 'Ᏹ'), 'ᏺ', 'Ᏺ'), 'ᏻ', 'Ᏻ'), 'ᏼ', 'Ᏼ'), 'ᏽ', 'Ᏽ'), 'ᲀ', 'в'), 'ᲁ', 'д'), 'ᲂ', 'о'), 'ᲃ', 'с'), 'ᲄ', 'т'), 'ᲅ', 'т'), 'ᲆ', 'ъ'), 'ᲇ', 'ѣ'), 'ᲈ', 'ꙋ'), 'ẖ', 'ẖ'), 'ẗ', 'ẗ'), 'ẘ', 'ẘ'), 'ẙ', 'ẙ'), 'ẚ', 'aʾ'), 'ẛ', 'ṡ'), 'ὐ', 'ὐ'), 'ὒ', 'ὒ'), 'ὔ', 'ὔ'), 'ὖ', 'ὖ'), 'ᾀ', 'ἀι'), 'ᾁ', 'ἁι'), 'ᾂ', 'ἂι'), 'ᾃ', 'ἃι'), 'ᾄ', 'ἄι'), 'ᾅ', 'ἅι'), 'ᾆ', 'ἆι'), 'ᾇ', 'ἇι'), 'ᾐ', 'ἠι'), 'ᾑ', 'ἡι'), 'ᾒ', 'ἢι'), 'ᾓ', 'ἣι'), 'ᾔ', 'ἤι'), 'ᾕ', 'ἥι'), 'ᾖ', 'ἦι'), 'ᾗ', 'ἧι'), 'ᾠ', 'ὠι'), 'ᾡ', 'ὡι'), 'ᾢ', 'ὢι'), 'ᾣ', 'ὣι'), 'ᾤ', 'ὤι'), 'ᾥ', 'ὥι'), 'ᾦ', 'ὦι'), 'ᾧ', 'ὧι'), 'ᾲ', 'ὰι'), 'ᾳ', 'αι'), 'ᾴ', 'άι'), 'ᾶ', 'ᾶ'), 'ᾷ', 'ᾶι'), 'ι', 'ι'), 'ῂ', 'ὴι'), 'ῃ', 'ηι'), 'ῄ', 'ήι'), 'ῆ', 'ῆ'), 'ῇ', 'ῆι'), 'ῒ', 'ῒ'), 'ΐ', 'ΐ'), 'ῖ', 'ῖ'), 'ῗ', 'ῗ'), 'ῢ', 'ῢ'), 'ΰ', 'ΰ'), 'ῤ', 'ῤ'), 'ῦ', 'ῦ'), 'ῧ', 'ῧ'), 'ῲ', 'ὼι'), 'ῳ', 'ωι'), 'ῴ', 'ώι'), 'ῶ', 'ῶ'), 'ῷ', 'ῶι'), 'ꭰ', 'Ꭰ'), 'ꭱ', 'Ꭱ'), 'ꭲ', 'Ꭲ'), 'ꭳ', 'Ꭳ'), 'ꭴ', 'Ꭴ'), 'ꭵ', 'Ꭵ'), 'ꭶ', 'Ꭶ'), 'ꭷ', 'Ꭷ'), 'ꭸ', 'Ꭸ'), 'ꭹ', 'Ꭹ'), 'ꭺ', 'Ꭺ'), 'ꭻ', 'Ꭻ'), 'ꭼ', 'Ꭼ'), 'ꭽ', 'Ꭽ'), 'ꭾ', 'Ꭾ'), 'ꭿ', 'Ꭿ'), 'ꮀ', 'Ꮀ'), 'ꮁ', 'Ꮁ'), 'ꮂ', 'Ꮂ'), 'ꮃ', 'Ꮃ'), 'ꮄ', 'Ꮄ'), 'ꮅ', 'Ꮅ'), 'ꮆ', 'Ꮆ'), 'ꮇ', 'Ꮇ'), 'ꮈ', 'Ꮈ'), 'ꮉ', 'Ꮉ'), 'ꮊ', 'Ꮊ'), 'ꮋ', 'Ꮋ'), 'ꮌ', 'Ꮌ'), 'ꮍ', 'Ꮍ'), 'ꮎ', 'Ꮎ'), 'ꮏ', 'Ꮏ'), 'ꮐ', 'Ꮐ'), 'ꮑ', 'Ꮑ'), 'ꮒ', 'Ꮒ'), 'ꮓ', 'Ꮓ'), 'ꮔ', 'Ꮔ'), 'ꮕ', 'Ꮕ'), 'ꮖ', 'Ꮖ'), 'ꮗ', 'Ꮗ'), 'ꮘ', 'Ꮘ'), 'ꮙ', 'Ꮙ'), 'ꮚ', 'Ꮚ'), 'ꮛ', 'Ꮛ'), 'ꮜ', 'Ꮜ'), 'ꮝ', 'Ꮝ'), 'ꮞ', 'Ꮞ'), 'ꮟ', 'Ꮟ'), 'ꮠ', 'Ꮠ'), 'ꮡ', 'Ꮡ'), 'ꮢ', 'Ꮢ'), 'ꮣ', 'Ꮣ'), 'ꮤ', 'Ꮤ'), 'ꮥ', 'Ꮥ'), 'ꮦ', 'Ꮦ'), 'ꮧ', 'Ꮧ'), 'ꮨ', 'Ꮨ'), 'ꮩ', 'Ꮩ'), 'ꮪ', 'Ꮪ'), 'ꮫ', 'Ꮫ'), 'ꮬ', 'Ꮬ'), 'ꮭ', 'Ꮭ'), 'ꮮ', 'Ꮮ'), 'ꮯ', 'Ꮯ'), 'ꮰ', 'Ꮰ'), 'ꮱ', 'Ꮱ'), 'ꮲ', 'Ꮲ'), 'ꮳ', 'Ꮳ'), 'ꮴ', 'Ꮴ'), 'ꮵ', 'Ꮵ'), 'ꮶ', 'Ꮶ'), 'ꮷ', 'Ꮷ'), 'ꮸ', 'Ꮸ'), 'ꮹ', 'Ꮹ'), 'ꮺ', 'Ꮺ'), 'ꮻ', 'Ꮻ'), 'ꮼ', 'Ꮼ'), 'ꮽ', 'Ꮽ'), 'ꮾ', 'Ꮾ'), 'ꮿ', 'Ꮿ'), 'ﬀ', 'ff'), 'ﬁ', 'fi'), 'ﬂ', 'fl'), 'ﬃ', 'ffi'), 'ﬄ', 'ffl'), 'ﬅ', 'st'), 'ﬆ', 'st'), 'ﬓ', 'մն'), 'ﬔ', 'մե'), 'ﬕ', 'մի'), 'ﬖ', 'վն'), 'ﬗ', 'մխ') else lower(trim(gold_value)) end end as gold_folded
    from gold
),

gold_tol as (
    -- the tolerance once per gold fact (DECIMAL rescaling is costly; not once per response)
    select
        gold_typed.*,
        cast(gold_typed.abs_tol
             + cast(gold_typed.rel_tol * cast(abs(gold_typed.gold_number) as decimal(38, 12)) as decimal(38, 18))
             as decimal(38, 18))                        as tolerance
    from gold_typed
),

responses as (
    select suite, response_id, item_id, system_id, repetition
    from evalhouse.int_responses
    where suite in (select grounding_suites.suite from grounding_suites)
),

labels as (
    select suite, response_id, label_name, label_value
    from evalhouse.int_response_labels
    where suite in (select grounding_suites.suite from grounding_suites)
),

joined as (
    select
        responses.suite,
        responses.response_id,
        responses.item_id,
        responses.system_id,
        responses.repetition,
        gold_typed.gold_kind,
        gold_typed.gold_key,
        gold_typed.gold_value,
        gold_typed.gold_number,
        gold_typed.gold_folded,
        gold_typed.abs_tol,
        gold_typed.rel_tol,
        gold_typed.tolerance,
        labels.label_value                                      as reply_text,
        case when gold_typed.gold_kind = 'numeric_fact'
             then regexp_extract_all(labels.label_value, '(^|[^0-9A-Za-z.])((-|−)?[$€£]?(-|−)?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?: ?%)?)', 2) end as reply_tokens
    from responses
    inner join gold_tol as gold_typed
        on gold_typed.suite = responses.suite
       and gold_typed.item_id = responses.item_id
    left join labels
        on labels.response_id = responses.response_id
       and labels.label_name = gold_typed.gold_key
),

parsed as (
    select
        joined.*,
        size(reply_tokens)                                      as n_reply_numbers,
        element_at(reply_tokens, -1)                               as reply_token,
        case when (replace(replace(replace(replace(replace(replace(replace(element_at(reply_tokens, -1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') rlike '^-?[0-9]{1,12}([.][0-9]{1,6})?$')
     then cast(cast(replace(replace(replace(replace(replace(replace(replace(element_at(reply_tokens, -1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') as decimal(18, 6)) as decimal(38, 18))
     else try_cast(replace(replace(replace(replace(replace(replace(replace(element_at(reply_tokens, -1), ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-') as decimal(38, 18)) end           as reply_number,
        case when joined.gold_kind = 'string_fact' and joined.reply_text is not null
             then case when regexp_like(lower(trim(reply_text)), '[µßŉſǰͅΐΰςϐϑϕϖϰϱϵևᏸᏹᏺᏻᏼᏽᲀᲁᲂᲃᲄᲅᲆᲇᲈẖẗẘẙẚẛὐὒὔὖᾀᾁᾂᾃᾄᾅᾆᾇᾐᾑᾒᾓᾔᾕᾖᾗᾠᾡᾢᾣᾤᾥᾦᾧᾲᾳᾴᾶᾷιῂῃῄῆῇῒΐῖῗῢΰῤῦῧῲῳῴῶῷꭰꭱꭲꭳꭴꭵꭶꭷꭸꭹꭺꭻꭼꭽꭾꭿꮀꮁꮂꮃꮄꮅꮆꮇꮈꮉꮊꮋꮌꮍꮎꮏꮐꮑꮒꮓꮔꮕꮖꮗꮘꮙꮚꮛꮜꮝꮞꮟꮠꮡꮢꮣꮤꮥꮦꮧꮨꮩꮪꮫꮬꮭꮮꮯꮰꮱꮲꮳꮴꮵꮶꮷꮸꮹꮺꮻꮼꮽꮾꮿﬀﬁﬂﬃﬄﬅﬆﬓﬔﬕﬖﬗ]') then replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(trim(reply_text)), 'µ', 'μ'), 'ß', 'ss'), 'ŉ', 'ʼn'), 'ſ', 's'), 'ǰ', 'ǰ'), 'ͅ', 'ι'), 'ΐ', 'ΐ'), 'ΰ', 'ΰ'), 'ς', 'σ'), 'ϐ', 'β'), 'ϑ', 'θ'), 'ϕ', 'φ'), 'ϖ', 'π'), 'ϰ', 'κ'), 'ϱ', 'ρ'), 'ϵ', 'ε'), 'և', 'եւ'), 'ᏸ', 'Ᏸ'), 'ᏹ', 'Ᏹ'), 'ᏺ', 'Ᏺ'), 'ᏻ', 'Ᏻ'), 'ᏼ', 'Ᏼ'), 'ᏽ', 'Ᏽ'), 'ᲀ', 'в'), 'ᲁ', 'д'), 'ᲂ', 'о'), 'ᲃ', 'с'), 'ᲄ', 'т'), 'ᲅ', 'т'), 'ᲆ', 'ъ'), 'ᲇ', 'ѣ'), 'ᲈ', 'ꙋ'), 'ẖ', 'ẖ'), 'ẗ', 'ẗ'), 'ẘ', 'ẘ'), 'ẙ', 'ẙ'), 'ẚ', 'aʾ'), 'ẛ', 'ṡ'), 'ὐ', 'ὐ'), 'ὒ', 'ὒ'), 'ὔ', 'ὔ'), 'ὖ', 'ὖ'), 'ᾀ', 'ἀι'), 'ᾁ', 'ἁι'), 'ᾂ', 'ἂι'), 'ᾃ', 'ἃι'), 'ᾄ', 'ἄι'), 'ᾅ', 'ἅι'), 'ᾆ', 'ἆι'), 'ᾇ', 'ἇι'), 'ᾐ', 'ἠι'), 'ᾑ', 'ἡι'), 'ᾒ', 'ἢι'), 'ᾓ', 'ἣι'), 'ᾔ', 'ἤι'), 'ᾕ', 'ἥι'), 'ᾖ', 'ἦι'), 'ᾗ', 'ἧι'), 'ᾠ', 'ὠι'), 'ᾡ', 'ὡι'), 'ᾢ', 'ὢι'), 'ᾣ', 'ὣι'), 'ᾤ', 'ὤι'), 'ᾥ', 'ὥι'), 'ᾦ', 'ὦι'), 'ᾧ', 'ὧι'), 'ᾲ', 'ὰι'), 'ᾳ', 'αι'), 'ᾴ', 'άι'), 'ᾶ', 'ᾶ'), 'ᾷ', 'ᾶι'), 'ι', 'ι'), 'ῂ', 'ὴι'), 'ῃ', 'ηι'), 'ῄ', 'ήι'), 'ῆ', 'ῆ'), 'ῇ', 'ῆι'), 'ῒ', 'ῒ'), 'ΐ', 'ΐ'), 'ῖ', 'ῖ'), 'ῗ', 'ῗ'), 'ῢ', 'ῢ'), 'ΰ', 'ΰ'), 'ῤ', 'ῤ'), 'ῦ', 'ῦ'), 'ῧ', 'ῧ'), 'ῲ', 'ὼι'), 'ῳ', 'ωι'), 'ῴ', 'ώι'), 'ῶ', 'ῶ'), 'ῷ', 'ῶι'), 'ꭰ', 'Ꭰ'), 'ꭱ', 'Ꭱ'), 'ꭲ', 'Ꭲ'), 'ꭳ', 'Ꭳ'), 'ꭴ', 'Ꭴ'), 'ꭵ', 'Ꭵ'), 'ꭶ', 'Ꭶ'), 'ꭷ', 'Ꭷ'), 'ꭸ', 'Ꭸ'), 'ꭹ', 'Ꭹ'), 'ꭺ', 'Ꭺ'), 'ꭻ', 'Ꭻ'), 'ꭼ', 'Ꭼ'), 'ꭽ', 'Ꭽ'), 'ꭾ', 'Ꭾ'), 'ꭿ', 'Ꭿ'), 'ꮀ', 'Ꮀ'), 'ꮁ', 'Ꮁ'), 'ꮂ', 'Ꮂ'), 'ꮃ', 'Ꮃ'), 'ꮄ', 'Ꮄ'), 'ꮅ', 'Ꮅ'), 'ꮆ', 'Ꮆ'), 'ꮇ', 'Ꮇ'), 'ꮈ', 'Ꮈ'), 'ꮉ', 'Ꮉ'), 'ꮊ', 'Ꮊ'), 'ꮋ', 'Ꮋ'), 'ꮌ', 'Ꮌ'), 'ꮍ', 'Ꮍ'), 'ꮎ', 'Ꮎ'), 'ꮏ', 'Ꮏ'), 'ꮐ', 'Ꮐ'), 'ꮑ', 'Ꮑ'), 'ꮒ', 'Ꮒ'), 'ꮓ', 'Ꮓ'), 'ꮔ', 'Ꮔ'), 'ꮕ', 'Ꮕ'), 'ꮖ', 'Ꮖ'), 'ꮗ', 'Ꮗ'), 'ꮘ', 'Ꮘ'), 'ꮙ', 'Ꮙ'), 'ꮚ', 'Ꮚ'), 'ꮛ', 'Ꮛ'), 'ꮜ', 'Ꮜ'), 'ꮝ', 'Ꮝ'), 'ꮞ', 'Ꮞ'), 'ꮟ', 'Ꮟ'), 'ꮠ', 'Ꮠ'), 'ꮡ', 'Ꮡ'), 'ꮢ', 'Ꮢ'), 'ꮣ', 'Ꮣ'), 'ꮤ', 'Ꮤ'), 'ꮥ', 'Ꮥ'), 'ꮦ', 'Ꮦ'), 'ꮧ', 'Ꮧ'), 'ꮨ', 'Ꮨ'), 'ꮩ', 'Ꮩ'), 'ꮪ', 'Ꮪ'), 'ꮫ', 'Ꮫ'), 'ꮬ', 'Ꮬ'), 'ꮭ', 'Ꮭ'), 'ꮮ', 'Ꮮ'), 'ꮯ', 'Ꮯ'), 'ꮰ', 'Ꮰ'), 'ꮱ', 'Ꮱ'), 'ꮲ', 'Ꮲ'), 'ꮳ', 'Ꮳ'), 'ꮴ', 'Ꮴ'), 'ꮵ', 'Ꮵ'), 'ꮶ', 'Ꮶ'), 'ꮷ', 'Ꮷ'), 'ꮸ', 'Ꮸ'), 'ꮹ', 'Ꮹ'), 'ꮺ', 'Ꮺ'), 'ꮻ', 'Ꮻ'), 'ꮼ', 'Ꮼ'), 'ꮽ', 'Ꮽ'), 'ꮾ', 'Ꮾ'), 'ꮿ', 'Ꮿ'), 'ﬀ', 'ff'), 'ﬁ', 'fi'), 'ﬂ', 'fl'), 'ﬃ', 'ffi'), 'ﬄ', 'ffl'), 'ﬅ', 'st'), 'ﬆ', 'st'), 'ﬓ', 'մն'), 'ﬔ', 'մե'), 'ﬕ', 'մի'), 'ﬖ', 'վն'), 'ﬗ', 'մխ') else lower(trim(reply_text)) end end                     as reply_folded
    from joined
),

compared as (
    select
        parsed.*,
        abs(parsed.reply_number - parsed.gold_number)                                            as abs_error
    from parsed
)

select
    suite,
    response_id,
    item_id,
    system_id,
    repetition,
    case gold_kind when 'numeric_fact' then 'numeric' else 'string' end            as fact_kind,
    gold_key                                                                       as fact_key,
    gold_value,
    gold_number,
    abs_tol,
    rel_tol,
    reply_text,
    reply_token,
    reply_number,
    coalesce(right(reply_token, 1) = '%', false)                         as reply_is_percent,
    n_reply_numbers,
    abs_error,
    tolerance,
    case
        when gold_kind = 'numeric_fact' then coalesce(reply_number = gold_number, false)
        else coalesce(trim(reply_text) = trim(gold_value), false)
    end                                                                            as passed_exact,
    case
        when gold_kind = 'numeric_fact' then coalesce(abs_error <= tolerance, false)
        else coalesce(reply_folded = gold_folded, false)
    end                                                                            as passed,
    case
        when gold_kind = 'numeric_fact' and gold_number is null then 'invalid_gold'
        when reply_text is null then 'not_reported'
        when gold_kind = 'numeric_fact' and coalesce(n_reply_numbers, 0) = 0 then 'no_number'
        when gold_kind = 'numeric_fact' and reply_number is null then 'unparseable_number'
        when gold_kind = 'numeric_fact' and abs_error <= tolerance then 'within_tolerance'
        when gold_kind = 'numeric_fact' then 'out_of_tolerance'
        when reply_folded = gold_folded then 'match'
        else 'mismatch'
    end                                                                            as check_status
from compared
  