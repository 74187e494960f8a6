// The model as daec's compiled runtime sees it: what the simulator uses of a generated Model
// (templates/model_declaration.h.in, documented in docs/generated-code.md), with the sizes, names
// and sparsity patterns as data and the functions as virtual calls, so that the runtime is
// compiled once for every model. ModelAdapter<Model> (model_adapter.hpp) fills it from a
// generated Model; the members keep the Model's names, so that code written against a Model's
// instance (model.num_states, model.rhs(...)) reads the same on a System.
//
// A System is not copied: copy() gives an independent model with the same parameters, fixed
// starts and modes (the consistency checks change one parameter at a time on a copy).
#pragma once

#include <memory>

namespace daec::runtime {

class System {
 public:
  /// Tells the traits (daec/traits.hpp) that the answers below are known only at run time.
  static constexpr bool is_runtime_system = true;

  /// Why rhs fails, as Model::rhs_failure answers (docs/generated-code.md).
  enum RhsFailure {
    rhs_ok = 0,
    rhs_singular = 1,
    rhs_algebraic_not_finite = 2,
    rhs_derivative_not_finite = 3,
    rhs_state_not_finite = 4,
    rhs_modes_cycle = 5,
  };

  System() = default;
  System(const System&) = delete;
  System& operator=(const System&) = delete;
  virtual ~System() = default;

  /// An independent model in the same state (parameters, their bindings, fixed starts, modes).
  virtual std::unique_ptr<System> copy() const = 0;
  /// A model with every default, as a freshly constructed Model.
  virtual std::unique_ptr<System> fresh() const = 0;

  // ----- Sizes and names (the Model's static members) -----------------------------------------
  const char* model_name = "";
  int num_states = 0, num_algebraic = 0, num_invariants = 0, num_parameters = 0, num_outputs = 0,
      num_variables = 0, num_initial_equations = 0, num_conditions = 0, num_when_clauses = 0;
  const char* const* state_names = nullptr;
  const char* const* algebraic_names = nullptr;
  const char* const* invariant_names = nullptr;
  const char* const* parameter_names = nullptr;
  const char* const* output_names = nullptr;
  const char* const* variable_names = nullptr;
  const char* const* variable_descriptions = nullptr;
  const char* const* output_descriptions = nullptr;
  /// The declared units (docs/language.md, "Units"), "" where none; nullptr all five when the
  /// model has no unit tables (a hand-written model).
  const char* const* state_units = nullptr;
  const char* const* algebraic_units = nullptr;
  const char* const* parameter_units = nullptr;
  const char* const* output_units = nullptr;
  const char* const* variable_units = nullptr;
  const int* variable_location = nullptr;
  const int* algebraic_block = nullptr;
  const char* const* algebraic_equation = nullptr;
  const char* const* initial_equation_names = nullptr;
  const char* const* condition_names = nullptr;  // nullptr without conditions
  const char* const* when_names = nullptr;       // nullptr without when clauses
  /// Parameter i's binding ("1/tau"), "" where its default is a number or the model has none.
  const char* const* parameter_bindings = nullptr;  // nullptr: no dependent parameters
  /// The orders of the interp tables' breakpoints: p[parameter_orders[2k]] <
  /// p[parameter_orders[2k + 1]]; set_parameter returns -2 for a value that breaks one.
  int num_parameter_orders = 0;
  const int* parameter_orders = nullptr;  // nullptr: the model has no table
  /// Parameter i's binding, "" where there is none.
  const char* parameter_binding(int i) const {
    const char* binding = parameter_bindings != nullptr ? parameter_bindings[i] : nullptr;
    return binding != nullptr ? binding : "";
  }

  // ----- What the model offers (the traits of daec/traits.hpp, answered) -------------------
  bool has_dense_jacobians = false;           // rhs_jacobian, residual_jacobian, ... dense
  bool has_sparse_rhs_jacobian = false;       // rhs_jacobian_values usable
  bool has_sparse_residual_jacobian = false;  // residual_jacobian_values
  bool has_sparse_invariants_jacobian = false;
  bool has_condition_checks = false;     // algebraic_condition, invariants_condition
  bool has_parameter_jacobians = false;  // the *_parameter_jacobian_values below, in CSC

  // ----- Sparsity patterns (CSC, 0-based; nullptr where the model has none) ------------------
  int rhs_jacobian_nnz = 0, residual_jacobian_nnz = 0, invariants_jacobian_nnz = 0;
  const int* rhs_jacobian_colptr = nullptr;
  const int* rhs_jacobian_rowval = nullptr;
  const int* residual_jacobian_colptr = nullptr;
  const int* residual_jacobian_rowval = nullptr;
  const int* invariants_jacobian_colptr = nullptr;
  const int* invariants_jacobian_rowval = nullptr;
  // d/dp, one column per parameter (has_parameter_jacobians).
  int rhs_parameter_jacobian_nnz = 0, residual_parameter_jacobian_nnz = 0,
      invariants_parameter_jacobian_nnz = 0;
  const int* rhs_parameter_jacobian_colptr = nullptr;
  const int* rhs_parameter_jacobian_rowval = nullptr;
  const int* residual_parameter_jacobian_colptr = nullptr;
  const int* residual_parameter_jacobian_rowval = nullptr;
  const int* invariants_parameter_jacobian_colptr = nullptr;
  const int* invariants_parameter_jacobian_rowval = nullptr;

