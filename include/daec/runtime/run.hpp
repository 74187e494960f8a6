// The simulator's main in the compiled runtime (library daec_runtime, CMake target
// Daec::runtime): a simulator built through the package is the generated model and
//
//   #include <daec/runtime/model_adapter.hpp>
//   #include <daec/runtime/run.hpp>
//   int main(int argc, char** argv) {
//     return daec::runtime::run(argc, argv, daec::runtime::ModelAdapter<ns::Model>{});
//   }
//
// run() parses the command line, simulates a fresh copy of `model` (its defaults) and prints
// what daec/simulator/run.hpp documents; it returns the exit status (0, 1 failure, 2 bad usage).
#pragma once

#include <daec/runtime/system.hpp>

namespace daec::runtime {

int run(int argc, char** argv, const System& model);

}  // namespace daec::runtime
