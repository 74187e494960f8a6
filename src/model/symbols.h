// The symbol table: exactly one GiNaC::realsymbol per name. GiNaC compares symbols by identity,
// so every stage that needs the symbol for a name must get it from here.
#pragma once

#include <map>
#include <string>

#include <ginac/ginac.h>

namespace daec {

class SymbolTable {
 public:
  /// The symbol named `name`, created on first use.
  const GiNaC::realsymbol& get(const std::string& name);
  /// The symbol named `name`, or nullptr if there is none.
  const GiNaC::realsymbol* find(const std::string& name) const;
  bool contains(const std::string& name) const { return find(name) != nullptr; }
  /// A name not yet in the table: `base`, else `base_2`, `base_3`, ...
  std::string unique_name(const std::string& base) const;

 private:
  std::map<std::string, GiNaC::realsymbol> symbols_;
};

}  // namespace daec
