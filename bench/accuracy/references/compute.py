#!/usr/bin/python3
"""Reference solutions of the accuracy benchmark, computed and checked independently of daec.

    bench/accuracy/references/compute.py [--write] [PROBLEM ...]

For every problem (default: all) this computes the solution at the end point a second way,
without daec, and compares it with the reference the benchmark uses:

- transistor_amplifier, chemical_akzo, robertson (Test Set): the reference is the Test Set's
  published table; the check is SciPy Radau at rtol = 1e-13 on a transcription of our own (an
  ODE on the constraint manifold: the transistor's node voltages by Newton, Akzo's y6 and
  Robertson's y3 eliminated).
- car_axis, andrews (Test Set, index 3): the reference is SciPy Radau at rtol = atol = 1e-13 on
  an index-1 transcription of our own (accelerations and multipliers from the linear system with
  the constraints differentiated twice by sympy); the checks are SciPy DOP853 at 1e-13 on the
  same equations and the Test Set's published table, whose index-2 and index-3 components
  (velocities, accelerations, multipliers) turn out to be its least accurate part.
- pendulum: the reference is the angle form theta'' = -cos(theta) integrated by mpmath's Taylor
  method at 30 digits; the checks are J. Cash's published values and SciPy Radau at 1e-13.
- circular_track, ascher_petzold, linear_index2, model_q1: the exact solution at 30 digits.

It prints, per problem, the largest difference between reference and check (absolute and in the
figure-of-merit scale |d| / (|ref| + 1)) and the digits they agree to. With --write it (re)writes
references/<problem>.txt (t_start, t_end, then `name = value` for every declared variable of the
model, in declaration order, with its source and the check in the header).
Takes about two minutes (the Radau runs at 1e-13 dominate).
"""
import math
import os
import sys
import time

import mpmath
import numpy as np
import sympy as sp
from scipy.integrate import solve_ivp

HERE = os.path.dirname(os.path.abspath(__file__))
mpmath.mp.dps = 30
TIGHT = 1e-13  # rtol = atol of the Radau checks (SciPy's floor is 100 * machine epsilon)

TEST_SET = ("F. Mazzia, C. Magherini, Test Set for IVP Solvers, release 2.4, University of Bari "
            "(2008)")


def integrate(fun, t_span, y0, method="Radau"):
    """SciPy's `method` at rtol = atol = TIGHT; the end state and the number of steps."""
    sol = solve_ivp(fun, t_span, y0, method=method, rtol=TIGHT, atol=TIGHT)
    if sol.status != 0:
        raise RuntimeError(sol.message)
    return sol.y[:, -1], sol.t.size - 1


# ----- transistor amplifier (Test Set "transamp") -----------------------------------------------

TRANSAMP = dict(ub=6.0, uf=0.026, alpha=0.99, beta=1e-6, r0=1000.0, r1=9000.0, r2=9000.0,
                r3=9000.0, r4=9000.0, r5=9000.0, r6=9000.0, r7=9000.0, r8=9000.0, r9=9000.0,
                c1=1e-6, c2=2e-6, c3=3e-6, c4=4e-6, c5=5e-6)


def transistor_f(t, y, p):
    """The Test Set's f(t, y) of M y' = f (transfunc), with y 0-based."""
    uet = 0.1 * math.sin(200 * math.pi * t)
    fac1 = p["beta"] * (math.exp((y[1] - y[2]) / p["uf"]) - 1)
    fac2 = p["beta"] * (math.exp((y[4] - y[5]) / p["uf"]) - 1)
    a = p["alpha"]
    return [(y[0] - uet) / p["r0"],
            y[1] / p["r1"] + (y[1] - p["ub"]) / p["r2"] + (1 - a) * fac1,
            y[2] / p["r3"] - fac1,
            (y[3] - p["ub"]) / p["r4"] + a * fac1,
            y[4] / p["r5"] + (y[4] - p["ub"]) / p["r6"] + (1 - a) * fac2,
            y[5] / p["r7"] - fac2,
            (y[6] - p["ub"]) / p["r8"] + a * fac2,
            y[7] / p["r9"]]


