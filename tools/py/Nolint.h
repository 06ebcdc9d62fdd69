//===--- Nolint.h - Suppression comments in Python --------------*- C++ -*-===//
//
// `# NOLINT`, `# NOLINT(streamsafe-foo, streamsafe-*)` on the warning's
// line, `# NOLINTNEXTLINE(...)` on the line before, as clang-tidy reads
// them in C++.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMSAFE_TOOLS_PY_NOLINT_H
#define STREAMSAFE_TOOLS_PY_NOLINT_H

#include "lib/python/Syntax.h"

namespace streamsafe::py {

/// True when a comment suppresses \p Check at \p Line of \p F.
bool suppressed(const SourceFile &F, unsigned Line, llvm::StringRef Check);

} // namespace streamsafe::py

#endif // STREAMSAFE_TOOLS_PY_NOLINT_H
