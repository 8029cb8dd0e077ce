"""tensorzoo audio: mirrors the PyTorch domain library (see shared DESIGN)."""
