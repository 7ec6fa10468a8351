-- The stated cents rule: half away from zero (ROUND_HALF_UP in Python's decimal terms), also on negatives.
-- Half-even would give 0.12 / -0.12 for 0.125 / -0.125 and 0.14 / -0.14 for 0.145 / -0.145.
with cases (v, expected) as (
    values
        (cast('0.125' as decimal(38, 12)), cast('0.13' as decimal(38, 2))),
        (cast('-0.125' as decimal(38, 12)), cast('-0.13' as decimal(38, 2))),
        (cast('0.145' as decimal(38, 12)), cast('0.15' as decimal(38, 2))),
        (cast('-0.145' as decimal(38, 12)), cast('-0.15' as decimal(38, 2))),
        (cast('-8473.625' as decimal(38, 12)), cast('-8473.63' as decimal(38, 2))),
        (cast('-0.124999999999' as decimal(38, 12)), cast('-0.12' as decimal(38, 2)))
)
select v, expected, {{ decisions_round_cents('v') }} as rounded
from cases
where {{ decisions_round_cents('v') }} <> expected
