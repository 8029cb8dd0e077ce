"""The profiler's table against torch.autograd.profiler's: the same columns, titles, widths and
footer for the same options (timings differ, the layout must not)."""
import pytest

import core
from core.autograd import profiler

torch = pytest.importorskip("torch")


def run(lib, prof_module, **options):
    x = lib.ones(4, 8, requires_grad=True)
    with prof_module.profile(**options) as prof:
        (x * 2).relu().sum().backward()
    return prof


def layout(table):
    lines = table.splitlines()
    separator = lines[0]
    widths = [len(dashes) for dashes in separator.split("  ") if dashes]
    titles, pos = [], 0
    for w in widths:
        titles.append(lines[1][pos:pos + w].strip())
        pos += w + 2
    return titles, widths[1:], lines[-1].split(":")[0], separator.endswith("  ")


@pytest.mark.parametrize("options, group", [({}, False), ({"profile_memory": True}, False),
                                            ({"record_shapes": True, "profile_memory": True}, True)])
def test_table_layout_matches_pytorch(options, group):
    ours = run(core, profiler, **options).key_averages(group_by_input_shape=group).table(row_limit=5)
    theirs = run(torch, torch.autograd.profiler, **options).key_averages(
        group_by_input_shape=group).table(row_limit=5)
    our_titles, our_widths, our_footer, our_trailing = layout(ours)
    their_titles, their_widths, their_footer, their_trailing = layout(theirs)
    assert our_titles == their_titles
    n = len(our_widths) - (1 if group else 0)  # the Input Shapes column fits its longest entry
    assert our_widths[:n] == their_widths[:n]
    assert (our_footer, our_trailing) == (their_footer, their_trailing)
