"""The exceptions core.load raises, each with a message that starts with "load(): "."""
import pickle


def refuse(message):
    """A pickle.UnpicklingError for data that the safe loader will not run or build."""
    return pickle.UnpicklingError(f"load(): {message}")


def corrupt(message):
    """A RuntimeError for a damaged or inconsistent checkpoint (archive, storages, geometry)."""
    return RuntimeError(f"load(): {message}")
