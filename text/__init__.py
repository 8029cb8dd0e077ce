"""tensorzoo text: mirrors the PyTorch domain library (see shared DESIGN)."""
