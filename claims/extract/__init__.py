"""Article text to candidate claims: segmentation, figures, dates, subjects, claimants,
negation and attribution (pure)."""
