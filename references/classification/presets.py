"""The classification presets of torchvision 0.9's references: training augmentation and the
evaluation resize + centre crop, both ending in ImageNet normalisation."""
from vision import transforms
from vision.transforms.functional import InterpolationMode

IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)


class ClassificationPresetTrain:
    """RandomResizedCrop -> RandomHorizontalFlip -> [AutoAugment] -> ToTensor -> Normalize ->
    [RandomErasing]. `crop_scale` is RandomResizedCrop's scale (torchvision's (0.08, 1.0))."""

    def __init__(self, crop_size, mean=IMAGENET_MEAN, std=IMAGENET_STD, hflip_prob=0.5, auto_augment_policy=None,
                 random_erase_prob=0.0, interpolation=InterpolationMode.BILINEAR, crop_scale=(0.08, 1.0)):
        trans = [transforms.RandomResizedCrop(crop_size, scale=crop_scale, interpolation=interpolation)]
        if hflip_prob > 0:
            trans.append(transforms.RandomHorizontalFlip(hflip_prob))
        if auto_augment_policy is not None:
            policy = transforms.AutoAugmentPolicy(auto_augment_policy)
            trans.append(transforms.AutoAugment(policy=policy))
        trans.extend([transforms.ToTensor(), transforms.Normalize(mean=mean, std=std)])
        if random_erase_prob > 0:
            trans.append(transforms.RandomErasing(p=random_erase_prob))
        self.transforms = transforms.Compose(trans)

    def __call__(self, img):
        return self.transforms(img)


class ClassificationPresetEval:
    """Resize(resize_size) -> CenterCrop(crop_size) -> ToTensor -> Normalize."""

    def __init__(self, crop_size, resize_size=256, mean=IMAGENET_MEAN, std=IMAGENET_STD,
                 interpolation=InterpolationMode.BILINEAR):
        self.transforms = transforms.Compose([
            transforms.Resize(resize_size, interpolation=interpolation),
            transforms.CenterCrop(crop_size),
            transforms.ToTensor(),
            transforms.Normalize(mean=mean, std=std),
        ])

    def __call__(self, img):
        return self.transforms(img)
