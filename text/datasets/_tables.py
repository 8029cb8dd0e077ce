"""The dataset tables torchtext.datasets publishes (URLS, MD5, NUM_LINES, DATASETS), filled
by the dataset modules as they are imported. Datasets read them at call time, so a site
mirror or a test can point a dataset elsewhere by assigning to them."""

__all__ = ["DATASETS", "URLS", "MD5", "NUM_LINES"]

DATASETS = {}
URLS = {}
MD5 = {}
NUM_LINES = {}


def register(name, url, md5, num_lines):
    """Records a dataset's sources, checksums and line counts (its function is added by
    _common.dataset_function)."""
    URLS[name], MD5[name], NUM_LINES[name] = url, md5, num_lines
