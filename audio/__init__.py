"""tensorzoo audio: load/save/info, sox effects and spectral transforms (mirrors torchaudio 0.8)."""
