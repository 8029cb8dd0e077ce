"""torchvision 0.13's weights API on top of the 0.9 builders: each builder takes `weights=` (a
weights enum member such as ResNet18_Weights.IMAGENET1K_V1, its name as a string, "DEFAULT", or
None) beside the older `pretrained=`. A member names the same hub file `pretrained=True` loads
(each enum offers the checkpoints the hub registry holds), carries torchvision's `meta`
(categories, num_params, metrics) and its inference `transforms()`."""
import enum
import functools
from dataclasses import dataclass, field

__all__ = ["Weights", "WeightsEnum", "get_weight", "get_model_weights", "get_model", "list_models"]

_BUILDERS = {}  # builder name -> (builder, weights enum)


@dataclass(eq=False)
class Weights:
    url: str
    transforms: object  # a callable returning the preset (functools.partial of a preset class)
    meta: dict = field(default_factory=dict)


class WeightsEnum(enum.Enum):
    """Base of the per-model weights enums; members' values are Weights."""

    @classmethod
    def verify(cls, obj):
        """None, a member of this enum, or its name ("IMAGENET1K_V1", "DEFAULT",
        "ResNet18_Weights.IMAGENET1K_V1") as the member; anything else raises TypeError."""
        if obj is None or isinstance(obj, cls):
            return obj
        if isinstance(obj, str):
            name = obj.replace(cls.__name__ + ".", "", 1)
            if name in cls.__members__:
                return cls.__members__[name]
            raise ValueError(f"Invalid weights name {obj!r} for {cls.__name__}; valid ones are "
                             f"{', '.join(cls.__members__)}")
        raise TypeError(f"Invalid Weight class provided; expected {cls.__name__} but received "
                        f"{type(obj).__name__}.")

    def get_state_dict(self, progress=True, check_hash=True):
        import hub  # imported here: hub's registry imports the model modules

        return hub.load_state_dict_from_url(self.url, progress=progress, check_hash=check_hash)

    def __repr__(self):
        return f"{type(self).__name__}.{self._name_}"

    @property
    def url(self):
        return self.value.url

    @property
    def transforms(self):
        return self.value.transforms

    @property
    def meta(self):
        return self.value.meta


def weights_enum(name, members, default):
    """A WeightsEnum subclass `name` with `members` ({member name: Weights}) and DEFAULT = the
    member named `default`."""
    values = dict(members)
    values["DEFAULT"] = members[default]  # an alias: the same member
    cls = WeightsEnum(name, values)
    cls.__module__ = "vision.models"
    return cls


def handle_weights(weights_cls, pretrained_flag="pretrained", extra=None):
    """Gives a 0.9-style builder (`pretrained=`) the `weights=` keyword: a member (or its name)
    means pretrained=True, which loads the same hub file; num_classes must then match the
    member's categories, as torchvision requires. `extra` maps more such keywords to flags
    ({"weights_backbone": ("pretrained_backbone", MobileNet_V3_Large_Weights)})."""
    def wrap(builder):
        @functools.wraps(builder)
        def build(*args, weights=None, **kwargs):
            for keyword, (flag, cls) in (extra or {}).items():
                if keyword in kwargs:
                    kwargs[flag] = cls.verify(kwargs.pop(keyword)) is not None
            member = weights_cls.verify(weights)
            if kwargs.get("num_classes", 0) is None:  # torchvision's "the default for these weights"
                del kwargs["num_classes"]
            if member is not None:
                expected = len(member.meta["categories"])
                if kwargs.get("num_classes", expected) not in (None, expected):
                    raise ValueError(f"The parameter 'num_classes' expected value {expected} but got "
                                     f"{kwargs['num_classes']} instead.")
                kwargs[pretrained_flag] = True
            return builder(*args, **kwargs)

        _BUILDERS[builder.__name__] = (build, weights_cls)
        build.weights_enum = weights_cls
        return build
    return wrap


def get_model_weights(name):
    """The weights enum of builder `name` (or of the builder itself)."""
    if callable(name):
        return name.weights_enum
    if name not in _BUILDERS:
        raise ValueError(f"Unknown model {name}")
    return _BUILDERS[name][1]


def get_weight(name):
    """The member named "<Enum>.<MEMBER>", e.g. "ResNet18_Weights.IMAGENET1K_V1"."""
    enum_name, _, member = name.partition(".")
    for _, weights_cls in _BUILDERS.values():
        if weights_cls.__name__ == enum_name:
            return weights_cls.verify(member)
    raise ValueError(f"The weight enum '{enum_name}' for the specific method couldn't be retrieved.")


def get_model(name, **config):
    """The model builder `name` called with `config` (weights=..., num_classes=...)."""
    if name not in _BUILDERS:
        raise ValueError(f"Unknown model {name}")
    return _BUILDERS[name][0](**config)


def list_models(module=None):
    """The names of the builders with a weights enum (of `module` if given), sorted."""
    names = [n for n, (b, _) in _BUILDERS.items()
             if module is None or b.__module__.startswith(module.__name__)]
    return sorted(names)


def classification_weights(url, num_params, acc1, acc5, recipe=None, **meta):
    """Weights of an ImageNet-1K classifier, with torchvision's meta and preset."""
    from vision.models._meta import imagenet_categories

    meta = {"categories": imagenet_categories(), "num_params": num_params, "min_size": (1, 1),
            "_metrics": {"ImageNet-1K": {"acc@1": acc1, "acc@5": acc5}}, **meta}
    if recipe:
        meta["recipe"] = recipe
    return Weights(url, functools.partial(_image_classification, crop_size=224), meta)


def _image_classification(**kwargs):
    from vision.transforms._presets import ImageClassification  # imported on use: transforms load later

    return ImageClassification(**kwargs)


def imagenet1k_v1_enum(name, url, num_params, acc1, acc5, recipe, **meta):
    """A weights enum `name` whose one member, IMAGENET1K_V1 (also DEFAULT), is the checkpoint at
    `url` with torchvision's facts."""
    return weights_enum(name, {"IMAGENET1K_V1": classification_weights(url, num_params, acc1, acc5, recipe, **meta)},
                        "IMAGENET1K_V1")
