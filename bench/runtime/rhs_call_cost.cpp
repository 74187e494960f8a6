// The cost of calling a generated model's rhs through the compiled runtime's interface
// (daec::runtime::System, a virtual call) against calling the Model directly, per evaluation, on
// the model this file is compiled with (MODEL_HEADER, MODEL_NAMESPACE). Run by
// bench/runtime/build_and_call_cost.sh; prints the nanoseconds per evaluation of rhs, directly and
// through the System, then the same for residual (what radau5-dae and ida call).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include MODEL_HEADER
#include <daec/runtime/model_adapter.hpp>

using Model = ::MODEL_NAMESPACE::Model;

namespace {

template <typename Call>
double nanoseconds_per_call(long calls, Call call) {
  const auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) call(i);
  const auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(end - start).count() / static_cast<double>(calls);
}

}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 100000;
  Model model{};
  daec::runtime::ModelAdapter<Model> adapter(model);
  // Through a pointer the compiler cannot see through, as the runtime library calls it.
  const daec::runtime::System* volatile opaque = &adapter;
  const daec::runtime::System& system = *opaque;
  std::vector<double> x(Model::num_states > 0 ? Model::num_states : 1);
  std::vector<double> xdot(x.size()), z(Model::num_algebraic > 0 ? Model::num_algebraic : 1);
  model.initial_state(x.data());
  std::vector<double> r(x.size() + z.size()), zero(x.size(), 0.0);
  double sink = 0.0;
  // Alternate the two several times and keep the fastest of each: the machine is shared.
  double rhs_direct = 1e300, rhs_virtual = 1e300, residual_direct = 1e300, residual_virtual = 1e300;
  for (int round = 0; round < 5; ++round) {
    rhs_direct =
        std::min(rhs_direct, nanoseconds_per_call(calls, [&](long i) {
                   model.rhs(1e-9 * static_cast<double>(i), x.data(), xdot.data(), z.data());
                   sink += xdot[0];
                 }));
    rhs_virtual =
        std::min(rhs_virtual, nanoseconds_per_call(calls, [&](long i) {
                   system.rhs(1e-9 * static_cast<double>(i), x.data(), xdot.data(), z.data());
                   sink += xdot[0];
                 }));
    residual_direct = std::min(residual_direct, nanoseconds_per_call(calls, [&](long i) {
                                 model.residual(1e-9 * static_cast<double>(i), x.data(),
                                                zero.data(), z.data(), r.data());
                                 sink += r[0];
                               }));
    residual_virtual = std::min(residual_virtual, nanoseconds_per_call(calls, [&](long i) {
                                  system.residual(1e-9 * static_cast<double>(i), x.data(),
                                                  zero.data(), z.data(), r.data());
                                  sink += r[0];
                                }));
  }
  std::printf("%.2f %.2f %.2f %.2f %d\n", rhs_direct, rhs_virtual, residual_direct,
              residual_virtual, sink == 12345.678);
  return 0;
}
