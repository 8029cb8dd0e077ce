"""Download progress bar: tqdm when installed, else a plain one-line counter (both on stderr)."""
import sys


class _PlainBar:
    def __init__(self, total, desc):
        self.total, self.desc, self.n = total, desc, 0

    def update(self, n):
        self.n += n
        total = f"/{self.total / 2**20:.1f}" if self.total else ""
        sys.stderr.write(f"\r{self.desc}: {self.n / 2**20:.1f}{total} MiB")
        sys.stderr.flush()

    def close(self):
        sys.stderr.write("\n")
        sys.stderr.flush()


class _NoBar:
    def update(self, n):
        pass

    def close(self):
        pass


def progress_bar(total, desc, enabled):
    """A bar with update(n)/close(); silent unless enabled and stderr is a terminal."""
    if not enabled or not sys.stderr.isatty():
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _PlainBar(total, desc)
    return tqdm(total=total, desc=desc, unit="B", unit_scale=True, unit_divisor=1024, file=sys.stderr)
