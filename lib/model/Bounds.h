//===--- Bounds.h - How far the analysis follows code ------------*- C++
//-*-===//
//
// The bounds both front ends and the solver keep, so that one program is
// followed equally far in C++ and in Python.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_MODEL_BOUNDS_H
#define STREAMSAFE_LIB_MODEL_BOUNDS_H

namespace streamsafe::bounds {

/// Helper bodies a function runs in place at most (each lowered once,
/// however many call sites run it).
constexpr unsigned MaxInlinedCallees = 32;
/// Callables inside callables (helpers, lambdas, thread bodies) run at
/// most this deep; this also bounds recursion.
constexpr unsigned MaxBodyNesting = 4;
/// Functions a stream parameter is followed through, at most, from a call
/// to the CUDA work that runs on it (C++ default-stream-launch summaries).
constexpr unsigned MaxStreamForwarding = 8;

} // namespace streamsafe::bounds

#endif // STREAMSAFE_LIB_MODEL_BOUNDS_H
