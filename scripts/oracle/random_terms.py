"""Random ingredients of a model: coefficients, smooth exact trajectories, bounded nonlinear terms.

Everything is exact (sympy Rationals with two decimals), so that the source terms that make the
exact trajectories satisfy the equations are exact too; and everything is drawn from one
random.Random, so that a seed gives the same model on every machine.
"""
import sympy

from jets import t


class Draw:
    """A random.Random with the helpers the generator needs."""

    def __init__(self, rng):
        self.rng = rng

    def coefficient(self, low, high, signed=False):
        """A two-decimal Rational in [low, high], with a random sign if signed."""
        value = sympy.Rational(round(self.rng.uniform(low, high) * 100), 100)
        if value == 0:
            value = sympy.Rational(low if low > 0 else 1, 1)
        return -value if signed and self.rng.random() < 0.5 else value

    def chance(self, probability):
        return self.rng.random() < probability

    def choice(self, items):
        return self.rng.choice(list(items))

    def sample(self, items, count):
        return self.rng.sample(list(items), count)

    def integer(self, low, high):
        return self.rng.randint(low, high)

    def shuffled(self, items):
        items = list(items)
        self.rng.shuffle(items)
        return items

    def trajectory(self, amplitude=1):
        """A smooth function of t, bounded by about 2*amplitude on t in [0, 3], with derivatives of
        the same size (frequencies at most 2.5, decay rates at most 1)."""
        a = self.coefficient(0.3, 1.2, signed=True) * amplitude
        b = self.coefficient(0.1, 0.8, signed=True) * amplitude
        c = self.coefficient(0.0, 0.6, signed=True) * amplitude
        w = self.coefficient(0.5, 2.5)
        k = self.coefficient(0.2, 1.0)
        p = self.coefficient(0.0, 3.0)
        forms = [
            lambda: a * sympy.sin(w * t + p) + c,
            lambda: a * sympy.cos(w * t) + b * t / 2 + c,
            lambda: a * sympy.exp(-k * t) + b * sympy.sin(w * t) + c,
            lambda: c + b * t + a * t**2 / 4,
            lambda: a * sympy.sin(w * t) * sympy.exp(-k * t) + c + b / 2,
            lambda: a * sympy.atan(w * (t - 1)) + c,
            lambda: a / (1 + k * t**2) + b * sympy.cos(w * t + p),
        ]
        return self.choice(forms)()

    def bounded_term(self, variables, scale):
        """A smooth nonlinear term of one or two variables with bounded derivative (times scale)."""
        x = self.choice(variables)
        y = self.choice(variables)
        c = self.coefficient(0.05, 1.0, signed=True) * sympy.Rational(str(scale))
        forms = [
            lambda: c * sympy.sin(x),
            lambda: c * sympy.atan(x) * sympy.cos(y),
            lambda: c * x * y / 2,
            lambda: c * x**2 / 2,
            lambda: c * sympy.cos(x + y),
            lambda: c * x / (1 + y**2),
            lambda: c * sympy.exp(-(x**2) / 2),
        ]
        return self.choice(forms)()
