// Running the front end stages in order.
#include "frontend/frontend.h"

#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "frontend/sema.h"
#include "units/unit_check.h"

namespace daec {

std::string check_define(const ModelSyntax& syntax, const Define& define) {
  std::string model = syntax.name.name.empty() ? "the model" : "model '" + syntax.name.name + "'";
  std::string prefix = "-D " + define.name + "=" + define.value + ": ";
  for (const ParameterDecl& p : syntax.parameters) {
    if (p.name.name == define.name) return {};
  }
  for (const VariableDecl& v : syntax.variables) {
    if (v.name.name == define.name) {
      return prefix + "'" + define.name + "' is a variable of " + model +
             "; -D sets parameters (give start values with the simulator's --set)";
    }
  }
  for (const OutputDecl& o : syntax.outputs) {
    if (o.name.name == define.name) {
      return prefix + "'" + define.name + "' is an output of " + model + "; -D sets parameters";
    }
  }
  return prefix + model + " has no parameter '" + define.name + "'";
}

std::optional<Model> run_frontend(const SourceFile& file, DiagnosticEngine& diags,
                                  const FlattenOptions& options, std::string* usage_error) {
  if (!check_encoding(file, diags)) return std::nullopt;
  std::vector<Token> tokens = lex(file, diags);
  ModelSyntax syntax = parse(tokens, diags);
  if (!diags.has_errors()) {
    for (const Define& define : options.defines) {
      std::string problem = check_define(syntax, define);
      if (problem.empty()) continue;
      if (!usage_error) {
        diags.error(SourceLocation{&file}, problem);
        return std::nullopt;
      }
      *usage_error = problem;
      return std::nullopt;
    }
  }
  Model model = analyze(syntax, diags, options);
  size_t first = diags.diagnostics().size();
  check_units(syntax, model, options.units, diags);
  diags.sort_by_location(first);
  if (diags.has_errors()) return std::nullopt;
  return model;
}

}  // namespace daec