def transistor_nodes(t, s, p):
    """All 8 node voltages from the 5 differential quantities s = (y2 - y1, y3, y5 - y4, y6,
    y8 - y7): the three hidden constraints f1 + f2 = 0, f4 + f5 = 0, f7 + f8 = 0 (the rows of M
    that cancel) are solved for y1, y4, y7 one after the other by Newton (each is monotone)."""
    d1, y3, d2, y6, d3 = s
    y = [0.0, 0.0, y3, 0.0, 0.0, y6, 0.0, 0.0]

    def solve(index, set_unknown, combo):
        x = y[index]
        for _ in range(100):
            set_unknown(x)
            f = transistor_f(t, y, p)
            r = combo(f)
            h = 1e-7 * (1 + abs(x))
            set_unknown(x + h)
            slope = (combo(transistor_f(t, y, p)) - r) / h
            step = r / slope
            x -= step
            if abs(step) < 1e-15 * (1 + abs(x)):
                break
        set_unknown(x)

    def set1(v):
        y[0], y[1] = v, v + d1

    def set4(v):
        y[3], y[4] = v, v + d2

    def set7(v):
        y[6], y[7] = v, v + d3

    y[0] = y[3] = y[6] = 0.0
    solve(0, set1, lambda f: f[0] + f[1])
    solve(3, set4, lambda f: f[3] + f[4])
    solve(6, set7, lambda f: f[6] + f[7])
    return y


def transistor_check():
    p = TRANSAMP
    ub = p["ub"]
    y0 = [0, ub / (p["r2"] / p["r1"] + 1), ub / (p["r2"] / p["r1"] + 1), ub,
          ub / (p["r6"] / p["r5"] + 1), ub / (p["r6"] / p["r5"] + 1), ub, 0]
    s0 = [y0[1] - y0[0], y0[2], y0[4] - y0[3], y0[5], y0[7] - y0[6]]

    def rhs(t, s):
        y = transistor_nodes(t, s, p)
        f = transistor_f(t, y, p)
        # rows 1, 3, 4, 6, 7 of M y' = f: c1 (y2 - y1)' = f1, -c2 y3' = f3, ...
        return [f[0] / p["c1"], -f[2] / p["c2"], f[3] / p["c3"], -f[5] / p["c4"],
                f[6] / p["c5"]]

    s, steps = integrate(rhs, (0.0, 0.2), s0)
    return transistor_nodes(0.2, s, p), steps


# ----- constrained mechanical systems: M(q) q'' = f(q, q', t) + C(q, t) lam, g(q, t) = 0 ---------

class Mechanical:
    """The index-1 form of a constrained mechanical system, derived with sympy: the constraints
    g(q, t) = 0 differentiated twice give G a = -gamma (G = dg/dq), so accelerations a and
    multipliers lam solve [[M, -C], [G, 0]] [a; lam] = [f; -gamma]."""

    def __init__(self, q, v, lam, t, M, f, C, g):
        a = sp.symbols(f"a0:{len(q)}")
        G = g.jacobian(q)
        g_dot = G * sp.Matrix(v) + g.diff(t)
        g_ddot = g_dot.jacobian(q) * sp.Matrix(v) + g_dot.jacobian(v) * sp.Matrix(a) \
            + g_dot.diff(t)
        gamma = g_ddot.subs({ai: 0 for ai in a})
        args = (t, list(q), list(v))
        self.n, self.m = len(q), len(lam)
        self.M = sp.lambdify(args, M, "numpy")
        self.f = sp.lambdify(args, f, "numpy")
        self.C = sp.lambdify(args, C, "numpy")
        self.G = sp.lambdify(args, G, "numpy")
        self.gamma = sp.lambdify(args, gamma, "numpy")

    def solve(self, t, q, v):
        n, m = self.n, self.m
        K = np.zeros((n + m, n + m))
        K[:n, :n] = self.M(t, q, v)
        K[:n, n:] = -np.array(self.C(t, q, v), dtype=float)
        K[n:, :n] = self.G(t, q, v)
        b = np.concatenate([np.array(self.f(t, q, v), dtype=float).ravel(),
                            -np.array(self.gamma(t, q, v), dtype=float).ravel()])
        x = np.linalg.solve(K, b)
        return x[:n], x[n:]

    def integrate(self, t_span, q0, v0, method):
        n = self.n

        def rhs(t, y):
            acc, _ = self.solve(t, y[:n], y[n:])
            return np.concatenate([y[n:], acc])

        y, steps = integrate(rhs, t_span, np.concatenate([q0, v0]), method)
        acc, lam = self.solve(t_span[1], y[:n], y[n:])
        return y[:n], y[n:], acc, lam, steps


