"""Where the hub keeps its files: <TENSORZOO_HOME>/hub, checkpoints in <hub>/checkpoints."""
import os

ENV_TENSORZOO_HOME = "TENSORZOO_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
DEFAULT_CACHE_DIR = "~/.cache"

_hub_dir = None  # set by set_dir(); wins over the environment


def _get_tensorzoo_home():
    """$TENSORZOO_HOME, else $XDG_CACHE_HOME/tensorzoo, else ~/.cache/tensorzoo."""
    default = os.path.join(os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR), "tensorzoo")
    return os.path.expanduser(os.getenv(ENV_TENSORZOO_HOME, default))


def get_dir():
    """The hub cache directory: the one given to set_dir(), else <tensorzoo home>/hub."""
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_get_tensorzoo_home(), "hub")


def set_dir(d):
    """Makes `d` the hub cache directory for this process (like torch.hub.set_dir)."""
    global _hub_dir
    _hub_dir = os.fspath(d)


def checkpoint_dir():
    return os.path.join(get_dir(), "checkpoints")
