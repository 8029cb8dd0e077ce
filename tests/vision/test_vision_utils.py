"""vision.utils: make_grid, save_image, draw_bounding_boxes, draw_segmentation_masks."""
import io

import numpy as np
import pytest
from PIL import Image

import core
from vision.utils import draw_bounding_boxes, draw_segmentation_masks, make_grid, save_image

RNG = np.random.default_rng(2)


def test_make_grid_layout():
    imgs = core.from_numpy(RNG.random((5, 3, 4, 6), dtype=np.float32))
    grid = make_grid(imgs, nrow=3, padding=2, pad_value=0.5)
    assert tuple(grid.shape) == (3, 2 * 6 + 2, 3 * 8 + 2)
    g = grid.numpy()
    np.testing.assert_array_equal(g[:, 2:6, 2:8], imgs.numpy()[0])
    np.testing.assert_array_equal(g[:, 8:12, 10:16], imgs.numpy()[4])
    assert (g[:, 8:12, 18:24] == 0.5).all()  # the empty sixth cell
    assert (g[:, 0:2] == 0.5).all()
    single = make_grid(imgs[0])
    np.testing.assert_array_equal(single.numpy(), imgs.numpy()[0])
    gray = make_grid([imgs[0, :1], imgs[1, :1]], padding=0)
    assert tuple(gray.shape) == (3, 4, 12)
    np.testing.assert_array_equal(gray.numpy()[1, :, :6], imgs.numpy()[0, 0])


def test_make_grid_normalize():
    x = core.from_numpy(np.stack([np.full((3, 2, 2), 2.0, np.float32), np.full((3, 2, 2), 4.0, np.float32)]))
    g = make_grid(x, padding=0, normalize=True)
    np.testing.assert_allclose(g.numpy()[:, :, :2], 0.0)
    np.testing.assert_allclose(g.numpy()[:, :, 2:], 1.0)
    assert float(x.numpy().max()) == 4.0  # the input is untouched
    g = make_grid(x, padding=0, normalize=True, value_range=(0, 8))
    np.testing.assert_allclose(g.numpy()[:, :, 2:], 0.5)
    with pytest.warns(UserWarning, match="value_range"):
        g = make_grid(x, padding=0, normalize=True, range=(0, 8))
    np.testing.assert_allclose(g.numpy()[:, :, :2], 0.25)
    ramp = core.from_numpy(np.stack([np.linspace(0, 1, 12, dtype=np.float32).reshape(3, 2, 2),
                                     np.linspace(5, 7, 12, dtype=np.float32).reshape(3, 2, 2)]))
    each = make_grid(ramp, padding=0, normalize=True, scale_each=True).numpy()
    assert each[:, :, :2].min() == 0 and each[:, :, 2:].min() == 0 and each[:, :, 2:].max() == 1
    with pytest.raises(TypeError, match="tensor or list of tensors"):
        make_grid([1, 2])
    with pytest.raises(TypeError, match="value_range"):
        make_grid(x, normalize=True, value_range=[0, 1])


def test_save_image(tmp_path):
    x = core.from_numpy(RNG.random((2, 3, 5, 7), dtype=np.float32))
    path = tmp_path / "grid.png"
    save_image(x, str(path), padding=1)
    img = np.asarray(Image.open(path))
    grid = make_grid(x, padding=1).numpy()
    ref = np.clip(grid * np.float32(255) + np.float32(0.5), 0, 255).astype(np.uint8).transpose(1, 2, 0)
    np.testing.assert_array_equal(img, ref)
    buf = io.BytesIO()
    save_image(x[0], buf, format="PNG")
    assert Image.open(io.BytesIO(buf.getvalue())).size == (7, 5)
    save_image(x[0], str(tmp_path / "a.jpg"))
    assert Image.open(tmp_path / "a.jpg").format == "JPEG"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jpg", "grid.png"]
    with pytest.raises(ValueError, match="unknown file extension"):
        save_image(x[0], str(tmp_path / "a.unknownext"))


