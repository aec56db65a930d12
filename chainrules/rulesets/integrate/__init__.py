"""scipy.integrate: the sample-based integrators (trapezoid, Simpson, Romberg), the quadrature family
(quad, quad_vec, fixed_quad, dblquad, tplquad, nquad) and the initial value problems (solve_ivp, odeint).

The quadrature and ODE rules are higher-order rules: they differentiate the user's integrand or
right-hand side through the calling AD (``rrule_via_ad`` / ``frule_via_ad`` of the config), and use
the mathematics (the fundamental theorem of calculus, differentiation under the integral sign, the
adjoint and forward sensitivity equations), never the solver's algorithm.
"""
