"""Rules for ``numpy.fft`` and ``scipy.fft``, one module per family of transforms.

* :mod:`~chainrules.rulesets.fft.complex_transforms`: ``fft``, ``ifft``, ``fft2``, ``ifft2``,
  ``fftn``, ``ifftn``;
* :mod:`~chainrules.rulesets.fft.real_transforms`: ``rfft``, ``irfft``, ``rfft2``,
  ``irfft2``, ``rfftn``, ``irfftn``;
* :mod:`~chainrules.rulesets.fft.hermitian_transforms`: ``hfft``, ``ihfft`` (and SciPy's
  ``hfft2``, ``hfftn``, ``ihfft2``, ``ihfftn``);
* :mod:`~chainrules.rulesets.fft.trigonometric_transforms`: SciPy's ``dct``, ``idct``,
  ``dst``, ``idst``, ``dctn``, ``idctn``, ``dstn``, ``idstn`` (types 1 to 4);
* :mod:`~chainrules.rulesets.fft.hankel_transforms`: SciPy's ``fht``, ``ifht``, ``fhtoffset``;
* :mod:`~chainrules.rulesets.fft.shifts_and_frequencies`: ``fftshift``, ``ifftshift``,
  ``fftfreq``, ``rfftfreq``, and the non-differentiable ``next_fast_len``, ``prev_fast_len``.

Every transform is linear (real-linear for the real and Hermitian ones), so its frule
applies the transform itself to the tangent and its pullback applies the adjoint, derived
in :mod:`chainrules.rulesets.fft._common`.
"""
