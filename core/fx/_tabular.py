"""A plain-text table in the layout of tabulate's default ("simple") format, which
torch.fx's print_tabular uses: columns two spaces apart, a dashed rule under the headers,
numeric columns right-aligned, no trailing blanks."""

_MIN_PADDING = 2  # tabulate widens every column to its header's length plus two


def _is_number(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def format_table(rows, headers):
    cells = [[str(c) for c in row] for row in rows]
    columns = list(zip(*cells)) if cells else [()] * len(headers)
    widths, numeric = [], []
    for header, column in zip(headers, columns):
        widths.append(max([len(header) + _MIN_PADDING, *(len(c) for c in column)]))
        numeric.append(bool(column) and all(_is_number(c) for c in column))

    def line(values):
        padded = [v.rjust(w) if right else v.ljust(w) for v, w, right in zip(values, widths, numeric)]
        return "  ".join(padded).rstrip()

    out = [line(headers), "  ".join("-" * w for w in widths)]
    out.extend(line(row) for row in cells)
    return "\n".join(out)