def car_axis_solution(method):
    t = sp.Symbol("t")
    q = sp.symbols("xl yl xr yr")
    v = sp.symbols("ul vl ur vr")
    lam = sp.symbols("lam1 lam2")
    eps, M, L, L0, r, w, g = 1e-2, 10, 1, 0.5, 0.1, 10, 1
    k = M * eps**2 / 2
    xl, yl, xr, yr = q
    yb = r * sp.sin(w * t)
    xb = sp.sqrt(L**2 - yb**2)
    Ll = sp.sqrt(xl**2 + yl**2)
    Lr = sp.sqrt((xr - xb)**2 + (yr - yb)**2)
    f = sp.Matrix([(L0 - Ll) * xl / Ll, (L0 - Ll) * yl / Ll - k * g,
                   (L0 - Lr) * (xr - xb) / Lr, (L0 - Lr) * (yr - yb) / Lr - k * g])
    gcon = sp.Matrix([xb * xl + yb * yl, (xl - xr)**2 + (yl - yr)**2 - L**2])
    C = sp.Matrix([[xb, 2 * (xl - xr)], [yb, 2 * (yl - yr)],
                   [0, -2 * (xl - xr)], [0, -2 * (yl - yr)]])
    system = Mechanical(q, v, lam, t, sp.eye(4) * k, f, C, gcon)
    qe, ve, _, lame, steps = system.integrate((0.0, 3.0), [0, L0, L, L0], [-L0 / L, 0, -L0 / L, 0],
                                               method)
    return list(qe) + list(ve) + list(lame), steps


ANDREWS = dict(m1=.04325, m2=.00365, m3=.02373, m4=.00706, m5=.07050, m6=.00706, m7=.05498,
               xa=-.06934, ya=-.00227, xb=-0.03635, yb=.03273, xc=.014, yc=.072, c0=4530,
               i1=2.194e-6, i2=4.410e-7, i3=5.255e-6, i4=5.667e-7, i5=1.169e-5, i6=5.667e-7,
               i7=1.912e-5, d=28e-3, da=115e-4, e=2e-2, ea=1421e-5, rr=7e-3, ra=92e-5,
               l0=7785e-5, ss=35e-3, sa=1874e-5, sb=1043e-5, sc=18e-3, sd=2e-2, ta=2308e-5,
               tb=916e-5, u=4e-2, ua=1228e-5, ub=449e-5, zf=2e-2, zt=4e-2, fa=1421e-5, mom=33e-3)
ANDREWS_Q0 = [-0.0617138900142764496358948458001, 0, 0.455279819163070380255912382449,
              0.222668390165885884674473185609, 0.487364979543842550225598953530,
              -0.222668390165885884674473185609, 1.23054744454982119249735015568]


