"""vision.datasets: torchvision 0.9's dataset classes reading the standard on-disk layouts,
plus the synthetic Shapes dataset."""
from vision.datasets.cifar import CIFAR10, CIFAR100
from vision.datasets.coco import CocoCaptions, CocoDetection
from vision.datasets.fakedata import FakeData
from vision.datasets.folder import DatasetFolder, ImageFolder
from vision.datasets.mnist import MNIST, FashionMNIST
from vision.datasets.shapes import Shapes
from vision.datasets.vision import VisionDataset
from vision.datasets.voc import VOCSegmentation
from vision.datasets.widerface import WIDERFace

__all__ = ["CIFAR10", "CIFAR100", "CocoCaptions", "CocoDetection", "DatasetFolder", "FakeData", "FashionMNIST",
           "ImageFolder", "MNIST", "Shapes", "VOCSegmentation", "VisionDataset", "WIDERFace"]
