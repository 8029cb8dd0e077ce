"""Stand-in until core.nn.Parameter lands."""
Parameter = None
