// The integration methods a simulator offers (--method NAME, --method list) and the default a
// model gets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/cvode_bdf.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>

namespace daec::simulator {

struct MethodInfo {
  const char* name;
  const char* summary;  // one line for --method list
};

inline const std::vector<MethodInfo>& methods() {
  static const std::vector<MethodInfo> kMethods = {
      {"bdf",
       "CVODE variable-order BDF on the reduced ODE, generated Jacobian, projection onto the "
       "invariants after every step"},
  };
  return kMethods;
}

/// The method a model gets without --method.
template <typename Model>
std::string default_method() {
  return "bdf";
}

inline std::string method_names() {
  std::vector<std::string> names;
  for (const MethodInfo& method : methods()) names.push_back(method.name);
  return text::join(names);
}

/// Stops with a usage error unless `method` is one of methods().
inline void check_method(const std::string& method) {
  for (const MethodInfo& known : methods())
    if (method == known.name) return;
  usage_error("unknown method '" + method + "'; the methods are " + method_names() +
              " (--method list describes them)");
}

/// "dense" or "klu": what --linear-solver (auto by default) means for this model and method.
template <typename Model>
std::string linear_solver_name(const Options& options, const std::string&) {
  if (options.linear_solver == LinearSolver::klu)
    usage_error("--linear-solver klu is not available for this model");
  return "dense";
}

template <typename Model>
std::unique_ptr<Integrator> make_integrator(const std::string& method, const Model& model,
                                            const Options& options, const std::vector<double>& x0) {
  check_method(method);
  return std::make_unique<CvodeBdf<Model>>(model, options, x0);
}

}  // namespace daec::simulator