  // ----- The instance's settings, in the adapted Model ---------------------------------------
  double* p = nullptr;              // num_parameters values
  bool* parameter_bound = nullptr;  // nullptr without dependent parameters
  bool* fixed = nullptr;            // num_states + num_algebraic
  bool* start_given = nullptr;      // num_states
  /// Which states a reset keeps unless it sets them (the model's differential variables and the
  /// velocities of x''; not dummies or promoted unknowns); nullptr: every state.
  const bool* state_continuous = nullptr;
  /// Each state's weight in project's least correction (Model::projection_weight); nullptr:
  /// every weight 1 (a hand-written model).
  const double* projection_weight = nullptr;

  // ----- The Model's functions ---------------------------------------------------------------
  virtual int set_parameter(const char* name, double value) = 0;
  virtual void initial_state(double* x) const = 0;
  virtual void initial_algebraic(double* z) const = 0;
  virtual void state_nominal(double* s) const = 0;
  virtual int rhs(double t, const double* x, double* xdot, double* z) const = 0;
  virtual int rhs_failure(double t, const double* x, int* index) const = 0;
  // Dense, row-major (has_dense_jacobians): 1 without them.
  virtual int rhs_jacobian(double t, const double* x, double* J) const = 0;
  virtual void residual_jacobian(double t, const double* x, const double* xdot, const double* z,
                                 double* dr_dx, double* dr_dxdot, double* dr_dz) const = 0;
  virtual void invariants_jacobian(double t, const double* x, double* H) const = 0;
  // CSC values in the patterns above: 1 (rhs) or nothing done where there is no pattern.
  virtual int rhs_jacobian_values(double t, const double* x, double* values) const = 0;
  virtual void residual_jacobian_values(double t, const double* x, const double* xdot,
                                        const double* z, double alpha, double* values) const = 0;
  virtual void invariants_jacobian_values(double t, const double* x, double* values) const = 0;
  // The parameter Jacobians' CSC values (has_parameter_jacobians): rhs's returns as
  // rhs_jacobian_values; without them 1, or nothing done.
  virtual int rhs_parameter_jacobian_values(double t, const double* x, double* values) const = 0;
  virtual void residual_parameter_jacobian_values(double t, const double* x, const double* xdot,
                                                  const double* z, double* values) const = 0;
  virtual void invariants_parameter_jacobian_values(double t, const double* x,
                                                    double* values) const = 0;
  virtual void residual(double t, const double* x, const double* xdot, const double* z,
                        double* r) const = 0;
  virtual void invariants(double t, const double* x, double* h) const = 0;
  virtual int project(double t, double* x) const = 0;
  virtual void initial_equations(double t, const double* x, const double* xdot, const double* z,
                                 double* r) const = 0;
  virtual int consistent_initialization(double t, double* x, const double* z_start) const = 0;
  virtual void outputs(double t, const double* x, double* y) const = 0;
  // The singular-point checks (has_condition_checks): 1, unknown -1 without them.
  virtual double algebraic_condition(double t, const double* x, int* unknown, int* sign) const = 0;
  virtual double invariants_condition(double t, const double* x, int* invariant) const = 0;
  /// log |det A(X, t)|, unscaled (-infinity where singular; NaN without the condition checks).
  virtual double algebraic_log_determinant(double t, const double* x) const = 0;
  /// At a consistent start: the surplus conditions (Model::start_surplus), into rows (room for
  /// num_invariants + num_initial_equations + num_algebraic); 0 for a model without it.
  virtual int start_surplus(double t, const double* x, const double* z_start, int* rows) const = 0;
  // The conditions (num_conditions > 0): g, the modes frozen at (t, x) (0, or the status of
  // solving for Z where relations compare algebraic unknowns: docs/generated-code.md,
  // "Conditions"), and the modes.
  virtual void conditions(double t, const double* x, double* g) const = 0;
  virtual int set_modes(double t, const double* x) = 0;
  virtual const double* modes() const = 0;
  /// Every relation follows its live value again (each mode -1, the default); nothing without
  /// conditions.
  virtual void release_modes() = 0;
  // The when clauses (num_when_clauses > 0; docs/generated-code.md, "When clauses"): their
  // conditions through the modes (1 or 0) and the reset map of one clause (without clauses:
  // nothing and -1); the re-initialization after an event, which keeps what a reset set and the
  // continuous states where the constraints allow (a model written by hand without it: project).
  virtual void when_conditions(double t, const double* x, double* c) const = 0;
  virtual int reinit(int clause, double t, const double* x_before, double* x, double* z,
                     bool* held) const = 0;
  virtual int consistent_reinitialization(double t, double* x, const double* z,
                                          const bool* held) const = 0;
};

}  // namespace daec::runtime
