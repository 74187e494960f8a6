% ode15s_pendulum.m: the index-3 pendulum of pendulum.dae in Octave, through the MEX file that
% daec_add_mex(pendulum_mex pendulum.dae) builds (docs/octave.md). ode15s integrates daec's
% reduced system with its sparse Jacobian; the end point is projected onto the hidden constraints
% and compared with the published x(1) of Cash's pendul3.f test problem (g = 1).
%   cd build-example && octave-cli ../docs/example/ode15s_pendulum.m
pendulum_mex('set_parameter', 'g', 1);
x0 = pendulum_mex('consistent_initialization', 0, pendulum_mex('initial_state'));
opts = odeset('RelTol', 1e-8, 'AbsTol', 1e-8, ...
              'Jacobian', @(t, x) pendulum_mex('jacobian', t, x));
[t, x] = ode15s(@(t, x) pendulum_mex('rhs', t, x), [0 1], x0, opts);
x1 = pendulum_mex('project', 1, x(end, :)');
[~, z] = pendulum_mex('rhs', 1, x1);
names = pendulum_mex('names');
printf('ode15s: x(1) = %.9f in %d steps, error %.1e\n', x1(1), numel(t) - 1, ...
       abs(x1(1) - 0.867348640604551746));
printf('%s(1) = %.6f\n', names.algebraic{1}, z(1));
printf('largest invariant residual: %.1e\n', max(abs(pendulum_mex('invariants', 1, x1))));
try
  pendulum_mex('rhs', 0, [NaN; 0; 0; 0]);
catch failure
  printf('%s: %s\n', failure.identifier, failure.message);
end
