"""The self-describing .dae file of an oracle model: writing it, and reading it back.

Header lines (all comments, so daec reads the file as an ordinary model):

    // kind: index3                        (generate.py --kind)
    // seed: 17
    // structure: ...                      (what was built, for a human)
    // index: 3                            (the differentiation index)
    // interval: 0 2                       (t0 t1)
    // simulate: --t-start 0 --t-end 2 --set q2_dot=0.25   (the simulator's arguments)
    // fixed: q1 q2                        (the starts declared fixed = true)
    // perturbed: z1 q2_dot                (start guesses moved off the exact solution)
    // exact q1 = 0.5*sin(1.3*t) + ...     (C syntax, also Python with printing.EXACT_NAMESPACE)

The kinds of meeting.py add, only where they have something to say (so that the other kinds'
files stay as they were):

    // written: u1 u2                      (starts written without fixed that must be kept too)
    // instants: 0.45152364098573 1.17     (where the solution jumps or kinks: resets, switches)
    // sensitivities: k x0 tau             (the simulator's --sensitivities, with radau5)
    // exact d(x)/d(k) = ...               (the exact sensitivity of every variable and output)
    // alternative x = ...                 (a second exact solution, where the start conditions
                                            admit two and nothing prefers either: either passes)

An exact solution with jumps or kinks is written `where(t < s, A, B)` (printing.exact_text).
Variables may have no start (`variable v;`) or a start that is an expression of parameters
(`variable x(start = x0);`); outputs (`output NAME = EXPR;`) and `when` clauses with `reinit`
are read back too.

After the equations, an `initial equation` section may give further start conditions (velocities
`q1' = value`, derivatives, combinations: starts.py). The declarations are written one per line
and every equation on one line, so that `read` (used by the generator to verify what it wrote, and
by compare.py) can parse them with sympy.
"""
import re
from dataclasses import dataclass, field

import sympy

from jets import jet, t
from printing import dae_text, exact_text, number_text


@dataclass
class ModelFile:
    name: str
    kind: str
    seed: str
    structure: str
    index: int
    t0: float
    t1: float
    simulate: str = ""
    fixed: list = field(default_factory=list)
    perturbed: list = field(default_factory=list)
    exact: dict = field(default_factory=dict)  # name -> C text
    parameters: list = field(default_factory=list)  # [(name, exact value)]
    variables: list = field(default_factory=list)  # [(name, start, fixed)]
    equations: list = field(default_factory=list)  # [(label or "", lhs text, rhs text)]
    initial_equations: list = field(default_factory=list)  # the same, after `initial equation`
    written: list = field(default_factory=list)  # non-fixed starts that must be kept
    instants: list = field(default_factory=list)  # texts of the times of jumps and kinks
    sensitivities: list = field(default_factory=list)  # parameter names
    sensitivity: dict = field(default_factory=dict)  # "d(x)/d(k)" -> C text
    alternative: dict = field(default_factory=dict)  # name -> C text
    outputs: list = field(default_factory=list)  # [(name, text)]
    whens: list = field(default_factory=list)  # [(condition text, [(target text, value text)])]


