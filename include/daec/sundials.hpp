// The public name of the SUNDIALS callbacks (the product's spec, section 8): what
// `#include <daec/sundials.hpp>` gives a program written from it, whatever the installation's
// layout. The callbacks themselves are daec/adapters/sundials.hpp (docs/adapters.md): CVODE's
// right-hand side, dense and sparse Jacobian and projection, IDA's residual and iteration matrix.
#pragma once

#include <daec/adapters/sundials.hpp>
