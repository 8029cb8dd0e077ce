"""torchvision 0.9's detection presets: ToTensor and a horizontal flip for training, ToTensor
for evaluation."""
import transforms as T


class DetectionPresetTrain:
    def __init__(self, hflip_prob=0.5):
        self.transforms = T.Compose([T.ToTensor(), T.RandomHorizontalFlip(hflip_prob)])

    def __call__(self, img, target):
        return self.transforms(img, target)


class DetectionPresetEval:
    def __init__(self):
        self.transforms = T.ToTensor()

    def __call__(self, img, target):
        return self.transforms(img, target)