def write(model):
    lines = [
        f"// {model.name}: a random DAE with a known exact solution, written by the daec "
        "correctness oracle",
        f"// reproduce: /usr/bin/python3 scripts/oracle/generate.py --seed {model.seed} "
        f"--kind {model.kind} -o {model.name}.dae",
        f"// kind: {model.kind}",
        f"// seed: {model.seed}",
        f"// structure: {model.structure}",
        f"// index: {model.index}",
        f"// interval: {number_text(model.t0)} {number_text(model.t1)}",
        f"// simulate: {model.simulate}",
        f"// fixed: {' '.join(model.fixed)}",
        f"// perturbed: {' '.join(model.perturbed)}",
    ]
    if model.written:
        lines.append(f"// written: {' '.join(model.written)}")
    if model.instants:
        lines.append(f"// instants: {' '.join(model.instants)}")
    if model.sensitivities:
        lines.append(f"// sensitivities: {' '.join(model.sensitivities)}")
    lines += [f"// exact {name} = {text}" for name, text in model.exact.items()]
    lines += [f"// exact {column} = {text}" for column, text in model.sensitivity.items()]
    lines += [f"// alternative {name} = {text}" for name, text in model.alternative.items()]
    lines.append(f'model {model.name} "random DAE of index {model.index} with a known solution";')
    lines += [f"parameter {name} = {value if isinstance(value, str) else dae_text(value)};"
              for name, value in model.parameters]
    for name, start, fixed in model.variables:
        if start is None:
            lines.append(f"variable {name};")
            continue
        start_text = start if isinstance(start, str) else number_text(start)
        modifiers = f"start = {start_text}" + (", fixed = true" if fixed else "")
        lines.append(f"variable {name}({modifiers});")
    lines += [f"output {name} = {text};" for name, text in model.outputs]
    lines.append("equation")
    for label, lhs, rhs in model.equations:
        lines.append(f"  {label + ': ' if label else ''}{lhs} = {rhs};")
    for condition, reinits in model.whens:
        lines.append(f"  when {condition} then")
        lines += [f"    reinit({target}, {value});" for target, value in reinits]
        lines.append("  end when;")
    if model.initial_equations:
        lines.append("initial equation")
        for label, lhs, rhs in model.initial_equations:
            lines.append(f"  {label + ': ' if label else ''}{lhs} = {rhs};")
    lines.append(f"end {model.name};")
    return "\n".join(lines) + "\n"


_HEADER = re.compile(r"^// (?P<key>kind|seed|structure|index|interval|simulate|fixed|perturbed|"
                     r"written|instants|sensitivities): ?(?P<value>.*)$")
_EXACT = re.compile(r"^// exact (?P<name>\w+) = (?P<text>.+)$")
_SENSITIVITY = re.compile(r"^// exact (?P<column>d\(\w+\)/d\(\w+\)) = (?P<text>.+)$")
_ALTERNATIVE = re.compile(r"^// alternative (?P<name>\w+) = (?P<text>.+)$")
_PARAMETER = re.compile(r"^parameter (?P<name>\w+) = (?P<value>.+);$")
_VARIABLE = re.compile(r"^variable (?P<name>\w+)(?:\(start = (?P<start>.+?)"
                       r"(?P<fixed>, fixed = true)?\))?;$")
_OUTPUT = re.compile(r"^output (?P<name>\w+) = (?P<value>.+);$")
_EQUATION = re.compile(r"^  (?:(?P<label>\w+): )?(?P<lhs>.+?) = (?P<rhs>.+);$")
_WHEN = re.compile(r"^  when (?P<condition>.+) then$")
_REINIT = re.compile(r"^    reinit\((?P<target>\w+'?), (?P<value>.+)\);$")


def read(text):
    """A ModelFile from the text `write` produced (ValueError on anything else)."""
    model = ModelFile("", "", "", "", -1, 0.0, 0.0)
    section = None  # the list the equation lines go to
    for line in text.splitlines():
        if m := _HEADER.match(line):
            key, value = m.group("key"), m.group("value").strip()
            if key == "index":
                model.index = int(value)
            elif key == "interval":
                model.t0, model.t1 = (float(v) for v in value.split())
            elif key in ("fixed", "perturbed", "written", "instants", "sensitivities"):
                setattr(model, key, value.split())
            else:
                setattr(model, key, value)
        elif m := _EXACT.match(line):
            model.exact[m.group("name")] = m.group("text")
        elif m := _SENSITIVITY.match(line):
            model.sensitivity[m.group("column")] = m.group("text")
        elif m := _ALTERNATIVE.match(line):
            model.alternative[m.group("name")] = m.group("text")
        elif line.startswith("model "):
            model.name = line.split()[1]
        elif m := _PARAMETER.match(line):
            model.parameters.append((m.group("name"), m.group("value")))
        elif m := _VARIABLE.match(line):
            start, fixed = m.group("start"), bool(m.group("fixed"))
            if start is not None:
                try:
                    start = float(start)
                except ValueError:
                    pass  # an expression of parameters, kept as its text
            model.variables.append((m.group("name"), start, fixed))
        elif m := _OUTPUT.match(line):
            model.outputs.append((m.group("name"), m.group("value")))
        elif line == "equation":
            section = model.equations
        elif line == "initial equation":
            section = model.initial_equations
        elif section is model.equations and (m := _WHEN.match(line)):
            model.whens.append((m.group("condition"), []))
        elif section is model.equations and model.whens and (m := _REINIT.match(line)):
            model.whens[-1][1].append((m.group("target"), m.group("value")))
        elif section is model.equations and line == "  end when;":
            pass
        elif section is not None and (m := _EQUATION.match(line)):
            section.append((m.group("label") or "", m.group("lhs"), m.group("rhs")))
        elif line.startswith("end "):
            section = None
        elif line and not line.startswith("//"):
            raise ValueError(f"unexpected line in an oracle model: {line}")
    return model


