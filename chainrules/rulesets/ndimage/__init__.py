"""Rules for ``scipy.ndimage``: linear filters, rank filters, Fourier filters, spline
interpolation and geometric transforms, measurements, and the functions that have no
derivative (labels, distance transforms, binary morphology), one module per family, loaded
on first use.

Every linear filter of ``scipy.ndimage`` reads its input through a boundary extension (the
``mode``); :mod:`chainrules.rulesets.ndimage._boundary` holds each mode's extension and its
adjoint, and the conventions are in ``docs/rules/ndimage.md``.
"""
