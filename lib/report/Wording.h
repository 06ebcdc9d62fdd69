//===--- Wording.h - Findings in words, for every front end -----*- C++ -*-===//
//
// Every word of every message: a typed finding (lib/ir/Findings.h) becomes a
// warning and its notes, each at a site. Shared by the clang-tidy checks and
// streamsafe-py so that both languages say the same thing the same way; a
// front end supplies only what is its own (the name of a called function,
// how its language sets a stream for a scope).
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_LIB_REPORT_WORDING_H
#define STREAMSAFE_LIB_REPORT_WORDING_H

#include "lib/ir/Findings.h"
#include <functional>
#include <string>
#include <vector>

namespace streamsafe::report {

/// One line of a diagnostic: the warning first, then its notes.
struct Line {
  SiteId At = NoSite;
  std::string Text;
  bool Note = false;
};

/// What the front end knows in its own language's terms.
struct Vocabulary {
  const Function *IR = nullptr;
  /// The name of the function called at a site ("item", "synchronize"),
  /// "" when there is none.
  std::function<std::string(SiteId)> CalleeAt;
  /// The source text at a site (a branch's condition), "" when not known.
  std::function<std::string(SiteId)> TextAt;
  /// The analysed function as the user writes its name.
  std::string FunctionName;
  /// How to set a stream for a scope ("a c10::cuda::CUDAStreamGuard").
  std::string ScopedStreamSetter = "a c10::cuda::CUDAStreamGuard";
  /// How to capture on a side stream.
  std::string SideStreamCapture = "getStreamFromPool() under a CUDAStreamGuard";
  /// How to let one call through a strict capture mode.
  std::string RelaxedCapture =
      "make the call under c10::cuda::CUDAStreamCaptureModeGuard "
      "guard{cudaStreamCaptureModeRelaxed}";
  /// The getter of the current stream, when the call is not known.
  std::string CurrentStreamGetter = "getCurrentCUDAStream";
};

/// "pool stream 's'", "the default stream", "the caller's current stream".
std::string describeStream(const Function &IR, StreamDesc D);
/// A tensor's (or event's) name, "<temporary>" for one without a name.
std::string tensorName(const Function &IR, VarId V);

/// The warning and notes of \p F, in order.
std::vector<Line> word(const Finding &F, const Vocabulary &V);

} // namespace streamsafe::report

#endif // STREAMSAFE_LIB_REPORT_WORDING_H
