"""audio.sox_effects (torchaudio.sox_effects): sox's effects, implemented in tensorzoo."""
import atexit

from audio.sox_effects.sox_effects import (  # noqa: F401
    apply_effects_file,
    apply_effects_tensor,
    effect_names,
    init_sox_effects,
    shutdown_sox_effects,
)

init_sox_effects()
atexit.register(shutdown_sox_effects)
