"""The decode budget: how many bytes one decoder or loader may allocate on the word of sizes
declared inside its input (a zip record's uncompressed size, a PNG's width x height) that the
input's own length cannot vouch for. Declared sizes are checked before anything is allocated,
and the error names the file and the field. Set it with core.set_decode_budget(nbytes) or the
TZ_DECODE_BUDGET environment variable (bytes); the default is 512 MiB."""
import os

_DEFAULT = 512 << 20
_budget = None


def get_decode_budget():
    """The current budget in bytes."""
    global _budget
    if _budget is None:
        _budget = int(os.environ.get("TZ_DECODE_BUDGET", _DEFAULT))
    return _budget


def set_decode_budget(nbytes):
    """Sets the budget (bytes, > 0) for every decoder and loader of the process."""
    global _budget
    if isinstance(nbytes, bool) or not isinstance(nbytes, int) or nbytes <= 0:
        raise ValueError(f"set_decode_budget(): expected a positive number of bytes, got {nbytes!r}")
    _budget = nbytes


def over_budget(nbytes, where, field):
    """A message when `nbytes` declared by `field` of `where` exceeds the budget, else None."""
    budget = get_decode_budget()
    if nbytes <= budget:
        return None
    return (f"{where}: {field} declares {nbytes} bytes, more than the decode budget of {budget} bytes "
            "(core.set_decode_budget raises it)")
