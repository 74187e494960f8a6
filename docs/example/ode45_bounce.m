% ode45_bounce.m: a when clause in Octave (bouncing_ball.dae, docs/octave.md). The condition of
% `when h < 0` is ode45's event function; where the ball reaches the floor falling (v < 0) the
% MEX file's 'reinit' gives the state after the bounce, v = -e v, and ode45 restarts from it.
% ode45, not ode15s: Octave 7's ode15s fails at t = 0 on this model (docs/octave.md).
%   cd build-example && octave-cli ../docs/example/ode45_bounce.m
warning('off', 'integrate_adaptive:unexpected_termination');   % "stopped by the event function"
rhs = @(t, x) ball('rhs', t, x);
plain = odeset('RelTol', 1e-10, 'AbsTol', 1e-10);
opts = odeset(plain, 'Events', @(t, x) ball('conditions', t, x));
t_end = 2.5;
t0 = 0;
x0 = ball('initial_state');
bounces = [];
while t0 < t_end && numel(bounces) < 100   % a bound: the bounces accumulate (Zeno) at 4.06 s
  [t, x, te] = ode45(rhs, [t0 t_end], x0, opts);
  if isempty(te)
    break;   % t_end reached
  end
  % Octave 7's ode45 places an event by linear interpolation between two steps (its
  % ode_event_handler.m), here up to 1e-2 s early: Newton's method on h (h' = v), integrating
  % from the leg's start, puts it where h = 0.
  te = te(end);
  for newton = 1:4
    [~, y] = ode45(rhs, [t0 te], x0, plain);
    te = te - y(end, 1) / y(end, 2);
  end
  [~, y] = ode45(rhs, [t0 te], x0, plain);
  t0 = te;
  x0 = y(end, :)';
  if x0(2) < 0   % h < 0 has become true: the ball hits the floor
    x0 = ball('reinit', t0, x0, 1);
    bounces(end + 1) = t0;
  end
end
% The exact bounce times: t1 = sqrt(2 h0 / g), then flights of 2 e^k t1.
p = ball('parameters');
names = ball('names');
e = p(strcmp(names.parameters, 'e'));
g = p(strcmp(names.parameters, 'g'));
t1 = sqrt(2 * 1 / g);
exact = t1 * (1 + 2 * cumsum([0, e .^ (1:numel(bounces) - 1)]));
printf('%s: %d bounces before t = %g\n', names.conditions{1}, numel(bounces), t_end);
if max(abs(bounces - exact)) > 1e-6
  error('a bounce is more than 1e-6 s from its closed form');
end
printf('bounce at t = %.8f, exact %.8f\n', [bounces; exact]);
printf('all within 1e-6 s; v after the last bounce %.8f, exact %.8f\n', x0(2), ...
       g * t1 * e ^ numel(bounces));
