"""VOCSegmentation: Pascal VOC images and class masks (root/VOCdevkit/VOC<year>)."""
import os

from PIL import Image

from vision.datasets.utils import download_and_extract_archive, verify_str_arg
from vision.datasets.vision import VisionDataset

DATASET_YEAR_DICT = {
    "2012": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2012/VOCtrainval_11-May-2012.tar",
             "filename": "VOCtrainval_11-May-2012.tar", "md5": "6cd6e144f989b92b3379bac3b3de84fd",
             "base_dir": os.path.join("VOCdevkit", "VOC2012")},
    "2011": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2011/VOCtrainval_25-May-2011.tar",
             "filename": "VOCtrainval_25-May-2011.tar", "md5": "6c3384ef61512963050cb5d687e5bf1e",
             "base_dir": os.path.join("TrainVal", "VOCdevkit", "VOC2011")},
    "2010": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2010/VOCtrainval_03-May-2010.tar",
             "filename": "VOCtrainval_03-May-2010.tar", "md5": "da459979d0c395079b5c75ee67908abb",
             "base_dir": os.path.join("VOCdevkit", "VOC2010")},
    "2009": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2009/VOCtrainval_11-May-2009.tar",
             "filename": "VOCtrainval_11-May-2009.tar", "md5": "a3e00b113cfcfebf17e343f59da3caa1",
             "base_dir": os.path.join("VOCdevkit", "VOC2009")},
    "2008": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2008/VOCtrainval_14-Jul-2008.tar",
             "filename": "VOCtrainval_14-Jul-2008.tar", "md5": "2629fa636546599198acfcfbfcf1904a",
             "base_dir": os.path.join("VOCdevkit", "VOC2008")},
    "2007": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtrainval_06-Nov-2007.tar",
             "filename": "VOCtrainval_06-Nov-2007.tar", "md5": "c52e279531787c972589f7e41ab4ae64",
             "base_dir": os.path.join("VOCdevkit", "VOC2007")},
    "2007-test": {"url": "http://host.robots.ox.ac.uk/pascal/VOC/voc2007/VOCtest_06-Nov-2007.tar",
                  "filename": "VOCtest_06-Nov-2007.tar", "md5": "b6e924de25625d8de591ea690078ad9f",
                  "base_dir": os.path.join("VOCdevkit", "VOC2007")},
}


class VOCSegmentation(VisionDataset):
    """(RGB image, 'P' mask of class indices, 255 = border) for the ids listed in
    ImageSets/Segmentation/<image_set>.txt."""

    def __init__(self, root, year="2012", image_set="train", download=False, transform=None, target_transform=None,
                 transforms=None):
        super().__init__(root, transforms, transform, target_transform)
        self.year = verify_str_arg(year, "year", [k for k in DATASET_YEAR_DICT if k != "2007-test"])
        key = "2007-test" if year == "2007" and image_set == "test" else year
        valid_sets = ["train", "trainval", "val"] + (["test"] if key == "2007-test" else [])
        self.image_set = verify_str_arg(image_set, "image_set", valid_sets)
        entry = DATASET_YEAR_DICT[key]
        self.url, self.filename, self.md5 = entry["url"], entry["filename"], entry["md5"]
        voc_root = os.path.join(self.root, entry["base_dir"])
        if download:
            download_and_extract_archive(self.url, self.root, filename=self.filename, md5=self.md5)
        if not os.path.isdir(voc_root):
            raise RuntimeError("Dataset not found or corrupted. You can use download=True to download it")
        split_f = os.path.join(voc_root, "ImageSets", "Segmentation", image_set.rstrip("\n") + ".txt")
        if not os.path.isfile(split_f):
            raise ValueError(f"VOCSegmentation: split file {split_f} not found")
        with open(split_f) as f:
            file_names = [x.strip() for x in f.readlines() if x.strip()]
        self.images = [os.path.join(voc_root, "JPEGImages", x + ".jpg") for x in file_names]
        self.masks = [os.path.join(voc_root, "SegmentationClass", x + ".png") for x in file_names]

    def __getitem__(self, index):
        img = Image.open(self.images[index]).convert("RGB")
        target = Image.open(self.masks[index])
        return self._apply_transforms(img, target)

    def __len__(self):
        return len(self.images)
