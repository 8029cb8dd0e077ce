"""Shapes: a synthetic dataset of circles, squares and triangles, made for tensorzoo so that
classification, detection and segmentation can be trained and evaluated without a download.

Sample i of a split is generated from (seed, split, i) alone with a counter-based integer
hash (SplitMix64), so it is identical on every machine, Python and numpy version, in any
order and in any DataLoader worker. Images are drawn with Pillow's ImageDraw without
anti-aliasing, so masks match the drawn pixels exactly; shapes never overlap, so every
instance mask is the whole shape and every box is the tight box of its mask.
"""
import math

import numpy as np
from PIL import Image, ImageDraw

import core
from vision.datasets.utils import verify_str_arg
from vision.datasets.vision import VisionDataset

_MASK64 = (1 << 64) - 1
_SPLITS = {"train": 0, "val": 1, "test": 2}
# segmentation palette: background black, then one colour per class (the rest black)
_PALETTE = [0, 0, 0, 230, 25, 75, 60, 180, 75, 0, 130, 200] + [0, 0, 0] * 252


def _splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


class _Stream:
    """Deterministic uniform draws for one sample: the n-th value is hash(key, n)."""

    def __init__(self, *key):
        state = 0
        for k in key:
            state = _splitmix64(state ^ (int(k) & _MASK64))
        self.state = state
        self.counter = 0

    def random(self):
        """A float in [0, 1) with 53 random bits."""
        self.counter += 1
        return (_splitmix64(self.state ^ self.counter) >> 11) * (1.0 / (1 << 53))

    def uniform(self, low, high):
        return low + (high - low) * self.random()

    def randint(self, low, high):
        """An int in [low, high)."""
        return low + min(int(self.random() * (high - low)), high - low - 1)

    def color(self):
        return tuple(self.randint(0, 256) for _ in range(3))


def _polygon(kind, cx, cy, r, angle):
    """Vertices of a square (circumradius r) or an equilateral triangle, rotated by angle."""
    n = 4 if kind == "square" else 3
    start = angle + (math.pi / 4 if n == 4 else -math.pi / 2)
    return [(cx + r * math.cos(start + 2 * math.pi * k / n), cy + r * math.sin(start + 2 * math.pi * k / n))
            for k in range(n)]


def _draw_shape(draw, kind, cx, cy, r, angle, fill):
    if kind == "circle":
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=fill)
    else:
        draw.polygon(_polygon(kind, cx, cy, r, angle), fill=fill)


def _color_distance(a, b):
    return sum(abs(x - y) for x, y in zip(a, b))


