// Tests of the differentiation index read off a reduced system (reduction/differentiation_index.h)
// on small systems written by hand whose index is known: an ODE, index 1, 2 and 3 chains, the
// pendulum in its multiplier form, and a block where rows of lower order determine an unknown.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reduction/differentiation_index.h"
#include "structure/block_triangular.h"

namespace daec {
namespace {

using GiNaC::ex;
using GiNaC::realsymbol;

Unknown unknown(const std::string& name, UnknownOrigin origin = UnknownOrigin::Variable,
                const std::string& of = "") {
  Unknown u;
  u.name = name;
  u.symbol = realsymbol(name);
  u.origin = origin;
  u.derivative_of = of;
  return u;
}

// X' = F(X, Z, t), A Z = b, with A's rows given by hand (columns = the algebraic unknowns) and
// their values at a point.
struct System {
  std::vector<Unknown> states, algebraic;
  std::vector<StateEquation> differential;
  std::vector<Constraint> constraints;
  ExpressionMatrix A;
  GiNaC::exmap point;

  ex x(size_t i) const { return states[i].symbol; }
  ex z(size_t j) const { return algebraic[j].symbol; }
  void equation(size_t state, const ex& rhs) { differential.push_back({state, rhs, "", {}}); }
  // A row of A (its coefficients of the algebraic unknowns) and the order behind it.
  void row(const std::vector<ex>& coefficients, int order) {
    if (A.cols() == 0) A = ExpressionMatrix(algebraic.size());
    std::vector<MatrixEntry> entries;
    for (size_t c = 0; c < coefficients.size(); ++c)
      entries.push_back({static_cast<int>(c), coefficients[c]});
    A.add_row(entries);
    Constraint constraint;
    constraint.label = "g" + std::to_string(constraints.size());
    constraint.order = order;
    constraints.push_back(constraint);
  }

  std::vector<NumericRow> values() const {
    std::vector<NumericRow> rows;
    for (size_t r = 0; r < A.rows(); ++r) {
      NumericRow row;
      for (const MatrixEntry& e : A.row(r))
        row.push_back(
            {e.column, GiNaC::ex_to<GiNaC::numeric>(e.value.subs(point).evalf()).to_double()});
      rows.push_back(row);
    }
    return rows;
  }

  DifferentiationIndex index(bool with_values = true) const {
    BlockTriangularForm blocks;
    if (!A.empty()) blocks = block_triangular_form(A.pattern());
    return differentiation_index(states, differential, algebraic, constraints, A, blocks,
                                 with_values ? values() : std::vector<NumericRow>{});
  }
};

TEST(DifferentiationIndex, OdeHasIndexZero) {
  System s;
  s.states = {unknown("x")};
  s.equation(0, -s.x(0));
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 0);
  EXPECT_EQ(index.variable, "");
}

TEST(DifferentiationIndex, AlgebraicVariableSolvedDirectlyIsIndexOne) {
  // x' = -x + z, 0 = z - x^2: z from the equation as it stands, z' needs one differentiation.
  System s;
  s.states = {unknown("x")};
  s.algebraic = {unknown("z")};
  s.equation(0, -s.x(0) + s.z(0));
  s.row({1}, 0);
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 1);
  EXPECT_EQ(index.variable, "z");
}

TEST(DifferentiationIndex, ConstrainedStateIsIndexTwo) {
  // x' = z, 0 = x - sin t: differentiated once, 0 = z - cos t gives z; z' needs two.
  System s;
  s.states = {unknown("x")};
  s.algebraic = {unknown("z")};
  s.equation(0, s.z(0));
  s.row({1}, 1);
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 2);
  EXPECT_EQ(index.variable, "z");
}

TEST(DifferentiationIndex, ConstrainedPositionIsIndexThree) {
  // x1' = x2, x2' = z, 0 = x1 - sin t: twice differentiated, 0 = z + sin t.
  System s;
  s.states = {unknown("x1"), unknown("x2")};
  s.algebraic = {unknown("z")};
  s.equation(0, s.x(1));
  s.equation(1, s.z(0));
  s.row({1}, 2);
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 3);
  EXPECT_EQ(index.variable, "z");
}

TEST(DifferentiationIndex, PendulumIsIndexThree) {
  // x' = u, y' = v, u' = -lambda x, v' = -lambda y - g, 0 = x^2 + y^2 - L^2 twice
  // differentiated: 0 = u^2 + v^2 - lambda (x^2 + y^2) - g y, the row of lambda of order 2.
  System s;
  s.states = {unknown("x"), unknown("y"), unknown("u"), unknown("v")};
  s.algebraic = {unknown("lambda")};
  s.equation(0, s.x(2));
  s.equation(1, s.x(3));
  s.equation(2, -s.z(0) * s.x(0));
  s.equation(3, -s.z(0) * s.x(1) - 9.81);
  s.row({-(GiNaC::pow(s.x(0), 2) + GiNaC::pow(s.x(1), 2))}, 2);
  s.point = {{s.x(0), 0.6}, {s.x(1), -0.8}};
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 3);
  EXPECT_EQ(index.variable, "lambda");
  // The velocities' derivatives need lambda (order 2): the states alone give 2.
  s.algebraic[0].origin = UnknownOrigin::Dummy;
  s.algebraic[0].derivative_of = "u";
  EXPECT_EQ(s.index().index, 2);
  EXPECT_EQ(s.index().variable, "u");
}

TEST(DifferentiationIndex, DummyDerivativesCountThroughTheStates) {
  // The pendulum by dummy derivatives keeps y_dot as an algebraic unknown of order 1 next to
  // lambda of order 2; dummies add no differentiation of their own: only lambda gives 3.
  System s;
  s.states = {unknown("x"), unknown("y")};
  s.algebraic = {unknown("y_dot", UnknownOrigin::Dummy, "y"), unknown("lambda")};
  s.equation(0, s.z(0));
  s.equation(1, s.z(0));
  s.row({1, 0}, 1);
  s.row({0, 1}, 2);
  EXPECT_EQ(s.index().index, 3);
  EXPECT_EQ(s.index().variable, "lambda");
  s.algebraic[1].origin = UnknownOrigin::Dummy;  // without the multiplier: y_dot's order, 1
  s.algebraic[1].derivative_of = "x";
  EXPECT_EQ(s.index().index, 1);
  EXPECT_EQ(s.index().variable, "x");
}

TEST(DifferentiationIndex, LowerRowsOfABlockDetermineAnUnknown) {
  // One irreducible block of three unknowns: rows (1, 1, 0) and (1, 1, 1) of order 0, row
  // (0, 1, 1) of order 1. The difference of the first two gives z3 without differentiating, so
  // the multiplier z3 has index 1; z1 and z2 (dummies) need the row of order 1.
  System s;
  s.states = {unknown("p"), unknown("q")};
  s.algebraic = {unknown("z1", UnknownOrigin::Dummy, "p"), unknown("z2", UnknownOrigin::Dummy, "q"),
                 unknown("z3")};
  s.equation(0, s.x(1));
  s.equation(1, s.x(0));
  s.row({1, 1, 0}, 0);
  s.row({1, 1, 1}, 0);
  s.row({0, 1, 1}, 1);
  ASSERT_EQ(block_triangular_form(s.A.pattern()).block_count(), 1);
  DifferentiationIndex index = s.index();
  EXPECT_EQ(index.index, 1);
  EXPECT_EQ(index.variable, "z3");
  // Without values the block's highest order is taken for all of it: an upper bound.
  EXPECT_EQ(s.index(false).index, 2);
}

}  // namespace
}  // namespace daec
