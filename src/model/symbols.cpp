// One symbol per name.
#include "model/symbols.h"

namespace daec {

const GiNaC::realsymbol& SymbolTable::get(const std::string& name) {
  auto it = symbols_.find(name);
  if (it == symbols_.end()) it = symbols_.emplace(name, GiNaC::realsymbol(name)).first;
  return it->second;
}

const GiNaC::realsymbol* SymbolTable::find(const std::string& name) const {
  auto it = symbols_.find(name);
  return it == symbols_.end() ? nullptr : &it->second;
}

std::string SymbolTable::unique_name(const std::string& base) const {
  if (!contains(base)) return base;
  for (int suffix = 2;; ++suffix) {
    std::string candidate = base + "_" + std::to_string(suffix);
    if (!contains(candidate)) return candidate;
  }
}

}  // namespace daec