class Shapes(VisionDataset):
    """Synthetic circles / squares / triangles on a plain background.

    Args:
        split: "train", "val" or "test" (independent streams of the same generator).
        size: number of samples.
        image_size: int or (height, width).
        task: "classification" -> (PIL RGB image, class index 0..2), exactly one shape;
              "detection" -> (image, {"boxes": float32 (N, 4) xyxy, "labels": int64 (N,) in
              1..3 (0 is background), "masks": uint8 (N, H, W), "image_id": int64 (1,),
              "area": float32 (N,), "iscrowd": int64 (N,)});
              "segmentation" -> (image, PIL "P" mask of class ids 0..3).
        max_shapes: at most this many shapes per image (detection / segmentation); at least one.
        seed: selects the dataset; the same (seed, split, index) always gives the same sample.
        radius: (min, max) circumradius as fractions of the smaller image side; default (0.08, 0.35)
            for one shape per image, (0.08, 0.22) for several; never under 3 pixels.
        rotate: rotate squares and triangles by a random angle (False: squares axis-aligned,
            triangles pointing up); the other draws are the same either way.
    """
    classes = ["circle", "square", "triangle"]

    def __init__(self, split="train", size=1000, image_size=64, task="classification", max_shapes=3, seed=0,
                 transform=None, target_transform=None, transforms=None, radius=None, rotate=True):
        super().__init__(None, transforms, transform, target_transform)
        self.split = verify_str_arg(split, "split", tuple(_SPLITS))
        self.task = verify_str_arg(task, "task", ("classification", "detection", "segmentation"))
        if isinstance(image_size, int):
            image_size = (image_size, image_size)
        if len(image_size) != 2 or min(image_size) < 16:
            raise ValueError(f"Shapes: image_size must be an int or (height, width) of at least 16, got {image_size}")
        if size < 0 or max_shapes < 1:
            raise ValueError("Shapes: size must be >= 0 and max_shapes >= 1")
        self.size = int(size)
        self.image_size = tuple(int(s) for s in image_size)
        self.max_shapes = int(max_shapes)
        self.seed = int(seed)
        if radius is not None and not (len(radius) == 2 and 0 < radius[0] <= radius[1] <= 0.5):
            raise ValueError(f"Shapes: radius must be (min, max) fractions with 0 < min <= max <= 0.5, got {radius}")
        self.radius = None if radius is None else (float(radius[0]), float(radius[1]))
        self.rotate = bool(rotate)
        self.class_to_idx = {c: i for i, c in enumerate(self.classes)}

    def __len__(self):
        return self.size

    def extra_repr(self):
        return f"Split: {self.split}\nTask: {self.task}\nImage size: {self.image_size}"

    def _layout(self, index):
        """(background colour, [(class, cx, cy, r, angle, colour)]) of sample `index`."""
        rng = _Stream(self.seed, _SPLITS[self.split], index)
        h, w = self.image_size
        background = rng.color()
        wanted = 1 if self.task == "classification" else rng.randint(1, self.max_shapes + 1)
        small = min(h, w)
        low, high = self.radius or (0.08, 0.35 if wanted == 1 else 0.22)
        r_min = max(3.0, low * small)
        r_max = max(r_min, high * small)
        placed = []
        for _ in range(40 * wanted):
            if len(placed) == wanted:
                break
            kind = rng.randint(0, 3)
            r = rng.uniform(r_min, r_max)
            cx, cy = rng.uniform(r + 1, w - r - 1), rng.uniform(r + 1, h - r - 1)
            angle = rng.uniform(0, 2 * math.pi)  # drawn either way, so the later draws stay the same
            if not self.rotate:
                angle = 0.0
            color = rng.color()
            # keep shapes apart (2 px gap) and visible against the background
            if any(math.hypot(cx - px, cy - py) < r + pr + 2 for _, px, py, pr, _, _ in placed):
                continue
            if _color_distance(color, background) < 120:
                color = tuple(255 - c for c in background)
            placed.append((kind, cx, cy, r, angle, color))
        return background, placed

    def _render(self, index):
        h, w = self.image_size
        background, placed = self._layout(index)
        image = Image.new("RGB", (w, h), background)
        draw = ImageDraw.Draw(image)
        masks = []
        for kind, cx, cy, r, angle, color in placed:
            _draw_shape(draw, self.classes[kind], cx, cy, r, angle, color)
            mask = Image.new("L", (w, h), 0)
            _draw_shape(ImageDraw.Draw(mask), self.classes[kind], cx, cy, r, angle, 1)
            masks.append(np.asarray(mask, dtype=np.uint8))
        return image, [p[0] for p in placed], masks

    def __getitem__(self, index):
        if not 0 <= index < self.size:
            raise IndexError(f"Shapes index {index} out of range for size {self.size}")
        image, kinds, masks = self._render(index)
        if self.task == "classification":
            target = kinds[0]
        elif self.task == "segmentation":
            seg = np.zeros(self.image_size, dtype=np.uint8)
            for kind, mask in zip(kinds, masks):
                seg[mask > 0] = kind + 1
            target = Image.frombytes("L", (self.image_size[1], self.image_size[0]), seg.tobytes()).convert("P")
            target.putpalette(_PALETTE)
        else:
            target = self._detection_target(index, kinds, masks)
        return self._apply_transforms(image, target)

    def _detection_target(self, index, kinds, masks):
        stack = np.stack(masks)
        boxes = []
        for mask in stack:
            ys, xs = np.nonzero(mask)
            boxes.append([xs.min(), ys.min(), xs.max() + 1, ys.max() + 1])
        return {
            "boxes": core.tensor(boxes, dtype=core.float32).reshape(-1, 4),
            "labels": core.tensor(kinds, dtype=core.int64) + 1,
            "masks": core.tensor(stack),
            "image_id": core.tensor([index], dtype=core.int64),
            "area": core.tensor(stack.reshape(len(masks), -1).sum(axis=1), dtype=core.float32),
            "iscrowd": core.zeros(len(masks), dtype=core.int64),
        }
