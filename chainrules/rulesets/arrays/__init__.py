"""Array manipulation and indexing: reshape, transpose, concatenate, split, pad, sort, take, getitem, ..."""
