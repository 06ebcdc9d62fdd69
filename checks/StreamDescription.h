//===--- StreamDescription.h - Streams and tensors in words -----*- C++ -*-===//
//
// The words the checks use for the analysis's stream symbols and tensors.
// lib/ reports symbols and variables; only the checks write prose.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_CHECKS_STREAMDESCRIPTION_H
#define STREAMSAFE_CHECKS_STREAMDESCRIPTION_H

#include "lib/frontend/FunctionAnalysis.h"
#include <string>

namespace clang::tidy::streamsafe {

/// "pool stream 's'", "the default stream", "the caller's current stream".
std::string describeStream(const ::streamsafe::FunctionResult &R,
                           ::streamsafe::StreamDesc D);
/// A tensor's (or event's) name, "<temporary>" for one without a name.
std::string tensorName(const ::streamsafe::FunctionResult &R,
                       ::streamsafe::VarId V);

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_STREAMDESCRIPTION_H
