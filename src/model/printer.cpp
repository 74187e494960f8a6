// A precedence-aware printer from GiNaC expressions to .dae syntax.
#include "model/printer.h"

#include <cstdio>
#include <sstream>

namespace daec {

using GiNaC::ex;
using GiNaC::ex_to;
using GiNaC::is_a;
using GiNaC::numeric;

namespace {

// Binding strength of what a printed string is, from loosest to tightest.
enum Precedence { kSum = 1, kProduct = 2, kUnary = 3, kPower = 4, kAtom = 5 };

struct Printed {
  std::string text;
  Precedence precedence;
};

Printed print(const ex& e);

std::string wrap(const Printed& p, Precedence needed) {
  return p.precedence < needed ? "(" + p.text + ")" : p.text;
}

Printed print_numeric(const numeric& n) {
  if (n.is_integer() || n.is_rational()) {
    std::ostringstream out;
    out << n;  // CLN prints integers and p/q exactly
    std::string text = out.str();
    if (n.is_negative()) return {text, kUnary};
    return {text, n.is_integer() ? kAtom : kProduct};
  }
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", n.to_double());
  std::string text = buffer;
  return {text, text[0] == '-' ? kUnary : kAtom};
}

// A product split into numeric coefficient, numerator factors and denominator factors.
struct Factors {
  numeric coefficient = 1;
  GiNaC::exvector numerator, denominator;
};

Factors split_product(const ex& e) {
  Factors f;
  auto add_factor = [&](const ex& factor) {
    if (is_a<numeric>(factor)) {
      f.coefficient *= ex_to<numeric>(factor);
    } else if (is_a<GiNaC::power>(factor) && is_a<numeric>(factor.op(1)) &&
               ex_to<numeric>(factor.op(1)).is_negative()) {
      f.denominator.push_back(GiNaC::pow(factor.op(0), -factor.op(1)));
    } else {
      f.numerator.push_back(factor);
    }
  };
  if (is_a<GiNaC::mul>(e)) {
    for (size_t i = 0; i < e.nops(); ++i) add_factor(e.op(i));
  } else {
    add_factor(e);
  }
  return f;
}

std::string join_factors(const GiNaC::exvector& factors) {
  std::string text;
  for (const ex& factor : factors) {
    if (!text.empty()) text += "*";
    text += wrap(print(factor), kProduct);
  }
  return text;
}

Printed print_product(const ex& e) {
  Factors f = split_product(e);
  bool negative = f.coefficient.is_negative();
  numeric magnitude = negative ? -f.coefficient : f.coefficient;
  numeric num = magnitude.numer(), den = magnitude.denom();
  std::string numerator;
  if (!num.is_equal(1) || f.numerator.empty()) numerator = print_numeric(num).text;
  if (!f.numerator.empty()) {
    std::string factors = join_factors(f.numerator);
    numerator = numerator.empty() ? factors : numerator + "*" + factors;
  }
  if (f.numerator.size() == 1 && num.is_equal(1) && f.denominator.empty() && den.is_equal(1)) {
    // A lone factor keeps its own precedence: -x^2 rather than -(x^2).
    Printed single = print(f.numerator[0]);
    if (!negative) return single;
    return {"-" + wrap(single, kPower), kUnary};
  }
  GiNaC::exvector denominator = f.denominator;
  std::string text = numerator;
  if (!den.is_equal(1) || !denominator.empty()) {
    std::string below;
    if (!den.is_equal(1)) below = print_numeric(den).text;
    if (!denominator.empty()) {
      std::string factors = join_factors(denominator);
      below = below.empty() ? factors : below + "*" + factors;
    }
    bool single = (den.is_equal(1) && denominator.size() == 1 &&
                   print(denominator[0]).precedence >= kPower) ||
                  (denominator.empty());
    text += "/" + (single ? below : "(" + below + ")");
  }
  if (negative) return {"-" + text, kUnary};
  return {text, kProduct};
}

Printed print_sum(const ex& e) {
  std::string text;
  for (size_t i = 0; i < e.nops(); ++i) {
    Printed term = print(e.op(i));
    if (i == 0) {
      text = term.text;
    } else if (term.text[0] == '-') {
      Printed positive = print(-e.op(i));
      text += " - " + wrap(positive, kProduct);
    } else {
      text += " + " + term.text;
    }
  }
  return {text, kSum};
}

Printed print_power(const ex& e) {
  const ex& base = e.op(0);
  const ex& exponent = e.op(1);
  if (exponent.is_equal(GiNaC::numeric(1, 2))) return {"sqrt(" + print(base).text + ")", kAtom};
  if (is_a<numeric>(exponent) && ex_to<numeric>(exponent).is_negative()) {
    return print_product(e);  // x^(-1) prints as 1/x
  }
  Printed b = print(base);
  Printed x = print(exponent);
  // The base binds tighter than '^'; the exponent is a unary operand (right-associative).
  std::string base_text = b.precedence <= kPower ? "(" + b.text + ")" : b.text;
  std::string exponent_text = x.precedence < kUnary ? "(" + x.text + ")" : x.text;
  return {base_text + "^" + exponent_text, kPower};
}

Printed print_function(const GiNaC::function& f) {
  std::string name = f.get_name();
  std::string text = name + "(";
  for (size_t i = 0; i < f.nops(); ++i) {
    if (i) text += ", ";
    text += print(f.op(i)).text;
  }
  return {text + ")", kAtom};
}

Printed print(const ex& e) {
  if (is_a<numeric>(e)) return print_numeric(ex_to<numeric>(e));
  if (is_a<GiNaC::symbol>(e)) return {ex_to<GiNaC::symbol>(e).get_name(), kAtom};
  if (e.is_equal(GiNaC::Pi)) return {"pi", kAtom};
  if (is_a<GiNaC::add>(e)) return print_sum(e);
  if (is_a<GiNaC::mul>(e)) return print_product(e);
  if (is_a<GiNaC::power>(e)) return print_power(e);
  if (is_a<GiNaC::function>(e)) return print_function(ex_to<GiNaC::function>(e));
  std::ostringstream out;  // not produced by the front end; printed as GiNaC does
  out << e;
  return {out.str(), kAtom};
}

}  // namespace

std::string to_dae(const ex& e) { return print(e).text; }

std::string quote_dae_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

static std::string description_suffix(const std::string& description) {
  return description.empty() ? "" : " " + quote_dae_string(description);
}

std::string print_model(const Model& model) {
  std::ostringstream out;
  out << "model " << model.name << description_suffix(model.description) << ";\n";
  for (const Parameter& p : model.parameters) {
    out << "parameter " << p.name << " = " << to_dae(p.default_value)
        << description_suffix(p.description) << ";\n";
  }
  for (const Variable& v : model.variables) {
    out << "variable " << v.name << "(start = " << to_dae(v.start)
        << ", fixed = " << (v.fixed ? "true" : "false") << ")" << description_suffix(v.description)
        << ";\n";
  }
  for (const Output& o : model.outputs) {
    out << "output " << o.name << " = " << to_dae(o.value) << description_suffix(o.description)
        << ";\n";
  }
  out << "equation\n";
  for (const Equation& e : model.equations) {
    out << "  ";
    if (e.labelled) out << e.label << ": ";
    out << to_dae(e.lhs) << " = " << to_dae(e.rhs) << ";\n";
  }
  out << "end " << model.name << ";\n";
  return out.str();
}

}  // namespace daec
