"""tensorzoo vision: mirrors the PyTorch domain library (see shared DESIGN)."""
