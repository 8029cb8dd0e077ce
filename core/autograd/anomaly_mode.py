"""Anomaly detection: NaN gradients raise, naming the backward node and its forward call."""
from core._native import _C

is_anomaly_enabled = _C.is_anomaly_enabled


def set_detect_anomaly(mode):
    _C._set_anomaly_enabled(bool(mode))


class detect_anomaly:
    """Context manager (and decorator) turning anomaly detection on."""

    def __enter__(self):
        self._prev = _C.is_anomaly_enabled()
        _C._set_anomaly_enabled(True)

    def __exit__(self, *exc):
        _C._set_anomaly_enabled(self._prev)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with detect_anomaly():
                return fn(*args, **kwargs)
        return wrapper