_FUNCTIONS = {f: getattr(sympy, f) for f in ("sin", "cos", "tan", "asin", "acos", "atan", "sinh",
                                              "cosh", "tanh", "exp", "log", "sqrt")}


def _conditionals(text):
    """`(if C then A else B)` (as printing.DaePrinter writes it: parenthesised, elseif allowed) as
    `where(C, A, B)`, which to_sympy reads as a Piecewise."""
    start = text.find("(if ")
    if start < 0:
        return text
    depth, end = 0, None
    for k in range(start, len(text)):
        depth += {"(": 1, ")": -1}.get(text[k], 0)
        if depth == 0:
            end = k
            break
    inner = _conditionals(text[start + 4:end])
    parts, depth, k, keywords = [], 0, 0, []
    tokens = re.finditer(r"[()]| then | elseif | else ", inner)
    last = 0
    for token in tokens:
        word = token.group()
        if word in "()":
            depth += 1 if word == "(" else -1
        elif depth == 0:
            parts.append(inner[last:token.start()])
            keywords.append(word.strip())
            last = token.end()
    parts.append(inner[last:])
    # parts: C, A, (C2, B)*, E
    result = parts[-1]
    pairs = [(parts[i], parts[i + 1]) for i in range(0, len(parts) - 1, 2)]
    for condition, value in reversed(pairs):
        result = f"where({condition}, {value}, {result})"
    return text[:start] + "(" + result + ")" + _conditionals(text[end + 1:])


def _where(condition, a, b):
    return sympy.Piecewise((a, condition), (b, True))


def to_sympy(text, names, parameters):
    """A .dae expression of this file's form as sympy, derivatives as jet symbols; a conditional
    expression is a Piecewise."""
    text = _conditionals(text)
    text = re.sub(r"der\((\w+), 2\)", r"\1__d2", text)
    text = re.sub(r"der\((\w+)\)", r"\1__d1", text)
    text = re.sub(r"(\w+)''", r"\1__d2", text)
    text = re.sub(r"(\w+)'", r"\1__d1", text)
    text = text.replace("^", "**")
    symbols = {"t": t, "pi": sympy.pi, "where": _where, **_FUNCTIONS, **parameters}
    for name in names:
        for order in range(3):
            symbols[jet(name, order).name] = jet(name, order)
    return sympy.parse_expr(text, local_dict=symbols)


def residuals(model, equations=None):
    """Every equation (of `equations`, default the model's) as lhs - rhs in sympy, parameters
    replaced by their values."""
    names = [name for name, _, _ in model.variables]
    parameters = {}
    for name, value in model.parameters:
        parameters[name] = to_sympy(value, [], parameters)
    return [to_sympy(lhs, names, parameters) - to_sympy(rhs, names, parameters)
            for _, lhs, rhs in (model.equations if equations is None else equations)]


def initial_residuals(model):
    """Every initial equation as lhs - rhs in sympy."""
    return residuals(model, model.initial_equations)


def exact_expressions(model):
    """{name: exact solution} in sympy, from the header's C text."""
    return {name: exact_sympy(text) for name, text in model.exact.items()}


def exact_sympy(text):
    """The header's C text of an exact solution (`where(t < s, A, B)` for pieces) in sympy."""
    local = {"t": t, "M_PI": sympy.pi, "M_E": sympy.E, "pow": sympy.Pow, "where": _where,
             "asinh": sympy.asinh, **_FUNCTIONS}
    return sympy.parse_expr(text, local_dict=local)


def exact_header(exact):
    return {name: exact_text(expr) for name, expr in exact.items()}
