"""core.utils.tensorboard: TensorBoard event files (torch.utils.tensorboard). Writing needs the
`tensorboard` package for its protobuf messages (pip install "tensorzoo[tensorboard]")."""
from core.utils.tensorboard.writer import SummaryWriter

__all__ = ["SummaryWriter"]
