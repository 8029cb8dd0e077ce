"""Containers and encodings: what the installed libsndfile reads and writes, in torchaudio's
vocabulary (format names, encodings PCM_S/PCM_U/PCM_F/ULAW/ALAW, bits per sample)."""
import soundfile

# Our format names (torchaudio's and the usual file extensions) -> (libsndfile container,
# the codec the name implies or None for the PCM-like encodings).
_NAMES = {
    "wav": ("WAV", None), "wave": ("WAV", None), "wavex": ("WAVEX", None),
    "w64": ("W64", None), "rf64": ("RF64", None),
    "flac": ("FLAC", None),
    "ogg": ("OGG", "VORBIS"), "oga": ("OGG", "VORBIS"), "vorbis": ("OGG", "VORBIS"),
    "opus": ("OGG", "OPUS"),
    "mp3": ("MP3", "MPEG_LAYER_III"),
    "aiff": ("AIFF", None), "aif": ("AIFF", None), "aifc": ("AIFF", None),
    "au": ("AU", None), "snd": ("AU", None),
    "sph": ("NIST", None), "nist": ("NIST", None),
    "caf": ("CAF", None), "htk": ("HTK", None), "avr": ("AVR", None), "voc": ("VOC", None),
    "sf": ("IRCAM", None), "ircam": ("IRCAM", None), "paf": ("PAF", None), "pvf": ("PVF", None),
    "sd2": ("SD2", None), "sds": ("SDS", None), "xi": ("XI", None), "wve": ("WVE", None),
    "mpc2k": ("MPC2K", None), "8svx": ("SVX", None), "svx": ("SVX", None), "iff": ("SVX", None),
    "mat4": ("MAT4", None), "mat5": ("MAT5", None),
}

# libsndfile subtype <-> (encoding, bits_per_sample) for the uncompressed encodings.
_PCM_SUBTYPES = {
    "PCM_S8": ("PCM_S", 8), "PCM_16": ("PCM_S", 16), "PCM_24": ("PCM_S", 24), "PCM_32": ("PCM_S", 32),
    "PCM_U8": ("PCM_U", 8), "FLOAT": ("PCM_F", 32), "DOUBLE": ("PCM_F", 64),
    "ULAW": ("ULAW", 8), "ALAW": ("ALAW", 8),
}
_SUBTYPE_OF = {v: k for k, v in _PCM_SUBTYPES.items()}
_CODEC_ENCODINGS = {"VORBIS": "VORBIS", "OPUS": "OPUS", "MPEG_LAYER_I": "MP3", "MPEG_LAYER_II": "MP3",
                    "MPEG_LAYER_III": "MP3"}
ENCODINGS = ("PCM_S", "PCM_U", "PCM_F", "ULAW", "ALAW")
_DEFAULT_BITS = {"PCM_S": 16, "PCM_U": 8, "PCM_F": 32, "ULAW": 8, "ALAW": 8}
_WAV_LIKE = ("WAV", "WAVEX", "W64", "RF64")


def _available(name):
    major, codec = _NAMES[name]
    if major not in soundfile.available_formats():
        return False
    return codec is None or codec in soundfile.available_subtypes(major)


def supported_formats():
    """The format names this libsndfile handles, sorted."""
    return sorted(name for name in _NAMES if _available(name))


def resolve(name, op):
    """(container, codec) for a format name or file extension; ValueError naming it if the
    installed libsndfile lacks it."""
    key = name.lower().lstrip(".")
    if key not in _NAMES or not _available(key):
        raise ValueError(f"{op}(): format '{name}' is not supported by the installed libsndfile "
                         f"{soundfile.__libsndfile_version__}; supported: {', '.join(supported_formats())}")
    return _NAMES[key]


def describe(subtype, major):
    """(encoding, bits_per_sample) that info() reports for a libsndfile subtype."""
    encoding, bits = _PCM_SUBTYPES.get(subtype, ("UNKNOWN", 0))
    if subtype in _CODEC_ENCODINGS:
        return _CODEC_ENCODINGS[subtype], 0
    if major == "FLAC":
        return "FLAC", bits
    return encoding, bits


def _encoding_table(major):
    have = soundfile.available_subtypes(major)
    return ", ".join(f"{enc} {bits}" for sub, (enc, bits) in _PCM_SUBTYPES.items() if sub in have)


