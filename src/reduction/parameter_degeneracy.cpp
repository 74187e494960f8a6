// Parameters whose values make a matrix of the reduction lose rank.
#include "reduction/parameter_degeneracy.h"

#include "model/evaluation.h"
#include "reduction/symbolic.h"

namespace daec {

// The first row of `matrix` with an entry that holds `symbol`; SIZE_MAX if none does.
static size_t first_row_holding(const ExpressionMatrix& matrix, const GiNaC::ex& symbol) {
  for (size_t r = 0; r < matrix.rows(); ++r) {
    for (const MatrixEntry& entry : matrix.row(r)) {
      if (entry.value.has(symbol)) return r;
    }
  }
  return SIZE_MAX;
}

std::vector<RankLoweringParameter> rank_lowering_parameters(const ExpressionMatrix& matrix,
                                                            const std::vector<GiNaC::ex>& symbols,
                                                            const ModelContext& context, int rank) {
  std::vector<RankLoweringParameter> found;
  GiNaC::exmap values = context.parameter_values();
  for (const Parameter& p : context.parameters) {
    size_t row = first_row_holding(matrix, p.symbol);
    if (row == SIZE_MAX) continue;
    // The others keep their values; this one is drawn at random like the unknowns.
    GiNaC::exmap others = values;
    others.erase(p.symbol);
    RandomPoints points(others);
    std::vector<GiNaC::ex> free = symbols;
    free.push_back(p.symbol);
    int free_rank = generic_rank(matrix, free, points);
    if (free_rank > rank) found.push_back({&p, row, free_rank});
  }
  return found;
}

}  // namespace daec
