"""What the accuracy benchmark's scripts share: the problems and their references, the figure of
merit of docs/simulator.md, "The accuracy target", and the parsing of the simulator's statistics line and CSV."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
PROBLEMS_DIR = os.path.join(HERE, "problems")
REFERENCES_DIR = os.path.join(HERE, "references")
RESULTS_DIR = os.path.join(HERE, "results")
TOLERANCES = (1e-4, 1e-6, 1e-8, 1e-10)
TARGET = 10.0  # docs/simulator.md, "The accuracy target": the figure of merit of daec's default method, at every tolerance


def problems():
    """The benchmark's problems: every problems/<name>.dae, in alphabetical order."""
    return sorted(f[:-4] for f in os.listdir(PROBLEMS_DIR) if f.endswith(".dae"))


class Reference:
    """references/<problem>.txt: t_start, t_end, then `name = value` for every declared variable
    of the model, in declaration order; `#` lines are comments (source and checks)."""

    def __init__(self, problem):
        self.problem = problem
        self.values = {}
        self.comments = []
        path = os.path.join(REFERENCES_DIR, problem + ".txt")
        with open(path) as text:
            for number, line in enumerate(text, 1):
                line = line.strip()
                if line.startswith("#"):
                    self.comments.append(line[1:].strip())
                    continue
                if not line:
                    continue
                name, sep, value = line.partition("=")
                if not sep:
                    raise ValueError(f"{path}:{number}: expected 'name = value', got '{line}'")
                self.values[name.strip()] = float(value)
        try:
            self.t_start = self.values.pop("t_start")
            self.t_end = self.values.pop("t_end")
        except KeyError as missing:
            raise ValueError(f"{path}: no {missing.args[0]}") from None

    def source(self):
        return next((c[len("source:"):].strip() for c in self.comments
                     if c.startswith("source:")), "")


def figure_of_merit(values, reference, rtol, atol):
    """max_i |y_i - ref_i| / (rtol*|ref_i| + atol) over every declared variable (docs/simulator.md, "The accuracy target"), and
    the variable where it is reached. A variable missing from `values` is an error."""
    worst, worst_name = -1.0, None
    for name, ref in reference.values.items():
        if name not in values:
            raise KeyError(f"{reference.problem}: no value for the variable '{name}'")
        merit = abs(values[name] - ref) / (rtol * abs(ref) + atol)
        if merit != merit:  # nan
            return float("inf"), name
        if merit > worst:
            worst, worst_name = merit, name
    return worst, worst_name


def parse_statistics(stderr):
    """The simulator's statistics line on stderr ("method bdf, linear solver dense, steps 312,
    rhs evaluations 401, ...") as a dict of `key value` pairs (numbers converted), the last such
    line winning; keys it does not know are kept, so added keys do no harm. None if absent."""
    stats = None
    for line in stderr.splitlines():
        fields = [f.strip() for f in line.split(",")]
        pairs = {}
        for field in fields:
            key, _, value = field.rpartition(" ")
            if not key:
                break
            pairs[key] = _number(value)
        else:
            if "steps" in pairs and "rhs evaluations" in pairs:
                stats = pairs
    return stats


def _number(text):
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text


def last_csv_row(text):
    """The header and the last row of the simulator's CSV, as a dict name -> value."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2:
        raise ValueError("the simulator printed no CSV rows")
    header = lines[0].split(",")
    row = [float(v) for v in lines[-1].split(",")]
    if len(row) != len(header):
        raise ValueError("the last CSV row is not as wide as the header")
    return dict(zip(header, row))
