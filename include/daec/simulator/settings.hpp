// --set NAME=VALUE and --fix NAME=VALUE: which names a model's simulator can set (parameters,
// start values of variables and velocity states) and applying them in the right order.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <daec/model_error.hpp>
#include <daec/simulator/failure.hpp>
#include <daec/simulator/options.hpp>
#include <daec/simulator/output.hpp>
#include <daec/traits.hpp>

namespace daec::simulator {

/// The variables and states whose start values --set can give: the declared variables that are
/// states, then the states that are no declared variable (velocity states such as x_dot, dummies).
template <typename Model>
std::vector<std::string> start_value_names() {
  std::vector<std::string> names;
  for (int i = 0; i < Model::num_variables; ++i)
    if (Model::variable_location[i] >= 0) names.push_back(Model::variable_names[i]);
  for (int i = 0; i < Model::num_states; ++i)
    if (text::find_name(Model::variable_names, Model::num_variables, Model::state_names[i]) < 0)
      names.push_back(Model::state_names[i]);
  return names;
}

/// The declared variables in Z, computed from the states at every time.
template <typename Model>
std::vector<std::string> algebraic_variable_names() {
  std::vector<std::string> names;
  for (int i = 0; i < Model::num_variables; ++i)
    if (Model::variable_location[i] < 0) names.push_back(Model::variable_names[i]);
  return names;
}

template <typename Model>
std::vector<std::string> parameter_names() {
  return std::vector<std::string>(Model::parameter_names,
                                  Model::parameter_names + Model::num_parameters);
}

/// Everything --set accepts, for the message about an unknown name.
template <typename Model>
std::string settable_names() {
  return "parameters " + text::join(parameter_names<Model>()) + "; start values " +
         text::join(start_value_names<Model>()) + "; algebraic (with --fix) " +
         text::join(algebraic_variable_names<Model>());
}

/// Where --set NAME lands: a parameter, a state (index into x), or an algebraic unknown.
struct Target {
  enum class Kind { parameter, state, algebraic } kind;
  int index;
};

template <typename Model>
Target resolve(const std::string& name, const char* option) {
  int index = text::find_name(Model::parameter_names, Model::num_parameters, name);
  if (index >= 0) return {Target::Kind::parameter, index};
  index = text::find_name(Model::variable_names, Model::num_variables, name);
  if (index >= 0) {
    int location = Model::variable_location[index];
    if (location >= 0) return {Target::Kind::state, location};
    return {Target::Kind::algebraic, -1 - location};
  }
  index = text::find_name(Model::state_names, Model::num_states, name);
  if (index >= 0) return {Target::Kind::state, index};
  usage_error("unknown name '" + name + "' in " + option + "; it can set " +
              settable_names<Model>());
}

/// A parameter that the values given make infinite or NaN (k = 1/tau with --set tau=0) is bad
/// usage: the run would compute with it as if it were a number.
template <typename Model>
void check_finite_parameters(const Model& model) {
  for (int i = 0; i < Model::num_parameters; ++i) {
    if (std::isfinite(model.p[i])) continue;
    std::string binding = traits::parameter_binding<Model>(i);
    usage_error("the parameter '" + std::string(Model::parameter_names[i]) + "' is " +
                text::format_number(model.p[i]) +
                (binding.empty()
                     ? ""
                     : " (" + std::string(Model::parameter_names[i]) + " = " + binding + ")") +
                " with the values given; a parameter must be finite");
  }
}

/// The model's start values (from the parameters) must be finite.
template <typename Model>
void check_finite_starts(const std::vector<double>& values, const char* const* names, int count) {
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
};

/// Parameters first, then the model's start values (which may use them), then the starts of
/// --set and --fix, whatever the order on the command line. --fix also marks the start fixed in
/// model.fixed. Parameters are set in command-line order; setting one cuts its own binding and
/// recomputes the parameters bound to it (Model::set_parameter), so a dependent parameter set
/// explicitly is never overwritten: with k = 1/tau, `--set k=3 --set tau=1` and `--set tau=1
/// --set k=3` both give k = 3, and `--set tau=1` alone k = 1.
template <typename Model>
RequestedStart apply_settings(const Options& options, Model& model) {
  std::vector<std::pair<Target, Setting>> starts;
  for (const Setting& setting : options.settings) {
    const char* option = setting.fix ? "--fix" : "--set";
    Target target = resolve<Model>(setting.name, option);
    if (target.kind != Target::Kind::parameter) {
      starts.emplace_back(target, setting);
    } else if (setting.fix) {
      usage_error("--fix " + setting.name + ": '" + setting.name +
                  "' is a parameter, constant anyway; set it with --set");
    } else if (model.set_parameter(setting.name.c_str(), setting.value) != 0) {
      usage_error("the model refuses parameter '" + setting.name + "'");
    }
  }
  check_finite_parameters(model);
  RequestedStart start{buffer(Model::num_states), buffer(Model::num_algebraic)};
  model.initial_state(start.x.data());
  model.initial_algebraic(start.z.data());
  check_finite_starts<Model>(start.x, Model::state_names, Model::num_states);
  check_finite_starts<Model>(start.z, Model::algebraic_names, Model::num_algebraic);
  for (const auto& [target, setting] : starts) {
    size_t index = static_cast<size_t>(target.index);
    if (target.kind == Target::Kind::state) {
      start.x[index] = setting.value;
      if (setting.fix) model.fixed[index] = true;
      continue;
    }
    start.z[index] = setting.value;
    if (setting.fix) {
      model.fixed[static_cast<size_t>(Model::num_states) + index] = true;
    } else if (!model.fixed[static_cast<size_t>(Model::num_states) + index]) {
      std::fprintf(stderr,
                   "sim: note: --set %s has no effect: %s is algebraic, computed from the states "
                   "(--fix %s=VALUE makes the start keep it)\n",
                   setting.name.c_str(), setting.name.c_str(), setting.name.c_str());
    }
  }
  return start;
}

}  // namespace daec::simulator
