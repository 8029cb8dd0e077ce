"""core.nn.utils: gradient clipping, parameter vectors, reparametrizations, fusion, rnn packing."""
from core.nn.utils import rnn  # noqa: E402,F401
