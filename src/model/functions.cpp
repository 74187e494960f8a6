// The built-in function table.
#include "model/functions.h"

#include "model/conditions.h"

namespace daec {

using GiNaC::ex;
using GiNaC::exvector;

static ex sign_eval(const ex& x) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(x) && x.info(GiNaC::info_flags::real)) {
    return GiNaC::ex_to<GiNaC::numeric>(x).csgn();
  }
  return sign(x).hold();
}

static ex sign_evalf(const ex& x) {
  if (GiNaC::is_exactly_a<GiNaC::numeric>(x)) return sign_eval(x);
  return sign(x).hold();
}

// sign is piecewise constant; its derivative is 0 wherever it exists.
static ex sign_derivative(const ex&, unsigned) {
  return 0;
}

static ex sign_real_part(const ex& x) {
  return sign(x).hold();
}
static ex sign_imag_part(const ex&) {
  return 0;
}

REGISTER_FUNCTION(sign, eval_func(sign_eval)
                            .evalf_func(sign_evalf)
                            .derivative_func(sign_derivative)
                            .real_part_func(sign_real_part)
                            .imag_part_func(sign_imag_part))

namespace {

const BuiltinFunction kFunctions[] = {
    {"sin", 1, true, [](const exvector& a) -> ex { return GiNaC::sin(a[0]); }},
    {"cos", 1, true, [](const exvector& a) -> ex { return GiNaC::cos(a[0]); }},
    {"tan", 1, true, [](const exvector& a) -> ex { return GiNaC::tan(a[0]); }},
    {"asin", 1, true, [](const exvector& a) -> ex { return GiNaC::asin(a[0]); }},
    {"acos", 1, true, [](const exvector& a) -> ex { return GiNaC::acos(a[0]); }},
    {"atan", 1, true, [](const exvector& a) -> ex { return GiNaC::atan(a[0]); }},
    {"atan2", 2, true, [](const exvector& a) -> ex { return GiNaC::atan2(a[0], a[1]); }},
    {"sinh", 1, true, [](const exvector& a) -> ex { return GiNaC::sinh(a[0]); }},
    {"cosh", 1, true, [](const exvector& a) -> ex { return GiNaC::cosh(a[0]); }},
    {"tanh", 1, true, [](const exvector& a) -> ex { return GiNaC::tanh(a[0]); }},
    {"exp", 1, true, [](const exvector& a) -> ex { return GiNaC::exp(a[0]); }},
    {"log", 1, true, [](const exvector& a) -> ex { return GiNaC::log(a[0]); }},
    {"sqrt", 1, true, [](const exvector& a) -> ex { return GiNaC::sqrt(a[0]); }},
    {"pow", 2, true, [](const exvector& a) -> ex { return GiNaC::pow(a[0], a[1]); }},
    {"abs", 1, false, [](const exvector& a) -> ex { return GiNaC::abs(a[0]); }},
    {"sign", 1, false, [](const exvector& a) -> ex { return sign(a[0]); }},
    {"min", 2, false, [](const exvector& a) -> ex { return make_min(a[0], a[1]); }},
    {"max", 2, false, [](const exvector& a) -> ex { return make_max(a[0], a[1]); }},
    // Lowered by the front end from its table's names (frontend/interp_call.cpp), never built here.
    {"interp", 3, false, [](const exvector& a) -> ex { return a[0]; }},
};

}  // namespace

namespace {

// GiNaC asks an expression whether it commutes (return_type) each time it evaluates a sum or a
// function of it, and a function that was not told answers with its first argument's answer, and
// that with its own: evaluating sin(o) walked the whole of o, and 10,000 outputs each the sine of
// the last took time quadratic in their number. Every quantity of a model is a real number:
// every function GiNaC knows (its own and daec's) is told that it commutes, once.
struct FunctionsCommute : GiNaC::function {
  static bool tell() {
    for (GiNaC::function_options& options : registered_functions())
      options.set_return_type(GiNaC::return_types::commutative);
    return true;
  }
};

}  // namespace

const BuiltinFunction* find_function(const std::string& name) {
  static const bool commute = FunctionsCommute::tell();
  (void)commute;
  for (const BuiltinFunction& f : kFunctions) {
    if (name == f.name) return &f;
  }
  return nullptr;
}

std::vector<std::string> function_names() {
  std::vector<std::string> names;
  for (const BuiltinFunction& f : kFunctions) names.emplace_back(f.name);
  return names;
}

}  // namespace daec
