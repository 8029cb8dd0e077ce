"""torch.nn.functional's distance functions."""
import core

__all__ = ["pairwise_distance", "cosine_similarity", "normalize"]


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    return core.pairwise_distance(x1, x2, p, eps, keepdim)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    return core.cosine_similarity(x1, x2, dim, eps)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return out.copy_(input / denom)
