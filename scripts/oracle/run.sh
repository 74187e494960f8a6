#!/usr/bin/env bash
# The correctness oracle: random DAE models with known exact solutions and index, checked against
# daec (index) and its simulator (the figure of merit of docs/simulator.md, "The accuracy target"). See README.md here.
#   scripts/oracle/run.sh [COUNT] [SEED]        default 200 models from the fixed default seed
# Settings (environment or options of run.py): RTOL, ATOL (1e-8), THRESHOLD (10), JOBS (2),
# SIM_ARGS (extra simulator arguments, e.g. "--method radau5"), KIND (one kind, a group: classic,
# meeting, or a comma-separated list), METHODS (all: every method; default: the default one), OUT
# (build/oracle), DAEC (build/daec), DAEC_TIME_LIMIT (60 s), COMPILE_TIME_LIMIT (300 s);
# run.py --help lists them.
set -euo pipefail
exec /usr/bin/python3 "$(dirname "$0")/run.py" "$@"
