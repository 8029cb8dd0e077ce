// The C++ op API, one header per op family.
#pragma once
#include "ops/conversion.h"
#include "ops/creation.h"
#include "ops/elementwise.h"
#include "ops/joining.h"
#include "ops/linalg.h"
#include "ops/reduction.h"
#include "ops/views.h"
// (families add their headers here, one line each)
#include "ops/indexing.h"
#include "ops/random.h"
