//===--- Nolint.cpp - Suppression comments in Python ----------------------===//

#include "tools/py/Nolint.h"
#include "tools/py/CheckFilter.h"
#include <cctype>

namespace streamsafe::py {

// Whether \p Text (a line) has the marker \p Marker in a comment that
// covers \p Check: bare, or with a list of globs that matches it.
static bool covers(llvm::StringRef Text, llvm::StringRef Marker,
                   llvm::StringRef Check) {
  size_t Hash = Text.find('#');
  if (Hash == llvm::StringRef::npos)
    return false;
  llvm::StringRef Comment = Text.substr(Hash);
  for (size_t At = Comment.find(Marker); At != llvm::StringRef::npos;
       At = Comment.find(Marker, At + 1)) {
    llvm::StringRef Rest = Comment.substr(At + Marker.size());
    // NOLINT must not be the start of NOLINTNEXTLINE.
    if (!Rest.empty() &&
        (std::isalnum(static_cast<unsigned char>(Rest[0])) || Rest[0] == '_'))
      continue;
    if (!Rest.starts_with("("))
      return true;
    llvm::StringRef List = Rest.drop_front().split(')').first;
    CheckFilter F;
    F.add(List);
    if (F.enabled(Check))
      return true;
  }
  return false;
}

bool suppressed(const SourceFile &F, unsigned Line, llvm::StringRef Check) {
  if (covers(F.line(Line), "NOLINT", Check))
    return true;
  return Line > 1 && covers(F.line(Line - 1), "NOLINTNEXTLINE", Check);
}

} // namespace streamsafe::py
