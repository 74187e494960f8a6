// The integration methods a simulator offers (--method NAME, --method list) and the default a
// model gets.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/system.hpp>
#include <daec/simulator/cvode_bdf.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/ida.hpp>
#include <daec/simulator/integrator.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/radau.hpp>
#include <daec/simulator/sensitivities.hpp>

namespace daec::simulator {

struct MethodInfo {
  const char* name;
  const char* summary;  // one line for --method list
};

inline const std::vector<MethodInfo>& methods() {
  static const std::vector<MethodInfo> kMethods = {
      {"radau5",
       "Radau IIA of order 5 on the reduced ODE, generated Jacobian, projection onto the "
       "invariants after every step, steps ending at the output times"},
      {"radau5-dae",
       "Radau IIA of order 5 on the index-1 DAE in (X, Z) with the sparse residual Jacobian, "
       "projection after every step; for large models"},
      {"bdf",
       "CVODE variable-order BDF on the reduced ODE, generated Jacobian, projection onto the "
       "invariants after every step"},
      {"ida",
       "IDA variable-order BDF on the index-1 residual in (X, Z), algebraic unknowns out of the "
       "error test, output rows projected onto the invariants"},
  };
  return kMethods;
}

/// The method a model gets without --method.
// Above this many unknowns --linear-solver auto takes KLU where the method has a sparse
// Jacobian: below it a dense LU of the whole matrix costs less than KLU's bookkeeping.
constexpr int kSparseThreshold = 200;

/// The method a model gets without --method: radau5 (the reduced ODE, dense LU), the most
/// accurate for its work on the accuracy benchmark (bench/accuracy/RESULTS.md); radau5-dae for a
/// large model, whose ODE-form Jacobian is dense (Z = A^-1 b couples everything) while the
/// residual's iteration matrix stays as sparse as the model.
inline std::string default_method(const System& model) {
  const int unknowns = model.num_states + model.num_algebraic;
  const bool large = !model.has_dense_jacobians || unknowns > kSparseThreshold;
  return large && model.has_sparse_residual_jacobian ? "radau5-dae" : "radau5";
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

/// Whether `method` can use KLU on this model (the generated sparse Jacobian it needs exists),
/// and how many unknowns its linear systems have.
inline bool klu_available(const System& model, const std::string& method) {
  if (method == "bdf" || method == "radau5") return model.has_sparse_rhs_jacobian;
  if (method == "ida" || method == "radau5-dae") return model.has_sparse_residual_jacobian;
  return false;
}

inline int system_size(const System& model, const std::string& method) {
  const bool dae = method == "ida" || method == "radau5-dae";
  return dae ? model.num_states + model.num_algebraic : model.num_states;
}

/// What --linear-solver (auto by default) means for this model and method; a usage error for a
/// choice the model or method cannot take.
inline LinearSolver resolve_linear_solver(const System& model, const Options& options,
                                          const std::string& method) {
  const bool klu = klu_available(model, method);
  const bool dense = model.has_dense_jacobians;
  switch (options.linear_solver) {
    case LinearSolver::klu:
      if (!klu)
        usage_error("--linear-solver klu: the method " + method +
                    " has no sparse Jacobian for this model");
      return LinearSolver::klu;
    case LinearSolver::dense:
      if (!dense) usage_error("--linear-solver dense: this model is too large for dense Jacobians");
      return LinearSolver::dense;
    case LinearSolver::automatic:
      break;
  }
  if (klu && (!dense || system_size(model, method) > kSparseThreshold)) return LinearSolver::klu;
  if (!dense)
    usage_error("the method " + method +
                " needs dense Jacobians, which this model is "
                "too large for; try --method ida");
  return LinearSolver::dense;
}

inline const char* linear_solver_name(LinearSolver solver) {
  return solver == LinearSolver::klu ? "klu" : "dense";
}

/// The method `method` started at x0; with --sensitivities, the sensitivities started at
/// `s0` (start_sensitivities, num_states values per parameter; empty: zero).
inline std::unique_ptr<Integrator> make_integrator(const std::string& method, const System& model,
                                                   const Options& options,
                                                   const std::vector<double>& x0,
                                                   LinearSolver solver,
                                                   std::vector<double> s0 = {}) {
  check_method(method);
  if (std::vector<int> parameters = sensitivity_parameters(model, options); !parameters.empty()) {
    check_sensitivities(model, options, method, parameters);
    using Method = RadauMethod<SensitivityProblem, integrators::DenseLinearSolver>;
    return std::make_unique<Method>(
        model, options, x0, SensitivityProblem(model, std::move(parameters), std::move(s0)));
  }
  if (method == "ida") return std::make_unique<Ida>(model, options, x0, solver);
  if (method.rfind("radau5", 0) == 0) return make_radau(method, model, options, x0, solver);
  return std::make_unique<CvodeBdf>(model, options, x0, solver);
}

}  // namespace daec::simulator
