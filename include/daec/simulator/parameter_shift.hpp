// One parameter moved for a difference quotient of the sensitivities (docs/sensitivities.md):
// of the consistent start, of a reset, of a switching function. It is moved as the model's own
// set_parameter moves it, so that the parameters bound to it follow (the difference in tau sees
// k = 1/tau, as the generated parameter Jacobians do), and every parameter and binding is put
// back afterwards.
#pragma once

#include <algorithm>
#include <vector>

#include <daec/runtime/system.hpp>

namespace daec::simulator {

class ParameterShift {
 public:
  /// Moves parameter `index` of `model` to `value` for as long as the shift lives.
  ParameterShift(System& model, int index, double value)
      : model_(model),
        p_(model.p, model.p + model.num_parameters),
        bound_(model.parameter_bound != nullptr ? model.num_parameters : 0) {
    if (model.parameter_bound != nullptr)
      std::copy(model.parameter_bound, model.parameter_bound + model.num_parameters,
                bound_.begin());
    (void)model.set_parameter(model.parameter_names[index], value);
  }
  ~ParameterShift() {
    std::copy(p_.begin(), p_.end(), model_.p);
    if (model_.parameter_bound != nullptr)
      std::copy(bound_.begin(), bound_.end(), model_.parameter_bound);
  }
  ParameterShift(const ParameterShift&) = delete;
  ParameterShift& operator=(const ParameterShift&) = delete;

 private:
  System& model_;
  std::vector<double> p_;
  std::vector<char> bound_;
};

}  // namespace daec::simulator
