// The compiled runtime's entry point: the simulator of daec/simulator/run.hpp, compiled once
// into daec_runtime for every model (daec/runtime/run.hpp).
#include <daec/runtime/run.hpp>

#include <daec/simulator/run.hpp>

namespace daec::runtime {

int run(int argc, char** argv, const System& model) {
  return simulator::run(argc, argv, model);
}

}  // namespace daec::runtime
