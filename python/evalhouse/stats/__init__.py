"""Statistics: agreement and reliability coefficients (``agreement``), bootstrap intervals (``bootstrap``),
the one result type (``result.StatResult``), the reliability marts' tables (``reliability``, ``rater_pairs``), pairwise
comparisons (``pairwise``, ``pairwise_marts``) and rank bands (``ranking``)."""
