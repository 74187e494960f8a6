// What a user can do when an integration method gives up: the note that names the other methods
// this model can run, the most robust first, and looser tolerances where they are tight.
#pragma once

#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>

namespace daec::simulator {

// The methods in the order the advice names them: on the robustness benchmark
// (bench/robustness/RESULTS.md) radau5 finished every run, bdf and ida all but a few, radau5-dae
// the most often failed.
inline const std::vector<std::string>& methods_by_robustness() {
  static const std::vector<std::string> kOrder = {"radau5", "bdf", "ida", "radau5-dae"};
  return kOrder;
}

// Below this rtol the advice also suggests looser tolerances: where rounding, not the method,
// may be what stops the steps (docs/integrators.md, "Where the Newton iteration meets rounding").
constexpr double kTightTolerance = 1e-8;

/// Whether `method` can run on `model`: the generated Jacobian it needs exists, dense or sparse.
inline bool method_usable(const System& model, const std::string& method) {
  if (method == "radau5" || method == "bdf")
    return model.has_dense_jacobians || model.has_sparse_rhs_jacobian;
  return model.has_dense_jacobians || model.has_sparse_residual_jacobian;
}

/// "--method a, --method b or --method c"
inline std::string method_choices(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += "--method " + names[i];
  }
  return text;
}

/// Appends to `failure` (the method `failed` gave up) a note naming what may get past it.
inline void advise_other_methods(Failure& failure, const System& model, const std::string& failed,
                                 const Options& options) {
  std::vector<std::string> others;
  for (const std::string& method : methods_by_robustness())
    if (method != failed && method_usable(model, method)) others.push_back(method);
  std::string advice;
  if (!others.empty())
    advice = "another method may get past this: " + method_choices(others) +
             " (--method list describes them)";
  if (options.rtol < kTightTolerance) {
    advice += advice.empty() ? "looser" : "; or looser";
    advice += " tolerances than --rtol " + text::format_number(options.rtol) + " --atol " +
              text::format_number(options.atol);
  }
  if (!advice.empty()) failure.notes.push_back(advice);
}

}  // namespace daec::simulator
