#include "myext/common.h"

int threads() { return myext::kThreads; }