def test_draw_bounding_boxes_pixels():
    img = core.zeros(3, 20, 30, dtype=core.uint8)
    boxes = core.tensor([[2.7, 3.0, 10.0, 12.0], [15, 5, 25, 18]])
    out = draw_bounding_boxes(img, boxes, colors=["red", (0, 255, 0)], width=1)
    o = out.numpy()
    assert out.dtype == core.uint8 and tuple(out.shape) == (3, 20, 30)
    assert float(img.numpy().max()) == 0  # a new image
    # boxes are cast to int64 (2.7 -> 2); outline pixels only
    assert tuple(o[:, 3, 2]) == (255, 0, 0) and tuple(o[:, 12, 10]) == (255, 0, 0)
    assert tuple(o[:, 7, 6]) == (0, 0, 0)
    assert tuple(o[:, 5, 15]) == (0, 255, 0) and tuple(o[:, 18, 25]) == (0, 255, 0)
    filled = draw_bounding_boxes(img, boxes[:1], fill=True, colors=["blue"]).numpy()
    # interior blended with alpha 100 over black: 100/255 of the colour
    assert tuple(filled[:, 7, 6]) == (0, 0, 100) or tuple(filled[:, 7, 6]) == (0, 0, 99)
    white = draw_bounding_boxes(img, boxes[:1], fill=True).numpy()
    assert white[0, 7, 6] in (99, 100) and white[0, 3, 2] in (99, 100)  # no outline colour: only the fill
    labelled = draw_bounding_boxes(img, boxes, labels=["a", "b"])
    assert (labelled.numpy() != o).any()  # the label text adds pixels


@pytest.mark.parametrize("bad, exc, msg", [
    (lambda: draw_bounding_boxes(np.zeros((3, 4, 4), np.uint8), core.zeros(0, 4)), TypeError, "Tensor expected"),
    (lambda: draw_bounding_boxes(core.zeros(3, 4, 4), core.zeros(0, 4)), ValueError, "uint8"),
    (lambda: draw_bounding_boxes(core.zeros(1, 3, 4, 4, dtype=core.uint8), core.zeros(0, 4)), ValueError,
     "not batches"),
    (lambda: draw_segmentation_masks(core.zeros(1, 4, 4, dtype=core.uint8), core.zeros(4, 4, dtype=core.bool)),
     ValueError, "RGB image"),
    (lambda: draw_segmentation_masks(core.zeros(3, 4, 4, dtype=core.uint8), core.zeros(4, 4)), ValueError, "bool"),
    (lambda: draw_segmentation_masks(core.zeros(3, 4, 4, dtype=core.uint8), core.zeros(1, 3, 4, dtype=core.bool)),
     ValueError, "same height and width"),
    (lambda: draw_segmentation_masks(core.zeros(3, 4, 4, dtype=core.uint8), core.zeros(2, 4, 4, dtype=core.bool),
                                     colors=["red"]), ValueError, "more masks"),
])
def test_draw_errors(bad, exc, msg):
    with pytest.raises(exc) as info:
        bad()
    assert msg in str(info.value)


def test_draw_segmentation_masks():
    img = core.from_numpy(np.full((3, 4, 5), 100, np.uint8))
    masks = np.zeros((2, 4, 5), bool)
    masks[0, :2] = True
    masks[1, 3, 4] = True
    out = draw_segmentation_masks(img, core.from_numpy(masks), alpha=0.5, colors=["red", (0, 0, 200)]).numpy()
    assert tuple(out[:, 0, 0]) == (177, 50, 50)  # 100 * 0.5 + 255 * 0.5, truncated
    assert tuple(out[:, 3, 4]) == (50, 50, 150)
    assert tuple(out[:, 2, 2]) == (100, 100, 100)
    default = draw_segmentation_masks(img, core.from_numpy(masks[0])).numpy()
    assert tuple(default[:, 0, 0]) == (20, 20, 20)  # palette colour 0 is black, alpha 0.8
