"""tensorzoo crypto_rng: mirrors the PyTorch domain library (see shared DESIGN)."""
