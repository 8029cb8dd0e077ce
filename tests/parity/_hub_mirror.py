"""A local hub mirror for the parity tests: torchvision's weights torch.save'd under the
sha256-prefixed file name that ours loads through hub.load(..., pretrained=True)."""
import hashlib

import hub


def publish(directory, monkeypatch, urls, key, file_stem, model):
    """Saves model's state_dict (torch.save) into the mirror `directory` as
    <file_stem>-<sha256[:8]>.pth and points urls[key] at it; returns the file name."""
    import torch

    staging = directory / "staging.pth"
    torch.save(model.state_dict(), staging)
    name = f"{file_stem}-{hashlib.sha256(staging.read_bytes()).hexdigest()[:8]}.pth"
    staging.rename(directory / name)
    monkeypatch.setitem(urls, key, hub.OFFICIAL_BASE + name)
    return name
