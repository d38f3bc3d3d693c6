"""pandas layer: tables with confidence intervals from run summaries and records."""
