// What one IDA peer of the accuracy benchmark defines: a benchmark problem written by hand as
// the residual F(t, y, y') = 0 that SUNDIALS IDA takes, the way a user without daec would write
// it (the index as written; for an index-3 mechanical system, which IDA cannot integrate, the
// index-2 form with velocity constraints). Each problem file (peers/ida/<problem>.cpp) defines
// ida_problem(); ida_driver.cpp, shared by all of them, does the options, the integration, the
// timing and the output.
#pragma once

#include <string>
#include <vector>

namespace accuracy {

/// F(t, y, y') written into r (all of length IdaProblem::names.size()).
using Residual = void (*)(double t, const double* y, const double* yp, double* r);

struct IdaProblem {
  /// How the model is written for IDA, for the report ("as written, index 1", "index-2 form: ...").
  std::string form;
  /// The components of y: the declared variables of the .dae model, in its declaration order, so
  /// that the runner compares them with the reference by name.
  std::vector<std::string> names;
  /// Start values at --t-start; yp0 is exact where known, else a guess that IDACalcIC corrects.
  std::vector<double> y0, yp0;
  /// Indices of the algebraic components (no derivative in F): IDASetId marks them 0.
  std::vector<int> algebraic;
  /// Leave the algebraic components out of the local error test (IDASetSuppressAlg), as one does
  /// for index-2 variables.
  bool suppress_algebraic = false;
  /// Correct the algebraic components of y0 and the differential ones of yp0 (IDACalcIC with
  /// IDA_YA_YDP_INIT) before integrating.
  bool calc_ic = false;
  Residual residual = nullptr;
};

/// The problem of this peer executable (defined once per problem file).
IdaProblem ida_problem();

}  // namespace accuracy
