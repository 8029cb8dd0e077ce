"""tensorzoo hub: mirrors the PyTorch domain library (see shared DESIGN)."""
