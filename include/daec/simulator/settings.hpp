// --set NAME=VALUE and --fix NAME=VALUE: which names a model's simulator can set (parameters,
// start values of variables and velocity states) and applying them in the right order.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/runtime/parameter_orders.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output.hpp>

namespace daec::simulator {

/// The variables and states whose start values --set can give: the declared variables that are
/// states, then the states that are no declared variable (velocity states such as x_dot, dummies).
inline std::vector<std::string> start_value_names(const System& model) {
  std::vector<std::string> names;
  for (int i = 0; i < model.num_variables; ++i)
    if (model.variable_location[i] >= 0) names.push_back(model.variable_names[i]);
  for (int i = 0; i < model.num_states; ++i)
    if (text::find_name(model.variable_names, model.num_variables, model.state_names[i]) < 0)
      names.push_back(model.state_names[i]);
  return names;
}

/// The declared variables in Z, computed from the states at every time.
inline std::vector<std::string> algebraic_variable_names(const System& model) {
  std::vector<std::string> names;
  for (int i = 0; i < model.num_variables; ++i)
    if (model.variable_location[i] < 0) names.push_back(model.variable_names[i]);
  return names;
}

inline std::vector<std::string> parameter_names(const System& model) {
  return std::vector<std::string>(model.parameter_names,
                                  model.parameter_names + model.num_parameters);
}

/// Everything --set accepts, for the message about an unknown name.
inline std::string settable_names(const System& model) {
  return "parameters " + text::join(parameter_names(model)) + "; start values " +
         text::join(start_value_names(model)) + "; algebraic (with --fix) " +
         text::join(algebraic_variable_names(model));
}

/// Where --set NAME lands: a parameter, a state (index into x), or an algebraic unknown.
struct Target {
  enum class Kind { parameter, state, algebraic } kind;
  int index;
};

inline Target resolve(const System& model, const std::string& name, const char* option) {
  int index = text::find_name(model.parameter_names, model.num_parameters, name);
  if (index >= 0) return {Target::Kind::parameter, index};
  index = text::find_name(model.variable_names, model.num_variables, name);
  if (index >= 0) {
    int location = model.variable_location[index];
    if (location >= 0) return {Target::Kind::state, location};
    return {Target::Kind::algebraic, -1 - location};
  }
  index = text::find_name(model.state_names, model.num_states, name);
  if (index >= 0) return {Target::Kind::state, index};
  usage_error("unknown name '" + name + "' in " + option + "; it can set " + settable_names(model));
}

/// A parameter that the values given make infinite or NaN (k = 1/tau with --set tau=0) is bad
/// usage: the run would compute with it as if it were a number.
inline void check_finite_parameters(const System& model) {
  for (int i = 0; i < model.num_parameters; ++i) {
    if (std::isfinite(model.p[i])) continue;
    std::string binding = model.parameter_binding(i);
    usage_error("the parameter '" + std::string(model.parameter_names[i]) + "' is " +
                text::format_number(model.p[i]) +
                (binding.empty()
                     ? ""
                     : " (" + std::string(model.parameter_names[i]) + " = " + binding + ")") +
                " with the values given; a parameter must be finite");
  }
}

/// The model's start values (from the parameters) must be finite.
inline void check_finite_starts(const std::vector<double>& values, const char* const* names,
                                int count) {
  if (const int i = text::first_not_finite(values.data(), count); i >= 0)
    usage_error("the start value of '" + std::string(names[i]) + "' is " +
                text::format_number(values[static_cast<size_t>(i)]) +
                " with the parameter values given; a start must be finite");
}

/// The start asked for: the states' values (guesses, or kept where fixed) and the values the
/// fixed algebraic unknowns must take.
struct RequestedStart {
  std::vector<double> x;
  std::vector<double> z;
  /// Which of them --set or --fix gave (numbers that do not follow the parameters).
  std::vector<char> x_set, z_set;
};

/// The model's start values at its current parameters with the values --set and --fix gave in
/// `start` kept: the start a run with these parameters asks for.
inline RequestedStart restarted(const System& model, const RequestedStart& start) {
  RequestedStart again = start;
  model.initial_state(again.x.data());
  model.initial_algebraic(again.z.data());
  for (size_t i = 0; i < start.x_set.size(); ++i)
    if (start.x_set[i]) again.x[i] = start.x[i];
  for (size_t j = 0; j < start.z_set.size(); ++j)
    if (start.z_set[j]) again.z[j] = start.z[j];
  return again;
}

/// Parameters first, then the model's start values (which may use them), then the starts of
/// --set and --fix, whatever the order on the command line. --fix also marks the start fixed in
/// model.fixed. Parameters are set in command-line order; setting one cuts its own binding and
/// recomputes the parameters bound to it (model.set_parameter), so a dependent parameter set
/// explicitly is never overwritten: with k = 1/tau, `--set k=3 --set tau=1` and `--set tau=1
/// --set k=3` both give k = 3, and `--set tau=1` alone k = 1.
inline RequestedStart apply_settings(const Options& options, System& model) {
  std::vector<std::pair<Target, Setting>> starts;
  for (const Setting& setting : options.settings) {
    const char* option = setting.fix ? "--fix" : "--set";
    Target target = resolve(model, setting.name, option);
    if (target.kind != Target::Kind::parameter) {
      starts.emplace_back(target, setting);
    } else if (setting.fix) {
      usage_error("--fix " + setting.name + ": '" + setting.name +
                  "' is a parameter, constant anyway; set it with --set");
    } else if (const int status = model.set_parameter(setting.name.c_str(), setting.value);
               status == -2) {
      usage_error("--set " + setting.name + ": " +
                  broken_order_message(model, target.index, setting.value));
    } else if (status != 0) {
      usage_error("the model refuses parameter '" + setting.name + "'");
    }
  }
  check_finite_parameters(model);
  RequestedStart start{buffer(model.num_states), buffer(model.num_algebraic),
                       std::vector<char>(static_cast<size_t>(model.num_states), 0),
                       std::vector<char>(static_cast<size_t>(model.num_algebraic), 0)};
  model.initial_state(start.x.data());
  model.initial_algebraic(start.z.data());
  check_finite_starts(start.x, model.state_names, model.num_states);
  check_finite_starts(start.z, model.algebraic_names, model.num_algebraic);
  for (const auto& [target, setting] : starts) {
    size_t index = static_cast<size_t>(target.index);
    if (target.kind == Target::Kind::state) {
      start.x[index] = setting.value;
      start.x_set[index] = 1;
      // A guess for a promoted unknown (an algebraic variable of the model): the constraints
      // determine it, and it never pulls a written start away (docs/language.md).
      if (model.state_continuous == nullptr || model.state_continuous[index] || setting.fix)
        model.start_given[index] = true;
      if (setting.fix) model.fixed[index] = true;
      continue;
    }
    start.z[index] = setting.value;
    start.z_set[index] = 1;
    if (setting.fix) {
      model.fixed[static_cast<size_t>(model.num_states) + index] = true;
    } else if (!model.fixed[static_cast<size_t>(model.num_states) + index]) {
      std::fprintf(stderr,
                   "sim: note: --set %s has no effect: %s is algebraic, computed from the states "
                   "(--fix %s=VALUE makes the start keep it)\n",
                   setting.name.c_str(), setting.name.c_str(), setting.name.c_str());
    }
  }
  return start;
}

}  // namespace daec::simulator
