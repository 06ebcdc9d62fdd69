#pragma once
#include "gpu/copy_helpers.cuh"
