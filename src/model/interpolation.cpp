// The conditional expression of a table (model/interpolation.h).
#include "model/interpolation.h"

#include "model/conditions.h"

namespace daec {

using GiNaC::ex;

namespace {

struct Table {
  const ex& v;
  const std::vector<ex>& xs;
  const std::vector<ex>& ys;
};

// Piece p of the table: p = 0 below xs[0], p = n from xs[n-1] on, and in between the segment
// from (xs[p-1], ys[p-1]) to (xs[p], ys[p]).
ex piece(const Table& table, size_t p) {
  if (p == 0) return table.ys.front();
  if (p == table.xs.size()) return table.ys.back();
  const ex& x0 = table.xs[p - 1];
  const ex& y0 = table.ys[p - 1];
  ex slope = (table.ys[p] - y0) / (table.xs[p] - x0);
  return y0 + slope * (table.v - x0);
}

// Pieces first..last: piece p holds where xs[p-1] <= v < xs[p], so the relation v < xs[mid-1]
// splits them into first..mid-1 and mid..last.
ex pieces(const Table& table, size_t first, size_t last) {
  if (first == last) return piece(table, first);
  size_t mid = first + (last - first + 1) / 2;
  return daec_if(make_relation(RelationKind::Less, table.v, table.xs[mid - 1]),
                 pieces(table, first, mid - 1), pieces(table, mid, last));
}

}  // namespace

ex make_interpolation(const ex& v, const std::vector<ex>& xs, const std::vector<ex>& ys) {
  return pieces(Table{v, xs, ys}, 0, xs.size());
}

}  // namespace daec
