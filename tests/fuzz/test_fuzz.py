"""The CI slice of the hostile-input fuzz suite (tests/support_fuzz.py): a seeded sample of
each case family (op table, out=, in place on expanded selves, files, archives, DataLoader,
hub), each case in a child process under time and memory limits. Any crash, hang, leaked
Python internal or wrong outcome fails the test and names the case. The full run is one
command: PYTHONPATH=.:tests python tests/support_fuzz.py"""
from support_fuzz import all_cases, ci_slice, run_cases

SEED = 27


def test_seeded_slice_has_no_crash_hang_or_internal_error():
    failures = run_cases(ci_slice(SEED))
    assert not failures, "\n".join(f"{verdict}: {case}" for case, verdict in sorted(failures.items()))


def test_the_generator_covers_the_op_table():
    import core
    covered = {case.split("[", 1)[0] for case, _ in all_cases()}
    assert len(covered & set(core._C._functions)) > 0.8 * len(core._C._functions)
