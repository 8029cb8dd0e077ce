"""vision.io: image reading, decoding and encoding (torchvision 0.9's io.image)."""
from vision.io.image import (ImageReadMode, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png,
                             read_file, read_image, write_file, write_jpeg, write_png)

__all__ = ["ImageReadMode", "decode_image", "decode_jpeg", "decode_png", "encode_jpeg", "encode_png", "read_file",
           "read_image", "write_file", "write_jpeg", "write_png"]
