// CUDA 12 and older ship NVTX's v2 header as <nvToolsExt.h>; CUDA 13, which
// this machine has, ships only the header-only NVTX 3 (<nvtx3/...>), whose
// API is the same. Projects written for CUDA 12 (TransformerEngine's
// common/util/nvtx.h) include the old name (docs/realworld.md).
#pragma once
#include <nvtx3/nvToolsExt.h>
