"""The domain core of release-tracker: tables, values, extraction, comparison, verification.

Nothing here imports ``tracker`` or does network I/O (see DESIGN.md).
"""
