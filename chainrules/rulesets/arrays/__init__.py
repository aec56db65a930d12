"""Array manipulation and indexing: reshape, transpose, concatenate, split, pad, sort, take, getitem, ...

One module per family: :mod:`.shape` (reshape, ravel, squeeze, expand_dims, atleast_*d,
broadcast_to/broadcast_arrays, ix_), :mod:`.axes` (transpose, swapaxes, moveaxis, rollaxis,
matrix_transpose), :mod:`.joining` (concatenate, stack, hstack/vstack/dstack/column_stack,
block, append), :mod:`.splitting` (split, array_split, hsplit/vsplit/dsplit, unstack),
:mod:`.repetition` (tile, repeat, resize), :mod:`.editing` (insert, delete, trim_zeros),
:mod:`.reordering` (flip, rot90, roll),
:mod:`.padding` (pad, every mode), :mod:`.gathering` (take, take_along_axis, compress,
extract, diagonal, choose, select, bincount), :mod:`.sorting` (sort, partition, unique, set operations),
:mod:`.indexing` (``x[index]``, ``x.item``), :mod:`.conversion` (array, asarray, copy,
astype, tolist), :mod:`.creation` (full, arange, linspace, logspace, geomspace, meshgrid),
:mod:`.random` (pathwise derivatives of samplers), :mod:`.non_differentiable` (shapes,
indices, constant arrays) and :mod:`.mutation` (in-place operations: an error).
"""
