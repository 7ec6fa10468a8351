-- The money/quantity grammar on the CSV edge cases (returns the rows that parse wrongly; must be empty).
-- "1,200" is what the CSV reader hands over for the quoted field "\"1,200\"".
with cases (raw_text, expected) as (
    values
        ('1,200', cast('1200' as decimal(38, 6))),
        ('¥1,200', cast('1200' as decimal(38, 6))),
        ('-¥350', cast('-350' as decimal(38, 6))),
        ('¥-350', cast('-350' as decimal(38, 6))),
        ('12.5', cast('12.5' as decimal(38, 6))),
        ('0.125', cast('0.125' as decimal(38, 6))),
        (' 007 ', cast('7' as decimal(38, 6))),
        ('1,234,567.000001', cast('1234567.000001' as decimal(38, 6))),
        ('', null),
        ('N/A', null),
        ('1,2,00', null),
        ('12.', null),
        ('--5', null),
        ('0.1234567', null),
        ('999,999,999,999.999999', cast('999999999999.999999' as decimal(38, 6))),
        ('1000000000000', null),
        (null, null)
)
select raw_text, expected, {{ decisions_parse_amount('raw_text') }} as parsed
from cases
where {{ decisions_parse_amount('raw_text') }} is distinct from expected
