"""core.nn.utils: gradient clipping, parameter vectors, reparametrizations, fusion, rnn packing."""
