#pragma once
#include "gpu/launch_helpers.cuh"
