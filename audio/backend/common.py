"""What info() returns (torchaudio 0.8's AudioMetaData: exactly these five fields)."""


class AudioMetaData:
    """sample_rate, num_frames, num_channels, bits_per_sample (0 for lossy codecs) and
    encoding: one of PCM_S, PCM_U, PCM_F, FLAC, ULAW, ALAW, MP3, VORBIS, AMR_WB, AMR_NB, OPUS,
    UNKNOWN."""

    __slots__ = ("sample_rate", "num_frames", "num_channels", "bits_per_sample", "encoding")

    def __init__(self, sample_rate: int, num_frames: int, num_channels: int, bits_per_sample: int, encoding: str):
        self.sample_rate = sample_rate
        self.num_frames = num_frames
        self.num_channels = num_channels
        self.bits_per_sample = bits_per_sample
        self.encoding = encoding

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"AudioMetaData({fields})"

    def __eq__(self, other):
        if not isinstance(other, AudioMetaData):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__slots__)
