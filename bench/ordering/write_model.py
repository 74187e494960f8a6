#!/usr/bin/env python3
"""Writes one of the ordering benchmark's models in a chosen declaration order.

    write_model.py FAMILY N ORDER [--seed S]

FAMILY is `chain` (the N-link pendulum chain of models/pendulum_chain.dae) or `rd` (the
reaction-diffusion model of models/reaction_diffusion.dae). ORDER is
- `bodies`: scalar variables and equations written link by link (grid point by grid point), as
  one writes a model by hand: `variable x1, y1, u1, v1, l1; variable x2, ...`;
- `random`: the same declarations and equations, each list shuffled with the fixed seed.
The third order of the benchmark, `arrays`, is the bundled model itself (`-D N=...`). The
equations are those of the bundled model written with scalars, term for term, so that the orders
differ in nothing but order: the same reduction, the same counts, the same solution.
"""
import argparse
import random


def chain(n):
    """(declarations, equations) of the chain, link by link; starts as the bundled model's:
    straight out horizontally at rest."""
    declarations, equations = [], []
    for i in range(1, n + 1):
        declarations.append(f"variable x{i}(start = {i}), y{i}(start = 0), u{i}(start = 0), "
                            f"v{i}(start = 0), l{i}(start = 0);")
        px, py = ("0", "0") if i == 1 else (f"x{i - 1}", f"y{i - 1}")
        nx = f" + l{i + 1}*(x{i + 1} - x{i})" if i < n else ""
        ny = f" + l{i + 1}*(y{i + 1} - y{i})" if i < n else ""
        equations += [
            f"x{i}' = u{i};",
            f"y{i}' = v{i};",
            f"u{i}' = (-l{i}*(x{i} - {px}){nx})/m;",
            f"v{i}' = (-l{i}*(y{i} - {py}){ny})/m - g;",
            f"rod{i}: (x{i} - {px})^2 + (y{i} - {py})^2 = L^2;",
        ]
    parameters = "parameter m = 1, L = 1, g = 9.81;"
    return parameters, declarations, equations


def reaction_diffusion(n):
    """(declarations, equations) of the reaction-diffusion model, point by point."""
    declarations, equations = [], []
    for i in range(1, n + 1):
        declarations.append(f"variable a{i}(start = sin(pi*{i}*h)), b{i}(start = K*sin(pi*{i}*h)), "
                            f"r{i};")
        left_a, left_b = ("0", "0") if i == 1 else (f"a{i - 1}", f"b{i - 1}")
        right_a, right_b = ("0", "0") if i == n else (f"a{i + 1}", f"b{i + 1}")
        equations += [
            f"a{i}' = DA*({left_a} - 2*a{i} + {right_a})/h^2 - r{i};",
            f"b{i}' = DB*({left_b} - 2*b{i} + {right_b})/h^2 + r{i};",
            f"equilibrium{i}: b{i} = K*a{i};",
        ]
    parameters = (f"parameter N = {n}, DA = 1, DB = 0.5, K = 2;\nparameter h = 1/(N + 1);")
    return parameters, declarations, equations


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("family", choices=["chain", "rd"])
    parser.add_argument("n", type=int)
    parser.add_argument("order", choices=["bodies", "random"])
    parser.add_argument("--seed", type=int, default=20261204)
    args = parser.parse_args()
    build = chain if args.family == "chain" else reaction_diffusion
    parameters, declarations, equations = build(args.n)
    if args.order == "random":
        shuffle = random.Random(args.seed).shuffle
        # One declaration per variable, so that the variables themselves are shuffled.
        declarations = [f"variable {part.strip().rstrip(';')};"
                        for line in declarations
                        for part in split_declaration(line)]
        shuffle(declarations)
        shuffle(equations)
    name = f"{args.family}_{args.order}"
    print(f"model {name};\n{parameters}")
    print("\n".join(declarations))
    print("equation")
    print("\n".join("  " + e for e in equations))
    print(f"end {name};")


def split_declaration(line):
    """The variables of `variable a(...), b(...);` one by one (commas inside parentheses kept)."""
    body = line[len("variable "):].rstrip(";")
    parts, depth, current = [], 0, ""
    for ch in body:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


if __name__ == "__main__":
    main()