def andrews_solution(method):
    P = ANDREWS
    t = sp.Symbol("t")
    q = sp.symbols("be th ga ph de om ep")
    v = sp.symbols("vbe vth vga vph vde vom vep")
    lam = sp.symbols("l1:7")
    be, th, ga, ph, de, om, ep = q
    bep, thp, gap, php, dep, omp, epp = v
    M = sp.zeros(7, 7)
    M[0, 0] = P["m1"] * P["ra"]**2 + P["m2"] * (P["rr"]**2 - 2 * P["da"] * P["rr"] * sp.cos(th)
                                                + P["da"]**2) + P["i1"] + P["i2"]
    M[1, 0] = P["m2"] * (P["da"]**2 - P["da"] * P["rr"] * sp.cos(th)) + P["i2"]
    M[1, 1] = P["m2"] * P["da"]**2 + P["i2"]
    M[2, 2] = P["m3"] * (P["sa"]**2 + P["sb"]**2) + P["i3"]
    eea = P["e"] - P["ea"]
    M[3, 3] = P["m4"] * eea**2 + P["i4"]
    M[4, 3] = P["m4"] * (eea**2 + P["zt"] * eea * sp.sin(ph)) + P["i4"]
    M[4, 4] = P["m4"] * (P["zt"]**2 + 2 * P["zt"] * eea * sp.sin(ph) + eea**2) \
        + P["m5"] * (P["ta"]**2 + P["tb"]**2) + P["i4"] + P["i5"]
    zfa = P["zf"] - P["fa"]
    M[5, 5] = P["m6"] * zfa**2 + P["i6"]
    M[6, 5] = P["m6"] * (zfa**2 - P["u"] * zfa * sp.sin(om)) + P["i6"]
    M[6, 6] = P["m6"] * (zfa**2 - 2 * P["u"] * zfa * sp.sin(om) + P["u"]**2) \
        + P["m7"] * (P["ua"]**2 + P["ub"]**2) + P["i6"] + P["i7"]
    for i in range(7):
        for j in range(i + 1, 7):
            M[i, j] = M[j, i]
    xd = P["sd"] * sp.cos(ga) + P["sc"] * sp.sin(ga) + P["xb"]
    yd = P["sd"] * sp.sin(ga) - P["sc"] * sp.cos(ga) + P["yb"]
    lang = sp.sqrt((xd - P["xc"])**2 + (yd - P["yc"])**2)
    force = -P["c0"] * (lang - P["l0"]) / lang
    fx, fy = force * (xd - P["xc"]), force * (yd - P["yc"])
    f = sp.Matrix([
        P["mom"] - P["m2"] * P["da"] * P["rr"] * thp * (thp + 2 * bep) * sp.sin(th),
        P["m2"] * P["da"] * P["rr"] * bep**2 * sp.sin(th),
        fx * (P["sc"] * sp.cos(ga) - P["sd"] * sp.sin(ga))
        + fy * (P["sd"] * sp.cos(ga) + P["sc"] * sp.sin(ga)),
        P["m4"] * P["zt"] * eea * dep**2 * sp.cos(ph),
        -P["m4"] * P["zt"] * eea * php * (php + 2 * dep) * sp.cos(ph),
        -P["m6"] * P["u"] * zfa * epp**2 * sp.cos(om),
        P["m6"] * P["u"] * zfa * omp * (omp + 2 * epp) * sp.cos(om)])
    rr, d, ss, e, zt, zf, u = (P[k] for k in ("rr", "d", "ss", "e", "zt", "zf", "u"))
    g = sp.Matrix([
        rr * sp.cos(be) - d * sp.cos(be + th) - ss * sp.sin(ga) - P["xb"],
        rr * sp.sin(be) - d * sp.sin(be + th) + ss * sp.cos(ga) - P["yb"],
        rr * sp.cos(be) - d * sp.cos(be + th) - e * sp.sin(ph + de) - zt * sp.cos(de) - P["xa"],
        rr * sp.sin(be) - d * sp.sin(be + th) + e * sp.cos(ph + de) - zt * sp.sin(de) - P["ya"],
        rr * sp.cos(be) - d * sp.cos(be + th) - zf * sp.cos(om + ep) - u * sp.sin(ep) - P["xa"],
        rr * sp.sin(be) - d * sp.sin(be + th) - zf * sp.sin(om + ep) + u * sp.cos(ep) - P["ya"]])
    C = -g.jacobian(q).T  # M w = f - G^T lam
    system = Mechanical(q, v, lam, t, M, f, C, g)
    qe, ve, acc, lame, steps = system.integrate((0.0, 0.03), ANDREWS_Q0, [0.0] * 7, method)
    return list(qe) + list(ve) + list(acc) + list(lame), steps


# ----- Chemical Akzo Nobel ----------------------------------------------------------------------

