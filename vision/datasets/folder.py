"""DatasetFolder and ImageFolder: samples arranged as root/<class>/**/<file>."""
import os

from PIL import Image

from vision.datasets.vision import VisionDataset

IMG_EXTENSIONS = (".jpg", ".jpeg", ".png", ".ppm", ".bmp", ".pgm", ".tif", ".tiff", ".webp")


def has_file_allowed_extension(filename, extensions):
    """Whether the file name ends with one of the extensions (case-insensitive)."""
    return filename.lower().endswith(tuple(extensions))


def is_image_file(filename):
    return has_file_allowed_extension(filename, IMG_EXTENSIONS)


def find_classes(directory):
    """Sorted class folder names and their indices."""
    classes = sorted(entry.name for entry in os.scandir(directory) if entry.is_dir())
    if not classes:
        raise FileNotFoundError(f"Couldn't find any class folder in {directory}.")
    return classes, {cls_name: i for i, cls_name in enumerate(classes)}


def make_dataset(directory, class_to_idx, extensions=None, is_valid_file=None):
    """[(path, class_index)] of the files below each class folder, in sorted order."""
    directory = os.path.expanduser(directory)
    both_none = extensions is None and is_valid_file is None
    both_something = extensions is not None and is_valid_file is not None
    if both_none or both_something:
        raise ValueError("Both extensions and is_valid_file cannot be None or not None at the same time")
    if extensions is not None:
        def is_valid_file(x):
            return has_file_allowed_extension(x, extensions)
    instances = []
    for target_class in sorted(class_to_idx.keys()):
        class_index = class_to_idx[target_class]
        target_dir = os.path.join(directory, target_class)
        if not os.path.isdir(target_dir):
            continue
        for root, _, fnames in sorted(os.walk(target_dir, followlinks=True)):
            for fname in sorted(fnames):
                path = os.path.join(root, fname)
                if is_valid_file(path):
                    instances.append((path, class_index))
    return instances


class DatasetFolder(VisionDataset):
    """A generic folder dataset: root/class_x/xxx.ext -> (loader(path), class index)."""

    def __init__(self, root, loader, extensions=None, transform=None, target_transform=None, is_valid_file=None):
        super().__init__(root, transform=transform, target_transform=target_transform)
        classes, class_to_idx = self._find_classes(self.root)
        samples = self.make_dataset(self.root, class_to_idx, extensions, is_valid_file)
        if len(samples) == 0:
            msg = f"Found 0 files in subfolders of: {self.root}\n"
            if extensions is not None:
                msg += f"Supported extensions are: {','.join(extensions)}"
            raise RuntimeError(msg)
        self.loader = loader
        self.extensions = extensions
        self.classes = classes
        self.class_to_idx = class_to_idx
        self.samples = samples
        self.targets = [s[1] for s in samples]

    @staticmethod
    def make_dataset(directory, class_to_idx, extensions=None, is_valid_file=None):
        return make_dataset(directory, class_to_idx, extensions=extensions, is_valid_file=is_valid_file)

    def _find_classes(self, directory):
        return find_classes(directory)

    def find_classes(self, directory):
        return find_classes(directory)

    def __getitem__(self, index):
        path, target = self.samples[index]
        sample = self.loader(path)
        sample, target = self._apply_transforms(sample, target)
        return sample, target

    def __len__(self):
        return len(self.samples)


def pil_loader(path):
    # open through a file object so the file is closed once the image is loaded
    with open(path, "rb") as f:
        img = Image.open(f)
        return img.convert("RGB")


_IMAGE_BACKEND = "PIL"


def set_image_backend(backend):
    """Only 'PIL' exists here (torchvision's optional 'accimage' is not supported)."""
    global _IMAGE_BACKEND
    if backend != "PIL":
        raise ValueError(f"Invalid backend '{backend}'. Options are 'PIL'")
    _IMAGE_BACKEND = backend


def get_image_backend():
    return _IMAGE_BACKEND


def default_loader(path):
    return pil_loader(path)


class ImageFolder(DatasetFolder):
    """root/dog/xxx.png, root/cat/123.png, ... -> (RGB PIL image, class index)."""

    def __init__(self, root, transform=None, target_transform=None, loader=default_loader, is_valid_file=None):
        super().__init__(root, loader, IMG_EXTENSIONS if is_valid_file is None else None, transform=transform,
                         target_transform=target_transform, is_valid_file=is_valid_file)
        self.imgs = self.samples
