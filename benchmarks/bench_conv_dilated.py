"""The dilated convolutions of the segmentation models at their 520x520 sizes: ours vs PyTorch,
forward and forward+backward, NCHW and channels-last (bench_conv.py's cases and table).

    PYTHONPATH=. python benchmarks/bench_conv_dilated.py [--threads 2] [--repeats 7] [--batches 1] [filter ...]

MobileNetV3-Large (_dilated=True) runs its last three depthwise 5x5 convolutions with dilation 2
at output stride 16 (33x33); ResNet-50/101 with replace_stride_with_dilation=[False, True, True]
run layer3 with dilation 2 and layer4 with dilation 2 (first block) and 4 at output stride 8
(65x65); DeepLabV3's ASPP adds 3x3 convolutions with rates 12, 24 and 36 on top of either.
Prints the median time per call and ours / PyTorch (below 1: we are faster).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench_conv  # noqa: E402

# (name, in channels, out channels, kernel, stride, groups, spatial size, bias, dilation)
LAYERS = [
    ("mbv3 dw 5x5 d2 672 @33", 672, 672, 5, 1, 672, 33, False, 2),
    ("mbv3 dw 5x5 d2 960 @33", 960, 960, 5, 1, 960, 33, False, 2),
    ("mbv3 aspp 3x3 d12 960->256 @33", 960, 256, 3, 1, 1, 33, False, 12),
    ("mbv3 aspp 3x3 d24 960->256 @33", 960, 256, 3, 1, 1, 33, False, 24),
    ("mbv3 aspp 3x3 d36 960->256 @33", 960, 256, 3, 1, 1, 33, False, 36),
    ("r50 layer3 3x3 d2 256 @65", 256, 256, 3, 1, 1, 65, False, 2),
    ("r50 layer4 3x3 d2 512 @65", 512, 512, 3, 1, 1, 65, False, 2),
    ("r50 layer4 3x3 d4 512 @65", 512, 512, 3, 1, 1, 65, False, 4),
    ("r50 aspp 3x3 d12 2048->256 @65", 2048, 256, 3, 1, 1, 65, False, 12),
    ("r50 aspp 3x3 d24 2048->256 @65", 2048, 256, 3, 1, 1, 65, False, 24),
    ("r50 aspp 3x3 d36 2048->256 @65", 2048, 256, 3, 1, 1, 65, False, 36),
]


if __name__ == "__main__":
    argv = sys.argv[1:]
    if not any(a.startswith("--batches") for a in argv):
        argv = ["--batches", "1"] + argv  # a segmentation model sees one 520x520 image at a time
    bench_conv.main(argv, layers=LAYERS)
