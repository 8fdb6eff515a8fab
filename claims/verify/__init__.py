"""Verification rules (pure): claims against claims (compare), a claim against observations
(judge), promises of open weights and derived checks."""
