"""Ratings by people: the append-only store (``store``), blind exports (``blind``), rater tokens (``blind_access``),
blind and pairwise scoring in the app (``blind_app``, ``pairwise_app``), rating rounds (``rounds``) and their
agreement (``round_agreement``)."""
