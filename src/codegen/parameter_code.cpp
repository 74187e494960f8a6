// The dependent-parameter members of a generated Model: parameter_bound, parameter_bindings and
// the body of update_dependent_parameters().
#include "codegen/parameter_code.h"

#include <fmt/format.h>

#include "codegen/code_tables.h"
#include "codegen/cpp_names.h"
#include "codegen/expression_code.h"
#include "model/expression_printer.h"

namespace daec {

namespace {

// `text` in a `//` comment: as it is when plain (names, numbers, operators), else quoted and
// escaped.
std::string comment_text(const std::string& text) {
  for (char c : text) {
    if (c < 0x20 || c > 0x7e || c == '\\' || c == '"' || c == '?') return cpp_quoted_comment(text);
  }
  return text;
}

// `if (parameter_bound[i]) p[i] = ...;`, the temporaries of a long binding in a block of their
// own. Each binding is compiled on its own: it must read the parameters as the bindings before it
// left them.
std::string update_statement(const SymbolCode& symbols, size_t i, const Parameter& parameter) {
  // The compiler gets the names of the parameters the binding reads, not every name: a copy of
  // them all for each binding made 10,000 chained parameters 10^8 map entries.
  SymbolCode read;
  for (const GiNaC::ex& symbol : symbols_in(parameter.default_value)) {
    auto found = symbols.find(symbol);
    if (found != symbols.end()) read.insert(*found);
  }
  ExpressionCompiler compiler(std::move(read));
  size_t handle = compiler.add(parameter.default_value);
  std::vector<std::string> temporaries = compiler.statements();
  std::string comment = comment_text(parameter.name + " = " + binding_text(parameter));
  std::string assignment = fmt::format("p[{}] = {};", i, compiler.code_for(handle));
  if (temporaries.empty())
    return fmt::format("  if (parameter_bound[{}]) {}  // {}\n", i, assignment, comment);
  std::string code = fmt::format("  if (parameter_bound[{}]) {{  // {}\n", i, comment);
  for (const std::string& temporary : temporaries) code += "    " + temporary + "\n";
  return code + "    " + assignment + "\n  }\n";
}

}  // namespace

bool has_binding(const Parameter& parameter) {
  return !symbols_in(parameter.default_value).empty();
}

std::string binding_text(const Parameter& parameter) {
  return has_binding(parameter) ? to_dae(parameter.default_value) : "";
}

ParameterCode parameter_code(const ModelContext& context) {
  SymbolCode symbols;
  for (size_t i = 0; i < context.parameters.size(); ++i)
    symbols[context.parameters[i].symbol] = fmt::format("p[{}]", i);
  std::vector<std::string> bound, bindings;
  ParameterCode code;
  for (size_t i = 0; i < context.parameters.size(); ++i) {
    const Parameter& parameter = context.parameters[i];
    bool binding = has_binding(parameter);
    bound.push_back(binding ? "true" : "false");
    bindings.push_back('"' + cpp_string_contents(binding_text(parameter)) + '"');
    if (binding) code.update += update_statement(symbols, i, parameter);
  }
  code.bound_initializer = braced(bound, "false");
  code.bindings = braced(bindings, "nullptr");
  if (code.update.empty()) code.update = "  // No parameter is written in terms of another.\n";
  code.update.pop_back();
  std::vector<std::string> orders;
  for (const ParameterOrder& order : context.parameter_orders) {
    orders.push_back(std::to_string(order.lower));
    orders.push_back(std::to_string(order.upper));
  }
  code.num_orders = context.parameter_orders.size();
  code.orders = braced(orders, "0");
  return code;
}

}  // namespace daec
