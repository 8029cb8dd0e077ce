"""Feature Pyramid Network (Lin et al. 2017): lateral 1x1 convs, a nearest-upsampled top-down
path and 3x3 output convs, plus optional extra levels."""
import re
from collections import OrderedDict

from core import nn
from core.nn import functional as F

__all__ = ["FeaturePyramidNetwork", "ExtraFPNBlock", "LastLevelMaxPool", "LastLevelP6P7"]


class ExtraFPNBlock(nn.Module):
    """Base class of the blocks that add levels after the FPN:
    forward(results, x, names) -> (results, names), where x are the FPN's inputs."""

    def forward(self, results, x, names):
        raise NotImplementedError


class FeaturePyramidNetwork(nn.Module):
    """Args:
        in_channels_list (List[int]): the channels of each input map, from highest resolution.
        out_channels (int): the channels of every output map.
        extra_blocks (ExtraFPNBlock, optional): adds levels (e.g. LastLevelMaxPool).

    forward(x: Dict[str, Tensor]) -> OrderedDict[str, Tensor], highest resolution first.
    """

    def __init__(self, in_channels_list, out_channels, extra_blocks=None):
        super().__init__()
        self.inner_blocks = nn.ModuleList()
        self.layer_blocks = nn.ModuleList()
        for in_channels in in_channels_list:
            if in_channels == 0:
                raise ValueError("in_channels=0 is currently not supported")
            self.inner_blocks.append(nn.Conv2d(in_channels, out_channels, 1))
            self.layer_blocks.append(nn.Conv2d(out_channels, out_channels, 3, padding=1))
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_uniform_(m.weight, a=1)
                nn.init.constant_(m.bias, 0)
        if extra_blocks is not None:
            assert isinstance(extra_blocks, ExtraFPNBlock)
        self.extra_blocks = extra_blocks

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        # torchvision >= 0.13 wraps each conv in a Conv2dNormActivation ("inner_blocks.0.0.weight"):
        # checkpoints it writes load here under 0.9's names ("inner_blocks.0.weight")
        pattern = re.compile(re.escape(prefix) + r"(inner_blocks|layer_blocks)\.(\d+)\.0\.(weight|bias)$")
        for key in [k for k in state_dict if pattern.match(k)]:
            block, index, kind = pattern.match(key).groups()
            state_dict[f"{prefix}{block}.{index}.{kind}"] = state_dict.pop(key)
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def get_result_from_inner_blocks(self, x, idx):
        return self.inner_blocks[idx](x)

    def get_result_from_layer_blocks(self, x, idx):
        return self.layer_blocks[idx](x)

    def forward(self, x):
        names = list(x.keys())
        x = list(x.values())
        last_inner = self.get_result_from_inner_blocks(x[-1], -1)
        results = [self.get_result_from_layer_blocks(last_inner, -1)]
        for idx in range(len(x) - 2, -1, -1):
            inner_lateral = self.get_result_from_inner_blocks(x[idx], idx)
            inner_top_down = F.interpolate(last_inner, size=inner_lateral.shape[-2:], mode="nearest")
            last_inner = inner_lateral + inner_top_down
            results.insert(0, self.get_result_from_layer_blocks(last_inner, idx))
        if self.extra_blocks is not None:
            results, names = self.extra_blocks(results, x, names)
        return OrderedDict(zip(names, results))


class LastLevelMaxPool(ExtraFPNBlock):
    """Adds "pool": a stride-2 subsampling (max_pool2d with kernel 1) of the last level."""

    def forward(self, x, y, names):
        names.append("pool")
        x.append(F.max_pool2d(x[-1], 1, 2, 0))
        return x, names


class LastLevelP6P7(ExtraFPNBlock):
    """RetinaNet's extra levels P6 and P7 (from P5 when its channels match, else from C5)."""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.p6 = nn.Conv2d(in_channels, out_channels, 3, 2, 1)
        self.p7 = nn.Conv2d(out_channels, out_channels, 3, 2, 1)
        for module in [self.p6, self.p7]:
            nn.init.kaiming_uniform_(module.weight, a=1)
            nn.init.constant_(module.bias, 0)
        self.use_P5 = in_channels == out_channels

    def forward(self, p, c, names):
        p5, c5 = p[-1], c[-1]
        x = p5 if self.use_P5 else c5
        p6 = self.p6(x)
        p7 = self.p7(F.relu(p6))
        p.extend([p6, p7])
        names.extend(["p6", "p7"])
        return p, names
