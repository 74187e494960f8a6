#!/usr/bin/env python3
"""The reference solution of tests/data/wall_pendulum.dae, computed without daec.

The pendulum is integrated in its angle (theta from the downward vertical, x = L sin(theta),
y = -L cos(theta)): theta'' = -(g/L) sin(theta), an ODE with no constraint, by SciPy's DOP853 at
a tolerance of 1e-13. Each time x falls below -d (theta below -asin(d/L)) the bob hits the wall
and its angular velocity becomes -e times what it was. Prints the impact times, then the state
at each requested time, as CSV.

    wall_pendulum_reference.py --t-end 6 --times 1,2,3,4,5,6
"""
import argparse
import math

from scipy.integrate import solve_ivp

# Tolerance of the reference: far below what the simulation is compared to.
TOLERANCE = 1e-13


def solve(L, g, e, d, theta0, t_end, times):
    wall = -math.asin(d / L)

    def rhs(_t, s):
        return [s[1], -(g / L) * math.sin(s[0])]

    def hit(_t, s):
        return s[0] - wall

    hit.terminal = True
    hit.direction = -1
    impacts, samples = [], {}
    t0, state = 0.0, [theta0, 0.0]
    while t0 < t_end:
        wanted = [t for t in times if t0 <= t <= t_end]
        sol = solve_ivp(rhs, (t0, t_end), state, method="DOP853", rtol=TOLERANCE,
                        atol=TOLERANCE, events=hit, dense_output=True)
        end = sol.t[-1]
        for t in wanted:
            if t <= end and t not in samples:
                samples[t] = sol.sol(t)
        if sol.status != 1:
            break
        impacts.append(end)
        theta, omega = sol.y_events[0][0]
        t0, state = end, [wall, -e * omega]
    return impacts, samples


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--L", type=float, default=1.2)
    parser.add_argument("--g", type=float, default=9.81)
    parser.add_argument("--e", type=float, default=0.7)
    parser.add_argument("--d", type=float, default=0.4)
    parser.add_argument("--theta0", type=float, default=1.0)
    parser.add_argument("--t-end", type=float, default=6.0)
    parser.add_argument("--times", default="1,2,3,4,5,6")
    args = parser.parse_args()
    times = [float(v) for v in args.times.split(",")]
    impacts, samples = solve(args.L, args.g, args.e, args.d, args.theta0, args.t_end, times)
    print("impact," + ",".join(f"{t:.15g}" for t in impacts))
    print("t,x,y,vx,vy")
    for t in times:
        theta, omega = samples[t]
        x, y = args.L * math.sin(theta), -args.L * math.cos(theta)
        vx, vy = args.L * math.cos(theta) * omega, args.L * math.sin(theta) * omega
        print(",".join(f"{v:.15g}" for v in (t, x, y, vx, vy)))


if __name__ == "__main__":
    main()
