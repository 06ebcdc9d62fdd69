//===--- Verbatim.h - lib/report's text as a diagnostic format --*- C++ -*-===//

#ifndef STREAMSAFE_CHECKS_VERBATIM_H
#define STREAMSAFE_CHECKS_VERBATIM_H

#include <string>

namespace clang::tidy::streamsafe {

/// A diagnostic format that prints \p Text as it is (lib/report has
/// substituted every argument already).
inline std::string verbatim(const std::string &Text) {
  std::string Out;
  for (char C : Text) {
    if (C == '%')
      Out += '%';
    Out += C;
  }
  return Out;
}

} // namespace clang::tidy::streamsafe

#endif // STREAMSAFE_CHECKS_VERBATIM_H