def akzo_check():
    k1, k2, k3, k4, kbig, kla, ks, po2, hen = 18.7, 0.58, 0.09, 0.42, 34.4, 3.3, 115.83, 0.9, 737.0

    def rhs(t, y):
        y6 = ks * y[0] * y[3]  # the algebraic equation, eliminated
        r1 = k1 * y[0]**4 * math.sqrt(y[1])
        r2 = k2 * y[2] * y[3]
        r3 = k2 / kbig * y[0] * y[4]
        r4 = k3 * y[0] * y[3]**2
        r5 = k4 * y6**2 * math.sqrt(y[1])
        fin = kla * (po2 / hen - y[1])
        return [-2 * r1 + r2 - r3 - r4, -0.5 * r1 - r4 - 0.5 * r5 + fin, r1 - r2 + r3,
                -r2 + r3 - 2 * r4, r2 - r3 + r5]

    y, steps = integrate(rhs, (0.0, 180.0), [0.444, 0.00123, 0.0, 0.007, 0.0])
    return list(y) + [ks * y[0] * y[3]], steps


# ----- Robertson -------------------------------------------------------------------------------

def robertson_check():
    k1, k2, k3 = 0.04, 3e7, 1e4

    def rhs(t, y):
        y3 = 1 - y[0] - y[1]  # the conservation law, eliminated
        return [-k1 * y[0] + k3 * y[1] * y3, k1 * y[0] - k3 * y[1] * y3 - k2 * y[1]**2]

    sol = solve_ivp(rhs, (0.0, 1e11), [1.0, 0.0], method="Radau", rtol=TIGHT, atol=1e-20)
    if sol.status != 0:
        raise RuntimeError(sol.message)
    y1, y2 = sol.y[:, -1]
    return [y1, y2, 1 - y1 - y2], sol.t.size - 1


# ----- pendulum: angle form in 30 digits -------------------------------------------------------

def pendulum_angle_form(theta, omega):
    """x = cos(theta), y = sin(theta); the rod force from the index-1 variant lam = u^2+v^2-y."""
    x, y = mpmath.cos(theta), mpmath.sin(theta)
    u, v = -y * omega, x * omega
    return [x, y, u, v, u**2 + v**2 - y]


def pendulum_reference():
    sol = mpmath.odefun(lambda t, s: [s[1], -mpmath.cos(s[0])], 0, [mpmath.mpf(0), mpmath.mpf(1)])
    theta, omega = sol(1)
    return pendulum_angle_form(theta, omega)


def pendulum_check():
    s, steps = integrate(lambda t, s: [s[1], -math.cos(s[0])], (0.0, 1.0), [0.0, 1.0])
    return [float(v) for v in pendulum_angle_form(mpmath.mpf(s[0]), mpmath.mpf(s[1]))], steps


PENDULUM_CASH = [0.867348640604551746, 0.497701050476373918, -0.337480180329866458e-1,
                 0.588130114660715686e-1, -0.493103151528274442]


# ----- exact solutions ---------------------------------------------------------------------------

def circular_track_exact(t):
    t = mpmath.mpf(t)
    return [mpmath.sin(t**2), mpmath.cos(t**2), 2 * t * mpmath.cos(t**2),
            -2 * t * mpmath.sin(t**2), -4 * t**2]


def ascher_petzold_exact(t):
    t = mpmath.mpf(t)
    return [mpmath.exp(t), mpmath.exp(t), -mpmath.exp(t) / (2 - t)]


def linear_index2_exact(t, eta=mpmath.mpf("-0.8")):
    t = mpmath.mpf(t)
    z = mpmath.exp(t) - mpmath.cos(t)
    return [mpmath.sin(t) - eta * t * z, z]


def model_q1_exact(t):
    t = mpmath.mpf(t)
    e = mpmath.exp((1 - t) / 2)
    return [6 * e + t**2 - 4 * t + 8, -3 * e + 2 * t - 4]


# ----- the problems --------------------------------------------------------------------------------

def published(values):
    """A published table: its digits, kept as they are printed (strings)."""
    return lambda: list(values)


def published_check(values):
    return lambda: ([float(v) for v in values], 0)


def computed(solution, method):
    values, _ = solution(method)
    return values


