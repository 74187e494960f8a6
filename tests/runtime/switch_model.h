// A hand-written Model with a condition, as daec generates one (model_declaration.h.in): the
// circle model (circle_model.h) whose angular speed halves once the point passes y = r/2,
//   speed = if y < r/2 then w else w/2,
// one relation, switching function g = y - r/2. From (r, 0) the angle is w t until
// t1 = pi/(6 w), then pi/6 + (w/2)(t - t1). The relation follows its mode as generated code's do.
// ahead::Model reads the relation from a quantity that is not a number where a too long step ends.
#pragma once

#include <string>

#include "circle_model.h"

namespace switching {

struct Model : circle::Model {
  static constexpr const char* model_name = "switching";
  static constexpr int num_conditions = 1;
  static constexpr const char* const condition_names[] = {"speed: y < r/2"};
  double mode[num_conditions] = {-1.0};  // generated code keeps the modes in p; only modes() counts

  double* modes() { return mode; }
  const double* modes() const { return mode; }
  void conditions(double, const double* x, double* g) const { g[0] = x[1] - p[1] / 2; }
  int set_modes(double, const double* x) {
    mode[0] = x[1] < p[1] / 2;
    return 0;
  }

  int rhs(double t, const double* x, double* xdot, double* z) const {
    return branch(x).rhs(t, x, xdot, z);
  }
  int rhs_failure(double t, const double* x, int* index) const {
    return branch(x).rhs_failure(t, x, index);
  }
  int rhs_jacobian(double t, const double* x, double* J) const {
    return branch(x).rhs_jacobian(t, x, J);
  }
  int rhs_jacobian_values(double t, const double* x, double* values) const {
    return branch(x).rhs_jacobian_values(t, x, values);
  }
  void residual(double t, const double* x, const double* xdot, const double* z, double* r) const {
    branch(x).residual(t, x, xdot, z, r);
  }
  void residual_jacobian(double t, const double* x, const double* xdot, const double* z,
                         double* dr_dx, double* dr_dxdot, double* dr_dz) const {
    branch(x).residual_jacobian(t, x, xdot, z, dr_dx, dr_dxdot, dr_dz);
  }
  void residual_jacobian_values(double t, const double* x, const double* xdot, const double* z,
                                double alpha, double* values) const {
    branch(x).residual_jacobian_values(t, x, xdot, z, alpha, values);
  }

 private:
  // The circle model at the speed of the branch taken: the mode's, or the live one's at -1.
  circle::Model branch(const double* x) const {
    bool fast = mode[0] < 0 ? x[1] < p[1] / 2 : mode[0] > 0;
    circle::Model at_speed = *this;
    if (!fast) at_speed.p[0] = p[0] / 2;
    return at_speed;
  }
};

}  // namespace switching

namespace ahead {

/// The switching model whose relation reads a quantity that is not a number (as a square root
/// of a negative argument would be) wherever the point is more than `lead` radians ahead of the
/// exact solution, and everywhere after `nan_after`. The exact solution never gets ahead; a step
/// that ends more than `lead` past the switch on the fast branch does. g is that quantity less
/// r/2, and the relation compares it as generated code would: a NaN compares false.
struct Model : switching::Model {
  double lead = 1e-4, nan_after = 1e9;

  void conditions(double t, const double* x, double* g) const { g[0] = ordinate(t, x) - p[1] / 2; }
  int set_modes(double t, const double* x) {
    mode[0] = ordinate(t, x) < p[1] / 2;
    return 0;
  }

 private:
  double ordinate(double t, const double* x) const {
    const double w = p[0], t1 = M_PI / (6 * w);
    const double exact = t < t1 ? w * t : M_PI / 6 + w / 2 * (t - t1);
    if (std::atan2(x[1], x[0]) > exact + lead || t > nan_after) return std::nan("");
    return x[1];
  }
};

/// The same with the quantity not a number from t = 0.5 on, along the solution itself.
struct NanAfterHalf : Model {
  NanAfterHalf() { nan_after = 0.5; }
};

}  // namespace ahead

namespace crowd {

/// The circle model with kRelations relations y < r (1/2 + k kGap), k = 0, 1, ..., which the
/// point passes one after another, some 6e-11 s apart: each switches once, all at nearly the same
/// instant, as the diodes of an array may. The speed depends on none of them.
constexpr int kRelations = 150;
constexpr double kGap = 1e-10;

/// The relations' names, "k: y < r (1/2 + k kGap)", for System::condition_names.
struct Names {
  std::string text[kRelations];
  const char* pointers[kRelations];
  Names() {
    for (int k = 0; k < kRelations; ++k) {
      text[k] = std::to_string(k) + ": y < r (1/2 + k kGap)";
      pointers[k] = text[k].c_str();
    }
  }
};

inline const Names& names() {
  static const Names kNames;
  return kNames;
}

struct Model : circle::Model {
  static constexpr const char* model_name = "crowd";
  static constexpr int num_conditions = kRelations;
  static inline const char* const* condition_names = names().pointers;
  double mode[num_conditions] = {};

  double* modes() { return mode; }
  const double* modes() const { return mode; }
  void conditions(double, const double* x, double* g) const {
    for (int k = 0; k < kRelations; ++k) g[k] = x[1] - p[1] * (0.5 + k * kGap);
  }
  int set_modes(double, const double* x) {
    for (int k = 0; k < kRelations; ++k) mode[k] = x[1] < p[1] * (0.5 + k * kGap);
    return 0;
  }
};

}  // namespace crowd
