"""Rules for ``scipy.signal``, one module per family of functions.

* :mod:`~chainrules.rulesets.signal.convolution`: ``convolve``, ``correlate``, ``fftconvolve``,
  ``oaconvolve``, ``convolve2d``, ``correlate2d`` (and the non-differentiable
  ``choose_conv_method``, ``correlation_lags``);
* :mod:`~chainrules.rulesets.signal.iir_filters`: ``lfilter``, ``lfiltic``, ``lfilter_zi``,
  ``sosfilt``, ``sosfilt_zi``;
* :mod:`~chainrules.rulesets.signal.zero_phase_filters`: ``filtfilt``, ``sosfiltfilt``;
* :mod:`~chainrules.rulesets.signal.smoothing`: ``savgol_filter``, ``detrend``;
* :mod:`~chainrules.rulesets.signal.analytic_signal`: ``hilbert``, ``hilbert2``;
* :mod:`~chainrules.rulesets.signal.resampling`: ``resample``, ``resample_poly``, ``upfirdn``,
  ``decimate``;
* :mod:`~chainrules.rulesets.signal.spectral`: ``periodogram``, ``welch``, ``csd``,
  ``coherence``, ``spectrogram``, ``stft``, ``istft``;
* :mod:`~chainrules.rulesets.signal.order_filters`: ``medfilt``, ``medfilt2d``, ``order_filter``;
* :mod:`~chainrules.rulesets.signal.transforms`: ``czt``, ``zoom_fft``, ``freqz``, ``freqz_sos``,
  ``sosfreqz``, ``deconvolve``;
* :mod:`~chainrules.rulesets.signal.filter_design`: ``kaiser_beta``, ``kaiser_atten``, ``savgol_coeffs``;
* :mod:`~chainrules.rulesets.signal.windows`: the window constructors of
  ``scipy.signal.windows`` and ``get_window``;
* :mod:`~chainrules.rulesets.signal.non_differentiable`: peak finding, filter design and the
  other functions whose outputs are integers or do not depend on differentiable inputs.
"""