CAR_AXIS_PUBLISHED = [
    "0.4934557842755629e-001", "0.4969894602303324e+000", "0.1041742524885400e+001",
    "0.3739110272652214e+000", "-0.7705836840321485e-001", "0.7446866596327776e-002",
    "0.1755681574942899e-001", "0.7703410437794031e+000", "-0.4736886750784630e-002",
    "-0.1104680411345730e-002"]
ANDREWS_PUBLISHED = [
    "0.1581077119629904e+2", "-0.1575637105984298e+2", "0.4082224013073101e-1",
    "-0.5347301163226948e+0", "0.5244099658805304e+0", "0.5347301163226948e+0",
    "0.1048080741042263e+1", "0.1139920302151208e+4", "-0.1424379294994111e+4",
    "0.1103291221937134e+2", "0.1929337464421385e+2", "0.5735699284790808e+0",
    "-0.1929337464421385e+2", "0.3231791658026955e+0", "-0.2463176316945196e+5",
    "0.5185037701610329e+5", "0.3241025686413781e+6", "0.5667493645176213e+6",
    "0.1674362929479361e+5", "-0.5667493645176222e+6", "0.9826520791458422e+4",
    "0.1991753333731910e+3", "-0.2975531228015052e+2", "0.2306654119098399e+2",
    "0.3145271365475927e+2", "0.2264249232082739e+2", "0.1161740700019673e+2"]


PROBLEMS = {
    "transistor_amplifier": dict(
        t=(0, 0.2), names="y1 y2 y3 y4 y5 y6 y7 y8".split(),
        reference=published(["-0.5562145012262709e-002", "0.3006522471903042e+001",
                             "0.2849958788608128e+001", "0.2926422536206241e+001",
                             "0.2704617865010554e+001", "0.2761837778393145e+001",
                             "0.4770927631616772e+001", "0.1236995868091548e+001"]),
        source=f"{TEST_SET}, transamp.f, subroutine solut (PSIDE, rtol = atol = 1e-14)",
        checks={"SciPy Radau, rtol = atol = 1e-13, 5 differential states + Newton for y1, y4, y7":
                transistor_check}),
    "car_axis": dict(
        t=(0, 3), names="xl yl xr yr ul vl ur vr lam1 lam2".split(),
        reference=lambda: computed(car_axis_solution, "Radau"),
        source="SciPy Radau, rtol = atol = 1e-13, on an index-1 transcription of the Test Set's "
               "caraxis.f (constraints differentiated twice by sympy)",
        checks={"SciPy DOP853, rtol = atol = 1e-13, same equations":
                lambda: car_axis_solution("DOP853"),
                f"{TEST_SET}, caraxis.f, subroutine solut (published; its multipliers are the "
                "least accurate part)": published_check(CAR_AXIS_PUBLISHED)}),
    "andrews": dict(
        t=(0, 0.03),
        names=("beta theta gamma phi delta Omega epsilon vbeta vtheta vgamma vphi vdelta vOmega "
               "vepsilon wbeta wtheta wgamma wphi wdelta wOmega wepsilon lam1 lam2 lam3 lam4 lam5 "
               "lam6").split(),
        reference=lambda: computed(andrews_solution, "Radau"),
        source="SciPy Radau, rtol = atol = 1e-13, on an index-1 transcription of the Test Set's "
               "andrews.f (constraints differentiated twice by sympy)",
        checks={"SciPy DOP853, rtol = atol = 1e-13, same equations":
                lambda: andrews_solution("DOP853"),
                f"{TEST_SET}, andrews.f, subroutine solut (published, PSIDE at 1e-14; its "
                "velocities, accelerations and multipliers, the index-2 and -3 components, are "
                "the least accurate part)": published_check(ANDREWS_PUBLISHED)}),
    "chemical_akzo": dict(
        t=(0, 180), names="y1 y2 y3 y4 y5 y6".split(),
        reference=published(["0.1150794920661702", "0.1203831471567715e-2",
                             "0.1611562887407974", "0.3656156421249283e-3",
                             "0.1708010885264404e-1", "0.4873531310307455e-2"]),
        source=f"{TEST_SET}, chemakzo.f, subroutine solut (PSIDE in Cray quadruple precision, "
               "rtol = atol = 1e-19)",
        checks={"SciPy Radau, rtol = atol = 1e-13, y6 eliminated": akzo_check}),
    "robertson": dict(
        t=(0, 1e11), names="y1 y2 y3".split(),
        reference=published(["0.2083340149701255e-07", "0.8333360770334713e-13",
                             "0.9999999791665050"]),
        source=f"{TEST_SET}, rober.f, subroutine solut (the ODE form, same solution)",
        checks={"SciPy Radau, rtol = 1e-13, atol = 1e-20, y3 eliminated": robertson_check}),
    "pendulum": dict(
        t=(0, 1), names="x y u v lam".split(), reference=pendulum_reference,
        source="angle form theta'' = -cos(theta), mpmath Taylor method at 30 digits",
        checks={"J. Cash, pendul3.f (published, good to about 1e-11)":
                published_check(PENDULUM_CASH),
                "SciPy Radau, rtol = atol = 1e-13, angle form": pendulum_check}),
    "circular_track": dict(
        t=(1, 5), names="x y u v lam".split(), reference=lambda: circular_track_exact(5),
        source="exact solution x = sin(t^2), y = cos(t^2), u = 2t cos(t^2), v = -2t sin(t^2), "
               "lam = -4t^2 (30 digits)", checks={}),
    "ascher_petzold": dict(
        t=(0, 1), names="u1 u2 z".split(), reference=lambda: ascher_petzold_exact(1),
        source="exact solution u1 = u2 = exp(t), z = -exp(t)/(2 - t) (30 digits)", checks={}),
    "linear_index2": dict(
        t=(0, 2), names="y z".split(), reference=lambda: linear_index2_exact(2),
        source="exact solution z = exp(t) - cos(t), y = sin(t) - eta*t*z, eta = -0.8 "
               "(30 digits)", checks={}),
    "model_q1": dict(
        t=(1, 3), names="u1 u2".split(), reference=lambda: model_q1_exact(3),
        source="exact solution u1 = 6 exp((1-t)/2) + t^2 - 4t + 8, u2 = -3 exp((1-t)/2) + 2t - 4 "
               "(30 digits)", checks={}),
}


