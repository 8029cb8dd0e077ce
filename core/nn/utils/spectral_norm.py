"""spectral_norm / remove_spectral_norm: weight = weight_orig / sigma, sigma estimated by power
iteration (buffers weight_u, weight_v; one step per training forward), as in PyTorch 1.8."""
import numpy as np

from core._native import _C
from core.autograd.grad_mode import no_grad
from core.nn.parameter import Parameter

__all__ = ["SpectralNorm", "spectral_norm", "remove_spectral_norm"]

_f = _C._functions


def _normalize_into(x, out, eps):
    # out <- x / max(||x||_2, eps), in place (the buffers keep their identity).
    out.copy_(x / x.norm().clamp_min(eps))
    return out


class SpectralNorm:
    """The forward pre-hook; _version 1 stores weight_orig, weight_u and weight_v."""

    _version = 1

    def __init__(self, name="weight", n_power_iterations=1, dim=0, eps=1e-12):
        self.name = name
        self.dim = dim
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.n_power_iterations = n_power_iterations
        self.eps = eps

    def reshape_weight_to_matrix(self, weight):
        weight_mat = weight
        if self.dim != 0:
            weight_mat = weight_mat.permute(self.dim, *[d for d in range(weight_mat.ndim) if d != self.dim])
        return weight_mat.reshape(weight_mat.shape[0], -1)

    def compute_weight(self, module, do_power_iteration):
        weight = getattr(module, self.name + "_orig")
        u = getattr(module, self.name + "_u")
        v = getattr(module, self.name + "_v")
        weight_mat = self.reshape_weight_to_matrix(weight)
        if do_power_iteration:
            with no_grad():
                for _ in range(self.n_power_iterations):
                    _normalize_into(_f["mv"](weight_mat.t(), u), v, self.eps)
                    _normalize_into(_f["mv"](weight_mat, v), u, self.eps)
                # Copies, so that the next in-place update does not touch what backward saved.
                u = u.clone()
                v = v.clone()
        sigma = _f["dot"](u, _f["mv"](weight_mat, v))
        return weight / sigma

    def remove(self, module):
        with no_grad():
            weight = self.compute_weight(module, do_power_iteration=False)
        delattr(module, self.name)
        delattr(module, self.name + "_u")
        delattr(module, self.name + "_v")
        delattr(module, self.name + "_orig")
        module.register_parameter(self.name, Parameter(weight.detach()))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module, do_power_iteration=module.training))

    def _solve_v_and_rescale(self, weight_mat, u, target_sigma):
        # v with u = normalize(W v) and u^T W v = target_sigma (for checkpoints without v).
        w = weight_mat.detach().to(_C.float64).numpy()
        u_np = u.detach().to(_C.float64).numpy()
        v = np.linalg.pinv(w.T @ w) @ w.T @ u_np
        v *= float(target_sigma) / float(u_np @ (w @ v))
        return _C.from_numpy(v).to(weight_mat.dtype)

    @staticmethod
    def apply(module, name, n_power_iterations, dim, eps):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, SpectralNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two spectral_norm hooks on the same parameter {name}")
        fn = SpectralNorm(name, n_power_iterations, dim, eps)
        weight = module._parameters[name]
        with no_grad():
            h, w = fn.reshape_weight_to_matrix(weight).shape
            # The same draws as PyTorch: u then v, each N(0, 1), normalised.
            u = _f["empty"](h, dtype=weight.dtype).normal_(0, 1)
            u = _normalize_into(u, u.clone(), fn.eps)
            v = _f["empty"](w, dtype=weight.dtype).normal_(0, 1)
            v = _normalize_into(v, v.clone(), fn.eps)
        delattr(module, fn.name)
        module.register_parameter(fn.name + "_orig", weight)
        # A plain attribute until the first forward recomputes it.
        setattr(module, fn.name, weight.detach())
        module.register_buffer(fn.name + "_u", u)
        module.register_buffer(fn.name + "_v", v)
        module.register_forward_pre_hook(fn)
        module._register_state_dict_hook(SpectralNormStateDictHook(fn))
        module._register_load_state_dict_pre_hook(SpectralNormLoadStateDictPreHook(fn))
        return fn


class SpectralNormLoadStateDictPreHook:
    """Upgrades checkpoints of version None/0 (weight and weight_u, no weight_v)."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        fn = self.fn
        version = local_metadata.get("spectral_norm", {}).get(fn.name + ".version", None)
        if version is not None and version >= 1:
            return
        weight_key = prefix + fn.name
        if version is None and weight_key not in state_dict and \
                all(weight_key + s in state_dict for s in ("_orig", "_u", "_v")):
            return
        has_missing_keys = False
        for suffix in ("_orig", "", "_u"):
            key = weight_key + suffix
            if key not in state_dict:
                has_missing_keys = True
                if strict:
                    missing_keys.append(key)
        if has_missing_keys:
            return
        with no_grad():
            weight_orig = state_dict[weight_key + "_orig"]
            weight = state_dict.pop(weight_key)
            sigma = (weight_orig / weight).mean()
            weight_mat = fn.reshape_weight_to_matrix(weight_orig)
            state_dict[weight_key + "_v"] = fn._solve_v_and_rescale(weight_mat, state_dict[weight_key + "_u"], sigma)


class SpectralNormStateDictHook:
    """Records spectral_norm's version in the state_dict metadata."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, module, state_dict, prefix, local_metadata):
        metadata = local_metadata.setdefault("spectral_norm", {})
        key = self.fn.name + ".version"
        if key in metadata:
            raise RuntimeError(f"Unexpected key in metadata['spectral_norm']: {key}")
        metadata[key] = self.fn._version


def spectral_norm(module, name="weight", n_power_iterations=1, eps=1e-12, dim=None):
    """Reparametrises `name` as weight_orig / sigma (sigma: the largest singular value of the
    weight seen as a matrix over `dim`; default 0, or 1 for transposed convolutions)."""
    if dim is None:
        transposed = tuple(getattr(_nn_modules(), n) for n in ("ConvTranspose1d", "ConvTranspose2d",
                                                             "ConvTranspose3d") if hasattr(_nn_modules(), n))
        dim = 1 if transposed and isinstance(module, transposed) else 0
    SpectralNorm.apply(module, name, n_power_iterations, dim, eps)
    return module


def _nn_modules():
    import core.nn.modules as modules

    return modules


def remove_spectral_norm(module, name="weight"):
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, SpectralNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            break
    else:
        raise ValueError(f"spectral_norm of '{name}' not found in {module}")
    for hooks, cls in ((module._state_dict_hooks, SpectralNormStateDictHook),
                       (module._load_state_dict_pre_hooks, SpectralNormLoadStateDictPreHook)):
        for k, hook in hooks.items():
            if isinstance(hook, cls) and hook.fn.name == name:
                del hooks[k]
                break
    return module
