// The public name of the Boost.Odeint adapter (the product's spec, section 8): what
// `#include <daec/odeint.hpp>` gives a program written from it, whatever the installation's
// layout. The adapter itself is daec/adapters/odeint.hpp (docs/adapters.md):
// daec::odeint::system<Model> and daec::odeint::stiff_system<Model>. Boost.Odeint comes with it,
// so that `boost::numeric::odeint::integrate(daec::odeint::system<Model>(model), ...)` needs no
// other include.
#pragma once

#include <boost/numeric/odeint.hpp>
#include <daec/adapters/odeint.hpp>