def agreement(reference, other):
    """Largest |difference|, largest |difference| / (|ref| + 1), and digits agreed (-log10 of
    that, the scale of the figure of merit)."""
    diffs = [abs(float(r) - float(o)) for r, o in zip(reference, other)]
    scaled = max(d / (abs(float(r)) + 1) for d, r in zip(diffs, reference))
    digits = -math.log10(scaled) if scaled > 0 else 16.0
    return max(diffs), scaled, digits


def fmt(value):
    """A published value as printed; 20 digits of an mpf; 17 of a double (enough to be exact)."""
    if isinstance(value, str):
        return value
    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, 20, min_fixed=0, max_fixed=0)
    return f"{float(value):.17g}"


def main(argv):
    write = "--write" in argv
    chosen = [a for a in argv if not a.startswith("--")] or list(PROBLEMS)
    for name in chosen:
        if name not in PROBLEMS:
            sys.exit(f"compute.py: unknown problem '{name}' (known: {', '.join(PROBLEMS)})")
    for name in chosen:
        problem = PROBLEMS[name]
        reference = problem["reference"]()
        lines = [f"# reference solution of problems/{name}.dae at t_end",
                 f"# source: {problem['source']}"]
        print(f"{name}: reference from {problem['source']}")
        for label, check in problem["checks"].items():
            start = time.perf_counter()
            values, steps = check()
            elapsed = time.perf_counter() - start
            diff, scaled, digits = agreement(reference, values)
            text = (f"check: {label}: largest difference {diff:.2g}, scaled "
                    f"|d|/(|ref|+1) {scaled:.2g}: agree to {digits:.1f} digits")
            detail = f" ({steps} steps, {elapsed:.1f} s)" if steps else ""
            print("  " + text + detail)
            lines.append("# " + text)
        lines += [f"t_start = {problem['t'][0]:.17g}", f"t_end = {problem['t'][1]:.17g}"]
        lines += [f"{n} = {fmt(v)}" for n, v in zip(problem["names"], reference)]
        if write:
            with open(os.path.join(HERE, f"{name}.txt"), "w") as out:
                out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
