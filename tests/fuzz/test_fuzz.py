"""The CI slice of the hostile-input fuzz suite (tests/support_fuzz.py): a seeded sample of
the generated cases, each in a child process under time and memory limits. Any crash, hang or
leaked Python internal fails the test and names the case. The full run is one command:
PYTHONPATH=.:tests python tests/support_fuzz.py"""
import random

from support_fuzz import KNOWN_SLOW, all_cases, run_cases

SAMPLE = 1500
SEED = 27


def test_seeded_slice_has_no_crash_hang_or_internal_error():
    cases = all_cases(seed=SEED)
    sample = random.Random(SEED).sample(cases, min(SAMPLE, len(cases)))
    failures = {case: verdict for case, verdict in run_cases(sample).items() if case not in KNOWN_SLOW}
    assert not failures, "\n".join(f"{verdict}: {case}" for case, verdict in sorted(failures.items()))


def test_the_generator_covers_the_op_table():
    import core
    covered = {case.split("[", 1)[0] for case, _ in all_cases()}
    assert len(covered & set(core._C._functions)) > 0.8 * len(core._C._functions)
