// Running the front end stages in order.
#include "frontend/frontend.h"

#include "frontend/lexer.h"
#include "frontend/parser.h"
#include "frontend/sema.h"

namespace daec {

std::optional<Model> run_frontend(const SourceFile& file, DiagnosticEngine& diags) {
  if (!check_encoding(file, diags)) return std::nullopt;
  std::vector<Token> tokens = lex(file, diags);
  ModelSyntax syntax = parse(tokens, diags);
  Model model = analyze(syntax, diags);
  if (diags.has_errors()) return std::nullopt;
  return model;
}

}  // namespace daec
