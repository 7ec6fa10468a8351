"""What the Streamlit app reads (``data``) and its leaderboard tables (``leaderboard``, also a dbt Python model's)."""