def choose_subtype(name, major, codec, encoding, bits_per_sample, dtype_name):
    """The libsndfile subtype that save() writes, following torchaudio's defaults: wav picks
    by dtype when neither encoding nor bits is given, flac defaults to 24 bits, the rest to
    16-bit PCM_S; bits 8 alone means PCM_U; an encoding alone takes its usual width."""
    if encoding is not None and encoding not in ENCODINGS + ("FLAC", "VORBIS", "OPUS", "MP3"):
        raise ValueError(f"save(): unknown encoding '{encoding}'; expected one of {', '.join(ENCODINGS)}")
    if bits_per_sample is not None and bits_per_sample not in (8, 16, 24, 32, 64):
        raise ValueError(f"save(): bits_per_sample must be 8, 16, 24, 32 or 64, got {bits_per_sample}")
    if codec is not None:  # lossy codecs: encoding and width are the codec's own
        if bits_per_sample is not None or encoding not in (None, _CODEC_ENCODINGS[codec]):
            raise ValueError(f"save(): format '{name}' is encoded as {_CODEC_ENCODINGS[codec]}: "
                             "encoding and bits_per_sample do not apply")
        return codec
    if major == "FLAC":
        if encoding not in (None, "PCM_S", "FLAC"):
            raise ValueError(f"save(): flac stores PCM_S samples, not {encoding}")
        encoding = "PCM_S"
        bits_per_sample = 24 if bits_per_sample is None else bits_per_sample
    if encoding is None and bits_per_sample is None:
        by_dtype = {"uint8": ("PCM_U", 8), "int16": ("PCM_S", 16), "int32": ("PCM_S", 32),
                    "float32": ("PCM_F", 32), "float64": ("PCM_F", 32)}
        encoding, bits_per_sample = by_dtype[dtype_name] if major in _WAV_LIKE else ("PCM_S", 16)
    elif encoding is None:
        encoding = "PCM_U" if bits_per_sample == 8 else "PCM_S"
    elif bits_per_sample is None:
        bits_per_sample = _DEFAULT_BITS[encoding]
    subtype = _SUBTYPE_OF.get((encoding, bits_per_sample))
    if subtype is None or subtype not in soundfile.available_subtypes(major):
        raise ValueError(f"save(): format '{name}' cannot store {encoding} at {bits_per_sample} bits; "
                         f"it takes: {_encoding_table(major)}")
    return subtype


def compression_settings(name, major, codec, compression, sample_rate):
    """soundfile's (compression_level in [0, 1], bitrate_mode) for sox's -C value: flac level
    0..8 (default 8), vorbis quality -1..10 (default 3), mp3 negative = VBR quality (default
    -4.5) or positive = constant bitrate in kbps."""
    if compression is None:
        compression = {"FLAC": 8.0, "VORBIS": 3.0, "MPEG_LAYER_III": -4.5}.get(codec or major)
        if compression is None:
            return None, None
    kind = codec or major
    if kind == "FLAC":
        if not 0 <= compression <= 8:
            raise ValueError(f"save(): flac compression must be in [0, 8], got {compression}")
        return compression / 8.0, None
    if kind == "VORBIS":
        if not -1 <= compression <= 10:
            raise ValueError(f"save(): vorbis compression (quality) must be in [-1, 10], got {compression}")
        return min(1.0, 1.0 - compression / 10.0), None  # libsndfile: vorbis quality = 1 - level
    if kind == "MPEG_LAYER_III":
        if compression < 0:
            if compression < -9.999:
                raise ValueError(f"save(): mp3 VBR quality must be in [-9.999, 0), got {compression}")
            return -compression / 10.0, "VARIABLE"
        # libsndfile maps the level onto the bitrate range of the MPEG version the rate implies
        top, bottom = (320, 32) if sample_rate >= 32000 else (160, 8) if sample_rate >= 16000 else (64, 8)
        kbps = int(compression)
        if not bottom <= kbps <= top:
            raise ValueError(f"save(): mp3 bitrate at {sample_rate} Hz must be in [{bottom}, {top}] kbps, got {kbps}")
        return (top - kbps) / (top - bottom), "CONSTANT"
    raise ValueError(f"save(): format '{name}' takes no compression argument")
