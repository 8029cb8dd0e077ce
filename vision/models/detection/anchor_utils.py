"""AnchorGenerator: the reference boxes of the RPN at every location of every feature map."""
import core
from core import nn

__all__ = ["AnchorGenerator"]


class AnchorGenerator(nn.Module):
    """Anchors of sizes[i] x aspect_ratios[i] centred on every location of feature map i,
    spaced by the map's stride (image size // map size), with no half-stride offset.

    Args:
        sizes (Tuple[Tuple[int]]): anchor sizes (sqrt of the area) per feature map.
        aspect_ratios (Tuple[Tuple[float]]): height / width ratios per feature map.
    """

    def __init__(self, sizes=((128, 256, 512),), aspect_ratios=((0.5, 1.0, 2.0),)):
        super().__init__()
        if not isinstance(sizes[0], (list, tuple)):
            sizes = tuple((s,) for s in sizes)
        if not isinstance(aspect_ratios[0], (list, tuple)):
            aspect_ratios = (aspect_ratios,) * len(sizes)
        assert len(sizes) == len(aspect_ratios)
        self.sizes = sizes
        self.aspect_ratios = aspect_ratios
        self.cell_anchors = None

    def generate_anchors(self, scales, aspect_ratios, dtype=core.float32, device="cpu"):
        """The anchors centred on (0, 0), ratio-major, rounded to integers."""
        scales = core.tensor(scales, dtype=dtype)
        aspect_ratios = core.tensor(aspect_ratios, dtype=dtype)
        h_ratios = core.sqrt(aspect_ratios)
        w_ratios = 1 / h_ratios
        ws = (w_ratios[:, None] * scales[None, :]).view(-1)
        hs = (h_ratios[:, None] * scales[None, :]).view(-1)
        base_anchors = core.stack([-ws, -hs, ws, hs], dim=1) / 2
        return base_anchors.round()

    def set_cell_anchors(self, dtype, device="cpu"):
        if self.cell_anchors is not None and self.cell_anchors[0].dtype == dtype:
            return
        self.cell_anchors = [self.generate_anchors(sizes, ratios, dtype, device)
                             for sizes, ratios in zip(self.sizes, self.aspect_ratios)]

    def num_anchors_per_location(self):
        return [len(s) * len(a) for s, a in zip(self.sizes, self.aspect_ratios)]

    def grid_anchors(self, grid_sizes, strides):
        """Per feature map, the anchors [H * W * A, 4] in row-major location order."""
        cell_anchors = self.cell_anchors
        if not (len(grid_sizes) == len(strides) == len(cell_anchors)):
            raise ValueError("Anchors should be Tuple[Tuple[int]] because each feature map could potentially have "
                             "different sizes and aspect ratios. There needs to be a match between the number of "
                             "feature maps passed and the number of sizes / aspect ratios specified.")
        anchors = []
        for (grid_height, grid_width), (stride_height, stride_width), base_anchors in zip(grid_sizes, strides,
                                                                                          cell_anchors):
            shifts_x = core.arange(0, grid_width, dtype=core.float32) * stride_width
            shifts_y = core.arange(0, grid_height, dtype=core.float32) * stride_height
            shift_y, shift_x = core.meshgrid(shifts_y, shifts_x, indexing="ij")
            shift_x, shift_y = shift_x.reshape(-1), shift_y.reshape(-1)
            shifts = core.stack((shift_x, shift_y, shift_x, shift_y), dim=1)
            anchors.append((shifts.view(-1, 1, 4) + base_anchors.view(1, -1, 4)).reshape(-1, 4))
        return anchors

    def forward(self, image_list, feature_maps):
        """The anchors of every image: List[Tensor[sum_i H_i * W_i * A_i, 4]]."""
        grid_sizes = [tuple(feature_map.shape[-2:]) for feature_map in feature_maps]
        image_size = image_list.tensors.shape[-2:]
        strides = [(image_size[0] // g[0], image_size[1] // g[1]) for g in grid_sizes]
        self.set_cell_anchors(feature_maps[0].dtype)
        anchors_over_all_feature_maps = core.cat(self.grid_anchors(grid_sizes, strides))
        return [anchors_over_all_feature_maps for _ in image_list.image_sizes]
