// End-to-end test of interp tables (docs/language.md, "Tables: interp"): models/table_circuit.dae,
// an RC circuit driven by a piecewise-linear voltage table, against its exact solution segment by
// segment on the default method, bdf and ida, with table elements set by --set; the breakpoints
// are the simulator's events; a --set that breaks the order of the breakpoints is refused with
// the exact message. One simulator, built once, runs every case.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "e2e_util.h"

namespace daec::test {
namespace {

// The table of models/table_circuit.dae, and tau = R*C.
struct Table {
  std::vector<double> ts = {0, 1, 2, 4, 5};
  std::vector<double> us = {0, 0, 2, 2, 1};
};
constexpr double kTau = 1.0;

// v(t) from v(0) = 0: on each piece where u = a + b*(t - tk),
// v(t) = a + b*(t - tk - tau) + (v(tk) - a + b*tau)*exp(-(t - tk)/tau).
double exact_v(const Table& table, double t) {
  const std::vector<double>& ts = table.ts;
  const std::vector<double>& us = table.us;
  double v = 0, from = 0;
  for (size_t piece = 0; piece <= ts.size(); ++piece) {
    double end = piece < ts.size() ? ts[piece] : INFINITY;
    if (end <= from) continue;  // pieces before the start
    double slope = piece == 0 || piece == ts.size()
                       ? 0
                       : (us[piece] - us[piece - 1]) / (ts[piece] - ts[piece - 1]);
    double a = piece == 0           ? us[0]
               : piece == ts.size() ? us.back()
                                    : us[piece - 1] + slope * (from - ts[piece - 1]);
    double s = std::min(end, t) - from;
    v = a + slope * (s - kTau) + (v - a + slope * kTau) * std::exp(-s / kTau);
    from += s;
    if (from >= t) break;
  }
  return v;
}

struct TableRun {
  CommandResult result;
  Csv csv;
  std::vector<double> event_times;
};

TableRun simulate(const Build& build, const std::string& dir, const std::string& arguments) {
  std::string events = dir + "/events.csv";
  TableRun run;
  run.result = run_program(
      build.executable, "--t-end 6 --step 0.25 " + arguments + " --events " + shell_quote(events));
  if (run.result.status != 0) return run;
  run.csv = parse_csv(run.result.out);
  std::string text = read_file(events);
  for (size_t start = text.find('\n') + 1; start < text.size(); start = text.find('\n', start) + 1)
    run.event_times.push_back(std::stod(text.substr(start)));
  return run;
}

void expect_exact(const TableRun& run, const Table& table) {
  ASSERT_EQ(run.result.status, 0) << run.result.err;
  ASSERT_EQ(run.csv.rows.size(), 25u);
  for (size_t row = 0; row < run.csv.rows.size(); ++row) {
    double t = run.csv.at(row, "t");
    EXPECT_NEAR(run.csv.at(row, "v"), exact_v(table, t), 1e-8) << "t = " << t;
  }
  // The breakpoints after the start are events, each located.
  std::vector<double> breakpoints(table.ts.begin() + 1, table.ts.end());
  ASSERT_EQ(run.event_times.size(), breakpoints.size()) << run.result.err;
  for (size_t k = 0; k < breakpoints.size(); ++k)
    EXPECT_NEAR(run.event_times[k], breakpoints[k], 1e-9);
}

TEST(Tables, TableCircuitFollowsItsExactSolution) {
  std::string dir = make_scratch_dir("tables_circuit");
  Build build = build_simulator("models/table_circuit.dae", dir);
  ASSERT_TRUE(build.ok) << build.log;
  Table table;
  {
    SCOPED_TRACE("default method");
    TableRun run = simulate(build, dir, "--rtol 1e-10 --atol 1e-10");
    expect_exact(run, table);
    for (size_t row = 0; row < run.csv.rows.size(); ++row) {
      double t = run.csv.at(row, "t");  // u: the table itself
      double u = t < 1 ? 0 : t < 2 ? 2 * (t - 1) : t < 4 ? 2 : t < 5 ? 2 - (t - 4) : 1;
      EXPECT_NEAR(run.csv.at(row, "u"), u, 1e-12) << "t = " << t;
    }
  }
  for (const char* method : {"bdf", "ida"}) {
    SCOPED_TRACE(method);
    expect_exact(
        simulate(build, dir, std::string("--method ") + method + " --rtol 1e-11 --atol 1e-11"),
        table);
  }
  {
    SCOPED_TRACE("--set us[2]=1 --set ts[3]=2.5: a ramp from the start");
    Table set;
    set.us[1] = 1;
    set.ts[2] = 2.5;
    expect_exact(simulate(build, dir, "--rtol 1e-10 --atol 1e-10 --set us[2]=1 --set ts[3]=2.5"),
                 set);
  }
  TableRun refused = simulate(build, dir, "--set ts[3]=4");
  EXPECT_EQ(refused.result.status, 2);
  EXPECT_EQ(refused.result.err,
            "sim: error: --set ts[3]: parameter 'ts[3]' = 4 would break the order of an interp "
            "table: ts[3] = 4 is not below ts[4] = 4 (breakpoints must increase strictly)\n"
            "sim: note: run with --help for the usage\n");
}

}  // namespace
}  // namespace daec::test
