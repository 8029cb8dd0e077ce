"""VisionDataset: the base of the vision datasets (torchvision 0.9's datasets/vision.py)."""
import os

from core.utils.data import Dataset


class VisionDataset(Dataset):
    """Holds root and the transforms. `transforms` takes (image, target) together; `transform`
    and `target_transform` take one each and are combined into a StandardTransform."""
    _repr_indent = 4

    def __init__(self, root, transforms=None, transform=None, target_transform=None):
        if isinstance(root, (str, bytes, os.PathLike)):
            root = os.path.expanduser(os.fspath(root))
        self.root = root
        has_transforms = transforms is not None
        has_separate_transform = transform is not None or target_transform is not None
        if has_transforms and has_separate_transform:
            raise ValueError("Only transforms or transform/target_transform can be passed as argument")
        self.transform = transform
        self.target_transform = target_transform
        if has_separate_transform:
            transforms = StandardTransform(transform, target_transform)
        self.transforms = transforms

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def __repr__(self):
        head = "Dataset " + self.__class__.__name__
        body = [f"Number of datapoints: {self.__len__()}"]
        if self.root is not None:
            body.append(f"Root location: {self.root}")
        body += self.extra_repr().splitlines()
        if getattr(self, "transforms", None) is not None:
            body += [repr(self.transforms)]
        lines = [head] + [" " * self._repr_indent + line for line in body]
        return "\n".join(lines)

    def _format_transform_repr(self, transform, head):
        return _format_transform_repr(transform, head)

    def extra_repr(self):
        return ""

    def _apply_transforms(self, input, target):
        """(input, target) through `transforms` (which holds transform / target_transform)."""
        if self.transforms is None:
            return input, target
        return self.transforms(input, target)


def _format_transform_repr(transform, head):
    lines = transform.__repr__().splitlines()
    return [f"{head}{lines[0]}"] + [f"{' ' * len(head)}{line}" for line in lines[1:]]


class StandardTransform:
    """Applies `transform` to the input and `target_transform` to the target."""

    def __init__(self, transform=None, target_transform=None):
        self.transform = transform
        self.target_transform = target_transform

    def __call__(self, input, target):
        if self.transform is not None:
            input = self.transform(input)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return input, target

    def __repr__(self):
        body = [self.__class__.__name__]
        if self.transform is not None:
            body += _format_transform_repr(self.transform, "Transform: ")
        if self.target_transform is not None:
            body += _format_transform_repr(self.target_transform, "Target transform: ")
        return "\n".join(body)
