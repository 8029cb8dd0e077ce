"""FakeData: random images from core's generator, seeded per index (torchvision 0.9)."""
import core
from vision import transforms
from vision.datasets.vision import VisionDataset


class FakeData(VisionDataset):
    """Image i is ToPILImage(randn(image_size)) drawn after manual_seed(i + random_offset);
    the global RNG state is restored afterwards."""

    def __init__(self, size=1000, image_size=(3, 224, 224), num_classes=10, transform=None, target_transform=None,
                 random_offset=0):
        super().__init__(None, transform=transform, target_transform=target_transform)
        self.size = size
        self.num_classes = num_classes
        self.image_size = image_size
        self.random_offset = random_offset

    def __getitem__(self, index):
        if index >= len(self):
            raise IndexError(f"{self.__class__.__name__} index out of range")
        rng_state = core.get_rng_state()
        core.manual_seed(index + self.random_offset)
        img = core.randn(*self.image_size)
        target = core.randint(0, self.num_classes, size=(1,), dtype=core.int64)[0]
        core.set_rng_state(rng_state)
        img = transforms.ToPILImage()(img)
        img, target = self._apply_transforms(img, target)
        return img, target.item()

    def __len__(self):
        return self.size
