//===--- StreamSections.cpp - Methods that open and close a section -------===//

#include "lib/lower/StreamSections.h"
#include "llvm/ADT/STLExtras.h"

namespace streamsafe::lower {

void StreamSections::add(const void *Method, SectionMethod M) {
  for (const std::string &S : M.Saves)
    Saved.insert(S);
  for (const std::string &S : M.Sets)
    if (!S.empty())
      SetFrom.insert(S);
  Methods[Method] = std::move(M);
}

bool StreamSections::opens(const void *Method) const {
  auto It = Methods.find(Method);
  if (It == Methods.end())
    return false;
  // It sets a stream other than a saved one (a side stream member, a
  // parameter, a pool stream) ...
  if (llvm::none_of(It->second.Sets, [&](const std::string &S) {
        return S.empty() || !Saved.contains(S);
      }))
    return false;
  // ... after saving the current one where the class sets it back.
  return llvm::any_of(It->second.Saves, [&](const std::string &S) {
    return SetFrom.contains(S);
  });
}

} // namespace streamsafe::lower
