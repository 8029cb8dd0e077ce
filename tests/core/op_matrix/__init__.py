"""The generated op matrix: every op in the C++ op table, checked against numpy.

Each op table entry names a *sample kind*; `samples.py` turns a kind into concrete cases
(shapes including 0-d, empty, broadcast; every dtype the kind covers), and the
`refs_*.py` modules give each op's numpy reference. `test_op_matrix.py` runs every case
with contiguous, Fortran-ordered (transposed) and strided inputs.
"""
