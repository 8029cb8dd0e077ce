"""Helpers shared by the model builders."""

__all__ = ["_make_divisible", "load_pretrained"]


def _make_divisible(v, divisor, min_value=None):
    """Rounds `v` to the nearest multiple of `divisor` (at least min_value, default divisor)
    without going more than 10% below `v` (the channel rule of the TensorFlow MobileNets)."""
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:  # rounding down must not lose more than 10%
        new_v += divisor
    return new_v


def load_pretrained(model, arch, model_urls, progress):
    """Loads the official weights of `arch` into `model` (strict), through the hub's cache."""
    import hub  # imported here: the hub's registry imports the model modules

    url = model_urls.get(arch)
    if url is None:
        raise ValueError("No checkpoint is available for model type {}".format(arch))
    state_dict = hub.load_state_dict_from_url(url, progress=progress)
    model.load_state_dict(state_dict)
    return model
