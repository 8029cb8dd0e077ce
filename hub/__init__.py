"""tensorzoo hub: load models and weights by name, with download, cache and hash checks (mirrors torch.hub)."""
