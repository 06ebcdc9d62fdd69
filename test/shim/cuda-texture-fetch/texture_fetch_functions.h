// Stand-in for a header CUDA 13 no longer ships. The CUDA wrapper header of
// clang 21 and older includes it unconditionally; clang 22 includes it only
// for CUDA < 13. StreamSafe parses host code, which uses none of the texture
// fetch functions the header used to declare. cmake/LibTorchFlags.cmake puts
// this directory on the include path only when clang cannot parse CUDA code
// without it.
#pragma once
