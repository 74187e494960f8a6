// The structural check of the start's conditions.
#include "reduction/start_conditions.h"

#include <algorithm>
#include <map>

#include "structure/dulmage_mendelsohn.h"
#include "support/text.h"

namespace daec {

namespace {

// At most this many names in a list; the rest are counted (a circuit of 175 nodes whose published
// start is written fixed has 541 conditions on 350 states).
constexpr size_t kNamesShown = 12;

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < kNamesShown; ++i)
    text += (text.empty() ? "" : ", ") + names[i];
  if (names.size() > kNamesShown)
    text += " and " + std::to_string(names.size() - kNamesShown) + " more";
  return text;
}

// The states a model expression holds directly, the model's derivative symbols included where
// they are states (the velocity x_dot for x'); `all` is set when it holds anything that only the
// right-hand side gives (X', Z), which may depend on every state.
class StateColumns {
 public:
  explicit StateColumns(const ReducedSystem& system) {
    std::map<std::string, int> state_at;
    for (size_t i = 0; i < system.states.size(); ++i) {
      column_[system.states[i].symbol] = static_cast<int>(i);
      state_at[system.states[i].name] = static_cast<int>(i);
    }
    std::map<std::string, int> velocity_of;
    for (size_t i = 0; i < system.states.size(); ++i) {
      const Unknown& u = system.states[i];
      if (u.origin == UnknownOrigin::Velocity) velocity_of[u.derivative_of] = static_cast<int>(i);
    }
    // x^(k) is a state where a chain of k velocity states starts at x.
    for (const ModelDerivative& d : system.context.derivatives) {
      auto it = state_at.find(d.variable);
      int state = it == state_at.end() ? -1 : it->second;
      for (int k = 0; k < d.order && state >= 0; ++k) {
        auto next = velocity_of.find(system.states[static_cast<size_t>(state)].name);
        state = next == velocity_of.end() ? -1 : next->second;
      }
      if (state >= 0) column_[d.symbol] = state;
    }
    for (const Parameter& p : system.context.parameters) known_.insert(p.symbol);
    known_.insert(system.context.time);
  }

  std::vector<int> of(const GiNaC::ex& e, int states) const {
    std::vector<int> columns;
    for (const GiNaC::ex& symbol : symbols_in(e)) {
      auto it = column_.find(symbol);
      if (it != column_.end()) {
        columns.push_back(it->second);
      } else if (!known_.count(symbol)) {  // X' or Z: any state, through the right-hand side
        columns.clear();
        for (int j = 0; j < states; ++j) columns.push_back(j);
        return columns;
      }
    }
    std::sort(columns.begin(), columns.end());
    columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
    return columns;
  }

 private:
  std::map<GiNaC::ex, int, GiNaC::ex_is_less> column_;
  SymbolSet known_;
};

}  // namespace

StartPattern start_pattern(const ReducedSystem& system) {
  const int n = static_cast<int>(system.states.size());
  StateColumns columns(system);
  std::vector<std::vector<int>> rows;
  StartPattern result;
  auto add = [&](std::vector<int> row, std::string name, SourceLocation location) {
    rows.push_back(std::move(row));
    result.row_names.push_back(std::move(name));
    result.row_locations.push_back(location);
  };
  for (const Constraint& h : system.invariants) add(columns.of(h.residual, n), h.label, h.location);
  for (int i = 0; i < n; ++i) {
    if (system.states[static_cast<size_t>(i)].fixed)
      add({i}, system.states[static_cast<size_t>(i)].name + " (fixed)", {});
  }
  std::vector<int> every(static_cast<size_t>(n));
  for (int j = 0; j < n; ++j) every[static_cast<size_t>(j)] = j;
  for (const Unknown& z : system.algebraic) {
    if (z.fixed) add(every, z.name + " (fixed)", {});
  }
  for (const Equation& e : system.context.initial_equations)
    add(columns.of(e.residual(), n), e.label, e.location);
  result.pattern = SparsityPattern::from_rows(n, rows);
  return result;
}

bool check_start_conditions(const ReducedSystem& system, SourceLocation model_location,
                            DiagnosticEngine& diags) {
  if (system.context.initial_equations.empty()) {
    bool any_fixed = false;
    for (const Unknown& u : system.states) any_fixed = any_fixed || u.fixed;
    for (const Unknown& u : system.algebraic) any_fixed = any_fixed || u.fixed;
    if (!any_fixed) return true;  // the invariants alone: the reduction made them independent
  }
  StartPattern start = start_pattern(system);
  DulmageMendelsohn dm = dulmage_mendelsohn(start.pattern);
  if (dm.over_rows.empty()) return true;
  std::vector<std::string> conditions, states;
  SourceLocation where = model_location;
  for (int r : dm.over_rows) {  // rows in order: the initial equations last
    conditions.push_back(start.row_names[static_cast<size_t>(r)]);
    const SourceLocation& at = start.row_locations[static_cast<size_t>(r)];
    if (at.valid()) where = at;  // an initial equation where one is involved, else a constraint
  }
  for (int c : dm.over_cols) states.push_back(system.states[static_cast<size_t>(c)].name);
  const size_t surplus = conditions.size() - states.size();
  diags.warning(where, "the start is over-determined: the " +
                           count_of(conditions.size(), "condition", "conditions") + " " +
                           listed(conditions) + " constrain only the " +
                           count_of(states.size(), "state", "states") + " " + listed(states) +
                           ", so " + std::to_string(surplus) + " of them must follow" +
                           " from the others; the simulator checks that they agree at the start "
                           "and names the surplus ones (fix fewer starts or drop an initial "
                           "equation if they do not)");
  return true;
}

}  // namespace daec
