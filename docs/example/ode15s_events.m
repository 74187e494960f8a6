% ode15s_events.m: a switching model in Octave (growth.dae, docs/octave.md). The model's
% conditions are ode15s's event function: each relation that changes sign stops the integration
% (isterminal = 1), which restarts from there on the other branch of the `if`.
%   cd build-example && octave-cli ../docs/example/ode15s_events.m
opts = odeset('RelTol', 1e-8, 'AbsTol', 1e-8, 'Events', @(t, x) growth('conditions', t, x));
t_end = 2;
t0 = 0;
x0 = growth('initial_state');
events = [];
while t0 < t_end && numel(events) < 100   % a bound against a relation that chatters
  [t, x] = ode15s(@(t, x) growth('rhs', t, x), [t0 t_end], x0, opts);
  t0 = t(end);
  x0 = x(end, :)';
  if t0 < t_end
    events(end + 1) = t0;
  end
end
names = growth('names');
printf('%s switched at t = %.8f (ln 2 = %.8f)\n', names.conditions{1}, events, log(2));
exact = 1 + (t_end - log(2)) / 2;
printf('x(%g) = %.8f, exact %.8f, error %.1e\n', t_end, x0, exact, abs(x0 - exact));
