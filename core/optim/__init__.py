"""Optimizers and learning-rate schedules with torch.optim's names and semantics."""
